"""The roll log page, its exports and the session recaps: filters, pages, and what each viewer
may see (a player never sees a secret roll's content nor anything of a hidden difficulty)."""

import json
import re

import pytest
from django.urls import reverse

from campaigns.models import Membership
from fudgetable.entry_ids import encode
from rolls import services
from rolls.models import Roll
from tests.rolls.conftest import post_roll, roll_form, trait

pytestmark = pytest.mark.django_db

SECRET_WORDS = ("Zanzibar", "Poisoncraft")
FACES = ("⊞", "⊟", "▢")
HIDDEN_WORDS = ("Superhuman", "margin", "uccess", "ailure", "beforehand", "XP")


@pytest.fixture
def table(client_for, owner, member, campaign, hero, villain):
    """Two sessions: a public check and a hidden-difficulty check by Louie in session 1, a
    secret NPC roll in session 2."""
    gm = client_for(owner)
    gm.post(reverse("rolls:session_start", args=[campaign.pk]))
    post_roll(client_for(member), campaign, roll_form(hero, trait(hero), difficulty=1))
    data = roll_form(hero, trait(hero, "Athletics"), difficulty=6, hidden_difficulty="on")
    post_roll(gm, campaign, data)
    gm.post(reverse("rolls:session_end", args=[campaign.pk]))
    gm.post(reverse("rolls:session_start", args=[campaign.pk]))
    post_roll(gm, campaign, roll_form(villain, trait(villain, "Poisoncraft"), secret="on"))
    return campaign


def url(name, campaign, *args, **query):
    path = reverse(f"rolls:{name}", args=[campaign.pk, *args])
    return path + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def entry(html: str, roll: Roll) -> str:
    start = html.index(f'<li id="roll-{encode(roll.pk)}"')
    return html[start : html.index("</li>", start)]


def assert_player_safe(html: str) -> None:
    """Nothing of the secret roll anywhere, nothing of the hidden difficulty in its entry."""
    for word in SECRET_WORDS:
        assert word not in html, word
    secret, hidden = Roll.objects.get(visibility="gm"), Roll.objects.get(hidden_difficulty=True)
    assert entry(html, secret).count("The GM rolled (secret)") == 1
    assert not any(face in entry(html, secret) for face in FACES)
    # Form values (a CSRF token, an idempotency key) are random and may spell "XP" by chance.
    shown = re.sub(r'value="[^"]*"', 'value=""', entry(html, hidden))
    for word in HIDDEN_WORDS:
        assert word not in shown, word


def test_the_log_page_for_owner_member_and_outsider(client_for, owner, member, outsider, table):
    gm_page = client_for(owner).get(url("log", table)).text
    assert "Zanzibar Quell: Poisoncraft" in gm_page and "vs Good Superhuman (+6)" in gm_page
    page = client_for(member).get(url("log", table)).text
    log = page[page.index('class="roll-log"') :]
    assert "The GM rolled (secret)" in log and "Louie: Athletics" in log
    assert "Against a difficulty the GM keeps hidden" in log
    assert_player_safe(page)
    assert client_for(outsider).get(url("log", table)).status_code == 404


def test_the_log_filters_by_session_and_character(client_for, owner, member, table, hero):
    gm = client_for(owner)
    first = gm.get(url("log", table, session=1)).text
    assert "Louie: Stealth" in first and "Zanzibar" not in first.split('class="roll-log"')[1]
    second = gm.get(url("log", table, session=2)).text.split('class="roll-log"')[1]
    assert "Zanzibar Quell: Poisoncraft" in second and "Louie" not in second
    louie = client_for(member).get(url("log", table, character=hero.pk)).text
    assert "2 rolls, newest first" in louie
    # A player filtering by a character never learns which secret rolls were about it.
    Roll.objects.filter(visibility="gm").update(character=hero)
    assert "The GM rolled" not in client_for(member).get(url("log", table, character=hero.pk)).text
    assert "The GM rolled" in client_for(member).get(url("log", table)).text


def test_a_filter_naming_nothing_here_shows_the_whole_log_with_a_message(
    client_for, member, table, villain
):
    client = client_for(member)
    for query in ({"session": 99}, {"character": villain.pk}, {"session": "x"}):
        page = client.get(url("log", table, **query))
        assert page.status_code == 200 and "No such session or character here" in page.text
        assert "3 rolls, newest first" in page.text


def test_the_log_has_pages_of_fifty(client_for, owner, member, campaign, hero):
    gm = Membership.objects.get(campaign=campaign, user=owner)
    for n in range(55):
        services.roll_check(
            membership=gm, key=f"page-roll-{n:03d}", level=0, trait_name="Stealth", character=hero
        )
    client = client_for(member)
    first = client.get(url("log", campaign, character=hero.pk)).text
    assert first.count('class="roll-entry') == 50 and "Page 1 of 2" in first
    assert f"?character={hero.pk}&amp;page=2" in first
    second = client.get(url("log", campaign, character=hero.pk, page=2)).text
    assert second.count('class="roll-entry') == 5
    assert client.get(url("log", campaign, page="lots")).status_code == 200


