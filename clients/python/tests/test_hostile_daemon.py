"""A daemon that breaks the protocol, or that the client must not trust: every case ends in a
clean ``WaymarkError``, never a hang, another exception or unbounded memory."""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import socket
import subprocess
import tempfile
import unittest
import unittest.mock

import waymark

#: A Python that another user may run (not one in root's home).
SYSTEM_PYTHON = "/usr/bin/python3"
HELLO = b'{"id":1,"op":"hello","result":{"daemonVersion":"0.1.0","protocolVersion":1,"pid":1}}\n'


class FakeDaemon:
    """A Unix-socket server that answers ``hello`` properly, then each later line with
    ``answer`` (bytes, sent as they are)."""

    def __init__(self, directory: str, answer: bytes) -> None:
        self.path = os.path.join(directory, "fake.sock")
        self.answer = answer
        #: The lines the client sent after the request that ``answer`` answered.
        self.received: list[bytes] = []

    async def __aenter__(self) -> FakeDaemon:
        self.server = await asyncio.start_unix_server(self._serve, self.path)
        return self

    async def __aexit__(self, *_: object) -> None:
        self.server.close()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            await reader.readline()
            writer.write(HELLO)
            await reader.readline()
            writer.write(self.answer)
            await writer.drain()
            # Hold the connection until the client goes.
            while line := await reader.readline():
                self.received.append(line)
        except (ConnectionError, asyncio.CancelledError):
            pass
        finally:
            writer.close()


class HostileLines(unittest.IsolatedAsyncioTestCase):
    def setUp(self) -> None:
        self.directory = tempfile.mkdtemp(prefix="waymark-python-hostile-")
        self.addCleanup(shutil.rmtree, self.directory, True)

    async def status_answered_with(self, answer: bytes) -> waymark.DaemonProtocolError:
        async with FakeDaemon(self.directory, answer) as daemon:
            client = waymark.Client(daemon.path)
            try:
                with self.assertRaises(waymark.DaemonProtocolError) as caught:
                    await asyncio.wait_for(client.status(), 5)
            finally:
                await client.close()
            return caught.exception

    async def test_a_line_longer_than_the_limit(self) -> None:
        error = await self.status_answered_with(b'{"id":2,"op":"status","result":{"x":"' + b"a" * 70_000 + b'"}}\n')
        self.assertIn("65536", str(error))

    async def test_an_endless_line_without_newline(self) -> None:
        error = await self.status_answered_with(b"[" * 200_000)
        self.assertIn("65536", str(error))

    async def test_lines_that_are_not_strict_json(self) -> None:
        for line in (
            b"not json",
            b'{"id":2,"op":"status","result":{"status":NaN}}',
            b'{"id":2,"id":3}',
            b"[1,2]",
            b'{"id":2,"op":"status","result":' + b'{"a":' * 20 + b"1" + b"}" * 21,
            b'{"id":2,"x":"\\ud800"}',
            b'{"id":2,"x":"\xff"}',
            b'{"id":2,"x":1e999}',
        ):
            with self.subTest(line=line[:40]):
                await self.status_answered_with(line + b"\n")

    async def test_a_reply_with_a_mistyped_member_names_it(self) -> None:
        error = await self.status_answered_with(b'{"id":2,"op":"status","result":{"status":{"source":"gps"}}}\n')
        self.assertIn("result.status.source: expected an object", str(error))

    async def test_a_malformed_update_ends_live_updates_with_the_error(self) -> None:
        answer = b'{"id":2,"op":"startLiveUpdates","result":{"subscription":1}}\n'
        answer += b'{"event":"update","subscription":1,"update":{"location":{"latitude":"north"},"isStationary":false,"diagnostics":[]}}\n'
        async with FakeDaemon(self.directory, answer) as daemon:
            client = waymark.Client(daemon.path)
            with self.assertRaises(waymark.DaemonProtocolError):
                async for _ in client.live_updates():
                    pass
            await client.close()

    async def test_a_batch_with_an_update_that_is_no_object_ends_live_updates_with_the_error(self) -> None:
        answer = b'{"id":2,"op":"startLiveUpdates","result":{"subscription":1}}\n'
        answer += b'{"event":"batch","subscription":1,"updates":[{"location":null,"isStationary":false,"diagnostics":[]},3],"overflow":0,"more":false}\n'
        async with FakeDaemon(self.directory, answer) as daemon:
            client = waymark.Client(daemon.path)
            with self.assertRaises(waymark.DaemonProtocolError) as raised:
                async for _ in client.live_updates(batching=waymark.Batching(timeout=60)):
                    pass
            await client.close()
        self.assertIn("updates[1]", str(raised.exception))

    async def test_a_daemon_that_stops_answering_holds_no_call(self) -> None:
        async with FakeDaemon(self.directory, b"") as daemon:
            client = waymark.Client(daemon.path)
            try:
                with unittest.mock.patch("waymark.connection.ANSWER_PATIENCE", 0.3):
                    with self.assertRaises(waymark.DaemonUnavailable) as caught:
                        await asyncio.wait_for(client.status(), 5)
                    self.assertIn("no answer to status within 0.3 seconds", str(caught.exception))
                    # The next call on the same connection waits afresh.
                    with self.assertRaises(waymark.DaemonUnavailable) as caught:
                        await asyncio.wait_for(client.last_known_location(), 5)
                    self.assertIn("no answer to lastKnownLocation within 0.3 seconds", str(caught.exception))
                # A location request waits its timeout, which the daemon keeps, and 2 s more.
                started = asyncio.get_running_loop().time()
                with self.assertRaises(waymark.DaemonUnavailable) as caught:
                    await asyncio.wait_for(client.request_location(timeout=0.5), 5)
                self.assertIn("no answer to requestLocation within 2.5 seconds", str(caught.exception))
                self.assertGreaterEqual(asyncio.get_running_loop().time() - started, 2.5)
            finally:
                await client.close()

    async def test_unknown_events_and_members_are_skipped(self) -> None:
        answer = b'{"event":"monitorEvent","monitor":1}\n{"event":"somethingNew"}\n'
        answer += b'{"id":2,"op":"startLiveUpdates","result":{"subscription":7,"future":true}}\n'
        answer += b'{"event":"update","subscription":7,"update":{"location":null,"isStationary":false,"diagnostics":["locationUnavailable","somethingNew"]},"missed":0}\n'
        async with FakeDaemon(self.directory, answer) as daemon:
            client = waymark.Client(daemon.path)
            async with contextlib.aclosing(client.live_updates()) as updates:
                update = await asyncio.wait_for(anext(updates), 5)
            await client.close()
        self.assertEqual(update.diagnostics.names, ["locationUnavailable"])

    async def test_a_kept_visit_is_passed_on_once_and_acknowledged_when_the_loop_takes_it(self) -> None:
        visit = b'{"latitude":47.3769,"longitude":8.5417,"horizontalAccuracy":12.5,"arrivalDate":"2026-11-23T08:01:07.000Z","departureDate":%s}'
        arrival, departure = visit % b"null", visit % b'"2026-11-23T09:12:40.000Z"'
        answer = b'{"id":2,"op":"startVisitMonitoring","result":{}}\n'
        answer += b'{"event":"visit","sequence":4,"visit":' + arrival + b"}\n"
        # Sent again before the acknowledgement reached the daemon: a repeat.
        answer += b'{"event":"visit","sequence":4,"visit":' + arrival + b"}\n"
        answer += b'{"event":"visit","sequence":5,"visit":' + departure + b"}\n"
        answer += b'{"event":"visit","visit":' + arrival.replace(b"08:01", b"10:00") + b"}\n"
        async with FakeDaemon(self.directory, answer) as daemon:
            client = waymark.Client(daemon.path)
            seen = []
            async with contextlib.aclosing(client.monitor_visits()) as visits:
                seen.append(await asyncio.wait_for(anext(visits), 5))
                await asyncio.sleep(0.1)
                # The departure has arrived but the loop has not taken it: not acknowledged yet.
                taken_one = [line for line in daemon.received if b"acknowledgeVisits" in line]
                for _ in range(2):
                    seen.append(await asyncio.wait_for(anext(visits), 5))
            await asyncio.sleep(0.1)
            await client.close()
        self.assertEqual([visit.departure_date is None for visit in seen], [True, False, True])
        self.assertEqual(seen[0].arrival_date, seen[1].arrival_date)
        self.assertNotEqual(seen[0].arrival_date, seen[2].arrival_date)
        self.assertEqual(len(taken_one), 1)
        self.assertIn(b'"through":4', taken_one[0])
        acknowledged = [line for line in daemon.received if b"acknowledgeVisits" in line]
        self.assertEqual([b'"through":4' in acknowledged[0], b'"through":5' in acknowledged[1]], [True, True])
        self.assertEqual(len(acknowledged), 2)


