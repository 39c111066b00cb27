"""Monitors (protocol version 3, docs/protocol.md "Operations of version 3"), as the Swift
library's ``Monitor`` and Core Location's ``CLMonitor``: a named set of circles the daemon
watches for the app while it is away; ``events()`` yields each state change once, and
acknowledges it as it is taken."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any, AsyncIterator

from .errors import WaymarkError
from .inbox import Inbox
from .model import BeaconIdentityCondition, CircularGeographicCondition, MonitorEvent, MonitorRecord, MonitorState, decode_monitor_event, decode_monitor_record
from .wire import Fields

if TYPE_CHECKING:
    from .client import Client
    from .connection import Connection

#: Events a monitor keeps while its consumer is busy: the daemon's queue of one app.
EVENT_BUFFER = 100


class OpenMonitor(Inbox[tuple[MonitorEvent, "int | None"]]):
    """One monitor's state in the client, which outlives connections: opened again on each."""

    def __init__(self, name: str) -> None:
        super().__init__(EVENT_BUFFER)
        self.name = name
        #: The connection it was opened on, and the daemon's number for it there.
        self.opened_on: Connection | None = None
        self.daemon_id: int | None = None
        #: Settled when the daemon has opened it on the current connection.
        self.opened: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        #: The newest sequence passed on: older ones are repeats (sent again before the
        #: acknowledgement reached the daemon).
        self.newest_sequence = 0

    def deliver(self, item: tuple[MonitorEvent, int | None]) -> None:
        sequence = item[1]
        if sequence is not None:
            if sequence <= self.newest_sequence:
                return
            self.newest_sequence = sequence
        super().deliver(item)

    def fail(self, error: WaymarkError) -> None:
        super().fail(error)
        if not self.opened.done():
            self.opened.set_exception(error)
            self.opened.exception()  # retrieved: a monitor nobody awaits fails quietly


class Monitor:
    """A monitor of the app, from ``Client.monitor(name)`` (``CLMonitor(name)``)."""

    def __init__(self, client: Client, local: int, name: str) -> None:
        self._client = client
        self._local = local
        #: The monitor's name.
        self.name = name

    async def add(
        self,
        condition: CircularGeographicCondition | BeaconIdentityCondition,
        identifier: str,
        assuming: MonitorState | str = MonitorState.UNKNOWN,
    ) -> None:
        """Adds ``condition`` under ``identifier`` (replacing one of that identifier); its state
        is ``assuming`` until a fix decides. The 21st condition of an app is kept
        ``unmonitored`` with ``conditionLimitExceeded`` (an event says so); a beacon is kept
        ``unmonitored`` with ``conditionUnsupported`` (no Bluetooth ranging here)."""
        if isinstance(condition, BeaconIdentityCondition) and condition.uuid is None:
            raise ValueError("a beacon condition to add needs its UUID")
        parameters: dict[str, Any] = {"identifier": identifier, "condition": condition.encode()}
        if MonitorState(assuming) != MonitorState.UNKNOWN:
            parameters["assuming"] = MonitorState(assuming).value
        await self._client._monitor_request(self._local, "addCondition", parameters)

    async def remove(self, identifier: str) -> None:
        """Removes the condition ``identifier``, if there is one."""
        await self._client._monitor_request(self._local, "removeCondition", {"identifier": identifier})

    async def record(self, identifier: str) -> MonitorRecord | None:
        """The condition ``identifier`` and its last event, or ``None``."""
        result = await self._client._monitor_request(self._local, "monitorRecord", {"identifier": identifier})
        record = Fields(result, "result").optional_fields("record")
        return None if record is None else decode_monitor_record(record)

    async def identifiers(self) -> list[str]:
        """The identifiers of its conditions, in the order added."""
        result = await self._client._monitor_request(self._local, "monitorIdentifiers", {})
        return Fields(result, "result").strings("identifiers")

    async def events(self) -> AsyncIterator[MonitorEvent]:
        """Its events as they happen, first those of the time the app was away; each is
        acknowledged to the daemon as it is taken, so that it does not come again."""
        while True:
            event, sequence = await self._client._next_monitor_event(self._local)
            if sequence is not None:
                self._client._acknowledge(self._local, sequence)
            yield event

    def close(self) -> None:
        """Closes the monitor: its events end (its conditions stay in the daemon)."""
        self._client._close_monitor(self._local)
