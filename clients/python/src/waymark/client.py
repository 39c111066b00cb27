"""The client: ``live_updates``, ``request_location``, ``status`` and ``monitor`` over one
connection to the daemon, as the Swift library's ``LocationUpdate.liveUpdates``,
``Location.requestLocation``, ``WaymarkAgent.status`` and ``Monitor``.

Sessions (``sessions.py``) and monitors (``monitor.py``) are held here through reconnects:
on a new connection the sessions are started again first, then the subscriptions and the
monitors (``hold``/``release``, ``monitor``)."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import math
import os
import weakref
from typing import TYPE_CHECKING, Any, AsyncIterator, Callable

from .connection import Connection, ReplyHandler, resolving
from .errors import DaemonProtocolError, DaemonUnavailable, ErrorCode, LocationDenied, LocationUnknown, Refused, WaymarkError
from .model import (
    Batching,
    Diagnostics,
    LastKnownLocation,
    LiveConfiguration,
    Location,
    LocationUpdate,
    MonitorEvent,
    StatusReport,
    Visit,
    decode_last_known_location,
    decode_location,
    decode_monitor_event,
    decode_status,
    decode_update,
    decode_visit,
)
from .inbox import Inbox
from .monitor import Monitor, OpenMonitor
from .socket_path import SocketTrust, client_candidates
from .wire import Fields

if TYPE_CHECKING:
    from .sessions import HeldSession

#: The shortest timeout ``request_location`` may ask for, seconds: the protocol's resolution.
MINIMUM_TIMEOUT = 0.001
#: The longest timeout ``request_location`` may ask for, seconds.
MAXIMUM_TIMEOUT = 600.0
#: Updates a live-updates iterator keeps while its consumer is busy; older ones give way.
UPDATE_BUFFER = 64
#: Visits a ``monitor_visits`` iterator keeps while its consumer is busy.
VISIT_BUFFER = 100
_FIRST_RECONNECT_DELAY = 0.1
_LONGEST_RECONNECT_DELAY = 5.0


class _Subscription(Inbox[LocationUpdate]):
    """One live-updates iterator's state, which outlives connections."""

    def __init__(self, configuration: LiveConfiguration, options: dict[str, Any], buffered: int = UPDATE_BUFFER) -> None:
        super().__init__(buffered)
        self.configuration = configuration
        #: The delivery options, as the members of ``startLiveUpdates`` that are not defaults.
        self.options = options
        #: The connection the subscription was started on, and the daemon's number for it there.
        self.started_on: Connection | None = None
        self.daemon_id: int | None = None
        self.knows_daemon_is_unavailable = False


class _VisitWatch(Inbox[tuple[Visit, int | None]]):
    """One ``monitor_visits`` iterator's state, which outlives connections: the service is
    asked for again on each (docs/protocol.md, ``startVisitMonitoring``). Each visit waits
    with the sequence that acknowledges it (``None`` for one the daemon did not keep)."""

    def __init__(self) -> None:
        super().__init__(VISIT_BUFFER)
        #: The connection the service was asked for on.
        self.started_on: Connection | None = None


