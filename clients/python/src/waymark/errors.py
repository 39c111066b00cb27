"""The errors of the Waymark client, as the Swift library's ``WaymarkError`` and ``LocationError``.

Every error the daemon sends carries one of the protocol's codes (docs/protocol.md, "Error
codes"); the exception raised for it keeps that code in ``code``.
"""

from __future__ import annotations

import enum


class ErrorCode(str, enum.Enum):
    """The ``code`` of an error reply (docs/protocol.md, "Error codes")."""

    MALFORMED_JSON = "malformedJSON"
    MESSAGE_TOO_LARGE = "messageTooLarge"
    INVALID_MESSAGE = "invalidMessage"
    UNKNOWN_OPERATION = "unknownOperation"
    UNSUPPORTED_OPERATION = "unsupportedOperation"
    UNSUPPORTED_VERSION = "unsupportedVersion"
    HELLO_REQUIRED = "helloRequired"
    UNKNOWN_SUBSCRIPTION = "unknownSubscription"
    UNKNOWN_REQUEST = "unknownRequest"
    CANCELLED = "cancelled"
    LIMIT_EXCEEDED = "limitExceeded"
    LOCATION_UNKNOWN = "locationUnknown"
    AUTHORIZATION_DENIED = "authorizationDenied"
    INSUFFICIENTLY_IN_USE = "insufficientlyInUse"
    PERMISSION_DENIED = "permissionDenied"
    INTERNAL_ERROR = "internalError"


class WaymarkError(Exception):
    """Why the client could not do what was asked."""


class DaemonUnavailable(WaymarkError):
    """The daemon cannot be reached: not running, restarting, not trusted, or the socket is
    elsewhere (see ``WAYMARK_SOCKET``). ``reason`` says why, for each socket tried."""

    def __init__(self, reason: str) -> None:
        super().__init__(f"the Waymark daemon is unavailable: {reason}")
        self.reason = reason


class Refused(WaymarkError):
    """The daemon refused the request. ``code`` is the protocol's error code as the daemon
    sent it (a string, so that codes of newer daemons survive; compare with ``ErrorCode``)."""

    def __init__(self, code: str, message: str, available_in_version: int | None = None) -> None:
        super().__init__(f"the Waymark daemon refused: {code}: {message}")
        self.code = code
        self.message = message
        self.available_in_version = available_in_version


class DaemonProtocolError(WaymarkError):
    """The daemon sent something that is not the protocol (a line too long, not JSON, a
    message with a missing or mistyped member). The connection is closed."""


class LocationError(WaymarkError):
    """Errors of one-shot location requests, as Core Location's ``CLError``."""

    code: str = ""


class LocationUnknown(LocationError):
    """No location could be had before the timeout (``kCLErrorLocationUnknown``)."""

    code = ErrorCode.LOCATION_UNKNOWN.value

    def __init__(self, message: str = "no location could be had before the timeout") -> None:
        super().__init__(message)


class LocationDenied(LocationError):
    """The app is not authorized (``kCLErrorDenied``)."""

    code = ErrorCode.AUTHORIZATION_DENIED.value

    def __init__(self, message: str = "the app is not authorized to use location") -> None:
        super().__init__(message)