class Trust(unittest.IsolatedAsyncioTestCase):
    """The socket's directories and the listener are checked before anything is sent."""

    def setUp(self) -> None:
        self.directory = tempfile.mkdtemp(prefix="waymark-python-trust-")
        self.addCleanup(shutil.rmtree, self.directory, True)

    async def test_a_directory_others_may_write_is_refused(self) -> None:
        shared = os.path.join(self.directory, "shared")
        os.mkdir(shared)
        os.chmod(shared, 0o777)
        async with FakeDaemon(shared, HELLO) as daemon:
            with self.assertRaises(waymark.DaemonUnavailable) as refusal:
                await waymark.Client(daemon.path).status()
        self.assertIn("lets group or others replace the socket", refusal.exception.reason)

    @unittest.skipUnless(os.geteuid() == 0 and os.access(SYSTEM_PYTHON, os.X_OK), "needs root to listen as another user")
    async def test_a_listener_of_an_untrusted_user_is_refused(self) -> None:
        # Root binds the socket in its own directory; another user listens on it, and the
        # kernel records the listener's credentials at listen(2).
        path = os.path.join(self.directory, "other.sock")
        bound = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        bound.bind(path)
        self.addCleanup(bound.close)
        listener = "import socket, sys, time\nsocket.socket(fileno=int(sys.argv[1])).listen()\nprint('ready', flush=True)\ntime.sleep(30)\n"
        other = subprocess.Popen(
            [SYSTEM_PYTHON, "-c", listener, str(bound.fileno())], user=65534, group=65534, pass_fds=[bound.fileno()], stdout=subprocess.PIPE
        )
        self.addCleanup(other.wait)
        self.addCleanup(other.kill)
        self.assertEqual(await asyncio.to_thread(other.stdout.readline), b"ready\n")
        other.stdout.close()
        with self.assertRaises(waymark.DaemonUnavailable) as refusal:
            await asyncio.wait_for(waymark.Client(path).status(), 5)
        self.assertIn("uid 65534", refusal.exception.reason)


if __name__ == "__main__":
    unittest.main()
