#!/usr/bin/env python3
"""Host side of a VM run that needs a receiver on ttyS1 and checks nothing on it: listens on
SOCKET, starts `Scripts/vm/run --out OUTDIR --uart-connect SOCKET RUN_ARGS...`, and once the
guest's uart-ready file is there sends a still receiver's epochs (uart-check.py's, 1 Hz receiver
time, one every 200 ms) until the VM exits, discarding what the guest writes. Exit status: the
VM's. Usage: gps-feed.py SOCKET OUTDIR -- RUN_ARGS...
"""
import importlib.util
import os
import sys
import time

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("uart_check", f"{here}/uart-check.py")
uart_check = importlib.util.module_from_spec(spec)
spec.loader.exec_module(uart_check)


def main() -> int:
    path, out, run, server, connection = uart_check.boot_with_uart()
    number = 0
    while run.poll() is None:
        time.sleep(0.2)
        try:
            while connection.recv(65536):
                pass
        except BlockingIOError:
            pass
        except OSError:
            break  # qemu closed the UART: the guest powered off
        if not os.path.exists(f"{out}/uart-ready"):
            continue
        number += 1
        try:
            connection.send(uart_check.epoch(number, moving=False))
        except BlockingIOError:
            pass
        except OSError:
            break
    rc = run.wait()
    connection.close()
    server.close()
    os.unlink(path)
    return rc


if __name__ == "__main__":
    sys.exit(main())
