"""The Python client against the real waymarkd on the simulated board."""

from __future__ import annotations

import asyncio
import math
import contextlib
import datetime
import json
import os
import unittest

import waymark
from waymarkd import WALK_THEN_DESK, Waymarkd

#: A receiver that stays cold for a while in real time: a request is still pending when the
#: test cancels it, or ends without a location.
COLD_START = "start 2026-11-23T08:00:00Z 47.3769 8.5417 408\nwalk 1h heading=90\n"


async def eventually(condition, seconds: float = 10.0) -> None:
    """Waits until ``await condition()`` is true, polling."""
    deadline = asyncio.get_running_loop().time() + seconds
    while not await condition():
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError("the condition did not become true in time")
        await asyncio.sleep(0.05)


class WithDaemon(unittest.IsolatedAsyncioTestCase):
    """A daemon on ``scenario`` (``speed`` times faster than real time) and a client of it."""

    scenario = WALK_THEN_DESK
    speed = 10.0

    def setUp(self) -> None:
        self.daemon = Waymarkd(self.scenario, speed=self.speed)
        self.addCleanup(self.daemon.close)
        self.client = waymark.Client(self.daemon.socket, app_id="org.example.python-tests")

    async def asyncTearDown(self) -> None:
        await self.client.close()


class DistanceFilteredWalk(WithDaemon):
    """A two-minute walk (long enough to outlast the receiver's start) that ends on a desk."""

    scenario = "start 2026-11-23T08:00:00Z 47.3769 8.5417 408\nwalk 120s heading=90\ndesk 1h\n"

    async def test_a_distance_filter_spaces_the_moving_locations(self) -> None:
        moving: list[waymark.Location] = []

        async def collect() -> None:
            async for update in self.client.live_updates(waymark.LiveConfiguration.FITNESS, distance_filter=10):
                if update.is_stationary:
                    return
                if update.location is not None:
                    moving.append(update.location)

        await asyncio.wait_for(collect(), 60)
        self.assertGreater(len(moving), 1)
        for earlier, later in zip(moving, moving[1:]):
            # Metres on a sphere: within 0.5 % of the ellipsoid's distance the daemon filters on.
            north = math.radians(later.latitude - earlier.latitude) * 6_371_009
            east = math.radians(later.longitude - earlier.longitude) * 6_371_009 * math.cos(math.radians(earlier.latitude))
            self.assertGreaterEqual(math.hypot(north, east), 10 * 0.995)


class BatchedWalk(WithDaemon):
    """A walk, 10 times faster than real time: a fix every 0.1 s."""

    scenario = "start 2026-11-23T08:00:00Z 47.3769 8.5417 408\nwalk 600s heading=90\n"

    async def test_a_batched_subscription_gets_every_fix_in_order_held_until_the_timeout(self) -> None:
        times: list[datetime.datetime] = []
        arrivals: list[float] = []
        loop = asyncio.get_running_loop()

        async def collect() -> None:
            batching = waymark.Batching(timeout=9.5)
            async with contextlib.aclosing(self.client.live_updates(waymark.LiveConfiguration.FITNESS, batching=batching)) as updates:
                async for update in updates:
                    if update.location is not None:
                        times.append(update.location.timestamp)
                        arrivals.append(loop.time())
                    if len(times) == 30:
                        return

        await asyncio.wait_for(collect(), 60)
        # After the receiver's first fix (taken between two seconds), a fix every second.
        steady = times[1:]
        self.assertEqual([later - earlier for earlier, later in zip(steady, steady[1:])], [datetime.timedelta(seconds=1)] * 28)
        # A batch waits 9.5 scenario seconds (0.95 s here); fixes one by one come every 0.1 s.
        self.assertGreater(max(later - earlier for earlier, later in zip(arrivals, arrivals[1:])), 0.6)

    async def test_the_daemon_refuses_a_batch_beyond_its_capacity(self) -> None:
        with self.assertRaises(waymark.Refused) as refused:
            async for _ in self.client.live_updates(batching=waymark.Batching(timeout=60, capacity=1001)):
                pass
        self.assertEqual(refused.exception.code, waymark.ErrorCode.INVALID_MESSAGE)

    async def test_nan_is_refused_as_the_daemon_would_and_the_connection_goes_on(self) -> None:
        # json.dumps's ValueError ("Out of range float values are not JSON compliant") escaped
        # the library's errors.
        with self.assertRaises(waymark.Refused) as refused:
            async for _ in self.client.live_updates("fitness", distance_filter=float("nan")):
                pass
        self.assertEqual(refused.exception.code, waymark.ErrorCode.INVALID_MESSAGE)
        self.assertIn("startLiveUpdates", refused.exception.message)
        status = await self.client.status()
        self.assertEqual(status.live_subscriptions, 0)


