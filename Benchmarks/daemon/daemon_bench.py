#!/usr/bin/env python3
"""waymarkd beside gpsd, fed the same NMEA bytes through pseudo-terminals in the same run.

Run by Scripts/bench-daemon, which builds waymarkd and installs gpsd; documented in
docs/benchmarks.md. Python standard library only. One process feeds the ptys and reads every
client socket, so one CLOCK_MONOTONIC times both ends of the latency.

Phases, each daemon alone on the machine except the idle one:
  rss      fresh daemon, 100 clients subscribed, 10 Hz for --rss-seconds: VmHWM (peak RSS)
  latency  one client, 10 Hz for --latency-seconds: last byte of an epoch written -> update read
  cpu      one client, --cpu-epochs epochs at --cpu-rate epochs/s: CPU per 1,000 sentences
  many     --many-clients clients, 10 Hz for --many-seconds: updates lost per client
  idle     both daemons at once, clients attached, data stopped: context switches per minute

With --waymark-protocol gpsd, waymarkd runs with --gpsd-port and its clients are gpsd's
(the same ?WATCH as gpspipe -w), so both daemons serve the same protocol from the same stream.
"""
import argparse
import datetime
import errno
import json
import os
import re
import select
import signal
import socket
import subprocess
import sys
import time
import tty

NS = 1_000_000_000
TENTHS_PER_DAY = 864_000
BASE_DATE = datetime.date(2024, 3, 1)
# The receiver's time in an update: Waymark's location "timestamp", gpsd's TPV "time".
TIME_RE = re.compile(rb'"time(?:stamp)?":"(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)(?:\.(\d+))?Z"')
MISSED_RE = re.compile(rb'"missed":(\d+)')


def now_ns():
    return time.monotonic_ns()


def log(message):
    print(f"== {message}", file=sys.stderr, flush=True)


# --- The NMEA stream ----------------------------------------------------------------------------

def load_moving_epochs(path, minimum_knots):
    """The corpus's epochs (RMC to ZDA) with a 3D fix moving faster than `minimum_knots`, as
    lists of field lists. Waymark pauses a still device's updates, so only moving epochs make
    an update each; the banner and antenna GNTXT lines are left out."""
    epochs, current = [], None
    with open(path, "rb") as corpus:
        for raw in corpus:
            line = raw.rstrip(b"\r\n")
            star = line.rfind(b"*")
            if not line.startswith(b"$") or star < 0:
                continue
            fields = line[1:star].split(b",")
            if fields[0] == b"GNRMC":
                current = []
                epochs.append(current)
            if current is None or fields[0] == b"GNTXT":
                continue
            current.append(fields)

    def moving(epoch):
        by_type = {fields[0]: fields for fields in epoch}
        rmc, gga, zda = by_type.get(b"GNRMC"), by_type.get(b"GNGGA"), by_type.get(b"GNZDA")
        if not (rmc and gga and zda and epoch[-1][0] == b"GNZDA"):
            return False
        try:
            return rmc[2] == b"A" and float(rmc[7]) >= minimum_knots and int(gga[6]) >= 1 and int(gga[7]) >= 6
        except ValueError:
            return False

    return [epoch for epoch in epochs if moving(epoch)]


def checksummed(body):
    checksum = 0
    for byte in body:
        checksum ^= byte
    return b"$%s*%02X\r\n" % (body, checksum)


