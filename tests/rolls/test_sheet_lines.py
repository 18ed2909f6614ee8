"""The sheet feeds the roll: a marked track's penalty, a gift or fault naming the trait and a
Peupfudge status are named lines the roller sees before rolling, may untick, and finds in the
log; a character who may take no action is refused in words."""

import pytest
from django.urls import reverse

from characters.models import Detail, Feature
from fudgetable.rules.tracks import LITE_PENALTY_TRACK
from rolls.models import Roll
from tests.rolls.conftest import post_roll, roll_form, set_rules, trait

pytestmark = pytest.mark.django_db


def mark(character, boxes: int) -> None:
    """Marks the first ``boxes`` of the Fudge Lite penalty track (Scratch x3, Hurt, Very Hurt,
    Incapacitated)."""
    marks = ["x"] * boxes + [None] * (LITE_PENALTY_TRACK.size - boxes)
    character.tracks = {"injury": {"boxes": marks}}
    character.save(update_fields=["tracks"])


@pytest.fixture
def hurt(campaign, hero):
    """Louie, on the seed's example track ("Hurt (-1)", "Very Hurt (-2)"), marked Hurt."""
    set_rules(campaign, injury_track=LITE_PENALTY_TRACK.to_dict())
    mark(hero, 4)
    return hero


def odds(client, campaign, **params):
    return client.get(reverse("rolls:odds", args=[campaign.pk]), params)


def test_a_hurt_pc_rolls_with_the_penalty_named_in_the_log(client_for, member, campaign, hurt):
    stealth = trait(hurt, "Stealth", level=1)
    response = post_roll(client_for(member), campaign, roll_form(hurt, stealth, modifiers="+1"))
    s = Roll.objects.get().snapshot
    assert s["modifiers"] == [1, -1]
    assert s["sheet_lines"] == [{"key": "track:injury", "name": "Injury: Hurt", "amount": -1}]
    assert "From the sheet: Injury: Hurt -1" in response.content.decode()


def test_a_fudge_points_reroll_keeps_the_lines(client_for, member, campaign, hurt):
    set_rules(campaign, fudge_point_uses=["reroll"])
    hurt.fudge_points = 1
    hurt.save(update_fields=["fudge_points"])
    stealth = trait(hurt, "Stealth")
    client = client_for(member)
    post_roll(client, campaign, roll_form(hurt, stealth))
    first = Roll.objects.get()
    url = reverse("rolls:fudge_point", args=[campaign.pk, first.pk])
    client.post(url, {"use": "reroll", "key": "spend-key-0001"}, headers={"HX-Request": "true"})
    reroll = Roll.objects.get(follows=first)
    assert reroll.snapshot["modifiers"] == [-1]
    assert reroll.snapshot["sheet_lines"] == first.snapshot["sheet_lines"]


def test_the_roller_sees_the_lines_and_the_odds_follow_what_is_ticked(
    client_for, member, campaign, hurt
):
    stealth = trait(hurt, "Stealth", level=1)
    client = client_for(member)
    shown = odds(client, campaign, kind="check", trait=stealth.pk, difficulty=1)
    page = shown.content.decode()
    assert 'name="sheet_lines" value="track:injury" checked' in page
    assert 'name="sheet_lines_shown" value="track:injury"' in page  # shown, ticked or not
    assert "Injury: Hurt <strong>-1</strong>" in page
    assert "Only the largest bonus and the largest penalty count." in page  # Fudge Lite
    with_penalty = shown.context["chance"]
    unticked = odds(
        client, campaign, kind="check", trait=stealth.pk, difficulty=1, sheet_lines_for=stealth.pk
    )
    assert 'value="track:injury">' in unticked.content.decode()  # shown, not ticked
    assert unticked.context["chance"] > with_penalty
    data = roll_form(hurt, stealth, sheet_lines_for=stealth.pk)  # unticked: no penalty
    post_roll(client, campaign, data)
    assert Roll.objects.get().snapshot["modifiers"] == []


def test_a_situational_fault_starts_unticked_and_counts_when_ticked(
    client_for, member, campaign, hero
):
    stealth = trait(hero, "Stealth")
    Feature.objects.create(
        character=hero,
        kind="fault",
        name="Greedy",
        target="stealth",
        amount=-1,
        situation="near gold",
    )
    Feature.objects.create(character=hero, kind="gift", name="Quiet", target="Stealth", amount=1)
    client = client_for(member)
    page = odds(client, campaign, kind="check", trait=stealth.pk).content.decode()
    assert 'value="gift:Quiet:0" checked' in page
    assert 'value="fault:Greedy:0">' in page and "Greedy (fault), near gold" in page
    post_roll(client, campaign, roll_form(hero, stealth))
    assert Roll.objects.get().snapshot["modifiers"] == [1]
    ticked = roll_form(
        hero, stealth, sheet_lines_for=stealth.pk, sheet_lines=["gift:Quiet:0", "fault:Greedy:0"]
    )
    post_roll(client, campaign, ticked)
    assert Roll.objects.latest("created_at").snapshot["modifiers"] == [1, -1]


def test_a_line_the_sheet_does_not_offer_counts_for_nothing(client_for, member, campaign, hero):
    stealth = trait(hero, "Stealth")
    forged = roll_form(hero, stealth, sheet_lines_for=stealth.pk, sheet_lines=["gift:Made up:0"])
    post_roll(client_for(member), campaign, forged)
    assert Roll.objects.get().snapshot["modifiers"] == []


