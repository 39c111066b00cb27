"""A request made after the daemon restarted reaches the new daemon (the Swift library's
StaleLinkTests): the client does not send it on the connection the old daemon hung up on."""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import socket
import tempfile
import threading
import unittest

import waymark
from waymarkd import Waymarkd

HELLO = b'{"id":1,"op":"hello","result":{"daemonVersion":"0.1.0","protocolVersion":3,"pid":1}}\n'
NO_LOCATION_YET = b'{"id":2,"op":"lastKnownLocation","result":{"location":null}}\n'


class Restart(unittest.IsolatedAsyncioTestCase):
    def setUp(self) -> None:
        self.directory = tempfile.mkdtemp(prefix="waymark-python-restart-")
        self.addCleanup(shutil.rmtree, self.directory, True)
        self.path = os.path.join(self.directory, "waymark.sock")

    async def test_a_request_after_the_daemon_restarted_reaches_the_new_daemon(self) -> None:
        daemon = Waymarkd(socket_path=self.path)
        self.addCleanup(daemon.close)
        client = waymark.Client(self.path, app_id="org.example.python-tests")
        self.addAsyncCleanup(client.close)
        self.assertEqual((await client.status()).clients, 1)
        # Stopped and started while the event loop does not turn: the client has not read the
        # old daemon's hangup when it asks, as when both come in the same turn of the loop.
        daemon.stop()
        daemon.start()
        self.assertEqual((await asyncio.wait_for(client.status(), 10)).clients, 1)

    async def test_a_half_closed_connection_is_left_for_a_new_one(self) -> None:
        # A listener that answers hello and one request, then shuts one side of the connection
        # down while the client's event loop does not turn. Its reading side: the client finds
        # nothing wrong with the connection and its next write fails with EPIPE, as when the
        # daemon goes between that check and the write. Its sending side: the write would
        # succeed and nothing would answer; the check sees that the daemon will send nothing more.
        for side in (socket.SHUT_RD, socket.SHUT_WR):
            with self.subTest(side=side):
                client = waymark.Client(self.path, app_id="org.example.python-tests")
                self.addAsyncCleanup(client.close)
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(self.path)  # the previous case's daemon's
                listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                listener.bind(self.path)
                listener.listen()
                accepted: list[socket.socket] = []
                serving = threading.Thread(target=answer_hello_and_one_request, args=(listener, accepted))
                serving.start()
                self.assertIsNone(await asyncio.wait_for(client.last_known_location(), 10))
                serving.join()
                accepted[0].shutdown(side)
                listener.close()
                os.unlink(self.path)
                daemon = Waymarkd(socket_path=self.path)
                self.addCleanup(daemon.close)
                self.addCleanup(accepted[0].close)
                self.assertEqual((await asyncio.wait_for(client.status(), 10)).clients, 1)
                daemon.stop()


def answer_hello_and_one_request(listener: socket.socket, accepted: list[socket.socket]) -> None:
    """Accepts a connection on ``listener``, answers its hello and one ``lastKnownLocation``,
    and leaves it in ``accepted``, open."""
    connection, _ = listener.accept()
    accepted.append(connection)
    lines = connection.makefile("rb")
    lines.readline()
    connection.sendall(HELLO)
    lines.readline()
    connection.sendall(NO_LOCATION_YET)


if __name__ == "__main__":
    unittest.main()
