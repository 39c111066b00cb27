"""One connection to the daemon: connects to a trusted socket, says ``hello``, sends requests
and hands each reply to its request and each event to the client (docs/protocol.md).

Replies are routed synchronously as they are read, so that a subscription knows its number
before the first event for it is handled."""

from __future__ import annotations

import asyncio
import errno
import os
import select
import socket
from typing import Any, Callable

from .errors import DaemonProtocolError, DaemonUnavailable, ErrorCode, Refused, WaymarkError
from .socket_path import SERVICE_USER_NAME, SocketTrust
from .wire import MAXIMUM_LINE_LENGTH, Fields, decode_line, encode_line

#: The newest protocol version this client speaks (docs/protocol.md, "Versions"), the one the
#: daemon speaks: version 1, version 2's sessions and version 3's monitors. The tests hold it
#: to ProtocolVersion.current and to the daemon's answer to a newer hello.
PROTOCOL_VERSION = 3
#: How long a connect waits while the daemon's queue of new connections is full, seconds.
CONNECT_PATIENCE = 2.0
#: How long the reading task may take to read what a daemon that hung up sent before, seconds.
FINISH_PATIENCE = 1.0
#: How long a one-shot request waits for its reply, seconds: the daemon answers those in the
#: turn that reads them, so one silent this long is stopped or stalled (as in the Swift library).
ANSWER_PATIENCE = 30.0

#: Gets a reply's ``result`` object, or the error that ended the request.
ReplyHandler = Callable[[dict[str, Any] | None, WaymarkError | None], None]


