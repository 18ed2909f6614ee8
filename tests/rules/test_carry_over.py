"""A sheet carried into a campaign of other rules: what carries over, changes and is dropped."""

import itertools

import pytest

from fudgetable.rules import carry_over as co
from fudgetable.rules.character import ATTRIBUTE_NAMES
from fudgetable.rules.rulesets import PRESETS
from fudgetable.rules.sheet import ATTRIBUTE, SCHEME_KINDS, level_bounds

LITE, EZ, F95, FATE, PEUP = (
    PRESETS[k] for k in ("fudge-lite", "ezfudge", "fudge-1995", "fate", "peupfudge")
)


def trait(kind: str, name: str, level: int, **more) -> dict:
    return {
        "kind": kind,
        "name": name,
        "level": level,
        "specialty": "",
        "specialty_required": False,
        "progress": 0,
        "modifier": 0,
        **more,
    }


def sheet(*traits: dict, **more) -> dict:
    return {
        "schema": "fudgetable.character/1",
        "ruleset": "fudge-lite",
        "name": "Ada",
        "kind": "pc",
        "description": "A sailor.",
        "notes": "Owes the harbourmaster.",
        "fudge_points": 3,
        "xp": 4,
        "mass_scale": 0,
        "trades": [],
        "tracks": {},
        "npc_boxes": None,
        "behaviours": [],
        "revealed": False,
        "traits": list(traits),
        "features": [{"kind": "gift", "name": "Lucky", "target": "", "amount": 0}],
        "gear": [],
        "items": [{"name": "Rope", "quantity": 1, "note": "", "contents": []}],
        "details": [],
        **more,
    }


def codes(carried: co.Carried) -> list[tuple[str, str]]:
    return [(note.code, note.name) for note in carried.notes]


def test_the_same_rules_carry_everything_over():
    before = sheet(
        trait("trait", "Sailing", 2),
        trades=[3],
        tracks={"injury": {"boxes": ["x", None, None, None]}},
    )
    carried = co.carry_over(before, LITE, LITE)
    assert carried.notes == ()
    assert carried.sheet["traits"] == before["traits"]
    assert carried.sheet["trades"] == [3]
    assert carried.sheet["tracks"]["injury"]["boxes"][0] == "x"
    for key in ("name", "description", "notes", "features", "items", "fudge_points", "xp"):
        assert carried.sheet[key] == before[key]


def test_levels_go_by_the_rungs_name_and_round_down_to_one_both_ladders_name():
    before = sheet(
        trait("trait", "Sailing", 1), trait("trait", "Strength", 6)
    )  # Fair, Good Superhuman
    carried = co.carry_over(before, LITE, FATE)
    levels = {t["name"]: (t["kind"], t["level"]) for t in carried.sheet["traits"]}
    assert levels == {"Sailing": ("skill", 2), "Strength": ("skill", 5)}  # Fate's Fair, Superb
    assert co.Note(co.LEVEL_CHANGED, "Strength", "Good Superhuman", "Superb") in carried.notes
    assert co.Note(co.KIND_CHANGED, "Sailing", "trait", "skill") in carried.notes
    assert not any(n.code == co.LEVEL_CHANGED and n.name == "Sailing" for n in carried.notes)

    back = co.carry_over(sheet(trait("skill", "Contacting", 1)), FATE, LITE)  # Average
    assert back.sheet["traits"][0]["level"] == 0
    assert co.Note(co.LEVEL_CHANGED, "Contacting", "Average", "Mediocre") in back.notes


def test_ezfudge_attributes_and_roles_become_traits_and_its_extras_are_dropped():
    before = sheet(
        *(trait(ATTRIBUTE, name, 1) for name in ATTRIBUTE_NAMES),
        trait("role", "Fighter", 3, specialty="Swords", specialty_required=True),
        mass_scale=2,
        tracks={"wounds": {"levels": [["scratch"], ["clear"], ["clear"], ["clear"], ["clear"]]}},
    )
    carried = co.carry_over(before, EZ, LITE)
    fighter = next(t for t in carried.sheet["traits"] if t["name"] == "Fighter")
    assert fighter == trait("trait", "Fighter", 3, specialty="Swords")
    assert {t["kind"] for t in carried.sheet["traits"]} == {"trait"}
    assert carried.sheet["mass_scale"] == 0 and carried.sheet["xp"] == 0
    assert ("mass-scale-dropped", "") in codes(carried)
    assert ("xp-dropped", "") in codes(carried)
    assert ("track-cleared", "Wounds") in codes(carried)
    assert carried.sheet["tracks"] == {"injury": LITE.injury_track.empty().to_dict()}