class Client:
    """A connection to the Waymark daemon, opened at first use and reopened as needed.

    The socket is ``socket_path`` if given, else ``$WAYMARK_SOCKET`` if set, else the system
    socket and then the development socket (docs/protocol.md, "Connecting"), believed only if
    the directories on the way and the listening process (``SO_PEERCRED``) are trusted. The
    app's identity is ``app_id``, else ``$WAYMARK_APP_ID``. Use it from one event loop."""

    def __init__(self, socket_path: str | None = None, app_id: str | None = None) -> None:
        self._socket_path = socket_path
        self._app_id = app_id if app_id is not None else os.environ.get("WAYMARK_APP_ID")
        self._connection: Connection | None = None
        self._connecting = asyncio.Lock()
        self._subscriptions: dict[int, _Subscription] = {}
        self._local_ids: dict[int, int] = {}
        #: Sessions held (``sessions.py``), by local number, and the daemon's numbers for them.
        self._sessions: dict[int, HeldSession] = {}
        self._session_ids: dict[int, int] = {}
        self._next_local = itertools.count(1)
        self._monitors: dict[int, OpenMonitor] = {}
        #: Monitors by the daemon's number, on the current connection.
        self._monitor_ids: dict[int, int] = {}
        #: ``monitor_visits`` iterators, by local number.
        self._visit_watches: dict[int, _VisitWatch] = {}
        #: The newest sequence of a kept visit passed on: older ones are repeats.
        self._newest_visit_sequence = 0
        self._reconnecting: asyncio.Task[None] | None = None
        self._reconnect_delay = _FIRST_RECONNECT_DELAY

    # Live updates

    async def live_updates(
        self,
        configuration: LiveConfiguration | str = LiveConfiguration.DEFAULT,
        *,
        distance_filter: float = 0,
        minimum_interval: float = 0,
        batching: Batching | None = None,
        passive: bool = False,
    ) -> AsyncIterator[LocationUpdate]:
        """Live location updates, as Core Location's ``CLLocationUpdate.liveUpdates``. A location
        comes only ``distance_filter`` metres or more from the last one delivered, and
        ``minimum_interval`` seconds or more after it; with ``batching`` the locations are held
        and come together, in the order taken, when a batch is delivered; a ``passive``
        subscription never powers the receiver and gets the fixes others cause
        (docs/semantics.md, "Delivery options"). Updates
        start when iteration starts and stop when the iterator is closed (``aclose()``,
        ``contextlib.aclosing``) or dropped (the ``async for`` loop was left). While the daemon
        is unreachable an update without a location and with ``daemon_unavailable`` comes,
        and updates continue once the client has reconnected. Raises ``Refused`` when the
        daemon refuses the subscription, ``DaemonProtocolError`` when it speaks no protocol."""
        options: dict[str, Any] = {}
        if distance_filter:
            options["distanceFilter"] = float(distance_filter)
        if minimum_interval:
            options["minimumInterval"] = float(minimum_interval)
        if batching is not None:
            options["batch"] = batching.members()
        if passive:
            options["passive"] = True
        # Room for a whole batch beside the updates an ordinary subscription may fall behind by.
        buffered = UPDATE_BUFFER + (batching.capacity if batching is not None else 0)
        subscription = _Subscription(LiveConfiguration(configuration), options, buffered)
        local = next(self._next_local)
        self._subscriptions[local] = subscription
        try:
            try:
                connection = await self._connected()
            except DaemonUnavailable:
                self._announce_unavailable()
                self._schedule_reconnect()
            else:
                # A connection opened just now started every subscription, this one too.
                if subscription.started_on is not connection:
                    self._start(connection, local)
            while True:
                yield await subscription.next()
        finally:
            self._unsubscribe(local)

    def _start(self, connection: Connection, local: int) -> None:
        subscription = self._subscriptions[local]

        def started() -> None:
            subscription.knows_daemon_is_unavailable = False

        parameters = {"configuration": subscription.configuration.value, **subscription.options}
        self._start_held(
            connection, local, self._subscriptions, self._local_ids,
            ("startLiveUpdates", parameters), ("stopLiveUpdates", "subscription"), started)

    def _start_held(
        self,
        connection: Connection,
        local: int,
        held: dict[int, Any],
        daemon_ids: dict[int, int],
        start: tuple[str, dict[str, Any]],
        stop: tuple[str, str],
        started: Callable[[], None],
    ) -> None:
        """Starts ``held[local]`` (a subscription or a session) on ``connection`` with the request
        ``start``; its reply names it by the member ``stop[1]``, which ``stop[0]`` takes to end it
        (when it ended while the daemon was starting it). A refusal ends it with the error."""
        item = held[local]
        item.started_on = connection
        operation, parameters = start
        stop_operation, number = stop

        def replied(result: dict[str, Any] | None, error: WaymarkError | None) -> None:
            if error is not None:
                if not isinstance(error, DaemonUnavailable):
                    held.pop(local, item).fail(error)
                return
            try:
                daemon_id = Fields(result, "result").integer(number)
            except DaemonProtocolError as protocol_error:
                item.fail(protocol_error)
                return
            if held.get(local) is not item:
                connection.send(stop_operation, {number: daemon_id}, _ignore)
                return
            item.daemon_id = daemon_id
            daemon_ids[daemon_id] = local
            started()

        connection.send(operation, parameters, replied)

    def _unsubscribe(self, local: int) -> None:
        subscription = self._subscriptions.pop(local, None)
        if subscription is None or subscription.daemon_id is None:
            return
        self._local_ids.pop(subscription.daemon_id, None)
        if self._connection is not None:
            self._connection.send("stopLiveUpdates", {"subscription": subscription.daemon_id}, _ignore)

    def _route_update(self, fields: Fields) -> None:
        local = self._local_ids.get(fields.integer("subscription"))
        update = decode_update(fields.fields("update"))
        if local is not None and local in self._subscriptions:
            self._subscriptions[local].deliver(update)

    def _route_batch(self, fields: Fields) -> None:
        """A deferred subscription's batch (or one part of it): its updates in the order taken."""
        local = self._local_ids.get(fields.integer("subscription"))
        values = fields.array("updates")
        updates = [decode_update(fields.element("updates", index, value)) for index, value in enumerate(values)]
        if local is not None and local in self._subscriptions:
            for update in updates:
                self._subscriptions[local].deliver(update)

    def _route_session_diagnostics(self, fields: Fields) -> None:
        local = self._session_ids.get(fields.integer("session"))
        diagnostics = Diagnostics.from_names(fields.strings("diagnostics"))
        if local is not None and local in self._sessions:
            self._sessions[local].deliver(diagnostics)

    # Monitors

    async def monitor(self, name: str) -> Monitor:
        """Opens the monitor ``name`` (1 … 128 bytes) of the app, creating it on first use
        (``CLMonitor(name)``); it is opened again on every new connection, and the daemon then
        sends the events the app has not taken. Raises ``Refused`` (the name, 16 monitors per
        app), ``DaemonUnavailable``."""
        monitor = OpenMonitor(name)
        local = next(self._next_local)
        self._monitors[local] = monitor
        try:
            connection = await self._connected()
            # A connection opened just now opened every monitor, this one too.
            if monitor.opened_on is not connection:
                self._open_monitor(connection, local)
            await asyncio.shield(monitor.opened)
        except BaseException:
            self._monitors.pop(local, None)
            raise
        return Monitor(self, local, name)

    def _open_monitor(self, connection: Connection, local: int) -> None:
        monitor = self._monitors[local]
        monitor.opened_on = connection
        if monitor.opened.done():
            monitor.opened = asyncio.get_running_loop().create_future()

        def opened(result: dict[str, Any] | None, error: WaymarkError | None) -> None:
            if error is not None:
                if not isinstance(error, DaemonUnavailable):
                    self._monitors.pop(local, monitor).fail(error)
                elif not monitor.opened.done():
                    monitor.opened.set_exception(error)
                    monitor.opened.exception()
                return
            try:
                daemon_id = Fields(result, "result").integer("monitor")
            except DaemonProtocolError as protocol_error:
                monitor.fail(protocol_error)
                return
            if self._monitors.get(local) is not monitor:
                connection.send("closeMonitor", {"monitor": daemon_id}, _ignore)
                return
            monitor.daemon_id = daemon_id
            self._monitor_ids[daemon_id] = local
            if not monitor.opened.done():
                monitor.opened.set_result(None)

        connection.send("openMonitor", {"name": monitor.name}, opened)

    async def _monitor_request(self, local: int, operation: str, parameters: dict[str, Any]) -> dict[str, Any]:
        """Sends a monitor's request once it is open on the current connection."""
        monitor = self._monitors.get(local)
        if monitor is None:
            raise DaemonUnavailable("the monitor is closed")
        connection = await self._connected()
        if monitor.opened_on is not connection:
            self._open_monitor(connection, local)
        await asyncio.shield(monitor.opened)
        return await connection.request(operation, {"monitor": monitor.daemon_id, **parameters})

    async def _next_monitor_event(self, local: int) -> tuple[MonitorEvent, int | None]:
        monitor = self._monitors.get(local)
        if monitor is None:
            raise DaemonUnavailable("the monitor is closed")
        return await monitor.next()

    def _acknowledge(self, local: int, sequence: int) -> None:
        monitor = self._monitors.get(local)
        if monitor is not None and monitor.daemon_id is not None and self._connection is not None:
            self._connection.send("acknowledgeMonitorEvents", {"monitor": monitor.daemon_id, "through": sequence}, _ignore)

    def _close_monitor(self, local: int) -> None:
        monitor = self._monitors.pop(local, None)
        if monitor is None:
            return
        monitor.fail(DaemonUnavailable("the monitor was closed"))
        if monitor.daemon_id is not None:
            self._monitor_ids.pop(monitor.daemon_id, None)
            if self._connection is not None:
                self._connection.send("closeMonitor", {"monitor": monitor.daemon_id}, _ignore)

    def _route_monitor_event(self, fields: Fields) -> None:
        # Events of a monitor that is not open here are skipped, as unknown events are.
        local = self._monitor_ids.get(fields.integer("monitor"))
        if local is not None and local in self._monitors:
            self._monitors[local].deliver((decode_monitor_event(fields), fields.optional_integer("sequence")))

    # Visits

    async def visits(self) -> list[Visit]:
        """The device's visit diary (``CLVisit``s), oldest arrival first; a daemon keeps the
        newest 1,000, with a store only. Raises ``LocationDenied`` when the app is not
        authorized, ``DaemonUnavailable``."""
        diary: list[Visit] = []
        parameters: dict[str, Any] = {}
        while True:
            try:
                result = Fields(await self._request("visits", parameters), "result")
            except Refused as error:
                if error.code == ErrorCode.AUTHORIZATION_DENIED.value:
                    raise LocationDenied(error.message) from None
                raise
            page = [result.element("visits", index, value) for index, value in enumerate(result.array("visits"))]
            diary += [decode_visit(entry) for entry in page]
            # A page at a time: a line holds about 250 of the diary's 1,000 visits.
            if not result.optional_boolean("more") or not page:
                return diary
            parameters = {"after": page[-1].string("arrivalDate")}

    async def monitor_visits(self) -> AsyncIterator[Visit]:
        """Starts the app's visit service (``startMonitoringVisits``) and yields each arrival
        (``departure_date`` ``None``) and departure as they happen; asked for again on every
        new connection. Visits the daemon kept while the app was away come first, oldest first,
        each once. The service stays with the app after the iterator ends until
        ``stop_visit_monitoring``."""
        local = next(self._next_local)
        watch = _VisitWatch()
        self._visit_watches[local] = watch
        try:
            connection = await self._connected()
            if watch.started_on is not connection:
                self._start_visits(connection, watch)
            while True:
                visit, sequence = await watch.next()
                if sequence is not None and self._connection is not None:
                    # Acknowledged as the loop takes it: one unread when the process ends
                    # is kept by the daemon and sent again.
                    self._connection.send("acknowledgeVisits", {"through": sequence}, _ignore)
                yield visit
        finally:
            self._visit_watches.pop(local, None)
            if not self._visit_watches:
                # The repeats to skip are those of the iterators held (a new daemon's store
                # starts its sequences over).
                self._newest_visit_sequence = 0

    async def stop_visit_monitoring(self) -> None:
        """Stops the app's visit service: no connection of the app gets visits any more."""
        await self._request("stopVisitMonitoring")
        watches, self._visit_watches = self._visit_watches, {}
        for watch in watches.values():
            watch.fail(DaemonUnavailable("visit monitoring was stopped"))

    def _start_visits(self, connection: Connection, watch: _VisitWatch) -> None:
        watch.started_on = connection

        def started(result: dict[str, Any] | None, error: WaymarkError | None) -> None:
            if error is not None and not isinstance(error, DaemonUnavailable):
                watch.fail(LocationDenied(error.message) if isinstance(error, Refused) and error.code == ErrorCode.AUTHORIZATION_DENIED.value else error)

        connection.send("startVisitMonitoring", {}, started)

    def _route_visit(self, fields: Fields) -> None:
        # A visit kept while the app was away has a sequence: passed on once (a repeat sent
        # before the acknowledgement reached the daemon is skipped), and acknowledged when an
        # iterator's loop takes it.
        visit = decode_visit(fields.fields("visit"))
        sequence = fields.optional_integer("sequence")
        if sequence is not None:
            if sequence <= self._newest_visit_sequence or not self._visit_watches:
                return
            self._newest_visit_sequence = sequence
        for watch in self._visit_watches.values():
            watch.deliver((visit, sequence))

    #: What each event does, by its ``event`` name; events this version does not know are
    #: skipped (a newer daemon may send them).
    _EVENT_ROUTES: dict[str, Callable[[Client, Fields], None]] = {
        "update": _route_update,
        "batch": _route_batch,
        "sessionDiagnostics": _route_session_diagnostics,
        "monitorEvent": _route_monitor_event,
        "visit": _route_visit,
    }

    # Sessions

    async def hold(self, held: HeldSession) -> int:
        """Starts a session (``sessions.py``) and keeps it through reconnects; returns its
        local number for ``release``. Raises ``Refused`` when the daemon refuses it."""
        local = next(self._next_local)
        self._sessions[local] = held
        try:
            connection = await self._connected()
            # A connection opened just now started every session, this one too.
            if held.started_on is not connection:
                self._start_session(connection, local)
            await held.started
        except BaseException:
            self.release(local)
            raise
        return local

    def release(self, local: int) -> None:
        """Ends a session ``hold`` started."""
        held = self._sessions.pop(local, None)
        if held is None:
            return
        held.arrived.set()
        if held.daemon_id is not None:
            self._session_ids.pop(held.daemon_id, None)
            if self._connection is not None:
                self._connection.send(held.stop, {"session": held.daemon_id}, _ignore)

    def _start_session(self, connection: Connection, local: int) -> None:
        held = self._sessions[local]

        def started() -> None:
            if not held.started.done():
                held.started.set_result(None)

        self._start_held(
            connection, local, self._sessions, self._session_ids, (held.start, held.parameters), (held.stop, "session"), started)

    # Location requests

    async def request_location(self, desired_accuracy: float = 0.0, timeout: float = 30.0) -> Location:
        """One location, as Core Location's ``requestLocation()``: the first at least
        ``desired_accuracy`` metres accurate, or the best once the accuracy stops improving,
        or the best the daemon had when ``timeout`` (seconds, from 0.001 to 600)
        ends. Cancelling the awaiting task withdraws the request (``cancelRequest``), and the
        daemon releases the receiver at once. Raises ``LocationUnknown`` when no location could
        be had in time, ``LocationDenied`` when the app is not authorized, ``Refused`` at once
        for a timeout out of range (as the daemon would), ``DaemonUnavailable``."""
        if not (isinstance(timeout, (int, float)) and MINIMUM_TIMEOUT <= timeout <= MAXIMUM_TIMEOUT):
            raise Refused(ErrorCode.INVALID_MESSAGE.value, f"timeout: expected from {MINIMUM_TIMEOUT:g} to {MAXIMUM_TIMEOUT:g} seconds, found {timeout}")
        if not (isinstance(desired_accuracy, (int, float)) and math.isfinite(desired_accuracy)):
            raise Refused(ErrorCode.INVALID_MESSAGE.value, f"desiredAccuracy: expected a number of metres, found {desired_accuracy}")
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        connection, request_id = await self._send_new(
            "requestLocation", {"desiredAccuracy": desired_accuracy, "timeout": timeout}, resolving(future)
        )
        try:
            # The daemon answers by the timeout; a little later, it is stalled.
            result = await connection.answer(request_id, future, "requestLocation", timeout + 2)
        except asyncio.CancelledError:
            self._withdraw(connection, request_id)
            raise
        except Refused as error:
            if error.code == ErrorCode.LOCATION_UNKNOWN.value:
                raise LocationUnknown(error.message) from None
            if error.code == ErrorCode.AUTHORIZATION_DENIED.value:
                raise LocationDenied(error.message) from None
            raise
        return decode_location(Fields(result, "result").fields("location"))

    async def last_known_location(self) -> LastKnownLocation | None:
        """The newest location the daemon has, however old, and its age, as Core Location's
        ``CLLocationManager.location``: ``None`` before the first fix. Asking never powers the
        receiver. Raises ``LocationDenied`` when the app is not authorized, ``DaemonUnavailable``."""
        try:
            result = await self._request("lastKnownLocation")
        except Refused as error:
            if error.code == ErrorCode.AUTHORIZATION_DENIED.value:
                raise LocationDenied(error.message) from None
            raise
        return decode_last_known_location(Fields(result, "result"))

    @staticmethod
    def _withdraw(connection: Connection, request_id: int) -> None:
        if connection.forget(request_id):
            connection.send("cancelRequest", {"request": request_id}, _ignore)

    # Status

    async def status(self) -> StatusReport:
        """The daemon's status: its source, the receiver's power state and ledger, the last
        location, whether the device is stationary, clients and subscriptions."""
        result = await self._request("status")
        return decode_status(Fields(result, "result").fields("status"))

    async def _request(self, operation: str, parameters: dict[str, Any] | None = None) -> dict[str, Any]:
        """Sends one request on the connection (opened if needed) and returns its ``result``."""
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        connection, request_id = await self._send_new(operation, parameters or {}, resolving(future))
        return await connection.answer(request_id, future, operation)

    async def _send_new(self, operation: str, parameters: dict[str, Any], handler: ReplyHandler) -> tuple[Connection, int]:
        """Sends a request the app makes now (not one a new connection replays) on a connection
        the daemon has not hung up on, opened if needed, and returns the connection and the id.
        If the socket refuses the request's line (the daemon went between that check and the
        write), the daemon cannot have seen it: it is sent once more, on a new connection. A
        request the daemon may have read when it went is not sent again: ``handler`` gets
        ``DaemonUnavailable``. Raises ``DaemonUnavailable`` when no daemon answers."""
        for _ in range(2):
            connection = await self._connected()
            request_id = connection.try_send(operation, parameters, handler)
            if request_id is not None:
                return connection, request_id
        raise DaemonUnavailable("the daemon closed the connection")

    # Connection

    async def close(self) -> None:
        """Closes the connection and ends every live-updates iterator with ``DaemonUnavailable``."""
        if self._reconnecting is not None:
            self._reconnecting.cancel()
            self._reconnecting = None
        subscriptions, self._subscriptions = self._subscriptions, {}
        for subscription in subscriptions.values():
            subscription.fail(DaemonUnavailable("the client was closed"))
        sessions, self._sessions = self._sessions, {}
        for held in sessions.values():
            held.fail(DaemonUnavailable("the client was closed"))
        monitors, self._monitors = self._monitors, {}
        for monitor in monitors.values():
            monitor.fail(DaemonUnavailable("the client was closed"))
        watches, self._visit_watches = self._visit_watches, {}
        for watch in watches.values():
            watch.fail(DaemonUnavailable("the client was closed"))
        if self._connection is not None:
            self._connection.close()

    async def _connected(self) -> Connection:
        async with self._connecting:
            if self._connection is not None and self._connection.hung_up():
                # The daemon went (it restarted just now) and the reading task has not seen it
                # yet: it reads what came before and reports the loss (``_lost``) first.
                await self._connection.finish()
            if self._connection is None:
                paths = [self._socket_path] if self._socket_path else client_candidates(os.environ, os.getuid())
                connection = await Connection.open(paths, SocketTrust.current(), self._app_id, self._route_event, self._lost)
                self._connection = connection
                self._reconnect_delay = _FIRST_RECONNECT_DELAY
                # Sessions first, as the Swift library: what they keep is re-taken by them.
                for local in sorted(self._sessions):
                    self._start_session(connection, local)
                for local in sorted(self._subscriptions):
                    self._start(connection, local)
                for local in sorted(self._monitors):
                    self._open_monitor(connection, local)
                for watch in self._visit_watches.values():
                    self._start_visits(connection, watch)
            return self._connection

    def _route_event(self, fields: Fields) -> None:
        route = self._EVENT_ROUTES.get(fields.string("event"))
        if route is not None:
            route(self, fields)

    def _lost(self, error: WaymarkError) -> None:
        self._connection = None
        self._local_ids = {}
        self._session_ids = {}
        self._monitor_ids = {}
        for subscription in self._subscriptions.values():
            subscription.started_on = subscription.daemon_id = None
        for held in self._sessions.values():
            held.started_on = held.daemon_id = None
        for monitor in self._monitors.values():
            monitor.opened_on = monitor.daemon_id = None
        for watch in self._visit_watches.values():
            watch.started_on = None
        if isinstance(error, DaemonProtocolError):
            subscriptions, self._subscriptions = self._subscriptions, {}
            for subscription in subscriptions.values():
                subscription.fail(error)
            sessions, self._sessions = self._sessions, {}
            for held in sessions.values():
                held.fail(error)
            monitors, self._monitors = self._monitors, {}
            for monitor in monitors.values():
                monitor.fail(error)
            watches, self._visit_watches = self._visit_watches, {}
            for watch in watches.values():
                watch.fail(error)
            return
        self._announce_unavailable()
        self._schedule_reconnect()

    def _announce_unavailable(self) -> None:
        """Tells each live-updates iterator, once per outage, that the daemon is unavailable."""
        for subscription in self._subscriptions.values():
            if not subscription.knows_daemon_is_unavailable:
                subscription.knows_daemon_is_unavailable = True
                subscription.deliver(LocationUpdate(location=None, diagnostics=Diagnostics(daemon_unavailable=True)))

    def _schedule_reconnect(self) -> None:
        if self._holds_anything and (self._reconnecting is None or self._reconnecting.done()):
            self._reconnecting = asyncio.ensure_future(self._reconnect())

    async def _reconnect(self) -> None:
        while self._holds_anything and self._connection is None:
            await asyncio.sleep(self._reconnect_delay)
            self._reconnect_delay = min(self._reconnect_delay * 2, _LONGEST_RECONNECT_DELAY)
            try:
                await self._connected()
            except DaemonUnavailable:
                continue
            except WaymarkError as error:
                for subscription in self._subscriptions.values():
                    subscription.fail(error)
                for held in self._sessions.values():
                    held.fail(error)
                for monitor in self._monitors.values():
                    monitor.fail(error)
                for watch in self._visit_watches.values():
                    watch.fail(error)
                return

    @property
    def _holds_anything(self) -> bool:
        """Whether something is to be re-taken on a new connection."""
        return bool(self._subscriptions or self._sessions or self._monitors or self._visit_watches)


