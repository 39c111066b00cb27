#!/usr/bin/env python3
"""Host side of the VM hardware tests (Scripts/vm-test): the GPS at the other end of ttyS1.

Listens on SOCKET, starts `Scripts/vm/run --uart-connect SOCKET RUN_ARGS...`, waits for the
guest's uart-ready file, then plays the receiver in two phases:

1. Drivers (HardwareVMTests' UART suite): an RMC+GGA pair every 50 ms until the guest writes
   its done marker. What the guest wrote up to the marker must be exactly EXPECTED.
2. Daemon (DaemonVMTests, the real waymarkd): a 1 Hz receiver's epochs, one every 200 ms with
   the receiver's time advancing a second each, still or moving, or nothing, as the guest asks
   in OUTDIR/gps (`still`, `moving`, `silent`). The guest opens each section of what the
   daemon writes with a marker `WAYMARK-DAEMON-<NAME>`; each section must be exactly
   SECTIONS[NAME] (the vendor bytes for that board file's power strategy).

The expected bytes are written out here independently of the Swift builders. Exit status:
the VM's, or 1 if the bytes differ. Usage: uart-check.py SOCKET OUTDIR -- RUN_ARGS...
"""
import os
import re
import socket
import subprocess
import sys
import time

NMEA = (b"$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*6A\r\n"
        b"$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47\r\n")
DONE = b"WAYMARK-UART-DONE\r\n"
PMTK251_115200 = b"$PMTK251,115200*1F\r\n"
PMTK_STANDBY = b"$PMTK161,0*28\r\n"
PMTK_WAKE = b"$PMTK000*32\r\n"
UBX_CFG_PRT_115200 = bytes.fromhex("b562 0600 1400 01000000 d0080000 00c20100 0700 0300 0000 0000 c07e")
UBX_PMREQ_BACKUP_RX = bytes.fromhex("b562 0241 1000 00000000 00000000 06000000 08000000 616b")
UBX_WAKE = b"\xff\xff\xff\xff"
PMTK220_200 = b"$PMTK220,200*2C\r\n"
PMTK220_1000 = b"$PMTK220,1000*1F\r\n"
UBX_CFG_RATE_200 = bytes.fromhex("b562 0608 0600 c800 0100 0100 de6a")
UBX_CFG_RATE_1000 = bytes.fromhex("b562 0608 0600 e803 0100 0100 0139")
PMTK869_EASY_ON = b"$PMTK869,1,1*35\r\n"
# UBX-CFG-NAVX5 (version 0): mask1 bit 14 (aop), aopCfg useAOP: AssistNow Autonomous on.
UBX_CFG_NAVX5_AOP = bytes.fromhex(
    "b562 0623 2800 0000 0040 00000000 0000 00 00 00 00 00 0000 00 0000 00 00 0000 0000 00 01 0000 0000"
    " 00000000 000000 00 92c6")
EXPECTED = (
    PMTK251_115200                  # baud switch (MediaTek)
    + PMTK_STANDBY + PMTK_WAKE      # pmtk-standby power down, wake
    + UBX_CFG_PRT_115200            # baud switch (u-blox)
    + UBX_PMREQ_BACKUP_RX           # ubx-backup power down
    + UBX_WAKE                      # ubx-backup wake on RX
    + DONE)
# What waymarkd writes per board file: woken when the port opens, found at 9600, switched to
# 115200, powered down (nobody needs fixes), woken for a location request, told to predict
# orbits and to measure at 5 Hz once the receiver talks and at 1 Hz again at its first fix,
# powered down. The gpio-enable board powers its u-blox up at the start and again on motion:
# orbit prediction is turned on after each power-up (its 9600-baud link gets no 5 Hz).
SECTIONS = {
    "BOARD": UBX_CFG_NAVX5_AOP + UBX_CFG_NAVX5_AOP,  # qemu-vm.toml: gpio-enable, 9600 baud
    "PMTK": (PMTK_WAKE + PMTK251_115200 + PMTK_STANDBY
             + PMTK_WAKE + PMTK869_EASY_ON + PMTK220_200 + PMTK220_1000 + PMTK_STANDBY),
    "UBX": (UBX_WAKE + UBX_CFG_PRT_115200 + UBX_PMREQ_BACKUP_RX
            + UBX_WAKE + UBX_CFG_NAVX5_AOP + UBX_CFG_RATE_200 + UBX_CFG_RATE_1000 + UBX_PMREQ_BACKUP_RX),
    "END": b"",
}
MARKER = re.compile(rb"WAYMARK-DAEMON-([A-Z]+)\r\n")


