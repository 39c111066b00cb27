"""Sessions, as the Swift library's ``ServiceSession`` and ``BackgroundActivitySession`` (Core
Location's ``CLServiceSession`` and ``CLBackgroundActivitySession``) with snake_case names: held
in the daemon from ``start()`` (or entering ``async with``) until ``invalidate()`` (or leaving
it), and taken again by the client after a reconnect (docs/semantics.md, "Consumers that come
and go"; docs/authorization.md)."""

from __future__ import annotations

import asyncio
import enum
from typing import Any, AsyncIterator

from .client import Client, shared
from .errors import WaymarkError
from .inbox import Inbox
from .model import Diagnostics

#: Diagnostics a session keeps while its consumer is busy; older ones give way.
DIAGNOSTICS_BUFFER = 16


class AuthorizationRequirement(str, enum.Enum):
    """The authorization a service session needs (``CLServiceSession.AuthorizationRequirement``)."""

    NONE = "none"
    WHEN_IN_USE = "whenInUse"
    ALWAYS = "always"


class HeldSession(Inbox[Diagnostics]):
    """What the client needs of a session: the request that starts it, the one that stops it,
    and where its ``sessionDiagnostics`` go. The client starts it on every connection."""

    def __init__(self, start: str, parameters: dict[str, Any], stop: str) -> None:
        super().__init__(DIAGNOSTICS_BUFFER)
        self.start = start
        self.parameters = parameters
        self.stop = stop
        #: The connection it was started on, and the daemon's number for it there.
        self.started_on: Any = None
        self.daemon_id: int | None = None
        self.started = asyncio.get_running_loop().create_future()

    def fail(self, error: WaymarkError) -> None:
        if not self.started.done():
            self.started.set_exception(error)
            # Awaited by start(); no one else is told twice.
            self.started.exception()
        super().fail(error)


class _Session:
    """Starting, holding and invalidating one session on a client."""

    def __init__(self, held: HeldSession, client: Client | None) -> None:
        self._held = held
        self._client = client
        self._local: int | None = None

    async def start(self) -> None:
        """Starts the session in the daemon. Raises ``Refused`` when the daemon refuses it
        (``insufficientlyInUse`` for a background activity session of an app not in use),
        ``DaemonUnavailable``."""
        if self._local is not None:
            return
        client = self._client or shared()
        self._client = client
        self._local = await client.hold(self._held)

    def invalidate(self) -> None:
        """Ends the session (``invalidate()``); it is not taken again."""
        if self._local is None or self._client is None:
            return
        local, self._local = self._local, None
        self._client.release(local)

    async def __aenter__(self) -> Any:
        await self.start()
        return self

    async def __aexit__(self, *_: object) -> None:
        self.invalidate()


class ServiceSession(_Session):
    """A declaration that the app needs location, and at what authorization: Core Location's
    ``CLServiceSession``. Holding one with ``WHEN_IN_USE`` or ``ALWAYS`` is how an app asks the
    operator for authorization; ``diagnostics()`` says what stands in the way, each time it
    changes. Sessions layer: holding several is their union.

        async with waymark.ServiceSession(waymark.AuthorizationRequirement.WHEN_IN_USE) as session:
            async for diagnostics in session.diagnostics():
                if diagnostics.authorization_request_in_progress:
                    print("waiting for the operator")
    """

    def __init__(
        self,
        authorization: AuthorizationRequirement | str = AuthorizationRequirement.WHEN_IN_USE,
        *,
        full_accuracy_purpose_key: str | None = None,
        client: Client | None = None,
    ) -> None:
        self.authorization = AuthorizationRequirement(authorization)
        self.full_accuracy_purpose_key = full_accuracy_purpose_key
        parameters: dict[str, Any] = {"authorization": self.authorization.value}
        if full_accuracy_purpose_key is not None:
            parameters["fullAccuracyPurposeKey"] = full_accuracy_purpose_key
        self._diagnostics_of = HeldSession("startServiceSession", parameters, "stopServiceSession")
        super().__init__(self._diagnostics_of, client)

    async def diagnostics(self) -> AsyncIterator[Diagnostics]:
        """The session's diagnostics, each time they change (the first once the daemon has
        decided); ends when the session is invalidated."""
        held = self._diagnostics_of
        while True:
            while not held.items:
                if held.failure is not None:
                    raise held.failure
                if self._local is None:
                    return
                held.arrived.clear()
                await held.arrived.wait()
            yield held.items.popleft()


class BackgroundActivitySession(_Session):
    """Core Location's ``CLBackgroundActivitySession`` for a process on a board: while held,
    the app stays in use and keeps receiving, and what it holds in the daemon survives the
    process's exit or death until it comes back. It can be started only while the app is in
    use; otherwise ``start()`` raises ``Refused`` with ``insufficientlyInUse``. A process that
    starts again creates its session again at once and gets back the one the daemon kept."""

    def __init__(self, *, client: Client | None = None) -> None:
        super().__init__(HeldSession("startBackgroundActivitySession", {}, "stopBackgroundActivitySession"), client)