class Stream:
    """The moving epochs replayed with fresh times 0.1 s apart (a 10 Hz receiver), so the same
    epochs can be fed at any rate and every update names its epoch. Keys are tenths of a
    second since BASE_DATE 00:00 UTC."""

    def __init__(self, epochs):
        self.epochs = epochs
        self.next_index = 0
        self.next_key = 10 * 3600 * 10  # 10:00:00.0

    def take(self):
        """The next epoch: (key, [sentence bytes])."""
        fields_list = self.epochs[self.next_index % len(self.epochs)]
        key = self.next_key
        self.next_index += 1
        self.next_key += 1
        day, tenths = divmod(key, TENTHS_PER_DAY)
        date = BASE_DATE + datetime.timedelta(days=day)
        seconds, tenth = divmod(tenths, 10)
        hhmmss = b"%02d%02d%02d.%d0" % (seconds // 3600, seconds // 60 % 60, seconds % 60, tenth)
        sentences = []
        for fields in fields_list:
            fields = list(fields)
            kind = fields[0][2:]
            if kind in (b"RMC", b"GGA", b"GST", b"ZDA"):
                fields[1] = hhmmss
            if kind == b"GLL":
                fields[5] = hhmmss
            if kind == b"RMC":
                fields[9] = b"%02d%02d%02d" % (date.day, date.month, date.year % 100)
            if kind == b"ZDA":
                fields[2:5] = [b"%02d" % date.day, b"%02d" % date.month, b"%04d" % date.year]
            sentences.append(checksummed(b",".join(fields)))
        return key, sentences


def key_of(match):
    year, month, day, hour, minute, second, fraction = match.groups()
    days = (datetime.date(int(year), int(month), int(day)) - BASE_DATE).days
    tenths = round(float(b"0." + fraction) * 10) if fraction else 0
    return days * TENTHS_PER_DAY + ((int(hour) * 60 + int(minute)) * 60 + int(second)) * 10 + tenths


# --- Clients ------------------------------------------------------------------------------------

class Client:
    """One connection; records the first arrival time of each epoch's update."""

    def __init__(self, loop):
        self.loop = loop
        self.sock = None
        self.buffer = b""
        self.arrivals = {}  # key -> monotonic ns of the read that brought it
        self.subscribed = False
        self.closed = False
        self.missed = 0
        self.other_updates = 0  # updates without a location (locationUnavailable)
        self.bytes = 0

    def open(self, family, address, greeting):
        for attempt in range(2000):
            sock = socket.socket(family, socket.SOCK_STREAM)
            try:
                sock.connect(address)
                break
            except (BlockingIOError, InterruptedError, ConnectionRefusedError) as error:
                sock.close()
                if isinstance(error, ConnectionRefusedError) and attempt > 50:
                    raise
                # A full accept backlog: let the daemon accept while we keep reading.
                self.loop.service(0.002)
        else:
            raise RuntimeError("could not connect")
        try:
            sock.sendall(greeting)
        except OSError:  # refused: the daemon closed the connection at once
            sock.close()
            self.closed = True
            return
        sock.setblocking(False)
        self.sock = sock
        self.loop.add(self)

    def readable(self, at):
        try:
            data = self.sock.recv(1 << 18)
        except (BlockingIOError, InterruptedError):
            return
        except ConnectionError:
            data = b""
        if not data:
            self.close()
            return
        self.bytes += len(data)
        data = self.buffer + data
        end = data.rfind(b"\n") + 1
        self.buffer = data[end:]
        if end:
            self.lines(data[:end], at)

    def close(self):
        if self.sock is not None and not self.closed:
            self.loop.remove(self)
            self.sock.close()
        self.closed = True


class WaymarkClient(Client):
    GREETING = b'{"id":1,"op":"hello","version":1}\n{"id":2,"op":"startLiveUpdates","configuration":"default"}\n'

    def connect(self, path):
        self.open(socket.AF_UNIX, path, self.GREETING)
        return self

    def lines(self, chunk, at):
        for line in chunk.split(b"\n"):
            if line.startswith(b'{"event":"update"'):
                match = TIME_RE.search(line)
                if match:
                    self.arrivals.setdefault(key_of(match), at)
                else:
                    self.other_updates += 1
                missed = MISSED_RE.search(line, len(line) - 20)
                if missed:
                    self.missed += int(missed.group(1))
            elif b'"op":"startLiveUpdates","result"' in line:
                self.subscribed = True


class GpsdClient(Client):
    GREETING = b'?WATCH={"enable":true,"json":true}\n'

    def connect(self, port):
        self.open(socket.AF_INET, ("127.0.0.1", port), self.GREETING)
        return self

    def lines(self, chunk, at):
        position = 0
        while True:
            start = chunk.find(b'{"class":"TPV"', position)
            if start < 0:
                break
            end = chunk.find(b"\n", start)
            match = TIME_RE.search(chunk, start, end)
            if match and b'"mode":1' not in chunk[start:end]:
                self.arrivals.setdefault(key_of(match), at)
            elif not match:
                self.other_updates += 1
            position = end
        if not self.subscribed and b'"class":"WATCH"' in chunk:
            self.subscribed = True


# --- The loop -----------------------------------------------------------------------------------

class Loop:
    """epoll over the pty masters (drained) and every client socket."""

    def __init__(self):
        self.epoll = select.epoll()
        self.handlers = {}

    def add(self, client):
        self.handlers[client.sock.fileno()] = client
        self.epoll.register(client.sock.fileno(), select.EPOLLIN)

    def remove(self, client):
        fd = client.sock.fileno()
        if self.handlers.pop(fd, None) is not None:
            self.epoll.unregister(fd)

    def add_drain(self, fd):
        self.handlers[fd] = None
        self.epoll.register(fd, select.EPOLLIN)

    def service(self, timeout):
        """Handles what is ready, waiting at most `timeout` seconds for the first event."""
        for fd, _ in self.epoll.poll(timeout, 4096):
            at = now_ns()
            handler = self.handlers.get(fd, False)
            if handler is None:
                try:
                    os.read(fd, 65536)  # whatever a daemon wrote to the receiver
                except OSError:
                    pass
            elif handler:
                handler.readable(at)

    def until(self, deadline_ns, done=lambda: False):
        while not done():
            left = deadline_ns - now_ns()
            if left <= 0:
                return False
            self.service(min(left / NS, 0.05))
        return True


class Pty:
    def __init__(self, loop):
        self.master, self.secondary = os.openpty()
        tty.setraw(self.secondary)
        self.path = os.ttyname(self.secondary)
        os.set_blocking(self.master, False)
        self.loop = loop
        self.sentences = 0
        loop.add_drain(self.master)

    def write(self, data):
        view = memoryview(data)
        while view:
            try:
                view = view[os.write(self.master, view):]
            except BlockingIOError:
                # The daemon has not read yet: read our sockets meanwhile, then retry.
                self.loop.service(0.001)

    def write_epoch(self, sentences):
        """One write per sentence, as a UART delivers them; returns when the last was written."""
        for sentence in sentences:
            self.write(sentence)
        self.sentences += len(sentences)
        return now_ns()


# --- Daemons ------------------------------------------------------------------------------------

def read_proc(pid, name):
    with open(f"/proc/{pid}/{name}") as file:
        return file.read()


def tasks(pid):
    return os.listdir(f"/proc/{pid}/task")


def cpu_ns(pid):
    """CPU time of every thread (schedstat: nanoseconds on a CPU)."""
    return sum(int(read_proc(pid, f"task/{task}/schedstat").split()[0]) for task in tasks(pid))


def cpu_ticks(pid):
    fields = read_proc(pid, "stat").rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime + stime


def context_switches(pid):
    total = 0
    for task in tasks(pid):
        for line in read_proc(pid, f"task/{task}/status").splitlines():
            if line.startswith(("voluntary_ctxt_switches", "nonvoluntary_ctxt_switches")):
                total += int(line.split()[1])
    return total


def status_kib(pid, field):
    for line in read_proc(pid, "status").splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise KeyError(field)


class Daemon:
    # The protocol waymarkd's clients speak: "waymark" (its socket) or "gpsd" (its --gpsd endpoint).
    WAYMARK_PROTOCOL = "waymark"

    def __init__(self, kind, label, loop, workdir, binary=None):
        self.kind = kind  # "waymark" or "gpsd"
        self.label = label
        self.loop = loop
        self.workdir = workdir
        self.binary = binary
        self.process = None
        self.pty = None

    def start(self, port):
        self.pty = Pty(self.loop)
        tag = f"{self.label}-{int(time.time() * 1000) % 10**8}"
        self.log_path = os.path.join(self.workdir, tag + ".log")
        if self.kind == "waymark":
            self.socket_path = os.path.join(self.workdir, tag + ".sock")
            command = [self.binary, "--socket", self.socket_path, "--device", self.pty.path]
            if self.WAYMARK_PROTOCOL == "gpsd":
                self.port = port
                command += ["--gpsd-port", str(port)]
            extra = os.environ.get("WAYMARK_BENCH_DAEMON_ARGS", "").split()
            command += extra
        else:
            self.port = port
            command = ["gpsd", "-N", "-n", "-b", "-S", str(port), "-F", os.path.join(self.workdir, tag + ".ctl"),
                       self.pty.path]
        self.command = command
        with open(self.log_path, "wb") as output:
            self.process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=output, stderr=output)
        record_pid(self.process.pid)
        deadline = now_ns() + 10 * NS
        while now_ns() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"{self.label} exited at start ({self.log_tail()})")
            if self.accepts():
                return self
            self.loop.service(0.05)
        raise RuntimeError(f"{self.label} did not start listening ({self.log_tail()})")

    def accepts(self):
        try:
            if self.kind == "waymark":
                with socket.socket(socket.AF_UNIX) as probe:
                    probe.connect(self.socket_path)
            if self.kind == "gpsd" or self.WAYMARK_PROTOCOL == "gpsd":
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    pass
            return True
        except OSError:
            return False

    def client(self):
        if self.kind == "waymark" and self.WAYMARK_PROTOCOL == "waymark":
            return WaymarkClient(self.loop).connect(self.socket_path)
        return GpsdClient(self.loop).connect(self.port)

    def log_tail(self):
        try:
            with open(self.log_path, "rb") as file:
                return file.read()[-400:].decode(errors="replace").strip() or "no output"
        except OSError:
            return "no log"

    @property
    def pid(self):
        return self.process.pid

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self.pty:
            for fd in (self.pty.master, self.pty.secondary):
                try:
                    os.close(fd)
                except OSError:
                    pass
            self.loop.handlers.pop(self.pty.master, None)
            self.pty = None


