"""Sessions from Python (``ServiceSession``, ``BackgroundActivitySession``) against the real
waymarkd: authorization enforced from a store, this uid interactive by policy, and the real
``waymark auth`` as the operator (docs/authorization.md)."""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import os
import sqlite3
import subprocess
import sys
import tempfile
import unittest

import waymark
from waymarkd import BINARY, Waymarkd

APP_ID = "org.example.python-sessions"
#: Who the daemon says this process is: no policy trusts its declared app ID, so its
#: executable and uid (docs/authorization.md, "Who an app is").
IDENTITY = f"executable:{os.getuid()}:{os.path.realpath(sys.executable)}"


def daemon_with_store(test: unittest.TestCase, policy: str) -> tuple[Waymarkd, str]:
    """A daemon with a store and ``policy`` (TOML) for this uid, closed when ``test`` ends;
    returns it and its store's path."""
    policies = tempfile.TemporaryDirectory(prefix="waymark-python-policies-")
    test.addCleanup(policies.cleanup)
    with open(os.path.join(policies.name, "apps.toml"), "w") as file:
        file.write(f"[[app]]\nuid = {os.getuid()}\n{policy}\n")
    store = os.path.join(policies.name, "store.sqlite")
    daemon = Waymarkd(arguments=("--policies", policies.name, "--store", store))
    test.addCleanup(daemon.close)
    return daemon, store


class EnforcingDaemon(unittest.IsolatedAsyncioTestCase):
    """A daemon with a store and a policy that makes this uid interactive (in use)."""

    def setUp(self) -> None:
        self.daemon, _ = daemon_with_store(self, "interactive = true")
        self.client = waymark.Client(self.daemon.socket, app_id=APP_ID)

    async def asyncTearDown(self) -> None:
        await self.client.close()

    def operator(self, *arguments: str) -> None:
        waymark_cli = os.path.join(os.path.dirname(BINARY), "waymark")
        environment = dict(os.environ, WAYMARK_SOCKET=self.daemon.socket)
        subprocess.run([waymark_cli, "auth", *arguments], env=environment, check=True, capture_output=True)

    async def test_a_service_session_says_the_request_is_waiting_then_that_nothing_stands_in_the_way(self) -> None:
        async with waymark.ServiceSession(waymark.AuthorizationRequirement.WHEN_IN_USE, client=self.client) as session:
            diagnostics = session.diagnostics()
            first = await asyncio.wait_for(anext(diagnostics), 10)
            self.assertEqual(first.names, ["authorizationRequestInProgress"])
            await asyncio.to_thread(self.operator, "grant", IDENTITY)
            second = await asyncio.wait_for(anext(diagnostics), 10)
            self.assertEqual(second.names, [])

    async def test_a_session_is_taken_again_after_the_daemon_restarts(self) -> None:
        async with waymark.ServiceSession(client=self.client) as session:
            diagnostics = session.diagnostics()
            self.assertEqual((await asyncio.wait_for(anext(diagnostics), 10)).names, ["authorizationRequestInProgress"])
            await asyncio.to_thread(self.daemon.stop)
            await asyncio.to_thread(self.daemon.start)
            # The client reconnects and starts the session again: its first diagnostics again.
            self.assertEqual((await asyncio.wait_for(anext(diagnostics), 20)).names, ["authorizationRequestInProgress"])

    async def test_status_counts_the_sessions_held_per_app(self) -> None:
        async with waymark.ServiceSession(client=self.client), waymark.BackgroundActivitySession(client=self.client):
            status = await self.client.status()
            counts = waymark.SessionCounts(service_sessions=1, background_activity_sessions=1)
            self.assertEqual(status.sessions, counts)
            self.assertEqual(status.app_sessions, [waymark.AppSessions(IDENTITY, counts)])

    async def test_a_background_activity_session_starts_in_use_and_ends_with_invalidate(self) -> None:
        session = waymark.BackgroundActivitySession(client=self.client)
        await session.start()
        session.invalidate()
        async with waymark.BackgroundActivitySession(client=self.client):
            pass


class WithoutPolicy(unittest.IsolatedAsyncioTestCase):
    """A daemon without a policy for this uid: the app is not in use."""

    def setUp(self) -> None:
        self.daemon = Waymarkd()
        self.addCleanup(self.daemon.close)
        self.client = waymark.Client(self.daemon.socket, app_id=APP_ID)

    async def asyncTearDown(self) -> None:
        await self.client.close()

    async def test_a_background_activity_session_out_of_use_is_refused_with_insufficiently_in_use(self) -> None:
        with self.assertRaises(waymark.Refused) as refused:
            await waymark.BackgroundActivitySession(client=self.client).start()
        self.assertEqual(refused.exception.code, waymark.ErrorCode.INSUFFICIENTLY_IN_USE)


class AFullVisitDiary(unittest.IsolatedAsyncioTestCase):
    """A store whose diary holds the 1,000 visits a daemon keeps: four times what a reply line
    holds, so ``visits`` follows the daemon's pages."""

    def setUp(self) -> None:
        self.daemon, store = daemon_with_store(self, 'authorization = "always"')
        # The daemon made the schema; the diary is written while it is stopped.
        self.daemon.stop()
        hour = 3_600_000_000_000
        self.arrivals = [1_700_000_000_123_000_000 + index * 8 * hour for index in range(1000)]
        with contextlib.closing(sqlite3.connect(store)) as database, database:
            database.executemany(
                "INSERT INTO visits (arrivalDate, departureDate, latitude, longitude, horizontalAccuracy) VALUES (?, ?, ?, ?, ?)",
                [(arrival, arrival + 2 * hour, -33.856784412345, -151.215296712345, 1234.567891234) for arrival in self.arrivals],
            )
        self.daemon.start()
        self.client = waymark.Client(self.daemon.socket, app_id=APP_ID)

    async def asyncTearDown(self) -> None:
        await self.client.close()

    async def test_every_visit_comes_once_in_order(self) -> None:
        diary = await self.client.visits()
        epoch = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)
        self.assertEqual(
            [round((visit.arrival_date - epoch) / datetime.timedelta(milliseconds=1)) for visit in diary],
            [arrival // 1_000_000 for arrival in self.arrivals],
        )
