"""Healing at the table: the sheet's healing buttons written in the log, and EZFudge's medical
care, a healer's roll against Fair, limited per wound and week by the campaign's era."""

import pytest
from django.urls import reverse

from characters.models import Character
from characters.services import character_create, trait_add
from fudgetable import live
from fudgetable.rules.dice import base as dice_base
from rolls.log_selectors import filtered_log
from rolls.models import Roll
from tests.rolls.conftest import fresh_key, set_rules

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}
C, W, T = "clear", "wound", "stun"


class LoadedDice:
    """A random source that throws the given Fudge dice faces (-1, 0, +1) in order."""

    def __init__(self, faces):
        self.faces = list(faces)

    def randint(self, a, b):
        return self.faces.pop(0)


@pytest.fixture
def dice(monkeypatch):
    def load(*faces):
        monkeypatch.setattr(dice_base, "SYSTEM_RANDOM", LoadedDice(faces))

    return load


@pytest.fixture
def events(monkeypatch):
    sent = []
    monkeypatch.setattr(live, "publish", lambda pk, kind, **parts: sent.append((kind, parts)))
    return sent


@pytest.fixture
def ez(campaign):
    set_rules(campaign, "ezfudge")
    return campaign


def wounded(character: Character, *levels: list[str]) -> Character:
    character.tracks = {"wounds": {"levels": [list(level) for level in levels]}}
    character.save(update_fields=["tracks"])
    return character


@pytest.fixture
def patient(ez, member):
    """The member's PC, Very Hurt."""
    pc = character_create(campaign=ez, owner=member, name="Dorothy")
    return wounded(pc, [C, C, C], [C, C], [W], [C], [C])


@pytest.fixture
def doctor(ez, member):
    """The member's other PC, a Fair Doctor."""
    pc = character_create(campaign=ez, owner=member, name="Glinda")
    trait_add(character=pc, name="Doctor", level=1, kind="role")
    return pc


def care_url(character) -> str:
    return reverse("rolls:medical_care", args=[character.campaign_id, character.pk])


def heal_url(character) -> str:
    return reverse("rolls:sheet_heal", args=[character.campaign_id, character.pk])


def care(client, patient, healer, level=2, **extra):
    data = {"trait": healer.traits.get(name="Doctor").pk, "level": level, "key": fresh_key()}
    data.update(extra)
    return client.post(care_url(patient), data)


def levels_of(character) -> list[list[str]]:
    character.refresh_from_db()
    return character.tracks["wounds"]["levels"]


def care_lines(patient) -> list[str]:
    entries = Roll.objects.filter(character=patient, snapshot__has_key="medical_care")
    return list(entries.order_by("pk").values_list("label", flat=True))


# --- the roll -------------------------------------------------------------------------------


def test_a_fair_result_heals_a_wound_one_level(client_for, member, patient, doctor, dice):
    """ezfudge-essentials.txt:387 "A Fair (+1) or better result ... heals a wound by one
    level"; :383 a Very Hurt improves to a Hurt."""
    dice(0, 0, 0, 0)  # Fair Doctor, dice 0: Fair
    response = care(client_for(member), patient, doctor)
    assert response.status_code == 302
    assert response["Location"] == care_url(patient)
    assert levels_of(patient)[1:3] == [[W, C], [C]]
    check = Roll.objects.get(kind=Roll.Kind.CHECK)
    assert (check.character, check.label) == (doctor, "Glinda: Doctor")
    assert (check.snapshot["difficulty_name"], check.succeeded) == ("Fair (+1)", True)
    assert care_lines(patient) == ["Medical care by Glinda: Dorothy's Very Hurt wound is now Hurt."]
    assert Roll.objects.get(follows=check).character == patient
    page = client_for(member).get(care_url(patient)).content.decode()
    assert "Jason" not in page and "Dorothy&#x27;s Very Hurt wound is now Hurt." in page
    assert "none left" in page  # the wound, now a Hurt, had this week's roll
    assert "Each wound has had this week's treatment" in page
    assert "Roll medical care" not in page


def test_a_result_below_fair_does_not_help(client_for, member, patient, doctor, dice):
    dice(-1, 0, 0, 0)  # Mediocre
    care(client_for(member), patient, doctor)
    assert levels_of(patient)[2] == [W]
    assert care_lines(patient) == [
        "Medical care by Glinda: a Mediocre (0) result does not help Dorothy's Very Hurt wound."
    ]


def test_a_hospital_adds_one_to_the_healer_s_result(client_for, member, patient, doctor, dice):
    """ezfudge-essentials.txt:394 "Treatment in a hospital ... provides +1"."""
    dice(-1, 0, 0, 0)  # Mediocre, and +1: Fair
    care(client_for(member), patient, doctor, hospital="on")
    check = Roll.objects.get(kind=Roll.Kind.CHECK)
    assert (check.snapshot["modifiers"], check.snapshot["result_name"]) == ([1], "Fair (+1)")
    assert levels_of(patient)[1:3] == [[W, C], [C]]
    assert care_lines(patient)[0].endswith("(in a hospital, +1).")