PID_FILE = None


def record_pid(pid):
    if PID_FILE:
        with open(PID_FILE, "a") as file:
            file.write(f"{pid}\n")


# --- Phases -------------------------------------------------------------------------------------

def subscribe(daemon, count):
    clients = []
    for _ in range(count):
        clients.append(daemon.client())
        daemon.loop.service(0)
    daemon.loop.until(now_ns() + 5 * NS, lambda: all(c.subscribed or c.closed for c in clients))
    return clients


def feed(daemon, stream, epochs, rate, clients, settle=2.0):
    """Writes `epochs` epochs at `rate` per second (0: as fast as the pty takes them); returns
    {key: write time of its last byte}. Waits up to `settle` s for the last update."""
    loop, pty = daemon.loop, daemon.pty
    written = {}
    period = NS / rate if rate else 0
    next_at = now_ns()
    for index in range(epochs):
        if period:
            loop.until(int(next_at))
            next_at += period
        key, sentences = stream.take()
        written[key] = pty.write_epoch(sentences)
        loop.service(0)
    last = key
    readers = [c for c in clients if c.subscribed and not c.closed]
    loop.until(now_ns() + int(settle * NS), lambda: all(last in c.arrivals or c.closed for c in readers))
    return written


def percentile(values, fraction):
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    index = min(len(ordered) - 1, max(0, int(round(fraction * (len(ordered) - 1)))))
    return ordered[index]


