"""Commands over the table's socket, in a browser: with the socket open a tap travels over it
and no HTTP request is made; when the socket drops before the answer comes, the page sends the
command over HTTP with the same key; a busy answer is waited out and sent again, once."""

import json

import pytest
from playwright.sync_api import Browser, Request, WebSocketRoute, expect

from fudgetable.management.commands._demo_tables import TABLES
from tests.e2e.conftest import DESKTOP, PHONE
from tests.e2e.server import AppServer
from tests.e2e.table_pages import (
    PUSH,
    Watched,
    gm_and_alice,
    log_in,
    open_table,
    use_tool,
)

MOUNTAINS = TABLES[4]  # a table no other browser test plays at


def posts(watched: Watched) -> list[Request]:
    seen: list[Request] = []
    watched.page.on("request", lambda sent: seen.append(sent) if sent.method == "POST" else None)
    return seen


def quick_roll(watched: Watched):
    return watched.page.locator("#quick-rolls button.quick-roll").first


def drop_the_socket_with_the_next_command(watched: Watched) -> None:
    """The connection is lost just as a command leaves: it never reaches the server."""
    watched.page.evaluate(
        """() => {
          const send = WebSocket.prototype.send;
          WebSocket.prototype.send = function (data) {
            if (String(data).includes('"command"')) { this.close(); return; }
            return send.call(this, data);
          };
        }"""
    )


def rolls_in_log(watched: Watched) -> int:
    return watched.page.locator("#roll-log li[id^='roll-']").count()


def test_a_tap_travels_over_the_socket_and_reaches_the_gm(
    demo_server: AppServer, browser: Browser
) -> None:
    with gm_and_alice(browser, demo_server) as (gm, alice):
        for person in (alice, gm):
            open_table(person, demo_server, MOUNTAINS.name)
        sent: list[str] = []
        alice.sockets[-1].on("framesent", lambda payload: sent.append(str(payload)))
        over_http = posts(alice)
        before = rolls_in_log(gm)

        quick_roll(alice).click()
        expect(alice.page.locator("#roll-outcome")).to_contain_text("You rolled", timeout=PUSH)
        expect(gm.page.locator("#roll-log li[id^='roll-']")).to_have_count(before + 1, timeout=PUSH)
        assert over_http == []
        assert any('"command"' in frame and "/roll/" in frame for frame in sent)
        # The answer came back on the same socket, as JSON for the page, not for the log.
        assert any(frame.startswith('{"answer"') for frame in alice.frames)
        assert alice.problems == [] and gm.problems == []


def test_a_command_whose_socket_drops_is_sent_over_http_once(
    demo_server: AppServer, browser: Browser
) -> None:
    context = browser.new_context(**PHONE)
    try:
        alice = log_in(context, demo_server, "alice")
        open_table(alice, demo_server, MOUNTAINS.name)
        # The phone loses its connection just as the tap leaves: the command never arrives.
        drop_the_socket_with_the_next_command(alice)
        over_http = posts(alice)
        before = rolls_in_log(alice)
        quick_roll(alice).click()
        expect(alice.page.locator("#roll-outcome")).to_contain_text("You rolled", timeout=PUSH)
        assert [request.url.endswith("/roll/") for request in over_http] == [True]
        alice.page.reload()  # the log as the server has it
        expect(alice.page.locator("#roll-log li[id^='roll-']")).to_have_count(before + 1)
    finally:
        context.close()


def test_a_busy_answer_is_waited_out_and_the_command_sent_again(
    demo_server: AppServer, browser: Browser
) -> None:
    context = browser.new_context(**PHONE)
    try:
        alice = log_in(context, demo_server, "alice")
        commands: list[dict] = []

        # The real server behind the page's socket, except that the first command is answered
        # as a server too busy to take it would answer.
        def busy_once(route: WebSocketRoute) -> None:
            server = route.connect_to_server()

            def from_page(message: str | bytes) -> None:
                asked = json.loads(message) if str(message).startswith("{") else {}
                if "command" in asked:
                    commands.append(asked["command"])
                    if len(commands) == 1:
                        busy = {
                            "answer": asked["command"]["id"],
                            "status": 503,
                            "headers": {"Content-Type": "text/plain", "Retry-After": "1"},
                            "body": "The table is too busy to save that right now.",
                        }
                        route.send(json.dumps(busy))
                        return
                server.send(message)

            route.on_message(from_page)

        alice.page.route_web_socket("**/ws/campaigns/**", busy_once)
        open_table(alice, demo_server, MOUNTAINS.name)
        before = rolls_in_log(alice)
        quick_roll(alice).click()
        expect(alice.page.locator("#notice")).to_contain_text("sending that again in 1 s")
        expect(alice.page.locator("#roll-outcome")).to_contain_text("You rolled", timeout=PUSH)
        expect(alice.page.locator("#notice")).to_be_hidden()
        assert len(commands) == 2
        key = [dict(p.split("=", 1) for p in c["body"].split("&"))["key"] for c in commands]
        assert key[0] == key[1]  # sent again as the same command: it can land only once
        expect(alice.page.locator("#roll-log li[id^='roll-']")).to_have_count(before + 1)
        assert alice.problems == []
    finally:
        context.close()


@pytest.mark.browser_may_see(
    r"^console error: htmx:(afterRequest|sendError), \[object HTMLDivElement\]$",
    why="the test drops the socket under a command, which htmx reports as a send error",
)
def test_a_command_without_a_key_is_not_sent_twice_when_its_socket_drops(
    demo_server: AppServer, browser: Browser
) -> None:
    """A countdown's mark carries no key: sent again over HTTP it could mark two boxes, so the
    page says it may not have landed, and the table shows what did."""
    context = browser.new_context(**DESKTOP)
    try:
        gm = log_in(context, demo_server, "gm")
        open_table(gm, demo_server, MOUNTAINS.name)
        page = gm.page
        use_tool(gm, "countdowns")
        card = page.locator("#countdowns")
        card.locator("summary", has_text="New countdown").click()
        card.get_by_label("Name", exact=True).fill("Rising water")
        card.get_by_role("button", name="Make the countdown").click()
        boxes = page.get_by_role("img", name="Rising water: 0 of 4 boxes marked")
        expect(boxes).to_be_visible()
        drop_the_socket_with_the_next_command(gm)
        over_http = posts(gm)
        page.get_by_role("button", name="Mark a box of Rising water", exact=True).click()
        expect(page.locator("#notice")).to_contain_text("may or may not have landed")
        assert over_http == []
        page.reload()
        expect(page.get_by_role("img", name="Rising water: 0 of 4 boxes marked")).to_be_visible()
    finally:
        context.close()
