import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fudgetable.rules.countdowns import (
    Countdown,
    Decision,
    SkillChallenge,
    Stage,
    newly_happened,
)
from fudgetable.rules.errors import RulesError


def building_collapse() -> Countdown:
    # The seed's "ticking clock": 2 + 2 + 1 boxes, each stage with its own event.
    return Countdown(
        "Burning building",
        (
            Stage(2, "Stairwell collapses, limiting access to the second floor"),
            Stage(2, "Building creaks ominously"),
            Stage(1, "House collapses, incapacitating anybody still inside"),
        ),
        trigger="advances as a GM move",
    )


def funding() -> SkillChallenge:
    return SkillChallenge(
        Countdown.simple("Funding", 3, "get the funding", "succeed with the relevant people"),
        Countdown.simple("Embassy patience", 4, "get kicked out of the embassy", "fail a check"),
    )


def test_a_countdown_happens_when_every_box_is_marked() -> None:
    clock = Countdown.simple("Oxygen", 3, "you pass out")
    assert (clock.boxes, clock.remaining, clock.complete) == (3, 3, False)
    clock = clock.mark().mark(2)
    assert clock.complete and clock.outcome == "you pass out"
    assert clock.happened == ("you pass out",)


def test_stages_happen_as_their_last_box_is_marked() -> None:
    clock = building_collapse()
    assert clock.mark().happened == ()
    two = clock.mark(2)
    assert two.happened == ("Stairwell collapses, limiting access to the second floor",)
    four = two.mark(2)
    assert newly_happened(two, four) == ("Building creaks ominously",)
    assert not four.complete
    assert four.mark().complete


def test_the_ticking_clock_written_as_events_at_boxes_is_the_seed_s_stages() -> None:
    # Fudge Lite 3.1.0 :660-664: "[_] [_] Stairwell collapses ... [_] [_] Building creaks
    # ominously ... [_] House collapses": events at boxes 2 and 4, the outcome at box 5.
    clock = Countdown.at_boxes(
        "Burning building",
        5,
        [
            (2, "Stairwell collapses, limiting access to the second floor"),
            (4, "Building creaks ominously"),
        ],
        "House collapses, incapacitating anybody still inside",
        trigger="advances as a GM move",
    )
    assert clock == building_collapse()
    assert clock.events_at == (
        (2, "Stairwell collapses, limiting access to the second floor"),
        (4, "Building creaks ominously"),
        (5, "House collapses, incapacitating anybody still inside"),
    )
    # :640 "Once all the boxes are checked off, the thing happens."
    assert Countdown.at_boxes("Oxygen", 3, [], "you pass out") == Countdown.simple(
        "Oxygen", 3, "you pass out"
    )
    assert Countdown.at_boxes("C", 5, [(2, "a")], "b", marked=3).happened == ("a",)


@pytest.mark.parametrize(
    "events",
    [[(0, "too soon")], [(5, "the outcome's box")], [(9, "past the end")], [(3, "b"), (2, "a")]],
)
def test_events_sit_at_boxes_before_the_last_in_order(events: list) -> None:
    with pytest.raises(RulesError) as info:
        Countdown.at_boxes("C", 5, events, "end")
    assert info.value.setting == "countdown.stages"
    with pytest.raises(RulesError):
        Countdown.at_boxes("C", 5, [(2, "a"), (2, "again")], "end")


def test_a_front_is_one_box_per_stage() -> None:
    front = Countdown(
        "Kobold menace",
        (
            Stage(1, "Kobolds attack the town"),
            Stage(1, "Kobold Mage steals the Tome of Dragons"),
            Stage(1, "The Dragon Lord Awakens"),
        ),
        trigger="players fail to act against the kobold menace",
    )
    assert front.mark(2).happened[-1] == "Kobold Mage steals the Tome of Dragons"


def test_marks_past_the_end_and_unmarks_past_the_start_are_dropped() -> None:
    clock = Countdown.simple("Clock", 3, "boom")
    assert clock.mark(10).marked == 3
    assert clock.mark().unmark(5).marked == 0