def phase_rss(daemon, stream, args):
    clients = subscribe(daemon, 100)
    feed(daemon, stream, 20, 10, clients)  # warm-up: cycle learnt, every client has an update
    written = feed(daemon, stream, int(args.rss_seconds * 10), 10, clients)
    result = {
        "clients_subscribed": sum(c.subscribed and not c.closed for c in clients),
        "vmhwm_kib": status_kib(daemon.pid, "VmHWM"),
        "vmrss_kib": status_kib(daemon.pid, "VmRSS"),
        "epochs": len(written),
        "updates_received_min": min((sum(k in c.arrivals for k in written) for c in clients), default=0),
    }
    for client in clients:
        client.close()
    return result


# Latency and CPU take turns between the daemons in blocks shorter than Waymark's silence
# timeout (3 s), so both see the same background load and neither reports its receiver lost.
BLOCK_SECONDS = 2.5


def interleaved(pairs, epochs, rate, measure):
    """Feeds each (daemon, stream, clients) `epochs` epochs at `rate`, in alternating blocks;
    `measure(daemon, written)` wraps each block. Returns {label: {key: write time}}."""
    per_block = max(1, int(BLOCK_SECONDS * rate))
    written = {daemon.label: {} for daemon, _, _ in pairs}
    done = {daemon.label: 0 for daemon, _, _ in pairs}
    turn = 0
    while any(done[d.label] < epochs for d, _, _ in pairs):
        order = pairs if turn % 2 == 0 else pairs[::-1]
        turn += 1
        for daemon, stream, clients in order:
            count = min(per_block, epochs - done[daemon.label])
            if count:
                written[daemon.label].update(measure(daemon, lambda: feed(daemon, stream, count, rate, clients)))
                done[daemon.label] += count
    return written


