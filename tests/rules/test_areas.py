"""Areas, ranges, rounds and movement limits, against EZFudge Essentials' "Fight Scenes" and
"Wounds and Healing"."""

import pytest

from fudgetable.rules import areas, rulesets
from fudgetable.rules.errors import RulesError
from fudgetable.rules.wounds import EZ_WOUND_TRACK, Effect

EZ = rulesets.resolve("ezfudge", {})


def test_ezfudge_measures_in_its_four_ranges_and_the_others_in_near_and_far():
    # "Distance in a fight is measured in ranges. There are four"; "melee reach (range T or S)".
    assert [r.key for r in areas.ranges_for("ezfudge")] == ["T", "S", "M", "L"]
    assert [r.key for r in areas.ranges_for("fate")] == ["near", "far"]
    assert [r.shot for r in areas.ranges_for("fudge-lite")] == ["S", "L"]


def test_one_area_is_within_melee_reach_and_two_unset_areas_are_medium_apart():
    scale = areas.ranges_for("ezfudge")
    assert areas.range_between(scale, {}, 4, 4) == (scale[1], False)  # Short: melee reach
    assert areas.range_between(scale, {}, 4, 9) == (scale[2], False)
    set_pair = {areas.pair_key(9, 4): "L"}
    assert areas.pair_key(9, 4) == areas.pair_key(4, 9) == "4-9"
    assert areas.range_between(scale, set_pair, 9, 4) == (scale[3], True)
    near_far = areas.ranges_for("fate")
    assert areas.range_between(near_far, {}, 1, 2)[0].key == "far"
    with pytest.raises(RulesError):
        areas.check_range(near_far, "M")


def test_a_round_runs_melee_ranged_other_actions_and_wounds_then_the_next():
    # "The Combat Round": 2) Melee, 3) Ranged, 4) "remaining non-combat actions and assign
    # wounds".
    at = (1, areas.Phase.MELEE)
    seen = [at]
    for _ in range(4):
        at = areas.next_phase(*at)
        seen.append(at)
    assert [phase.value for _, phase in seen] == ["melee", "ranged", "other", "wounds", "melee"]
    assert seen[-1][0] == 2
    with pytest.raises(RulesError):
        areas.next_phase(0, areas.Phase.MELEE)


def test_very_hurt_moves_no_more_than_one_area_a_round():
    # "If you are Very Hurt or worse, you can move no more than 1 area per round."
    limit = areas.movement(Effect.BARELY_MOVES)
    assert limit is areas.Movement.ONE_AREA
    areas.check_move(limit, in_round=True, moved=0)
    with pytest.raises(RulesError, match="at most 1 area a round"):
        areas.check_move(limit, in_round=True, moved=1, name="Jason")
    areas.check_move(limit, in_round=False, moved=3)  # out of a fight, rounds count nothing


def test_out_of_it_cannot_leave_the_current_area():
    # "If you are Out of It or worse, you can take no actions and cannot leave your current
    # area"; "cannot move on your own".
    for effect in (Effect.NO_ACTIONS,):
        limit = areas.movement(effect)
        assert limit is areas.Movement.STAYS
        for in_round in (True, False):
            with pytest.raises(RulesError, match="cannot leave"):
                areas.check_move(limit, in_round=in_round, moved=0)
    assert areas.movement(Effect.NONE) is areas.Movement.FREE


@pytest.mark.parametrize(
    ("level", "limit"),
    [
        (None, areas.Movement.FREE),
        (0, areas.Movement.FREE),  # Scratch
        (1, areas.Movement.FREE),  # Hurt
        (2, areas.Movement.ONE_AREA),  # Very Hurt
        (3, areas.Movement.STAYS),  # Out of It
        (4, areas.Movement.STAYS),  # Near Death: "or worse"
    ],
)
def test_a_sheets_worst_wound_sets_how_far_it_moves(level, limit):
    assert [lv.name for lv in EZ_WOUND_TRACK.levels][2:4] == ["Very Hurt", "Out of It"]
    levels: list[list[str]] = [[] for _ in EZ_WOUND_TRACK.levels]
    if level is not None:
        levels[level] = ["wound"]
    state = {"wounds": {"levels": levels}}
    assert areas.sheet_movement(EZ, tracks_state=state) is limit


def test_a_game_without_a_wound_track_sets_no_limit():
    lite = rulesets.resolve("fudge-lite", {})
    assert areas.sheet_movement(lite, tracks_state={"injury": {"boxes": [1, 1, 1]}}) is (
        areas.Movement.FREE
    )
