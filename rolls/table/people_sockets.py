"""Each person's sockets in this process: at most ``SOCKETS_PER_PERSON`` of them (table and
sheet pages, at all their campaigns together), and what they ask to catch up on built at most
once a second for them all, whatever each ask says it saw.

Every socket's database work runs on the process's one shared thread (Channels'), so what one
person's sockets ask of it, everyone else's wait behind: thirty sockets of one player asking
to catch up moved another player's rolls over the socket from 0.05 s to 0.2-1.3 s. A person
needs a few sockets (a phone, a laptop, a sheet in a tab); past the limit a new one is told so
and closed. Counted per campaign, the limit was no limit (campaigns are free to make): one
person's 4 campaigns x 8 sockets took another table's rolls to 4 s. And the builds are paced
per person, not per thing asked: shared only between asks of the same thing, asks that each
named another ``since`` got a whole table state each, 17-20 of them in 2.5 s from one socket.
"""

import asyncio
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings

CATCH_UP_SECONDS = 1.0  # one build a second for each person, however many sockets ask
FORGET_SECONDS = 60.0  # a build's time is kept this long, for the next ask to wait on

Person = tuple[int, int]  # (campaign id, user id)


@dataclass
class Build:
    built_at: float = float("-inf")
    building: "asyncio.Future[Any] | None" = field(default=None)


class PeopleSockets:
    def __init__(self) -> None:
        self.counts: dict[int, int] = {}  # by user id, every campaign's sockets together
        self.builds: dict[Hashable, Build] = {}
        # Each person's next turn to build (the loop's clock): turns are handed out a second
        # apart, so whatever their pages ask, a person costs the shared thread one build a
        # second. A turn taken by an ask whose socket then left is lost, not given back.
        self.turns: dict[int, float] = {}

    def arrive(self, user_id: int) -> bool:
        """Counts a new socket of the person in; False (not counted) past the limit."""
        count = self.counts.get(user_id, 0)
        if count >= settings.SOCKETS_PER_PERSON:
            return False
        self.counts[user_id] = count + 1
        return True

    def leave(self, user_id: int) -> None:
        count = self.counts.pop(user_id, 0) - 1
        if count > 0:
            self.counts[user_id] = count

    async def shared(self, user_id: int, key: Hashable, build: Callable[[], Awaitable[Any]]) -> Any:
        """What ``build`` makes for ``key``, for the person ``user_id``: a socket that asks
        while a build of ``key`` is on its way (or waiting its turn) gets that one, and each
        build waits for its person's next turn, a second after their last one, whatever its
        key (the asks wait, together). A build that did not finish (its socket left) is made
        again by the next socket waiting on it."""
        entry = self.builds.setdefault(key, Build())
        while entry.building is not None:
            building = entry.building
            await asyncio.wait([building])
            if not building.cancelled():
                return building.result()
        loop = asyncio.get_running_loop()
        building = entry.building = loop.create_future()
        try:
            turn = max(loop.time(), self.turns.get(user_id, float("-inf")))
            self.turns[user_id] = turn + CATCH_UP_SECONDS
            if turn > loop.time():
                await asyncio.sleep(turn - loop.time())
            entry.built_at = loop.time()
            built = await build()
            building.set_result(built)
            return built
        finally:
            if not building.done():
                building.cancel()
            entry.building = None
            self._forget_old(loop.time())

    def _forget_old(self, now: float) -> None:
        old = [
            key
            for key, entry in self.builds.items()
            if entry.building is None and now - entry.built_at > FORGET_SECONDS
        ]
        for key in old:
            del self.builds[key]
        for user_id in [user_id for user_id, turn in self.turns.items() if turn < now]:
            del self.turns[user_id]


people = PeopleSockets()
