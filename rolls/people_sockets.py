"""Each person's sockets at a campaign, in this process: at most ``SOCKETS_PER_PERSON`` of
them (table and sheet pages together), and what they ask to catch up on built once for all.

Every socket's database work runs on the process's one shared thread (Channels'), so what one
person's sockets ask of it, everyone else's wait behind: thirty sockets of one player asking
to catch up moved another player's rolls over the socket from 0.05 s to 0.2-1.3 s. A person
needs a few sockets (a phone, a laptop, a sheet in a tab); past the limit a new one is told so
and closed. And however many of them ask for the same thing (the table as it stands for that
person, one copy of a sheet), it is built at most once a second, each socket that asked
getting that one build.
"""

import asyncio
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings

CATCH_UP_SECONDS = 1.0  # one build of the same thing a second, however many sockets ask
FORGET_SECONDS = 60.0  # a build's time is kept this long, for the next ask to wait on

Person = tuple[int, int]  # (campaign id, user id)


@dataclass
class Build:
    built_at: float = float("-inf")
    building: "asyncio.Future[Any] | None" = field(default=None)


class PeopleSockets:
    def __init__(self) -> None:
        self.counts: dict[Person, int] = {}
        self.builds: dict[Hashable, Build] = {}

    def arrive(self, person: Person) -> bool:
        """Counts a new socket of ``person`` in; False (not counted) past the limit."""
        count = self.counts.get(person, 0)
        if count >= settings.SOCKETS_PER_PERSON:
            return False
        self.counts[person] = count + 1
        return True

    def leave(self, person: Person) -> None:
        count = self.counts.pop(person, 0) - 1
        if count > 0:
            self.counts[person] = count

    async def shared(self, key: Hashable, build: Callable[[], Awaitable[Any]]) -> Any:
        """What ``build`` makes for ``key``, shared: a socket that asks while a build is on
        its way gets that one, and a build starts no sooner than a second after the last one
        of the same key began (the asks wait out the rest of it, together). A build that did
        not finish (its socket left) is made again by the next socket waiting on it."""
        entry = self.builds.setdefault(key, Build())
        while entry.building is not None:
            building = entry.building
            await asyncio.wait([building])
            if not building.cancelled():
                return building.result()
        loop = asyncio.get_running_loop()
        building = entry.building = loop.create_future()
        try:
            wait = CATCH_UP_SECONDS - (loop.time() - entry.built_at)
            if wait > 0:
                await asyncio.sleep(wait)
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


people = PeopleSockets()