class Connection:
    """A connected, trusted socket after ``hello``. ``on_event`` gets each event's members;
    ``on_lost`` gets the error once the connection has ended (EOF, a read error, or a line
    that is not the protocol, after which the connection is closed)."""

    def __init__(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        on_event: Callable[[Fields], None],
        on_lost: Callable[[WaymarkError], None],
    ) -> None:
        self._reader = reader
        self._writer = writer
        self._on_event = on_event
        self._on_lost = on_lost
        self._handlers: dict[int, ReplyHandler] = {}
        self._last_id = 0
        self.closed = False
        self.hello: dict[str, Any] = {}
        self._reading = asyncio.ensure_future(self._read())

    @classmethod
    async def open(
        cls,
        paths: list[str],
        trust: SocketTrust,
        app_id: str | None,
        on_event: Callable[[Fields], None],
        on_lost: Callable[[WaymarkError], None],
    ) -> Connection:
        """Connects to the first trusted socket of ``paths`` that answers and says hello.
        Raises ``DaemonUnavailable`` saying why for each path tried."""
        failures = []
        for path in paths:
            try:
                connection = await _connect_trusted(path, trust)
            except OSError as error:
                failures.append(_explain(error, path))
                continue
            reader, writer = await asyncio.open_unix_connection(sock=connection, limit=MAXIMUM_LINE_LENGTH + 2)
            opened = cls(reader, writer, on_event, on_lost)
            parameters: dict[str, Any] = {"version": PROTOCOL_VERSION}
            if app_id is not None:
                parameters["appID"] = app_id
            try:
                opened.hello = await opened.request("hello", parameters)
            except BaseException:
                opened.close()
                raise
            return opened
        raise DaemonUnavailable("; then ".join(failures) or "no socket to try")

    def send(self, operation: str, parameters: dict[str, Any], handler: ReplyHandler) -> int:
        """Sends a request and returns its id; ``handler`` gets its reply, or the error that
        ended the connection first (at once when it has ended already)."""
        request_id = self.try_send(operation, parameters, handler)
        if request_id is None:
            handler(None, DaemonUnavailable("the daemon closed the connection"))
            return 0
        return request_id

    def try_send(self, operation: str, parameters: dict[str, Any], handler: ReplyHandler) -> int | None:
        """Sends a request and returns its id, as ``send``; but when the connection has ended,
        or ends because the socket refused the request's line (EPIPE, ECONNRESET: the daemon
        went, and never had the line), returns ``None`` without calling ``handler``."""
        if self.closed:
            return None
        try:
            line = encode_line({"id": self._last_id + 1, "op": operation, **parameters})
        except ValueError as error:
            # NaN or infinity, which JSON cannot carry: refused before anything is sent.
            raise Refused(ErrorCode.INVALID_MESSAGE.value, f"{operation}: {error}") from None
        self._last_id += 1
        self._handlers[self._last_id] = handler
        self._writer.write(line)
        if self._writer.transport.is_closing():
            # The transport closes at once only when the socket refused the line.
            del self._handlers[self._last_id]
            self._lose(DaemonUnavailable("the daemon closed the connection"))
            return None
        return self._last_id

    def hung_up(self) -> bool:
        """Whether the daemon hung up on the connection (or shut its sending side, or the
        socket failed), though the reading task may not have seen it yet: poll(2), not waiting."""
        if self.closed or self._writer.transport.is_closing():
            return True
        poller = select.poll()
        poller.register(self._writer.get_extra_info("socket").fileno(), select.POLLIN | select.POLLRDHUP)
        return any(events & (select.POLLHUP | select.POLLRDHUP | select.POLLERR) for _, events in poller.poll(0))

    async def finish(self) -> None:
        """Ends a connection the daemon hung up on as the reading task does: it reads what the
        daemon sent before (replies to earlier requests) and reports the loss; one that takes
        longer than ``FINISH_PATIENCE`` is ended as it is."""
        await asyncio.wait({self._reading}, timeout=FINISH_PATIENCE)
        self._lose(DaemonUnavailable("the daemon closed the connection"))

    async def request(self, operation: str, parameters: dict[str, Any] | None = None) -> dict[str, Any]:
        """Sends a request and returns its reply's ``result``; raises ``Refused`` for an error
        reply, ``DaemonUnavailable`` or ``DaemonProtocolError`` when the connection ends first,
        ``DaemonUnavailable`` when no reply comes within ``ANSWER_PATIENCE``."""
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        request_id = self.send(operation, parameters or {}, resolving(future))
        return await self.answer(request_id, future, operation)

    async def answer(
        self, request_id: int, future: asyncio.Future[dict[str, Any]], operation: str, patience: float | None = None
    ) -> dict[str, Any]:
        """The reply to request ``request_id``, settled in ``future``. After ``patience``
        seconds (``ANSWER_PATIENCE`` unless told) without it the request is forgotten, a late
        reply dropped, and ``DaemonUnavailable`` says so: a daemon that stopped answering
        holds no caller."""
        patience = ANSWER_PATIENCE if patience is None else patience
        try:
            return await asyncio.wait_for(future, patience)
        except asyncio.TimeoutError:
            self.forget(request_id)
            raise DaemonUnavailable(f"no answer to {operation} within {float(patience)} seconds") from None

    def forget(self, request_id: int) -> bool:
        """Drops the handler of a request that is no longer awaited; whether it was pending."""
        return self._handlers.pop(request_id, None) is not None

    def close(self) -> None:
        """Closes the connection; pending requests fail with ``DaemonUnavailable``."""
        self._lose(DaemonUnavailable("the connection was closed"))

    async def _read(self) -> None:
        try:
            while True:
                try:
                    line = await self._reader.readuntil(b"\n")
                except asyncio.IncompleteReadError:
                    self._lose(DaemonUnavailable("the daemon closed the connection"))
                    return
                except asyncio.LimitOverrunError:
                    raise DaemonProtocolError(f"the daemon sent a line of more than {MAXIMUM_LINE_LENGTH} bytes") from None
                line = line[:-1]
                if line.strip(b"\r") == b"":
                    continue
                self._receive(decode_line(line))
                if self.closed:
                    return
        except DaemonProtocolError as error:
            self._lose(error)
        except OSError as error:
            self._lose(DaemonUnavailable(f"read: {error.strerror or error}"))

    def _receive(self, message: dict[str, Any]) -> None:
        fields = Fields(message, "message")
        if "event" in message:
            fields.string("event")
            self._on_event(fields)
            return
        request_id = message.get("id")
        if isinstance(request_id, bool) or not isinstance(request_id, int) or request_id not in self._handlers:
            return  # a reply to a request no longer awaited, or to a line the daemon could not read
        handler = self._handlers.pop(request_id)
        error = fields.optional_fields("error")
        if error is not None:
            handler(None, Refused(error.string("code"), error.string("message"), error.optional_integer("availableInVersion")))
        else:
            handler(fields.fields("result").members, None)

    def _lose(self, error: WaymarkError) -> None:
        if self.closed:
            return
        self.closed = True
        self._writer.close()
        if asyncio.current_task() is not self._reading:
            self._reading.cancel()
        handlers, self._handlers = self._handlers, {}
        for request_id in sorted(handlers):
            handlers[request_id](None, error)
        self._on_lost(error)


def resolving(future: asyncio.Future[dict[str, Any]]) -> ReplyHandler:
    """A handler that settles ``future`` with the reply's result or error (once)."""
    def resolve(result: dict[str, Any] | None, error: WaymarkError | None) -> None:
        if future.done():
            return
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(result or {})

    return resolve


async def _connect_trusted(path: str, trust: SocketTrust) -> socket.socket:
    """A connection to ``path`` (waiting up to ``CONNECT_PATIENCE`` while the daemon's queue
    is full), kept only if ``trust`` accepts the directories on the way and the listener."""
    connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM | socket.SOCK_CLOEXEC)
    try:
        connection.setblocking(False)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + CONNECT_PATIENCE
        while True:
            try:
                connection.connect(path)
                break
            except BlockingIOError:
                if loop.time() >= deadline:
                    raise
                await asyncio.sleep(0.01)
        trust.check_directories(path)
        trust.check_listener(connection, path)
        return connection
    except BaseException:
        connection.close()
        raise


def _explain(error: OSError, path: str) -> str:
    """``error`` as the user reads it, with what to do about a socket they may not use."""
    if isinstance(error, PermissionError) and error.errno == errno.EPERM:
        return str(error.strerror)
    text = f'connect("{path}"): {os.strerror(error.errno) if error.errno else error} (errno {error.errno})'
    if error.errno == errno.EACCES:
        text += f"; only root and members of the group '{SERVICE_USER_NAME}' may connect (docs/hardware.md)"
    return text
