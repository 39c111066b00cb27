"""Where the daemon's socket is and whom it is trusted to, exactly as the Swift client decides
(docs/protocol.md, "Connecting"; Sources/WaymarkProtocol/SocketPath.swift and
Sources/WaymarkSystem/SocketTrust.swift)."""

from __future__ import annotations

import errno
import os
import socket
import stat
import struct
from typing import Mapping

#: The system daemon's socket.
SYSTEM = "/run/waymark/waymark.sock"
#: The environment variable that names the socket explicitly.
ENVIRONMENT_VARIABLE = "WAYMARK_SOCKET"
#: The installed daemon's system user.
SERVICE_USER_NAME = "waymark"


def development(runtime_directory: str | None, uid: int) -> str:
    """The development socket of user ``uid``, given the value of ``XDG_RUNTIME_DIR``."""
    if runtime_directory and runtime_directory.startswith("/"):
        return f"{runtime_directory}/waymark/waymark.sock"
    return f"/tmp/waymark-{uid}/waymark.sock"


def client_candidates(environment: Mapping[str, str], uid: int) -> list[str]:
    """Where a client looks, in order: ``WAYMARK_SOCKET`` alone if set, else the system socket
    and then the development socket."""
    explicit = environment.get(ENVIRONMENT_VARIABLE)
    if explicit:
        return [explicit]
    return [SYSTEM, development(environment.get("XDG_RUNTIME_DIR"), uid)]


def user_id(name: str, passwd: bytes) -> int | None:
    """The uid of user ``name`` in the text of a passwd(5) file, or ``None``."""
    for line in passwd.split(b"\n"):
        fields = line.split(b":")
        if len(fields) >= 3 and fields[0] == name.encode():
            try:
                return int(fields[2])
            except ValueError:
                return None
    return None


class SocketTrust:
    """The users a Waymark socket is trusted to: root, ``user`` (the process's own) and
    ``service_user`` (the ``waymark`` system user). A refusal raises ``PermissionError``."""

    def __init__(self, user: int, service_user: int | None) -> None:
        self.user = user
        self.service_user = service_user

    @classmethod
    def current(cls) -> SocketTrust:
        """Trust for this process: its effective user, and ``waymark`` from /etc/passwd."""
        try:
            with open("/etc/passwd", "rb") as file:
                passwd = file.read()
        except OSError:
            passwd = b""
        return cls(os.geteuid(), user_id(SERVICE_USER_NAME, passwd))

    def trusts(self, uid: int) -> bool:
        return uid in (0, self.user, self.service_user)

    def _trusted_users(self) -> str:
        names = ["root"]
        if self.user != 0:
            names.append(f"uid {self.user}")
        if self.service_user not in (None, 0, self.user):
            names.append(f"{SERVICE_USER_NAME} (uid {self.service_user})")
        return " or ".join([", ".join(names[:-1]), names[-1]]) if len(names) > 1 else names[0]

    def check_directories(self, socket_path: str) -> None:
        """Every directory from the socket's up to ``/`` (and, through a symbolic link, its
        target's) must be owned by a trusted user and not writable by group or others unless
        it has the sticky bit."""
        directory = os.path.dirname(socket_path) or "."
        if directory.startswith("/"):
            self._check_chain(directory)
        target = os.path.realpath(directory, strict=True)
        if target != directory:
            self._check_chain(target)

    def check_listener(self, connection: socket.socket, path: str) -> None:
        """The process listening on ``connection`` (``SO_PEERCRED``) must run as a trusted user."""
        credentials = connection.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
        _, uid, _ = struct.unpack("3i", credentials)
        if not self.trusts(uid):
            raise PermissionError(
                errno.EPERM,
                f"connect({path!r}): the process listening there runs as uid {uid}, and only {self._trusted_users()} may serve Waymark",
            )

    def _check_chain(self, directory: str) -> None:
        parts = [part for part in directory.split("/") if part]
        prefixes = ["/"] + ["/" + "/".join(parts[: count + 1]) for count in range(len(parts))]
        for prefix in prefixes:
            status = os.lstat(prefix)
            if not self.trusts(status.st_uid):
                raise self._refusal(prefix, f"it is owned by uid {status.st_uid}, and only {self._trusted_users()} may own a directory on the way to the socket")
            if stat.S_ISLNK(status.st_mode):
                continue
            if not stat.S_ISDIR(status.st_mode):
                raise NotADirectoryError(errno.ENOTDIR, f"socket directory {prefix!r}: not a directory")
            writable_by_others = status.st_mode & (stat.S_IWGRP | stat.S_IWOTH)
            if writable_by_others and not status.st_mode & stat.S_ISVTX:
                mode = oct(status.st_mode & 0o7777)[2:]
                raise self._refusal(prefix, f"its mode {mode} lets group or others replace the socket (no sticky bit)")

    @staticmethod
    def _refusal(path: str, reason: str) -> PermissionError:
        return PermissionError(errno.EPERM, f"socket directory {path!r}: {reason}; refusing it")
