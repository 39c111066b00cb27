#!/usr/bin/env python3
"""Host half of the smoke test's ttyS1 check (also a template for tests).

Connects to the unix socket qemu serves ttyS1 on (Scripts/vm/run
--uart-socket PATH), waits for the guest's HELLO-FROM-GUEST block, answers
with HELLO-FROM-HOST + 200 lines + HOST-DONE, and prints PASS/FAIL for the
guest->host direction. Usage: uart-peer.py SOCKET_PATH [TIMEOUT_S]
"""
import socket
import sys
import time


def connect(path: str, deadline: float) -> socket.socket:
    # qemu creates the socket a moment after it starts; retry until then.
    while True:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            s.connect(path)
            return s
        except (FileNotFoundError, ConnectionRefusedError):
            s.close()
            if time.monotonic() > deadline:
                raise
            time.sleep(0.02)


def main() -> int:
    path = sys.argv[1]
    deadline = time.monotonic() + (float(sys.argv[2]) if len(sys.argv) > 2 else 120)
    try:
        sock = connect(path, deadline)
    except OSError as e:
        print(f"FAIL uart-guest-to-host: cannot connect to {path}: {e}")
        return 1
    buf = b""
    while b"GUEST-DONE" not in buf:
        sock.settimeout(max(0.1, deadline - time.monotonic()))
        try:
            chunk = sock.recv(65536)
        except socket.timeout:
            break
        if not chunk:
            break
        buf += chunk
    lines = buf.count(b"guest line")
    if b"HELLO-FROM-GUEST" in buf and b"GUEST-DONE" in buf and lines == 200:
        print(f"PASS uart-guest-to-host (200 lines, {len(buf)} bytes on host socket)")
        ok = True
    else:
        print(f"FAIL uart-guest-to-host: got {lines}/200 lines, {len(buf)} bytes: {buf[:120]!r}")
        ok = False
    reply = b"HELLO-FROM-HOST\n" + b"".join(
        b"$GPTXT,01,01,02,host line %03d*00\r\n" % i for i in range(1, 201)
    ) + b"HOST-DONE\n"
    try:
        sock.sendall(reply)
        # Keep the connection open until the VM goes away (EOF), so qemu
        # does not drop bytes still queued for the guest.
        sock.settimeout(max(0.1, deadline - time.monotonic()))
        while sock.recv(65536):
            pass
    except OSError:
        pass
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
