"""The protocol's framing and strict JSON (docs/protocol.md, "Framing"), for lines that come
from the daemon: nothing in them is trusted. A line that breaks a rule raises
``DaemonProtocolError``, never anything else."""

from __future__ import annotations

import json
import math
from typing import Any, Callable

from .errors import DaemonProtocolError

#: The longest line, newline not counted.
MAXIMUM_LINE_LENGTH = 65_536
#: The deepest nesting of arrays and objects in a message.
MAXIMUM_DEPTH = 16


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    members = dict(pairs)
    if len(members) != len(pairs):
        names = [name for name, _ in pairs]
        duplicate = next(name for name in names if names.count(name) > 1)
        raise ValueError(f"duplicate member name {duplicate!r}")
    return members


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"number {text} is out of range")
    return value


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


_DECODER = json.JSONDecoder(object_pairs_hook=_no_duplicates, parse_float=_finite, parse_constant=_refuse_constant)


def _check(value: Any, depth: int) -> None:
    """Checks the nesting depth and that every string is valid Unicode (no lone surrogates)."""
    if isinstance(value, str):
        value.encode("utf-8")
    elif isinstance(value, (list, dict)):
        if depth >= MAXIMUM_DEPTH:
            raise ValueError(f"nested deeper than {MAXIMUM_DEPTH} levels")
        for item in value.items() if isinstance(value, dict) else value:
            if isinstance(item, tuple):
                _check(item[0], depth + 1)
                _check(item[1], depth + 1)
            else:
                _check(item, depth + 1)


def decode_line(line: bytes) -> dict[str, Any]:
    """The JSON object of one line from the daemon (newline removed; a trailing ``\\r`` is
    ignored)."""
    if line.endswith(b"\r"):
        line = line[:-1]
    if len(line) > MAXIMUM_LINE_LENGTH:
        raise DaemonProtocolError(f"the daemon sent a line of more than {MAXIMUM_LINE_LENGTH} bytes")
    try:
        value = _DECODER.decode(line.decode("utf-8"))
        _check(value, 0)
    except (ValueError, UnicodeError, RecursionError) as error:
        raise DaemonProtocolError(f"the daemon sent a line that is not JSON: {error}") from None
    if not isinstance(value, dict):
        raise DaemonProtocolError("the daemon sent a line that is not a JSON object")
    return value


def encode_line(message: dict[str, Any]) -> bytes:
    """A request as one line, newline included (compact JSON, no NaN or infinity)."""
    return json.dumps(message, separators=(",", ":"), allow_nan=False, ensure_ascii=False).encode("utf-8") + b"\n"


class Fields:
    """Typed access to the members of a JSON object from the daemon; a missing or mistyped
    member raises ``DaemonProtocolError`` naming its path (``status.source.kind``)."""

    def __init__(self, value: Any, path: str) -> None:
        if not isinstance(value, dict):
            raise DaemonProtocolError(f"{path}: expected an object")
        self.members = value
        self.path = path

    def _invalid(self, key: str, expected: str) -> DaemonProtocolError:
        return DaemonProtocolError(f"{self.path}.{key}: expected {expected}, found {self.members.get(key)!r}")

    def optional(self, key: str, expected: str, accept: Callable[[Any], bool]) -> Any:
        """The member, or ``None`` when it is absent or ``null``."""
        value = self.members.get(key)
        if value is None:
            return None
        if not accept(value):
            raise self._invalid(key, expected)
        return value

    def require(self, key: str, expected: str, accept: Callable[[Any], bool]) -> Any:
        value = self.optional(key, expected, accept)
        if value is None:
            raise self._invalid(key, expected)
        return value

    def double(self, key: str) -> float:
        return float(self.require(key, "a number", _is_number))

    def coordinate(self, key: str, limit: float) -> float:
        """A latitude (``limit`` 90) or longitude (180): a number no place has is refused."""
        return float(self.require(key, f"a number from -{limit} to {limit}", lambda value: _is_number(value) and -limit <= value <= limit))

    def optional_double(self, key: str) -> float | None:
        value = self.optional(key, "a number", _is_number)
        return None if value is None else float(value)

    def integer(self, key: str) -> int:
        return self.require(key, "an integer", _is_integer)

    def optional_integer(self, key: str) -> int | None:
        return self.optional(key, "an integer", _is_integer)

    def boolean(self, key: str) -> bool:
        return self.require(key, "a boolean", _is_bool)

    def optional_boolean(self, key: str) -> bool | None:
        return self.optional(key, "a boolean", _is_bool)

    def string(self, key: str) -> str:
        return self.require(key, "a string", _is_string)

    def optional_string(self, key: str) -> str | None:
        return self.optional(key, "a string", _is_string)

    def strings(self, key: str) -> list[str]:
        return self.require(key, "an array of strings", lambda value: isinstance(value, list) and all(map(_is_string, value)))

    def array(self, key: str) -> list[Any]:
        return self.require(key, "an array", lambda value: isinstance(value, list))

    def optional_array(self, key: str) -> list[Any] | None:
        return self.optional(key, "an array", lambda value: isinstance(value, list))

    def fields(self, key: str) -> Fields:
        return Fields(self.require(key, "an object", _is_object), f"{self.path}.{key}")

    def optional_fields(self, key: str) -> Fields | None:
        value = self.optional(key, "an object", _is_object)
        return None if value is None else Fields(value, f"{self.path}.{key}")

    def element(self, key: str, index: int, value: Any) -> Fields:
        """An object inside the array member ``key``."""
        return Fields(value, f"{self.path}.{key}[{index}]")


def _is_bool(value: Any) -> bool:
    return isinstance(value, bool)


def _is_integer(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _is_string(value: Any) -> bool:
    return isinstance(value, str)


def _is_object(value: Any) -> bool:
    return isinstance(value, dict)