class LastKnown(WithDaemon):
    """A walk that ends on a desk, 10 times faster than real time."""

    async def test_none_before_the_first_fix_then_the_location_ageing(self) -> None:
        self.assertIsNone(await self.client.last_known_location())
        self.assertEqual((await self.client.status()).transitions, 0)
        requested = await self.client.request_location(timeout=30)

        async def receiver_down() -> bool:
            return (await self.client.status()).receiver_power_state not in ("acquiring", "tracking")

        await eventually(receiver_down, seconds=20)
        transitions = (await self.client.status()).transitions
        first = await self.client.last_known_location()
        assert first is not None
        self.assertGreaterEqual(first.location.timestamp, requested.timestamp)
        self.assertGreaterEqual(first.age, 0)
        await asyncio.sleep(0.5)
        second = await self.client.last_known_location()
        assert second is not None
        # The receiver stays down (asking never powers it): the same location, ten daemon
        # seconds older a second, at least the 5 s slept.
        self.assertEqual(second.location, first.location)
        self.assertGreaterEqual(second.age - first.age, 5 * 0.99)
        self.assertEqual((await self.client.status()).transitions, transitions)


class WalkThenDesk(WithDaemon):
    """A walk that ends on a desk, 10 times faster than real time."""

    async def test_live_updates_flow_then_pause_with_is_stationary(self) -> None:
        updates: list[waymark.LocationUpdate] = []

        async def collect() -> None:
            async for update in self.client.live_updates(waymark.LiveConfiguration.FITNESS):
                updates.append(update)
                if update.is_stationary:
                    return

        await asyncio.wait_for(collect(), 60)
        located = [update for update in updates if update.location is not None]
        self.assertGreater(len(located), 1, updates)
        for update in updates:
            self.assertEqual(update.location is None, update.diagnostics.location_unavailable, update)
        pause = updates[-1]
        self.assertTrue(pause.is_stationary)
        self.assertIsNotNone(pause.location)
        self.assertFalse(any(update.is_stationary for update in updates[:-1]))
        location = pause.location
        self.assertAlmostEqual(location.latitude, 47.3769, delta=0.01)
        self.assertAlmostEqual(location.longitude, 8.5417, delta=0.01)
        self.assertGreater(location.horizontal_accuracy, 0)
        self.assertEqual(location.timestamp.tzinfo, datetime.timezone.utc)
        self.assertTrue(location.source_information.is_simulated_by_software)
        self.assertIn(location.mode, (waymark.FixMode.TWO_DIMENSIONAL, waymark.FixMode.THREE_DIMENSIONAL))
        self.assertGreater(sum(location.satellites.used.values()), 3)
        times = [update.location.timestamp for update in located]
        self.assertEqual(times, sorted(times))

    async def test_the_daemon_refuses_a_negative_distance_filter(self) -> None:
        with self.assertRaises(waymark.Refused) as refusal:
            async for _ in self.client.live_updates(distance_filter=-1):
                break
        self.assertEqual(refusal.exception.code, "invalidMessage")
        self.assertIn("distanceFilter", refusal.exception.message)

    async def test_leaving_the_loop_stops_the_subscription(self) -> None:
        async for update in self.client.live_updates():
            status = await self.client.status()
            self.assertEqual(status.live_subscriptions, 1)
            break

        async def stopped() -> bool:
            return (await self.client.status()).live_subscriptions == 0

        await eventually(stopped)

    async def test_request_location_answers_with_a_location_as_accurate_as_asked(self) -> None:
        location = await self.client.request_location(desired_accuracy=50, timeout=30)
        self.assertLessEqual(location.horizontal_accuracy, 50)
        self.assertAlmostEqual(location.latitude, 47.3769, delta=0.01)
        status = await self.client.status()
        self.assertEqual(status.pending_requests, 0)
        self.assertIsNotNone(status.last_location)

    async def test_status_reports_the_simulated_source(self) -> None:
        status = await self.client.status()
        self.assertEqual(status.daemon_version, await asyncio.to_thread(self.daemon.version))
        self.assertEqual(status.source.kind, "simulated")
        self.assertTrue(status.source.is_simulated)
        self.assertEqual(status.clients, 1)
        self.assertGreaterEqual(status.uptime, 0)
        self.assertTrue(all(entry.seconds >= 0 for entry in status.power_ledger))
        self.assertEqual(self.client._connection.hello["protocolVersion"], waymark.PROTOCOL_VERSION)

    async def test_the_client_speaks_the_daemon_s_newest_protocol_version(self) -> None:
        # A hello newer than the daemon's is answered with the daemon's newest version.
        reader, writer = await asyncio.open_unix_connection(self.daemon.socket)
        writer.write(b'{"id":1,"op":"hello","version":1000}\n')
        reply = json.loads(await asyncio.wait_for(reader.readline(), 10))
        writer.close()
        await writer.wait_closed()
        self.assertEqual(reply["result"]["protocolVersion"], waymark.PROTOCOL_VERSION)

    async def test_the_daemon_refuses_a_negative_accuracy_with_invalid_message(self) -> None:
        with self.assertRaises(waymark.Refused) as refusal:
            await self.client.request_location(desired_accuracy=-1, timeout=5)
        self.assertEqual(refusal.exception.code, "invalidMessage")
        self.assertIn("desiredAccuracy", refusal.exception.message)

    async def test_live_updates_survive_a_daemon_restart(self) -> None:
        async with contextlib.aclosing(self.client.live_updates()) as updates:
            async for update in updates:
                if update.location is not None:
                    break
            await asyncio.to_thread(self.daemon.stop)
            # Updates read before the daemon went may come first, then one that says it went.
            async for outage in updates:
                if outage.diagnostics.daemon_unavailable:
                    break
            await asyncio.to_thread(self.daemon.start)
            resumed = await asyncio.wait_for(anext(updates), 30)
        self.assertIsNone(outage.location)
        self.assertFalse(resumed.diagnostics.daemon_unavailable, resumed)


