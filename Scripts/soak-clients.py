#!/usr/bin/env python3
"""The soak's clients (Scripts/soak): readers that stay and must lose nothing, churners that
connect, subscribe, request and vanish, and a sampler of the daemon's RSS, descriptors, timers
and clients. Standard library only. Prints one line per sample and a verdict; exits 1 when
something grew or a reader lost updates."""
import argparse
import asyncio
import json
import os
import random
import sys
import time


async def open_client(socket_path):
    reader, writer = await asyncio.open_unix_connection(socket_path, limit=1 << 20)
    writer.write(b'{"id":0,"op":"hello","version":1}\n')
    await writer.drain()
    await reader.readline()
    return reader, writer


async def request(reader, writer, message):
    """Sends a request and returns its reply, passing over events."""
    writer.write((json.dumps(message, separators=(",", ":")) + "\n").encode())
    await writer.drain()
    while True:
        line = await reader.readline()
        if not line:
            raise ConnectionError("the daemon closed the connection")
        reply = json.loads(line)
        if reply.get("id") == message["id"]:
            return reply


class Reader:
    """A client that stays connected with a subscription and reads everything."""

    def __init__(self):
        self.updates = 0
        self.missed = 0
        self.stationary = 0
        self.error = None

    async def run(self, socket_path, configuration, stop):
        try:
            reader, writer = await open_client(socket_path)
            await request(reader, writer, {"id": 1, "op": "startLiveUpdates", "configuration": configuration})
            while not stop.is_set():
                try:
                    line = await asyncio.wait_for(reader.readline(), 1)
                except asyncio.TimeoutError:
                    continue
                if not line:
                    raise ConnectionError("the daemon closed a reader")
                event = json.loads(line)
                if event.get("event") == "update":
                    self.updates += 1
                    self.missed += event.get("missed", 0)
                    self.stationary += 1 if event["update"].get("isStationary") else 0
            writer.close()
        except Exception as error:  # reported in the verdict
            self.error = repr(error)


async def churn(socket_path, stop, counts, rng):
    """Connects, subscribes, requests a location, reads a little and vanishes, again and again."""
    configurations = ["default", "fitness", "automotiveNavigation", "otherNavigation", "airborne"]
    while not stop.is_set():
        try:
            reader, writer = await open_client(socket_path)
            counts["connections"] += 1
            if rng.random() < 0.8:
                writer.write((json.dumps({"id": 1, "op": "startLiveUpdates",
                                          "configuration": rng.choice(configurations)}) + "\n").encode())
            if rng.random() < 0.5:
                writer.write(b'{"id":2,"op":"requestLocation","desiredAccuracy":50,"timeout":3}\n')
            await writer.drain()
            deadline = time.monotonic() + rng.uniform(0, 2)
            while time.monotonic() < deadline:
                try:
                    if not await asyncio.wait_for(reader.readline(), max(0.01, deadline - time.monotonic())):
                        break
                except asyncio.TimeoutError:
                    break
            if rng.random() < 0.3:
                writer.write(b'{"id":3,"op":"bye"}\n')
            elif writer.can_write_eof() and rng.random() < 0.5:
                writer.transport.abort()  # vanish without a word
                continue
            writer.close()
        except (ConnectionError, OSError):
            counts["failures"] += 1
            await asyncio.sleep(0.1)


def process_sample(pid):
    with open(f"/proc/{pid}/status") as status:
        rss = next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))
    return rss, len(os.listdir(f"/proc/{pid}/fd"))


async def daemon_sample(socket_path, pid, started):
    reader, writer = await open_client(socket_path)
    reply = await request(reader, writer, {"id": 9, "op": "status"})
    writer.close()
    status = reply["result"]["status"]
    rss, fds = process_sample(pid)
    loop = status.get("eventLoop") or {}
    return {"t": round(time.monotonic() - started), "rssKiB": rss, "fds": fds, "timers": loop.get("timers"),
            "loopDescriptors": loop.get("descriptors"), "clients": status["clients"],
            "subscriptions": status["liveSubscriptions"], "requests": status["pendingRequests"],
            "power": status["receiverPower"]["state"]}


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--socket", required=True)
    parser.add_argument("--pid", type=int, required=True)
    parser.add_argument("--seconds", type=float, default=3600)
    parser.add_argument("--readers", type=int, default=4)
    parser.add_argument("--churners", type=int, default=12)
    parser.add_argument("--interval", type=float, default=60)
    parser.add_argument("--seed", type=int, default=1)
    options = parser.parse_args()
    started = time.monotonic()
    rng = random.Random(options.seed)
    stop_readers, stop_churn = asyncio.Event(), asyncio.Event()
    baseline = await daemon_sample(options.socket, options.pid, started)
    print(json.dumps({"baseline": baseline}), flush=True)
    readers = [Reader() for _ in range(options.readers)]
    configurations = ["default", "fitness", "automotiveNavigation", "otherNavigation"]
    reader_tasks = [asyncio.create_task(r.run(options.socket, configurations[i % 4], stop_readers))
                    for i, r in enumerate(readers)]
    counts = {"connections": 0, "failures": 0}
    churn_tasks = [asyncio.create_task(churn(options.socket, stop_churn, counts, random.Random(rng.random())))
                   for _ in range(options.churners)]
    samples = []
    while time.monotonic() - started < options.seconds:
        await asyncio.sleep(min(options.interval, max(0.1, options.seconds - (time.monotonic() - started))))
        sample = await daemon_sample(options.socket, options.pid, started)
        sample["churned"] = counts["connections"]
        samples.append(sample)
        print(json.dumps(sample), flush=True)
    stop_churn.set()
    await asyncio.gather(*churn_tasks)
    await asyncio.sleep(5)  # let the daemon see the last churners go and their requests end
    settled = await daemon_sample(options.socket, options.pid, started)
    print(json.dumps({"settled": settled}), flush=True)
    stop_readers.set()
    await asyncio.gather(*reader_tasks)

    warm = samples[min(len(samples) - 1, max(0, len(samples) // 10))]
    peak_rss = max(s["rssKiB"] for s in samples)
    growth = samples[-1]["rssKiB"] - warm["rssKiB"]
    problems = []
    if settled["fds"] != baseline["fds"] + options.readers:
        problems.append(f"descriptors: {baseline['fds']} at start, {settled['fds']} settled with {options.readers} readers")
    if settled["timers"] is not None and settled["timers"] > baseline["timers"] + options.readers + 2:
        problems.append(f"timers: {baseline['timers']} at start, {settled['timers']} settled")
    if settled["clients"] != options.readers + 1 or settled["requests"] != 0:
        problems.append(f"clients {settled['clients']} and requests {settled['requests']} did not settle")
    if growth > max(1024, warm["rssKiB"] // 10):
        problems.append(f"RSS grew {growth} KiB after warm-up ({warm['rssKiB']} -> {samples[-1]['rssKiB']} KiB)")
    for index, reader in enumerate(readers):
        if reader.error or reader.missed or reader.updates == 0:
            problems.append(f"reader {index}: {reader.updates} updates, {reader.missed} missed, error {reader.error}")
    print(json.dumps({"summary": {
        "seconds": round(time.monotonic() - started), "churnedConnections": counts["connections"],
        "connectFailures": counts["failures"], "peakRssKiB": peak_rss, "rssGrowthAfterWarmupKiB": growth,
        "readerUpdates": [r.updates for r in readers], "readerMissed": [r.missed for r in readers],
        "readerStationaryUpdates": [r.stationary for r in readers], "problems": problems}}), flush=True)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