def _ignore(result: dict[str, Any] | None, error: WaymarkError | None) -> None:
    """The handler of a request whose reply nobody waits for."""


# The process's client per event loop, as the Swift library's one connection per process.
_shared: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Client] = weakref.WeakKeyDictionary()


def shared() -> Client:
    """The running event loop's client, created at first use."""
    loop = asyncio.get_running_loop()
    if loop not in _shared:
        _shared[loop] = Client()
    return _shared[loop]


def live_updates(
    configuration: LiveConfiguration | str = LiveConfiguration.DEFAULT,
    *,
    distance_filter: float = 0,
    minimum_interval: float = 0,
    batching: Batching | None = None,
    passive: bool = False,
) -> AsyncIterator[LocationUpdate]:
    """``Client.live_updates`` on the shared client."""

    async def updates() -> AsyncIterator[LocationUpdate]:
        live = shared().live_updates(
            configuration, distance_filter=distance_filter, minimum_interval=minimum_interval, batching=batching, passive=passive)
        async with contextlib.aclosing(live) as inner:
            async for update in inner:
                yield update

    return updates()


async def request_location(desired_accuracy: float = 0.0, timeout: float = 30.0) -> Location:
    """``Client.request_location`` on the shared client."""
    return await shared().request_location(desired_accuracy, timeout)


async def status() -> StatusReport:
    """``Client.status`` on the shared client."""
    return await shared().status()


async def last_known_location() -> LastKnownLocation | None:
    """``Client.last_known_location`` on the shared client."""
    return await shared().last_known_location()


async def monitor(name: str) -> Monitor:
    """``Client.monitor`` on the shared client."""
    return await shared().monitor(name)


async def visits() -> list[Visit]:
    """``Client.visits`` on the shared client."""
    return await shared().visits()


def monitor_visits() -> AsyncIterator[Visit]:
    """``Client.monitor_visits`` on the shared client."""
    return shared().monitor_visits()


async def stop_visit_monitoring() -> None:
    """``Client.stop_visit_monitoring`` on the shared client."""
    await shared().stop_visit_monitoring()