class ColdReceiver(unittest.IsolatedAsyncioTestCase):
    """A receiver in real time, so that the first fix is many seconds away."""

    def setUp(self) -> None:
        self.daemon = Waymarkd(COLD_START, speed=1)
        self.addCleanup(self.daemon.close)
        self.client = waymark.Client(self.daemon.socket)

    async def asyncTearDown(self) -> None:
        await self.client.close()

    async def test_cancelling_the_task_withdraws_the_request(self) -> None:
        request = asyncio.ensure_future(self.client.request_location(timeout=600))

        def pending_requests_are(count: int):
            async def check() -> bool:
                return (await self.client.status()).pending_requests == count

            return check

        await eventually(pending_requests_are(1))
        request.cancel()
        with self.assertRaises(asyncio.CancelledError):
            await request
        # Without cancelRequest the daemon would hold the request for its 600 s.
        await eventually(pending_requests_are(0), seconds=2)

    async def test_no_fix_before_the_timeout_raises_location_unknown(self) -> None:
        with self.assertRaises(waymark.LocationUnknown) as unknown:
            await self.client.request_location(timeout=0.5)
        self.assertEqual(unknown.exception.code, "locationUnknown")
        self.assertIsInstance(unknown.exception, waymark.LocationError)


class NoDaemon(unittest.IsolatedAsyncioTestCase):
    """A socket nobody listens on yet."""

    def setUp(self) -> None:
        self.daemon = Waymarkd()
        self.daemon.stop()
        self.addCleanup(self.daemon.close)
        self.client = waymark.Client(self.daemon.socket)

    async def asyncTearDown(self) -> None:
        await self.client.close()

    async def test_status_says_why_it_could_not_connect(self) -> None:
        with self.assertRaises(waymark.DaemonUnavailable) as unavailable:
            await self.client.status()
        self.assertIn(f'connect("{self.daemon.socket}")', unavailable.exception.reason)

    async def test_a_timeout_out_of_range_is_refused_before_connecting(self) -> None:
        for timeout in (0, -1, 600.5, float("nan")):
            with self.assertRaises(waymark.Refused) as refusal:
                await self.client.request_location(timeout=timeout)
            self.assertEqual(refusal.exception.code, "invalidMessage")
        self.assertIsNone(self.client._connection)

    async def test_live_updates_say_daemon_unavailable_then_flow_once_it_starts(self) -> None:
        async with contextlib.aclosing(self.client.live_updates()) as updates:
            first = await asyncio.wait_for(anext(updates), 5)
            self.assertTrue(first.diagnostics.daemon_unavailable)
            self.assertIsNone(first.location)
            await asyncio.to_thread(self.daemon.start)
            second = await asyncio.wait_for(anext(updates), 30)
            self.assertFalse(second.diagnostics.daemon_unavailable)