def phase_latency(daemons, streams, args):
    pairs = [(d, s, subscribe(d, args.clients)) for d, s in zip(daemons, streams)]
    for daemon, stream, clients in pairs:
        feed(daemon, stream, 20, 10, clients)  # warm-up: the cycle is learnt
    written = interleaved(pairs, int(args.latency_seconds * 10), 10, lambda daemon, run: run())
    result = {}
    for daemon, _, clients in pairs:
        latencies = [(client.arrivals[k] - t) / 1e6 for client in clients
                     for k, t in written[daemon.label].items() if k in client.arrivals]
        for client in clients:
            client.close()
        result[daemon.label] = {
            "epochs": len(written[daemon.label]) * len(clients),
            "received": len(latencies),
            "early": sum(value < 0 for value in latencies),
            "p50_ms": percentile(latencies, 0.5),
            "p99_ms": percentile(latencies, 0.99),
            "max_ms": max(latencies, default=float("nan")),
        }
    return result


def phase_cpu(daemons, streams, args):
    pairs = [(d, s, subscribe(d, args.clients)) for d, s in zip(daemons, streams)]
    for daemon, stream, clients in pairs:
        feed(daemon, stream, 20, 10, clients)  # warm-up
    totals = {d.label: {"cpu_ns": 0, "ticks": 0, "sentences": 0, "switches": 0} for d in daemons}

    def measure(daemon, run):
        total = totals[daemon.label]
        sentences, cpu, ticks = daemon.pty.sentences, cpu_ns(daemon.pid), cpu_ticks(daemon.pid)
        switches = context_switches(daemon.pid)
        written = run()
        total["switches"] += context_switches(daemon.pid) - switches
        total["cpu_ns"] += cpu_ns(daemon.pid) - cpu
        total["ticks"] += cpu_ticks(daemon.pid) - ticks
        total["sentences"] += daemon.pty.sentences - sentences
        return written

    written = interleaved(pairs, args.cpu_epochs, args.cpu_rate, measure)
    clock_ticks = os.sysconf("SC_CLK_TCK")
    result = {}
    for daemon, _, clients in pairs:
        total = totals[daemon.label]
        result[daemon.label] = {
            "sentences": total["sentences"],
            "epochs": len(written[daemon.label]) * len(clients),
            "updates": sum(k in client.arrivals for client in clients for k in written[daemon.label]),
            "cpu_ms": total["cpu_ns"] / 1e6,
            "cpu_ms_ticks": total["ticks"] * 1000 / clock_ticks,
            "cpu_ms_per_1000": total["cpu_ns"] / 1e6 / total["sentences"] * 1000,
            "wakeups_per_1000": total["switches"] / total["sentences"] * 1000,
        }
        for client in clients:
            client.close()
    return result


def phase_many(daemon, stream, args):
    clients = subscribe(daemon, args.many_clients)
    subscribed = [c for c in clients if c.subscribed and not c.closed]
    feed(daemon, stream, 20, 10, clients)  # warm-up
    for client in subscribed:
        client.missed = 0
    driver_before = time.process_time()
    written = feed(daemon, stream, int(args.many_seconds * 10), 10, clients, settle=3.0)
    driver_cpu = time.process_time() - driver_before
    alive = [c for c in subscribed if not c.closed]
    lost = [sum(k not in c.arrivals for k in written) for c in alive]
    result = {
        "clients": len(clients),
        "subscribed": len(subscribed),
        "dropped_later": len(subscribed) - len(alive),
        "epochs": len(written),
        "clients_complete": sum(n == 0 for n in lost),
        "updates_lost": sum(lost),
        "missed_reported": sum(c.missed for c in alive),
        "driver_cpu_share": driver_cpu / (len(written) / 10),
    }
    for client in clients:
        client.close()
    return result