def test_a_hurt_treated_heals_completely(client_for, member, patient, doctor, dice):
    """ezfudge-essentials.txt:383 "Hurts do not become Scratches"."""
    wounded(patient, [C, C, C], [W, C], [C], [C], [C])
    dice(1, 0, 0, 0)
    care(client_for(member), patient, doctor, level=1)
    assert levels_of(patient)[:2] == [[C, C, C], [C, C]]
    assert care_lines(patient) == ["Medical care by Glinda: Dorothy's Hurt wound heals."]


def test_a_wound_waits_when_the_level_below_is_full(client_for, member, patient, doctor, dice):
    wounded(patient, [C, C, C], [W, W], [W], [C], [C])
    dice(1, 1, 0, 0)
    care(client_for(member), patient, doctor)
    assert levels_of(patient)[1:3] == [[W, W], [W]]
    assert "waits, with no free box one level down" in care_lines(patient)[0]


def test_the_log_and_the_sheets_hear_of_it(client_for, member, patient, doctor, dice, events):
    dice(0, 0, 0, 0)
    care(client_for(member), patient, doctor)
    kinds = [kind for kind, _ in events]
    assert kinds.count("roll.created") == 1 and kinds.count("log.announced") == 1
    announced = next(parts for kind, parts in events if kind == "log.announced")
    assert "is now Hurt" in announced["everyone"]


# --- how often (the Era / Frequency table) --------------------------------------------------


def test_in_a_fantasy_world_a_wound_is_tried_once_a_week(client_for, member, patient, doctor, dice):
    """ezfudge-essentials.txt:387-390: the healer "cannot make rolls on those wounds again
    until that time period is up"; Fantasy/Medieval 1 / week."""
    dice(-1, -1, 0, 0)
    care(client_for(member), patient, doctor)
    response = care(client_for(member), patient, doctor)
    assert response.status_code == 400
    assert (
        "Dorothy&#x27;s Very Hurt wound has had its treatment this week"
        in response.content.decode()
    )
    assert Roll.objects.filter(kind=Roll.Kind.CHECK).count() == 1


def test_a_wound_treated_down_a_level_is_still_the_wound_tried(
    client_for, member, patient, doctor, dice
):
    dice(0, 0, 0, 0)
    care(client_for(member), patient, doctor)  # Very Hurt -> Hurt
    response = care(client_for(member), patient, doctor, level=1)
    assert response.status_code == 400
    assert levels_of(patient)[1] == [W, C]


def test_a_newly_acquired_wound_may_be_treated(client_for, member, patient, doctor, dice):
    """ezfudge-essentials.txt:387 "(but he can treat any newly acquired wounds)"."""
    dice(-1, -1, 0, 0)
    care(client_for(member), patient, doctor)  # fails on the Very Hurt
    wounded(patient, [C, C, C], [W, C], [W], [C], [C])  # a new Hurt
    dice(1, 0, 0, 0)
    assert care(client_for(member), patient, doctor, level=1).status_code == 302
    assert levels_of(patient)[1] == [C, C]


@pytest.mark.parametrize(("era", "rolls"), [("Industrial Era", 2), ("Modern", 3)])
def test_later_eras_allow_more_rolls_a_week(client_for, member, patient, doctor, dice, era, rolls):
    """ezfudge-essentials.txt:391-392: Industrial Era 2 / week, Modern 3 / week."""
    set_rules(patient.campaign, medical_era=era)
    for _ in range(rolls):
        dice(-1, -1, 0, 0)
        assert care(client_for(member), patient, doctor).status_code == 302
    assert care(client_for(member), patient, doctor).status_code == 400
    assert Roll.objects.filter(kind=Roll.Kind.CHECK).count() == rolls


def test_a_week_of_rest_starts_a_new_week_of_care(client_for, member, patient, doctor, dice):
    wounded(patient, [C, C, C], [C], [W], [W], [C])
    set_rules(
        patient.campaign,
        wound_track={
            "name": "Wounds",
            "levels": [
                {"name": "Scratch", "boxes": 3, "min_damage": 1},
                {"name": "Hurt", "boxes": 1, "min_damage": 3},
                {"name": "Very Hurt", "boxes": 1, "min_damage": 5, "effect": "barely_moves"},
                {"name": "Out of It", "boxes": 1, "min_damage": 7, "effect": "no_actions"},
                {"name": "Near Death", "boxes": 1, "min_damage": 9, "effect": "no_actions"},
            ],
        },
    )
    dice(-1, -1, 0, 0)
    care(client_for(member), patient, doctor, level=3)
    assert care(client_for(member), patient, doctor, level=3).status_code == 400
    client_for(member).post(
        heal_url(patient), {"track": "wounds", "action": "rest-week", "key": fresh_key()}
    )
    assert levels_of(patient)[1:4] == [[W], [W], [C]]  # each wound one level better
    dice(1, 0, 0, 0)
    assert care(client_for(member), patient, doctor, level=2).status_code == 302


