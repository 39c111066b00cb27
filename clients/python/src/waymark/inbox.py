"""What the daemon sent for one consumer that it has not taken yet: bounded, the newest kept,
ended by an error. Subscriptions, monitors and visit monitoring each keep one."""

from __future__ import annotations

import asyncio
import collections
from typing import Generic, TypeVar

from .errors import WaymarkError

Item = TypeVar("Item")


class Inbox(Generic[Item]):
    """Items in arrival order, at most ``bound`` (older ones give way); ``next`` waits for one
    and raises the failure once they are taken."""

    def __init__(self, bound: int) -> None:
        self.items: collections.deque[Item] = collections.deque(maxlen=bound)
        self.arrived = asyncio.Event()
        self.failure: WaymarkError | None = None

    def deliver(self, item: Item) -> None:
        self.items.append(item)
        self.arrived.set()

    def fail(self, error: WaymarkError) -> None:
        self.failure = error
        self.arrived.set()

    async def next(self) -> Item:
        while not self.items:
            if self.failure is not None:
                raise self.failure
            self.arrived.clear()
            await self.arrived.wait()
        return self.items.popleft()