def sentence(body: str) -> bytes:
    checksum = 0
    for byte in body.encode():
        checksum ^= byte
    return f"${body}*{checksum:02X}\r\n".encode()


def epoch(number: int, moving: bool) -> bytes:
    """One epoch of a receiver at 1 Hz: 12:00:00 + number seconds; moving north at ~5 m/s."""
    seconds = 12 * 3600 + number
    time_of_day = f"{seconds // 3600 % 24:02d}{seconds // 60 % 60:02d}{seconds % 60:02d}.00"
    minutes = 7.038 + (number * 0.003 if moving else 0)
    latitude = f"48{minutes:06.3f}"
    speed = "10.0" if moving else "0.0"
    return (sentence(f"GPRMC,{time_of_day},A,{latitude},N,01131.000,E,{speed},0.0,010624,,,A")
            + sentence(f"GPGGA,{time_of_day},{latitude},N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"))


def gps_mode(out: str, previous: str) -> str:
    try:
        with open(f"{out}/gps") as file:
            mode = file.read().strip()
    except OSError:
        return previous
    return mode or previous


def check_daemon(received: bytes) -> list[str]:
    """Splits the daemon phase at the guest's markers and compares every section."""
    problems = []
    parts = MARKER.split(received)
    if parts[0]:
        problems.append(f"bytes before the first section: {parts[0]!r}")
    seen = {}
    for index in range(1, len(parts), 2):
        seen[parts[index].decode()] = parts[index + 1]
    for name, expected in SECTIONS.items():
        if name not in seen:
            problems.append(f"section {name} missing (did DaemonVMTests run?)")
        elif seen[name] != expected:
            problems.append(f"section {name}: expected {expected!r}\n                 received {seen[name]!r}")
    problems += [f"unexpected section {name}" for name in seen if name not in SECTIONS]
    return problems


def boot_with_uart():
    """Boots the VM (`run --out OUT --uart-connect PATH ARGS…`, from `PATH OUT -- ARGS…` on the
    command line) with its GPS UART connected to a socket at PATH; returns the path, the out
    folder, the VM process, the listening socket and the UART's nonblocking connection."""
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
    return path, out, run, server, connection


def main() -> int:
    path, out, run, server, connection = boot_with_uart()
    while not os.path.exists(f"{out}/uart-ready") and run.poll() is None:
        time.sleep(0.02)
    received = b""
    mode, number, last_epoch = "still", 0, 0.0
    while run.poll() is None:
        try:
            chunk = connection.recv(65536)
            if not chunk:
                break
            received += chunk
        except BlockingIOError:
            pass
        except ConnectionResetError:
            break  # qemu closed the UART with our last epoch unread: the guest powered off
        try:
            if DONE not in received:
                connection.send(NMEA)
            elif time.monotonic() - last_epoch >= 0.2:
                last_epoch = time.monotonic()
                mode = gps_mode(out, mode)
                if mode != "silent":
                    number += 1
                    connection.send(epoch(number, mode == "moving"))
        except BlockingIOError:
            pass
        except (BrokenPipeError, ConnectionResetError):
            break  # the same: qemu is gone or going; run.wait() below says how it ended
        time.sleep(0.05)
    rc = run.wait()
    connection.setblocking(True)
    connection.settimeout(1)
    try:
        while chunk := connection.recv(65536):
            received += chunk
    except OSError:
        pass
    connection.close()
    server.close()
    os.unlink(path)
    drivers, marker, daemon = received.partition(DONE)
    failed = False
    if drivers + marker == EXPECTED:
        print(f"PASS uart-bytes (drivers: {len(drivers + marker)} bytes from the guest, exactly as expected)")
    else:
        print(f"FAIL uart-bytes: expected {EXPECTED!r}\n                 received {drivers + marker!r}")
        failed = True
    problems = check_daemon(daemon)
    if problems:
        print("FAIL daemon-uart-bytes: " + "\n  ".join(problems))
        failed = True
    else:
        print(f"PASS daemon-uart-bytes (waymarkd: {len(daemon)} bytes in {len(SECTIONS)} sections, exactly as expected)")
    return rc or (1 if failed else 0)


if __name__ == "__main__":
    sys.exit(main())
