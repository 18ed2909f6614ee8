"""A table aid is the rules in force, not numbers of its own."""

from fractions import Fraction

from fudgetable.rules.dice import get_method
from fudgetable.rules.rulesets import PRESETS, resolve
from fudgetable.rules.table_aid import table_aid
from fudgetable.rules.tracks import LITE_PENALTY_TRACK


def test_the_ladder_runs_high_to_low_with_its_numbers():
    aid = table_aid(PRESETS["fate"])
    assert [(r.name, r.value) for r in aid.ladder][:2] == [("Superb", 5), ("Great", 4)]
    assert aid.ladder[-1].name == "Terrible"
    assert aid.default_difficulty == "Fair (+2)"
    assert table_aid(PRESETS["peupfudge"]).ladder == ()


def test_the_odds_are_the_dice_methods_exact_ones():
    (dice,) = table_aid(PRESETS["fudge-lite"]).dice
    chances = get_method("4dF").distribution()
    assert {o.roll: o.chance for o in dice.odds} == chances
    assert sum(o.chance for o in dice.odds) == 1
    zero = next(o for o in dice.odds if o.roll == 0)
    assert (zero.ways, zero.out_of, zero.ways_or_better) == (19, 81, 50)
    assert zero.or_better == Fraction(50, 81)
    assert [o.or_better for o in dice.odds] == sorted(
        (o.or_better for o in dice.odds), reverse=True
    )


def test_a_campaigns_own_settings_show_as_they_are():
    rules = resolve(
        "fudge-lite",
        {
            "dice": "3dF",
            "opposed_dice": "3dF",
            "injury_track": LITE_PENALTY_TRACK.to_dict(),
            "fudge_point_uses": ["reroll"],
        },
    )
    aid = table_aid(rules)
    assert [d.key for d in aid.dice] == ["3dF"]
    assert [(row.name, row.boxes, row.penalty) for row in aid.track][1:3] == [
        ("Hurt", 1, -1),
        ("Very Hurt", 1, -2),
    ]
    assert aid.track[0].recovery == "tending" and list(aid.track[0].each_box) == [0, 1, 2]
    assert aid.fudge_point_uses == ("Reroll a trait check",)


def test_each_games_track_and_opposed_dice():
    ez = table_aid(PRESETS["ezfudge"])
    assert ez.track_name == "Wounds"
    assert (ez.track[2].least_damage, ez.track[2].effect) == (5, "barely moves")
    peup = table_aid(PRESETS["peupfudge"])
    assert [(d.key, d.opposed_only) for d in peup.dice] == [("4dF", False), ("3dF", True)]
    assert peup.track == () and peup.fudge_point_uses == ()