def test_the_gm_starts_a_new_week_for_a_patient_who_did_not_rest(
    client_for, owner, member, patient, doctor, dice
):
    dice(-1, -1, 0, 0)
    care(client_for(member), patient, doctor)
    url = reverse("rolls:care_new_week", args=[patient.campaign_id, patient.pk])
    assert client_for(member).post(url, {"key": fresh_key()}).status_code == 403
    response = client_for(owner).post(url, {"key": fresh_key()})
    assert response["Location"] == care_url(patient)
    assert Roll.objects.filter(snapshot__healing="new-week").count() == 1
    dice(0, 0, 0, 0)
    assert care(client_for(member), patient, doctor).status_code == 302
    assert levels_of(patient)[2] == [C]


# --- who may --------------------------------------------------------------------------------


def test_who_may_open_the_medical_care_page(
    client_for, owner, member, observer, outsider, rival, patient
):
    assert client_for(owner).get(care_url(patient)).status_code == 200
    page = client_for(member).get(care_url(patient))
    assert page.status_code == 200
    assert "Fantasy/Medieval: 1 roll a week on each wound" in page.content.decode()
    assert client_for(rival[0]).get(care_url(patient)).status_code == 200  # a doctor of theirs
    assert client_for(observer).get(care_url(patient)).status_code == 403
    assert client_for(outsider).get(care_url(patient)).status_code == 404


def test_another_player_treats_the_patient_with_their_own_pc(client_for, rival, patient, dice):
    user, healer = rival
    trait_add(character=healer, name="Doctor", level=1, kind="role")
    dice(0, 0, 0, 0)
    assert care(client_for(user), patient, healer).status_code == 302
    assert levels_of(patient)[2] == [C]


def test_a_player_may_not_roll_with_a_character_they_do_not_play(
    client_for, rival, patient, doctor
):
    response = care(client_for(rival[0]), patient, doctor)
    assert response.status_code == 400
    assert "choose a healer" in response.content.decode()
    assert not Roll.objects.exists()


def test_observers_and_outsiders_may_not_roll(client_for, observer, outsider, patient, doctor):
    assert care(client_for(observer), patient, doctor).status_code == 403
    assert care(client_for(outsider), patient, doctor).status_code == 404
    assert not Roll.objects.exists()
    assert levels_of(patient)[2] == [W]


def test_the_gm_treats_an_npc_the_players_have_not_met_in_secret(
    client_for, owner, member, ez, dice, events
):
    npc = character_create(campaign=ez, owner=None, name="Wicked Witch", kind="npc")
    Character.objects.filter(pk=npc.pk).update(npc_boxes=None)  # a wound track like a PC's
    npc.refresh_from_db()
    wounded(npc, [C, C, C], [C, C], [W], [C], [C])
    trait_add(character=npc, name="Doctor", level=1, kind="role")
    assert client_for(member).get(care_url(npc)).status_code == 404
    dice(0, 0, 0, 0)
    care(client_for(owner), npc, npc)
    assert levels_of(npc)[2] == [C]
    assert all(roll.secret for roll in Roll.objects.all())
    announced = next(parts for kind, parts in events if kind == "log.announced")
    assert announced["everyone"] is None
    assert not filtered_log(ez, gm_view=False).filter(kind=Roll.Kind.ANNOUNCEMENT).exists()


def test_a_campaign_without_a_wound_track_has_no_medical_care(client_for, owner, campaign):
    pc = character_create(campaign=campaign, owner=None, name="Lite")
    assert client_for(owner).get(care_url(pc)).status_code == 404


# --- bad input and resent forms -------------------------------------------------------------


def test_a_resent_form_treats_once(client_for, member, patient, doctor, dice):
    dice(0, 0, 0, 0)
    data = {"trait": doctor.traits.get(name="Doctor").pk, "level": 2, "key": fresh_key()}
    client_for(member).post(care_url(patient), data)
    client_for(member).post(care_url(patient), data)
    assert Roll.objects.filter(kind=Roll.Kind.CHECK).count() == 1
    assert levels_of(patient)[1:3] == [[W, C], [C]]


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({"level": "lots"}, "Enter a whole number."),
        ({"level": 4}, "Dorothy has no such wound to treat"),
        ({"trait": 999999}, "choose a healer"),
        ({"key": ""}, "This field is required."),
    ],
)
def test_bad_input_is_answered_in_words_and_nothing_is_saved(
    client_for, member, patient, doctor, data, words
):
    response = care(client_for(member), patient, doctor, **data)
    assert response.status_code == 400
    assert words in response.content.decode()
    assert not Roll.objects.exists()
    assert levels_of(patient)[2] == [W]