def phase_idle(daemons, streams, args):
    """Both daemons at once: clients attached, a few epochs, then silence."""
    clients = {d.label: subscribe(d, args.idle_clients) for d in daemons}
    for _ in range(20):
        for daemon, stream in zip(daemons, streams):
            key, sentences = stream.take()
            daemon.pty.write_epoch(sentences)
        daemons[0].loop.until(now_ns() + NS // 10)
    # Waymark says locationUnavailable once the stream has been silent for its timeout (3 s).
    daemons[0].loop.until(now_ns() + int(args.idle_settle * NS))
    before = {d.label: (context_switches(d.pid), cpu_ns(d.pid)) for d in daemons}
    started = now_ns()
    daemons[0].loop.until(started + int(args.idle_seconds * NS))
    minutes = (now_ns() - started) / NS / 60
    result = {}
    for daemon in daemons:
        switches, cpu = context_switches(daemon.pid) - before[daemon.label][0], cpu_ns(daemon.pid) - before[daemon.label][1]
        attached = sum(not c.closed for c in clients[daemon.label])
        result[daemon.label] = {"clients": attached, "seconds": minutes * 60,
                                "wakeups_per_minute": switches / minutes, "cpu_us": cpu / 1e3}
    for group in clients.values():
        for client in group:
            client.close()
    return result


def empty_program_hwm(path):
    process = subprocess.Popen([path])
    record_pid(process.pid)
    try:
        time.sleep(0.5)
        return status_kib(process.pid, "VmHWM")
    finally:
        process.kill()
        process.wait()


# --- Report -------------------------------------------------------------------------------------

def ratio(a, b):
    return f"{a / b:.2f}" if b else "-"


def report(results, args):
    wm, gp = results["waymark"], results["gpsd"]
    static = results.get("waymark-static")
    lines = []
    out = lines.append
    out(f"waymarkd beside gpsd {results['gpsd_version']}, same NMEA through ptys, same run")
    if args.waymark_protocol == "gpsd":
        out("waymarkd's clients are gpsd clients (?WATCH json) of its --gpsd endpoint, as gpsd's are")
    out(f"machine: {results['machine']['cpu']}, {results['machine']['cores']} cores; "
        f"load average at start {results['machine']['load']}")
    if float(results["machine"]["load"].split()[0]) > results["machine"]["cores"] / 2:
        out("warning: the machine was busy at the start; timings (CPU, latency) are not reliable")
    if results.get("revision"):
        out(f"waymarkd built from {results['revision']}")
    out("")
    head = f"{'measure':<44} {'waymarkd':>12} {'gpsd':>12} {'ratio':>7}  target"
    out(head)
    out("-" * len(head))

    def row(name, w, g, fmt, target):
        out(f"{name:<44} {format(w, fmt):>12} {format(g, fmt):>12} {ratio(w, g):>7}  {target}")

    row(f"CPU ms per 1,000 sentences ({wm['cpu']['sentences']:,} at {args.cpu_rate:g} ep/s, {args.clients} cl.)",
        wm["cpu"]["cpu_ms_per_1000"], gp["cpu"]["cpu_ms_per_1000"], ".2f", "<= 0.5x gpsd")
    row("  context switches per 1,000 sentences", wm["cpu"]["wakeups_per_1000"], gp["cpu"]["wakeups_per_1000"],
        ".0f", "")
    row("  CPU us per context switch", wm["cpu"]["cpu_ms"] * 1000 / max(1, wm["cpu"]["wakeups_per_1000"] * wm["cpu"]["sentences"] / 1000),
        gp["cpu"]["cpu_ms"] * 1000 / max(1, gp["cpu"]["wakeups_per_1000"] * gp["cpu"]["sentences"] / 1000), ".1f", "")
    row(f"latency p50, ms (10 Hz, {args.clients} client{'s' if args.clients > 1 else ''})", wm["latency"]["p50_ms"], gp["latency"]["p50_ms"], ".3f", "")
    row("latency p99, ms", wm["latency"]["p99_ms"], gp["latency"]["p99_ms"], ".3f", "<= gpsd")
    row("latency max, ms", wm["latency"]["max_ms"], gp["latency"]["max_ms"], ".3f", "")
    row("peak RSS (VmHWM), MiB, 100 clients, 10 Hz", wm["rss"]["vmhwm_kib"] / 1024, gp["rss"]["vmhwm_kib"] / 1024,
        ".2f", "<= 8 MiB")
    if static:
        row("  waymarkd fully static (stdlib + glibc)", static["rss"]["vmhwm_kib"] / 1024,
            gp["rss"]["vmhwm_kib"] / 1024, ".2f", "")
    if "empty_static_kib" in results:
        out(f"{'  empty Swift program, static stdlib':<44} {results['empty_static_kib'] / 1024:>12.2f}")
    row(f"idle wakeups per minute ({args.idle_clients} clients)", results["idle"]["waymark"]["wakeups_per_minute"],
        results["idle"]["gpsd"]["wakeups_per_minute"], ".1f", "0")
    out("")
    out(f"{'clients at 10 Hz for ' + format(args.many_seconds, 'g') + ' s':<44} {'waymarkd':>12} {'gpsd':>12}")
    for name, key in [("connected", "clients"), ("subscribed", "subscribed"),
                      ("disconnected by the daemon later", "dropped_later"),
                      ("with every update", "clients_complete"), ("updates lost (subscribed clients)", "updates_lost"),
                      ("'missed' reported", "missed_reported")]:
        out(f"  {name:<42} {wm['many'][key]:>12} {gp['many'][key]:>12}")
    out(f"  {'epochs fed':<42} {wm['many']['epochs']:>12} {gp['many']['epochs']:>12}")
    out("")
    out(f"latency samples: waymarkd {wm['latency']['received']}/{wm['latency']['epochs']}, "
        f"gpsd {gp['latency']['received']}/{gp['latency']['epochs']} (before the write ended: "
        f"{wm['latency']['early']} / {gp['latency']['early']})")
    out(f"CPU cross-check (utime+stime ticks): waymarkd {wm['cpu']['cpu_ms_ticks']:.0f} ms, "
        f"gpsd {gp['cpu']['cpu_ms_ticks']:.0f} ms; schedstat {wm['cpu']['cpu_ms']:.1f} / {gp['cpu']['cpu_ms']:.1f} ms; "
        f"updates {wm['cpu']['updates']}/{wm['cpu']['epochs']} and {gp['cpu']['updates']}/{gp['cpu']['epochs']}")
    out(f"RSS at the end (VmRSS), MiB: waymarkd {wm['rss']['vmrss_kib'] / 1024:.2f}"
        + (f", static {static['rss']['vmrss_kib'] / 1024:.2f}" if static else "")
        + f", gpsd {gp['rss']['vmrss_kib'] / 1024:.2f}; clients subscribed: waymarkd {wm['rss']['clients_subscribed']}, "
        f"gpsd {gp['rss']['clients_subscribed']}")
    out(f"driver CPU share during the many-client phase: waymarkd {wm['many']['driver_cpu_share']:.0%}, "
        f"gpsd {gp['many']['driver_cpu_share']:.0%} of one core")
    return "\n".join(lines)


def main():
    global PID_FILE
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--waymarkd", required=True)
    parser.add_argument("--waymarkd-static")
    parser.add_argument("--empty-static", help="an empty Swift program built with the static stdlib")
    parser.add_argument("--corpus", required=True)
    parser.add_argument("--workdir", required=True)
    parser.add_argument("--json", required=True)
    parser.add_argument("--port", type=int, default=29470)
    parser.add_argument("--cpu-epochs", type=int, default=2000)
    parser.add_argument("--cpu-rate", type=float, default=200)
    parser.add_argument("--latency-seconds", type=float, default=120)
    parser.add_argument("--rss-seconds", type=float, default=10)
    parser.add_argument("--many-clients", type=int, default=1000)
    parser.add_argument("--many-seconds", type=float, default=30)
    parser.add_argument("--idle-seconds", type=float, default=60)
    parser.add_argument("--idle-settle", type=float, default=5)
    parser.add_argument("--idle-clients", type=int, default=10)
    parser.add_argument("--minimum-knots", type=float, default=4.0)
    parser.add_argument("--clients", type=int, default=1, help="clients per daemon in the latency and CPU phases")
    parser.add_argument("--waymark-protocol", choices=["waymark", "gpsd"], default="waymark",
                        help="what waymarkd's clients speak: its own protocol, or gpsd's on its --gpsd endpoint")
    args = parser.parse_args()
    Daemon.WAYMARK_PROTOCOL = args.waymark_protocol

    os.makedirs(args.workdir, exist_ok=True)
    PID_FILE = os.path.join(args.workdir, "pids")
    soft, hard = __import__("resource").getrlimit(__import__("resource").RLIMIT_NOFILE)
    needed = args.many_clients * 2 + 256
    if soft < needed:
        __import__("resource").setrlimit(__import__("resource").RLIMIT_NOFILE, (min(hard, max(needed, soft)), hard))

    epochs = load_moving_epochs(args.corpus, args.minimum_knots)
    if len(epochs) < 100:
        sys.exit(f"daemon_bench: only {len(epochs)} moving epochs in {args.corpus}")
    loop = Loop()
    daemons = []

    def terminate(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, terminate)
    results = {
        "machine": {"cpu": next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?"),
                    "cores": os.cpu_count(), "load": " ".join(open("/proc/loadavg").read().split()[:3])},
        "gpsd_version": subprocess.run(["gpsd", "-V"], capture_output=True, text=True).stdout.split()[1],
        "parameters": vars(args),
        "revision": os.environ.get("WAYMARK_BENCH_REVISION", ""),
        "sentences_per_epoch": sum(len(e) for e in epochs) / len(epochs),
    }
    try:
        if args.empty_static:
            results["empty_static_kib"] = empty_program_hwm(args.empty_static)
        # Both daemons run from here on; one is fed at a time (the other sleeps: no input).
        pair = [Daemon("waymark", "waymark", loop, args.workdir, args.waymarkd).start(args.port),
                Daemon("gpsd", "gpsd", loop, args.workdir).start(args.port + 1)]
        daemons += pair
        streams = [Stream(epochs), Stream(epochs)]
        for daemon in pair:
            results[daemon.label] = {}

        def check(phase):
            for daemon in pair:
                if daemon.process.poll() is not None:
                    raise RuntimeError(f"{daemon.label} exited during {phase} ({daemon.log_tail()})")

        for daemon, stream in zip(pair, streams):
            log(f"{daemon.label}: peak RSS with 100 clients")
            results[daemon.label]["rss"] = phase_rss(daemon, stream, args)
        check("rss")
        log("both, taking turns: latency at 10 Hz")
        for label, value in phase_latency(pair, streams, args).items():
            results[label]["latency"] = value
        check("latency")
        log(f"both, taking turns: CPU at {args.cpu_rate:g} epochs/s")
        for label, value in phase_cpu(pair, streams, args).items():
            results[label]["cpu"] = value
        check("cpu")
        for daemon, stream in zip(pair, streams):
            log(f"{daemon.label}: {args.many_clients} clients at 10 Hz")
            results[daemon.label]["many"] = phase_many(daemon, stream, args)
        check("many")
        for daemon in pair:
            daemon.stop()
        if args.waymarkd_static:
            log("waymark-static: peak RSS with 100 clients")
            static = Daemon("waymark", "waymark-static", loop, args.workdir, args.waymarkd_static).start(args.port + 2)
            daemons.append(static)
            results["waymark-static"] = {"rss": phase_rss(static, Stream(epochs), args)}
            static.stop()
        port = args.port + 3
        log(f"both: idle for {args.idle_seconds:g} s")
        pair = [Daemon("waymark", "waymark", loop, args.workdir, args.waymarkd).start(port),
                Daemon("gpsd", "gpsd", loop, args.workdir).start(port + 1)]
        daemons += pair
        results["idle"] = phase_idle(pair, [Stream(epochs), Stream(epochs)], args)
    finally:
        for daemon in daemons:
            daemon.stop()

    with open(args.json, "w") as file:
        json.dump(results, file, indent=1)
    print(report(results, args))
    print(f"\nsummary: {args.json}; daemon logs: {args.workdir}")


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        sys.exit(130)
