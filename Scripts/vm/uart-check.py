#!/usr/bin/env python3
"""Host side of the VM hardware tests (Scripts/vm-test): the GPS at the other end of ttyS1.

Listens on SOCKET, starts `Scripts/vm/run --uart-connect SOCKET RUN_ARGS...`, waits for the
guest's uart-ready file, then streams NMEA (an RMC+GGA pair every 50 ms, as a receiver at
1 Hz would in bursts) until the guest writes its done marker or the VM exits. Afterwards it
compares everything the guest wrote with the exact expected bytes, written out here
independently of the Swift builders. Exit status: the VM's, or 1 if the bytes differ.
Usage: uart-check.py SOCKET OUTDIR -- RUN_ARGS...
"""
import os
import socket
import subprocess
import sys
import time

NMEA = (b"$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*6A\r\n"
        b"$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47\r\n")
DONE = b"WAYMARK-UART-DONE\r\n"
EXPECTED = (
    b"$PMTK251,115200*1F\r\n"                                   # baud switch (MediaTek)
    b"$PMTK161,0*28\r\n"                                        # pmtk-standby power down
    b"$PMTK000*32\r\n"                                          # pmtk-standby wake
    + bytes.fromhex("b562 0600 1400 01000000 d0080000 00c20100 0700 0300 0000 0000 c07e")  # UBX-CFG-PRT 115200
    + bytes.fromhex("b562 0241 1000 00000000 00000000 06000000 08000000 616b")           # UBX-RXM-PMREQ backup
    + b"\xff\xff\xff\xff"                                       # ubx-backup wake on RX
    + DONE)


def main() -> int:
    path, out = sys.argv[1], sys.argv[2]
    run_args = sys.argv[sys.argv.index("--") + 1:]
    if os.path.exists(path):
        os.unlink(path)
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(path)
    server.listen(1)
    here = os.path.dirname(os.path.abspath(__file__))
    run = subprocess.Popen([f"{here}/run", "--out", out, "--uart-connect", path] + run_args)
    server.settimeout(60)
    connection, _ = server.accept()
    connection.setblocking(False)
    while not os.path.exists(f"{out}/uart-ready") and run.poll() is None:
        time.sleep(0.02)
    received = b""
    while True:
        try:
            chunk = connection.recv(65536)
            if not chunk:
                break
            received += chunk
        except BlockingIOError:
            pass
        if DONE not in received and run.poll() is None:
            try:
                connection.send(NMEA)
            except (BlockingIOError, BrokenPipeError):
                pass
        if run.poll() is not None and DONE in received:
            break
        if run.poll() is not None:
            break
        time.sleep(0.05)
    rc = run.wait()
    connection.close()
    server.close()
    os.unlink(path)
    if received == EXPECTED:
        print(f"PASS uart-bytes ({len(received)} bytes from the guest, exactly as expected)")
        return rc
    print(f"FAIL uart-bytes: expected {EXPECTED!r}\n                 received {received!r}")
    return rc or 1


if __name__ == "__main__":
    sys.exit(main())