def test_into_ezfudge_traits_become_roles_and_the_four_attributes_are_there():
    carried = co.carry_over(
        sheet(trait("trait", "Body", 2), trait("trait", "Stealth", 1)), LITE, EZ
    )
    kinds = {t["name"]: (t["kind"], t["level"]) for t in carried.sheet["traits"]}
    assert kinds["Body"] == ("attribute", 2)
    assert kinds["Stealth"] == ("role", 1)
    assert sorted(n for n, (k, _) in kinds.items() if k == "attribute") == sorted(ATTRIBUTE_NAMES)
    assert co.Note(co.TRAIT_ADDED, "Mind", after="Fair") in carried.notes


def test_peupfudge_numbers_and_ladder_rungs_do_not_meet():
    ability = trait("ability", "Climbing", 3, progress=2, modifier=1)
    carried = co.carry_over(sheet(ability), PEUP, LITE)
    assert co.Note(co.TRAIT_DROPPED, "Climbing") in carried.notes
    # Left with no traits, the sheet starts from the new campaign's list, at Poor.
    assert [t["name"] for t in carried.sheet["traits"]] == list(LITE.trait_list)
    assert {t["level"] for t in carried.sheet["traits"]} == {-1}

    into = co.carry_over(sheet(trait("trait", "Sailing", 2)), LITE, PEUP)
    assert into.sheet["fudge_points"] == 0
    assert ("fudge-points-dropped", "") in codes(into)
    assert [t["name"] for t in into.sheet["traits"]] == list(PEUP.trait_list)

    kept = co.carry_over(sheet(ability), PEUP, PEUP).sheet["traits"]
    assert kept == [ability]


def test_traded_slots_need_the_same_ladders_slots():
    assert co.carry_over(sheet(trades=[3]), LITE, F95).sheet["trades"] == []
    assert ("trades-dropped", "") in codes(co.carry_over(sheet(trades=[3]), LITE, F95))
    assert co.carry_over(sheet(trades=[3]), LITE, PEUP).sheet["trades"] == []


def test_an_npcs_track_is_fitted_to_the_new_pcs_track():
    npc = sheet(kind="npc", npc_boxes=6, tracks={"condition": {"boxes": ["x"] + [None] * 5}})
    carried = co.carry_over(npc, EZ, LITE)
    assert carried.sheet["npc_boxes"] == LITE.injury_track.size == 4
    assert co.Note(co.BOXES_CHANGED, before="6", after="4") in carried.notes
    assert ("track-cleared", "Condition") in codes(carried)
    assert carried.sheet["tracks"] == {"condition": {"boxes": [None] * 4}}
    mook = sheet(kind="npc", npc_boxes=3, tracks={"condition": {"boxes": ["x", None, None]}})
    same = co.carry_over(mook, LITE, F95)
    assert same.sheet["tracks"] == mook["tracks"]
    assert [n.code for n in same.notes] == []


def test_a_name_that_comes_twice_is_kept_once():
    carried = co.carry_over(sheet(trait("role", "Body", 2), trait(ATTRIBUTE, "Body", 1)), EZ, LITE)
    assert [t["name"] for t in carried.sheet["traits"]] == ["Body"]
    assert co.Note(co.TRAIT_TWICE, "Body") in carried.notes


@pytest.mark.parametrize(("source", "target"), list(itertools.product(PRESETS.values(), repeat=2)))
def test_every_carried_sheet_fits_its_new_rules(source, target):
    low, high = level_bounds(source)
    kinds = SCHEME_KINDS[source.trait_scheme]
    traits = [trait(kinds[-1], f"T{level}", level) for level in range(low, min(high, low + 12) + 1)]
    if source.key == "ezfudge":
        traits = [t for t in traits if t["kind"] != ATTRIBUTE]
        traits += [trait(ATTRIBUTE, name, 1) for name in ATTRIBUTE_NAMES]
    carried = co.carry_over(sheet(*traits), source, target).sheet
    new_low, new_high = level_bounds(target)
    assert all(new_low <= t["level"] <= new_high for t in carried["traits"])
    assert {t["kind"] for t in carried["traits"]} <= set(SCHEME_KINDS[target.trait_scheme])
    if target.key == "ezfudge":
        attributes = sorted(t["name"] for t in carried["traits"] if t["kind"] == ATTRIBUTE)
        assert attributes == sorted(ATTRIBUTE_NAMES)