def test_an_incapacitated_pc_is_refused_in_words_and_nothing_is_rolled(
    client_for, member, campaign, hurt
):
    mark(hurt, 6)
    stealth = trait(hurt, "Stealth")
    client = client_for(member)
    response = post_roll(client, campaign, roll_form(hurt, stealth))
    assert "Louie is incapacitated and may take no action" in response.content.decode()
    assert not Roll.objects.exists()
    page = odds(client, campaign, kind="check", trait=stealth.pk).content.decode()
    assert "Louie is incapacitated and may take no action." in page


def test_a_peupfudge_status_is_a_line(client_for, member, campaign, hero):
    set_rules(campaign, "peupfudge")
    Detail.objects.create(
        character=hero, kind="status", name="Energy", value="Exhausted", modifier=-2
    )
    Detail.objects.create(character=hero, kind="characteristic", name="Tall", value="", modifier=1)
    muscle = trait(hero, "Muscle", level=2)
    post_roll(client_for(member), campaign, roll_form(hero, muscle))
    lines = Roll.objects.get().snapshot["sheet_lines"]
    assert lines == [{"key": "status:Energy", "name": "Energy: Exhausted", "amount": -2}]


def test_the_sheets_roll_button_takes_the_penalty_and_the_sheet_says_so(
    client_for, member, campaign, hurt
):
    stealth = trait(hurt, "Stealth")
    client = client_for(member)
    sheet = client.get(reverse("characters:sheet", args=[campaign.pk, hurt.pk])).content.decode()
    assert "Rolls take: Injury: Hurt <strong>-1</strong>" in sheet
    url = reverse("rolls:sheet_roll", args=[campaign.pk, hurt.pk])
    client.post(
        url, {"trait": stealth.pk, "key": "sheet-roll-0001"}, headers={"HX-Request": "true"}
    )
    assert Roll.objects.get().snapshot["sheet_lines"][0]["name"] == "Injury: Hurt"
    mark(hurt, 6)
    sheet = client.get(reverse("characters:sheet", args=[campaign.pk, hurt.pk])).content.decode()
    assert "Louie is incapacitated and may take no action." in sheet


def test_the_gm_sees_an_npc_taken_out_and_a_player_cannot_ask(
    client_for, owner, member, outsider, observer, campaign, villain
):
    villain.npc_boxes = 2
    villain.tracks = {"condition": {"boxes": ["x", "x"]}}
    villain.save()
    poison = trait(villain, "Poisoncraft")
    params = {"kind": "check", "trait": poison.pk}
    gm_page = odds(client_for(owner), campaign, **params).content.decode()
    assert "Zanzibar Quell is incapacitated and may take no action." in gm_page
    for person in (member, observer):
        page = odds(client_for(person), campaign, **params)
        assert "Zanzibar" not in page.content.decode()
        assert page.context["odds_error"]
    assert odds(client_for(outsider), campaign, **params).status_code == 404


def sheet_roll(client, campaign, character, data):
    url = reverse("rolls:sheet_roll", args=[campaign.pk, character.pk])
    return client.post(url, data, headers={"HX-Request": "true"})


def test_the_sheets_roll_button_shows_each_line_to_untick(
    client_for, owner, member, rival, outsider, campaign, hurt
):
    stealth = trait(hurt, "Stealth")
    Feature.objects.create(
        character=hurt, kind="fault", name="Greedy", target="Stealth", amount=-1, situation="gold"
    )
    url = reverse("characters:sheet", args=[campaign.pk, hurt.pk])
    page = client_for(member).get(url).content.decode()
    assert 'name="sheet_lines" value="track:injury" checked' in page
    assert 'name="sheet_lines" value="fault:Greedy:0">' in page  # when it fits: unticked
    # The row's chip shows the amounts; a screen reader hears what they are.
    chip = '<summary class="chip">-1 -1?<span class="visually-hidden"> Takes -1, -1 if it fits'
    assert chip in page
    shown = ["track:injury", "fault:Greedy:0"]
    unticked = {"trait": stealth.pk, "sheet_lines_for": stealth.pk, "sheet_lines_shown": shown}
    sheet_roll(client_for(member), campaign, hurt, {**unticked, "key": "sheet-roll-0001"})
    assert Roll.objects.get().snapshot["modifiers"] == []
    both = {**unticked, "sheet_lines": shown, "key": "sheet-roll-0002"}
    sheet_roll(client_for(owner), campaign, hurt, both)  # the GM may roll it too
    assert Roll.objects.latest("created_at").snapshot["modifiers"] == [-1, -1]
    for person, status in ((rival[0], 403), (outsider, 404)):
        response = sheet_roll(client_for(person), campaign, hurt, {**both, "key": "sheet-x-0003"})
        assert response.status_code == status
    assert Roll.objects.count() == 2


def test_a_wound_marked_after_the_form_was_drawn_still_counts(client_for, member, campaign, hero):
    """The roller unticked the gift on a form drawn before the GM marked the wound: the form
    never showed the wound, so it applies."""
    set_rules(campaign, injury_track=LITE_PENALTY_TRACK.to_dict())
    stealth = trait(hero, "Stealth")
    Feature.objects.create(character=hero, kind="gift", name="Quiet", target="Stealth", amount=1)
    drawn = {"sheet_lines_for": stealth.pk, "sheet_lines_shown": ["gift:Quiet:0"]}
    mark(hero, 4)
    post_roll(client_for(member), campaign, roll_form(hero, stealth, **drawn))
    assert Roll.objects.get().snapshot["modifiers"] == [-1]