# --- the sheet's healing buttons, written in the log ----------------------------------------


def test_after_the_fight_and_a_week_of_rest_are_written_in_the_log(
    client_for, member, patient, events
):
    """ezfudge-essentials.txt:381-383: Scratches go after the battle; other wounds heal one
    level per week of rest."""
    wounded(patient, [W, T, C], [C, C], [W], [C], [C])
    response = client_for(member).post(
        heal_url(patient),
        {"track": "wounds", "action": "after-fight", "key": fresh_key()},
        headers=HTMX,
    )
    assert response.status_code == 200
    client_for(member).post(
        heal_url(patient), {"track": "wounds", "action": "rest-week", "key": fresh_key()}
    )
    assert levels_of(patient)[:3] == [[W, C, C], [W, C], [C]]
    lines = list(Roll.objects.order_by("pk").values_list("label", flat=True))
    assert lines == [
        "Dorothy: After the fight (Wounds): 3 boxes taken, now 2.",
        "Dorothy: A week of rest (Wounds): 2 boxes taken, now 2.",
    ]
    assert [kind for kind, _ in events].count("log.announced") == 2


def test_tending_and_a_long_rest_are_written_in_the_log(client_for, member, campaign):
    pc = character_create(campaign=campaign, owner=member, name="Louie")
    pc.tracks = {"injury": {"boxes": ["", "", "", None]}}
    pc.save(update_fields=["tracks"])
    response = client_for(member).post(
        heal_url(pc), {"track": "injury", "action": "tend", "key": fresh_key()}
    )
    assert response["Location"] == reverse("characters:sheet", args=[campaign.pk, pc.pk])
    pc.refresh_from_db()
    assert pc.tracks["injury"]["boxes"] == [None, None, "", None]
    client_for(member).post(heal_url(pc), {"track": "injury", "action": "rest", "key": fresh_key()})
    pc.refresh_from_db()
    assert pc.tracks["injury"]["boxes"] == [None] * 4
    assert (
        Roll.objects.order_by("pk").last().label == "Louie: Long rest (Injury): 1 box taken, now 0."
    )


def test_a_resent_week_of_rest_rests_once(client_for, member, patient):
    wounded(patient, [C, C, C], [C, C], [C], [W], [C])
    data = {"track": "wounds", "action": "rest-week", "key": fresh_key()}
    client_for(member).post(heal_url(patient), data)
    client_for(member).post(heal_url(patient), data)
    assert levels_of(patient)[2:4] == [[W], [C]]
    assert Roll.objects.count() == 1


def test_who_may_heal_from_the_sheet(client_for, owner, observer, outsider, rival, patient):
    data = {"track": "wounds", "action": "after-fight"}
    assert (
        client_for(observer).post(heal_url(patient), {**data, "key": fresh_key()}).status_code
        == 403
    )
    assert (
        client_for(rival[0]).post(heal_url(patient), {**data, "key": fresh_key()}).status_code
        == 403
    )
    assert (
        client_for(outsider).post(heal_url(patient), {**data, "key": fresh_key()}).status_code
        == 404
    )
    assert not Roll.objects.exists()
    assert (
        client_for(owner).post(heal_url(patient), {**data, "key": fresh_key()}).status_code == 302
    )
    assert Roll.objects.count() == 1


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({"track": "wounds", "action": "nap"}, "Wounds has no healing action 'nap'"),
        (
            {"track": "wounds", "action": "medical-care"},
            "Wounds has no healing action 'medical-care'",
        ),
        ({"track": "injury", "action": "tend"}, "this sheet has no injury track"),
    ],
)
def test_a_bad_healing_action_is_refused_in_words(client_for, member, patient, data, words):
    response = client_for(member).post(
        heal_url(patient), {**data, "key": fresh_key()}, headers=HTMX
    )
    assert response.status_code == 200
    assert [str(m) for m in response.context["messages"]] == [words]
    assert not Roll.objects.exists()


def test_the_sheet_offers_the_healing_and_medical_care(client_for, member, rival, patient):
    url = reverse("characters:sheet", args=[patient.campaign_id, patient.pk])
    html = client_for(member).get(url).content.decode()
    assert heal_url(patient) in html and care_url(patient) in html
    # Another player cannot heal this sheet, but may give medical care with a PC of theirs.
    html = client_for(rival[0]).get(url).content.decode()
    assert heal_url(patient) not in html and care_url(patient) in html
