"""A real mail server's handler (aiosmtpd, on this machine) for the tests of what the site
e-mails; the ``inbox`` fixture (tests/conftest.py) starts one."""

import asyncio

from fudgetable import outbox


class Inbox:
    """aiosmtpd's handler: keeps what it is sent. Mail goes out after the page's answer, so
    reading the inbox (``delivered``) first waits for the outbox to be sent. (Not a property:
    aiosmtpd reads every attribute of its handler, on its own thread.)"""

    def __init__(self) -> None:
        self.received: list[str] = []
        # How long the server takes to accept a message, as a distant one does.
        self.delay = 0.0

    def delivered(self) -> list[str]:
        assert outbox.wait_sent(), "the outbox did not empty"
        return self.received

    async def handle_DATA(self, server, session, envelope) -> str:
        await asyncio.sleep(self.delay)
        self.received.append(envelope.content.decode())
        return "250 Message accepted for delivery"