def test_the_markdown_export(client_for, owner, member, outsider, table, hero):
    response = client_for(owner).get(url("log_markdown", table))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/markdown")
    assert response["Content-Disposition"] == 'attachment; filename="the-drowned-lighthouse-log.md"'
    text = response.content.decode()
    assert text.startswith("# Roll log: The Drowned Lighthouse")
    assert "Zanzibar Quell: Poisoncraft" in text and "vs Good Superhuman (+6)" in text
    assert "(secret)" in text and "hidden difficulty" in text
    player = client_for(member).get(url("log_markdown", table)).content.decode()
    assert "The GM rolled (secret)" in player and "Louie: Athletics" in player
    assert "Zanzibar" not in player and "Poisoncraft" not in player
    secret_line = next(line for line in player.splitlines() if "The GM rolled" in line)
    assert not any(face in secret_line for face in FACES)
    hidden_line = next(line for line in player.splitlines() if "Athletics" in line)
    assert "against a hidden difficulty" in hidden_line
    assert not any(word in hidden_line for word in HIDDEN_WORDS)
    only_louie = client_for(member).get(url("log_markdown", table, character=hero.pk)).text
    assert "Louie" in only_louie.splitlines()[2] and "The GM rolled" not in only_louie
    assert client_for(outsider).get(url("log_markdown", table)).status_code == 404


def test_the_json_export(client_for, owner, member, outsider, table):
    response = client_for(owner).get(url("log_json", table, session=2))
    assert response["Content-Disposition"] == (
        'attachment; filename="the-drowned-lighthouse-log.json"'
    )
    data = json.loads(response.content)
    assert data["filters"] == "Session 2" and len(data["rolls"]) == 1
    (secret,) = data["rolls"]
    assert secret["label"] == "Zanzibar Quell: Poisoncraft" and secret["visibility"] == "gm"
    assert secret["snapshot"]["faces"]
    player = json.loads(client_for(member).get(url("log_json", table)).content)
    by_session = {(r["session"], r.get("label")): r for r in player["rolls"]}
    assert by_session[(2, None)] == {
        "id": secret["id"],
        "time": secret["time"],
        "session": 2,
        "text": "The GM rolled (secret)",
    }
    hidden = by_session[(1, "Louie: Athletics")]
    assert hidden["succeeded"] is None and hidden["hidden_difficulty"] is True
    assert not {"difficulty", "difficulty_name", "margin", "outcome", "chance"} & set(
        hidden["snapshot"]
    )
    assert "Superhuman" not in json.dumps(player, ensure_ascii=False)
    assert client_for(member).get(url("log_json", table, session=7)).status_code == 400
    assert client_for(outsider).get(url("log_json", table)).status_code == 404


def test_the_session_recap(client_for, owner, member, outsider, table):
    gm = client_for(owner).get(url("recap", table, 1)).text
    assert "Session 1" in gm and "XP for the session" in gm and "Louie: <strong>+1 XP" in gm
    assert "vs Good Superhuman (+6)" in gm and ">2 rolls</p>" in gm
    player = client_for(member).get(url("recap", table, 1)).text
    assert "Louie: <strong>+1 XP" in player and "Good Superhuman" not in player
    running = client_for(member).get(url("recap", table, 2)).text
    assert "still running" in running and "XP for the session" not in running
    assert "The GM rolled (secret)" in running and "Zanzibar" not in running
    main = running[running.index("<main") :]
    assert not any(face in main for face in FACES)  # the secret roll was the only one
    assert "Add a GM note" not in gm  # the recap is for reading
    assert client_for(outsider).get(url("recap", table, 1)).status_code == 404
    assert client_for(member).get(url("recap", table, 3)).status_code == 404
    assert client_for(member).get(url("recap", table, 2**40)).status_code == 404


def test_gms_annotate_entries_and_players_read_the_notes(
    client_for, owner, member, outsider, table
):
    public = Roll.objects.get(label="Louie: Stealth")
    secret = Roll.objects.get(visibility="gm")
    note = reverse("rolls:note", args=[table.pk, public.pk])
    assert "Add a GM note" in client_for(owner).get(url("table", table)).text
    assert "Add a GM note" not in client_for(member).get(url("table", table)).text
    assert client_for(member).post(note, {"note": "Lucky"}).status_code == 403
    assert client_for(outsider).post(note, {"note": "Lucky"}).status_code == 404
    gm = client_for(owner)
    response = gm.post(note, {"note": "Lucky break"}, headers={"HX-Request": "true"})
    assert response.status_code == 204
    back = url("log", table, session=1)
    response = gm.post(
        reverse("rolls:note", args=[table.pk, secret.pk]), {"note": "Poison works", "next": back}
    )
    assert response.status_code == 302 and response.url == back
    assert "Lucky break" in client_for(member).get(url("log", table)).text
    assert "Poison works" not in client_for(member).get(url("log", table)).text
    assert "Poison works" in gm.get(url("log", table)).text
    public.refresh_from_db()
    assert public.gm_note == "Lucky break" and public.snapshot  # only the note changed


def test_exports_carry_the_tables_announcements(client_for, owner, campaign):
    from rolls.countdowns.services import countdown_create, countdown_mark

    countdown = countdown_create(campaign=campaign, name="Storm breaks", boxes=1)
    countdown_mark(countdown=countdown)
    markdown = client_for(owner).get(reverse("rolls:log_markdown", args=[campaign.pk]))
    assert "Storm breaks is complete." in markdown.content.decode()
    data = client_for(owner).get(reverse("rolls:log_json", args=[campaign.pk])).json()
    assert data["rolls"][0]["kind"] == "announcement"