class SharedClient(unittest.TestCase):
    """The module's functions, on the running loop's client, find the daemon at ``$WAYMARK_SOCKET``."""

    def test_module_functions_use_waymark_socket(self) -> None:
        daemon = Waymarkd()
        self.addCleanup(daemon.close)

        async def use() -> tuple[waymark.StatusReport, waymark.LocationUpdate]:
            report = await waymark.status()
            async for update in waymark.live_updates("default"):
                return report, update
            raise AssertionError("no update")

        previous = os.environ.get("WAYMARK_SOCKET")
        os.environ["WAYMARK_SOCKET"] = daemon.socket
        try:
            report, update = asyncio.run(use())
        finally:
            if previous is None:
                del os.environ["WAYMARK_SOCKET"]
            else:
                os.environ["WAYMARK_SOCKET"] = previous
        self.assertEqual(report.source.kind, "simulated")
        self.assertIsInstance(update, waymark.LocationUpdate)


if __name__ == "__main__":
    unittest.main()


class LeavingTheDesk(WithDaemon):
    """3 min at a desk (18 s at 10×), then east at 1.4 m/s: out of a 100 m circle around the
    desk within 2 min of walking."""

    scenario = "start 2026-11-23T08:00:00Z 47.3769 8.5417 408\ndesk 3m\nwalk 5m heading=90\n"

    async def test_a_monitor_reports_leaving_the_circle_once_in_order(self) -> None:
        # A fix first: the scenario's morning is days before the system clock, and a condition
        # is dated on the fixes' clock once there is one.
        await self.client.request_location(desired_accuracy=50, timeout=30)
        places = await self.client.monitor("places")
        await places.add(waymark.CircularGeographicCondition(47.3769, 8.5417, 100), "desk")
        self.assertEqual(await places.identifiers(), ["desk"])
        events: list[waymark.MonitorEvent] = []

        async def collect() -> None:
            async for event in places.events():
                events.append(event)
                if event.state == waymark.MonitorState.UNSATISFIED:
                    return

        await asyncio.wait_for(collect(), 60)
        self.assertEqual([event.state for event in events], [waymark.MonitorState.SATISFIED, waymark.MonitorState.UNSATISFIED])
        # No store for this daemon: the events were not kept, and say so.
        self.assertTrue(all(event.diagnostics == ["persistenceUnavailable"] for event in events))
        record = await places.record("desk")
        self.assertIsNotNone(record)
        self.assertEqual(record.last_event.state, waymark.MonitorState.UNSATISFIED)
        self.assertIsNone(await places.record("elsewhere"))
        await places.remove("desk")
        self.assertEqual(await places.identifiers(), [])
        with self.assertRaises(waymark.Refused) as refusal:
            await places.add(waymark.CircularGeographicCondition(95, 0, 100), "off the globe")
        self.assertEqual(refusal.exception.code, "invalidMessage")

    async def test_a_beacon_condition_is_added_and_reported_unsupported(self) -> None:
        with self.assertRaises(ValueError):
            waymark.BeaconIdentityCondition("E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", minor=3)
        shops = await self.client.monitor("shops")
        await shops.add(waymark.BeaconIdentityCondition("e2c56db5-dffb-48d2-b060-d0f5a71096e0", 1, 2), "entrance")
        event = await asyncio.wait_for(anext(shops.events()), 10)
        self.assertEqual((event.identifier, event.state), ("entrance", waymark.MonitorState.UNMONITORED))
        self.assertIn("conditionUnsupported", event.diagnostics)
        record = await shops.record("entrance")
        self.assertEqual(record.condition, waymark.BeaconIdentityCondition(None))
        self.assertEqual(record.last_event.state, waymark.MonitorState.UNMONITORED)


class AStayAtADesk(WithDaemon):
    """1 min east, 7 min at a desk, 2 min north: one visit (10 min in 30 s at 20×)."""

    scenario = "start 2026-11-23T08:00:00Z 47.3769 8.5417 408\nwalk 1m heading=90\ndesk 7m\nwalk 2m heading=0\n"
    speed = 20.0

    async def test_visit_monitoring_alone_reports_the_arrival_then_the_departure(self) -> None:
        seen: list[waymark.Visit] = []

        async def collect() -> None:
            async for visit in self.client.monitor_visits():
                seen.append(visit)
                if visit.departure_date is not None:
                    return

        await asyncio.wait_for(collect(), 60)
        self.assertEqual(len(seen), 2, seen)
        arrival, departure = seen
        self.assertIsNone(arrival.departure_date)
        self.assertEqual(departure.arrival_date, arrival.arrival_date)
        start = datetime.datetime(2026, 11, 23, 8, tzinfo=datetime.timezone.utc)
        # The engine declares stillness seconds after the stop, and motion seconds after it.
        self.assertLess(abs((departure.arrival_date - start).total_seconds() - 60), 30)
        self.assertLess(abs((departure.departure_date - start).total_seconds() - 480), 30)
        # Nothing but the visits asked for fixes: no subscription was held.
        self.assertEqual((await self.client.status()).live_subscriptions, 0)
        await self.client.stop_visit_monitoring()