@pytest.mark.parametrize(
    ("make", "setting"),
    [
        (lambda: Countdown.simple("", 3, "x"), "countdown.name"),
        (lambda: Countdown("C", ()), "countdown.stages"),
        (lambda: Countdown.simple("C", 0, "x"), "stage.boxes"),
        (lambda: Countdown("C", (Stage(2, "x"),), marked=3), "countdown.marked"),
        (lambda: Countdown.simple("C", 2, "x").mark(0), "count"),
        (lambda: Countdown.simple("C", 2, "x").unmark(0), "count"),
    ],
)
def test_bad_countdowns_are_refused(make: object, setting: str) -> None:
    with pytest.raises(RulesError) as info:
        make()  # type: ignore[operator]
    assert info.value.setting == setting


def test_skill_challenge_succeeds_when_the_success_countdown_fills_first() -> None:
    challenge = funding()
    for succeeded in (True, False, True, False, False, True):
        challenge = challenge.record(succeeded)
    assert challenge.decision is Decision.SUCCESS
    with pytest.raises(RulesError) as info:
        challenge.record(True)
    assert info.value.setting == "challenge"


def test_skill_challenge_fails_when_the_failure_countdown_fills_first() -> None:
    challenge = funding()
    for succeeded in (False, True, False, False, True, False):
        challenge = challenge.record(succeeded)
    assert challenge.decision is Decision.FAILURE
    assert challenge.failure.outcome == "get kicked out of the embassy"


def test_an_undecided_challenge_has_no_decision() -> None:
    assert funding().record(True).decision is None


def test_undo_takes_back_a_check() -> None:
    challenge = funding().record(True).record(False)
    assert challenge.undo(True).undo(False) == funding()
    with pytest.raises(RulesError):
        funding().undo(True)
    with pytest.raises(RulesError):
        funding().undo(False)


def test_countdowns_and_challenges_round_trip_through_json() -> None:
    clock = building_collapse().mark(3)
    assert Countdown.from_dict(json.loads(json.dumps(clock.to_dict()))) == clock
    challenge = funding().record(False)
    assert SkillChallenge.from_dict(json.loads(json.dumps(challenge.to_dict()))) == challenge


@pytest.mark.parametrize(
    ("load", "data", "setting"),
    [
        (Countdown.from_dict, None, "countdown"),
        (Countdown.from_dict, {"name": "C"}, "countdown.stages"),
        (Countdown.from_dict, {"name": "C", "stages": [{"boxes": 2}]}, "stage.event"),
        (
            Countdown.from_dict,
            {"name": "C", "stages": [{"boxes": "2", "event": "x"}]},
            "stage.boxes",
        ),
        (
            Countdown.from_dict,
            {"name": "C", "stages": [{"boxes": 2, "event": "x"}], "marked": 3},
            "countdown.marked",
        ),
        (SkillChallenge.from_dict, [], "challenge"),
        (SkillChallenge.from_dict, {"success": {}}, "challenge.success.countdown.stages"),
    ],
)
def test_from_dict_names_the_bad_field(load: object, data: object, setting: str) -> None:
    with pytest.raises(RulesError) as info:
        load(data)  # type: ignore[operator]
    assert info.value.setting == setting


@given(st.lists(st.integers(1, 5), min_size=1, max_size=4), st.integers(0, 20), st.integers(1, 5))
def test_marking_then_unmarking_returns_to_the_start(
    stage_boxes: list[int], before: int, count: int
) -> None:
    stages = tuple(Stage(n, f"stage {i}") for i, n in enumerate(stage_boxes))
    total = sum(stage_boxes)
    start = Countdown("C", stages, marked=min(before, total))
    marked = start.mark(count)
    assert 0 <= marked.marked <= total
    if start.marked + count <= total:
        assert marked.unmark(count) == start
    assert Countdown.from_dict(json.loads(json.dumps(marked.to_dict()))) == marked


@given(st.lists(st.booleans(), max_size=12))
def test_a_skill_challenge_decides_once(results: list[bool]) -> None:
    challenge = funding()
    for succeeded in results:
        if challenge.decision is not None:
            break
        challenge = challenge.record(succeeded)
    assert not (challenge.success.complete and challenge.failure.complete)
