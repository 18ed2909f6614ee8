import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fudgetable.rules import wounds
from fudgetable.rules.errors import RulesError
from fudgetable.rules.tracks import (
    DIES,
    INCAPACITATED,
    LITE_INJURY_TRACK,
    LITE_PENALTY_TRACK,
    ConditionGroup,
    ConditionTrack,
    Marking,
    Recovery,
    TrackState,
    boxes_for_effect,
    ease,
    is_taken_out,
    mark,
    npc_track,
    outcome,
    penalty,
    recover,
    unmark,
)
from fudgetable.rules.wounds import EZ_WOUND_TRACK, Box, Effect, WoundLevel, WoundState, WoundTrack

HURT, VERY_HURT, OUT_OF_IT, NEAR_DEATH = 1, 2, 3, 4

# --- Fudge Lite -------------------------------------------------------------------------


def test_injury_track_has_two_minor_and_two_serious_boxes() -> None:
    assert [(g.name, g.boxes) for g in LITE_INJURY_TRACK.groups] == [
        ("Minor injury", 2),
        ("Serious injury", 2),
    ]
    assert LITE_INJURY_TRACK.empty() == TrackState((None, None, None, None))


def test_boxes_are_marked_minor_first_then_serious() -> None:
    state = mark(LITE_INJURY_TRACK, LITE_INJURY_TRACK.empty())
    state = mark(LITE_INJURY_TRACK, state, count=2)
    assert state.boxes == ("", "", "", None)
    assert not is_taken_out(LITE_INJURY_TRACK, state)


def test_last_box_incapacitates_or_kills_per_session_zero() -> None:
    full = mark(LITE_INJURY_TRACK, LITE_INJURY_TRACK.empty(), count=4)
    assert outcome(LITE_INJURY_TRACK, full) == INCAPACITATED
    deadly = ConditionTrack("Injury", LITE_INJURY_TRACK.groups, last_box=DIES)
    assert outcome(deadly, full) == DIES
    assert outcome(deadly, deadly.empty()) is None


def test_tending_clears_minor_boxes_and_revives() -> None:
    full = mark(LITE_INJURY_TRACK, LITE_INJURY_TRACK.empty(), count=4)
    tended = recover(LITE_INJURY_TRACK, full, Recovery.TENDING)
    assert tended.boxes == (None, None, "", "")
    assert not is_taken_out(LITE_INJURY_TRACK, tended)
    # New injuries go into the freed minor boxes again.
    assert mark(LITE_INJURY_TRACK, tended).boxes == ("", None, "", "")


def test_a_long_rest_clears_every_box() -> None:
    full = mark(LITE_INJURY_TRACK, LITE_INJURY_TRACK.empty(), count=4)
    assert recover(LITE_INJURY_TRACK, full, Recovery.LONG_REST) == LITE_INJURY_TRACK.empty()


def test_marks_past_the_last_box_are_dropped() -> None:
    state = mark(LITE_INJURY_TRACK, LITE_INJURY_TRACK.empty(), count=9)
    assert state.marked == 4


def test_in_order_tracks_refuse_skipping_a_box() -> None:
    with pytest.raises(RulesError) as info:
        mark(LITE_INJURY_TRACK, LITE_INJURY_TRACK.empty(), box=2)
    assert info.value.setting == "box"
    assert mark(LITE_INJURY_TRACK, LITE_INJURY_TRACK.empty(), box=0).boxes[0] == ""


def test_gm_picks_the_box() -> None:
    doc = ConditionTrack("Injury", LITE_INJURY_TRACK.groups, marking=Marking.GM_PICKS)
    state = mark(doc, doc.empty(), box=3)
    assert state.boxes == (None, None, None, "")
    assert mark(doc, state).boxes == ("", None, None, "")  # no choice: in order
    state = mark(doc, state, box=2)
    assert is_taken_out(doc, state)  # the whole final condition is marked


def test_blank_conditions_are_named_when_taken() -> None:
    blank = ConditionTrack("Injury", LITE_INJURY_TRACK.groups, blank=True)
    state = mark(blank, blank.empty(), name="twisted ankle")
    state = mark(blank, state, name="hurt feelings")
    state = mark(blank, state, name="cracked ribs")
    assert state.boxes == ("twisted ankle", "hurt feelings", "cracked ribs", None)
    with pytest.raises(RulesError) as info:
        mark(blank, state)
    assert info.value.setting == "name"


NONLINEAR = ConditionTrack(
    "Survival",
    (
        ConditionGroup("Hungry", 1),
        ConditionGroup("Sick", 1),
        ConditionGroup("Exhausted", 1),
        ConditionGroup("Taken out", 1),
    ),
    marking=Marking.NONLINEAR,
)


def test_nonlinear_conditions_are_chosen_not_ordered() -> None:
    state = mark(NONLINEAR, NONLINEAR.empty(), box=2)
    assert state.boxes == (None, None, "", None)
    with pytest.raises(RulesError) as info:
        mark(NONLINEAR, state)
    assert info.value.setting == "box"
    assert is_taken_out(NONLINEAR, mark(NONLINEAR, state, box=3))


@pytest.mark.parametrize(
    ("kwargs", "setting"),
    [
        ({"count": 0}, "count"),
        ({"count": 2, "box": 1}, "count"),
        ({"box": 9}, "box"),
    ],
)
def test_bad_marks_are_refused(kwargs: dict, setting: str) -> None:
    with pytest.raises(RulesError) as info:
        mark(NONLINEAR, NONLINEAR.empty(), **kwargs)
    assert info.value.setting == setting


def test_marking_a_marked_box_is_refused() -> None:
    state = mark(NONLINEAR, NONLINEAR.empty(), box=1)
    with pytest.raises(RulesError):
        mark(NONLINEAR, state, box=1)


def test_effect_marks_several_boxes() -> None:
    assert [boxes_for_effect(level) for level in range(0, 5)] == [1, 2, 3, 4, 5]
    assert boxes_for_effect(5) == 6
    with pytest.raises(RulesError):
        boxes_for_effect(-1)


def test_condition_penalties_use_the_worst_marked_box() -> None:
    track = LITE_PENALTY_TRACK
    assert [(g.name, g.boxes, g.penalty) for g in track.groups] == [
        ("Scratch", 3, 0),
        ("Hurt", 1, -1),
        ("Very Hurt", 1, -2),
        ("Incapacitated", 1, 0),
    ]
    state = mark(track, track.empty(), count=3)
    assert penalty(track, state) == 0
    state = mark(track, state)
    assert penalty(track, state) == -1
    state = mark(track, state)
    assert penalty(track, state) == -2
    assert not is_taken_out(track, state)
    assert is_taken_out(track, mark(track, state))


def test_a_fudge_point_eases_a_condition_one_level() -> None:
    track = LITE_PENALTY_TRACK
    state = mark(track, track.empty(), count=5)
    with pytest.raises(RulesError) as info:
        ease(track, state, 3)  # the Scratch boxes are full
    assert "Scratch" in info.value.message
    state = ease(track, state, 0)  # a Scratch clears
    state = ease(track, state, 3)  # the Hurt drops to the free Scratch box
    state = ease(track, state, 4)  # the Very Hurt drops to the freed Hurt box
    assert state.boxes == ("", "", "", "", None, None)
    assert penalty(track, state) == -1
    with pytest.raises(RulesError):
        ease(track, state, 4)


def test_easing_moves_into_a_free_box_below() -> None:
    track = LITE_PENALTY_TRACK
    state = TrackState((None, None, None, None, "deep cut", None))
    assert ease(track, state, 4).boxes == (None, None, None, "deep cut", None, None)
    with pytest.raises(RulesError):
        ease(track, state, 3)


def test_unmark_clears_a_box() -> None:
    state = mark(LITE_INJURY_TRACK, LITE_INJURY_TRACK.empty(), count=2)
    assert unmark(LITE_INJURY_TRACK, state, 1).boxes == ("", None, None, None)
    with pytest.raises(RulesError):
        unmark(LITE_INJURY_TRACK, state, 3)


def test_npc_tracks_run_from_one_box_up_to_a_pcs_size() -> None:
    warg = npc_track(1)
    assert warg.size == 1
    assert is_taken_out(warg, mark(warg, warg.empty()))
    assert npc_track(4).size == 4
    for bad in (0, 5):
        with pytest.raises(RulesError) as info:
            npc_track(bad)
        assert info.value.setting == "boxes"


@pytest.mark.parametrize(
    ("make", "setting"),
    [
        (lambda: ConditionGroup("", 1), "group.name"),
        (lambda: ConditionGroup("Minor", 0), "group.boxes"),
        (lambda: ConditionGroup("Minor", 1, penalty=1), "group.penalty"),
        (lambda: ConditionTrack("T", ()), "track.groups"),
        (lambda: ConditionTrack("T", LITE_INJURY_TRACK.groups, last_box="sad"), "track.last_box"),
        (lambda: penalty(LITE_INJURY_TRACK, TrackState((None,))), "state.boxes"),
    ],
)
def test_bad_track_shapes_are_refused(make: object, setting: str) -> None:
    with pytest.raises(RulesError) as info:
        make()  # type: ignore[operator]
    assert info.value.setting == setting


def test_tracks_and_states_round_trip_through_json() -> None:
    for track in (LITE_INJURY_TRACK, LITE_PENALTY_TRACK, NONLINEAR, npc_track(2, last_box=DIES)):
        assert ConditionTrack.from_dict(json.loads(json.dumps(track.to_dict()))) == track
    state = TrackState(("twisted ankle", None, "", None))
    assert TrackState.from_dict(json.loads(json.dumps(state.to_dict()))) == state


@pytest.mark.parametrize(
    ("load", "data", "setting"),
    [
        (ConditionTrack.from_dict, [], "track"),
        (ConditionTrack.from_dict, {"name": "T"}, "track.groups"),
        (ConditionTrack.from_dict, {"name": "T", "groups": [], "marking": "x"}, "track.marking"),
        (ConditionTrack.from_dict, {"name": "T", "groups": [], "blank": 1}, "track.blank"),
        (ConditionTrack.from_dict, {"name": 5, "groups": []}, "track.name"),
        (ConditionGroup.from_dict, {"name": "M", "boxes": 2, "recovery": "nap"}, "group.recovery"),
        (ConditionGroup.from_dict, {"name": "M", "boxes": "2"}, "group.boxes"),
        (TrackState.from_dict, {"boxes": [1]}, "state.boxes"),
    ],
)
def test_from_dict_names_the_bad_field(load: object, data: object, setting: str) -> None:
    with pytest.raises(RulesError) as info:
        load(data)  # type: ignore[operator]
    assert info.value.setting == setting


tracks = st.sampled_from([LITE_INJURY_TRACK, LITE_PENALTY_TRACK, NONLINEAR])


@given(tracks, st.lists(st.integers(0, 5), max_size=8), st.integers(1, 8))
def test_marking_never_exceeds_the_boxes(
    track: ConditionTrack, picks: list[int], count: int
) -> None:
    state = track.empty()
    for pick in picks:
        box = pick % track.size
        if state.boxes[box] is None and track.marking is Marking.NONLINEAR:
            state = mark(track, state, box=box)
    if track.marking is not Marking.NONLINEAR:
        state = mark(track, state, count=count)
    assert len(state.boxes) == track.size
    assert 0 <= state.marked <= track.size
    assert 0 >= penalty(track, state) >= -2


@given(tracks, st.integers(0, 5), st.integers(0, 5))
def test_marking_then_unmarking_returns_to_the_start(
    track: ConditionTrack, before: int, pick: int
) -> None:
    free_in_order = [i for i in range(track.size) if i >= min(before, track.size)]
    start = TrackState(tuple("" if i < before else None for i in range(track.size)))
    if not free_in_order:
        return
    box = (
        free_in_order[0]
        if track.marking is Marking.IN_ORDER
        else free_in_order[pick % len(free_in_order)]
    )
    marked = mark(track, start, box=box)
    assert unmark(track, marked, box) == start
    assert TrackState.from_dict(json.loads(json.dumps(marked.to_dict()))) == marked


# --- EZFudge wounds ---------------------------------------------------------------------


def test_default_thresholds_turn_damage_into_wound_levels() -> None:
    expected = {0: None, 1: 0, 2: 0, 3: 1, 4: 1, 5: 2, 6: 2, 7: 3, 8: 3, 9: 4, 15: 4, -3: None}
    for amount, level in expected.items():
        assert wounds.level_for_damage(EZ_WOUND_TRACK, amount) == level
    names = [lv.name for lv in EZ_WOUND_TRACK.levels]
    assert names == ["Scratch", "Hurt", "Very Hurt", "Out of It", "Near Death"]


def test_damage_is_margin_plus_inj_minus_cpd() -> None:
    # Jason's quarterstaff (INJ 5) with margin 2 against a CPD 4 foe: 3 damage, Hurt.
    assert wounds.damage(2, 5, 4) == 3
    hit = wounds.hit(EZ_WOUND_TRACK, EZ_WOUND_TRACK.empty(), margin=2, inj=5, cpd=4)
    assert hit.level == HURT
    assert hit.state.levels[HURT] == (Box.WOUND, Box.CLEAR)


def test_a_blow_that_does_no_damage_leaves_no_wound() -> None:
    hit = wounds.hit(EZ_WOUND_TRACK, EZ_WOUND_TRACK.empty(), margin=0, inj=2, cpd=4)
    assert hit.level is None and hit.state == EZ_WOUND_TRACK.empty()


def test_a_full_level_promotes_the_wound() -> None:
    state = EZ_WOUND_TRACK.empty()
    for _ in range(3):
        state = wounds.take_wound(EZ_WOUND_TRACK, state, 0).state
    promoted = wounds.take_wound(EZ_WOUND_TRACK, state, 0)
    assert promoted.level == HURT
    assert promoted.state.levels[HURT][0] is Box.SCRATCH


def test_only_the_highest_consequence_counts() -> None:
    state = wounds.take_wound(EZ_WOUND_TRACK, EZ_WOUND_TRACK.empty(), HURT).state
    assert wounds.effect(EZ_WOUND_TRACK, state) is Effect.NONE
    state = wounds.take_wound(EZ_WOUND_TRACK, state, VERY_HURT).state
    assert wounds.effect(EZ_WOUND_TRACK, state) is Effect.BARELY_MOVES
    state = wounds.take_wound(EZ_WOUND_TRACK, state, OUT_OF_IT).state
    assert wounds.effect(EZ_WOUND_TRACK, state) is Effect.NO_ACTIONS
    assert wounds.worst_level(EZ_WOUND_TRACK, state) == OUT_OF_IT
    assert wounds.penalty(EZ_WOUND_TRACK, state) == 0


def test_a_wound_past_near_death_overflows() -> None:
    state = EZ_WOUND_TRACK.empty()
    state = wounds.take_wound(EZ_WOUND_TRACK, state, NEAR_DEATH).state
    again = wounds.take_wound(EZ_WOUND_TRACK, state, NEAR_DEATH)
    assert again.overflow and again.level is None and again.state == state


def test_stun_results_circle_instead_of_mark() -> None:
    nothing = wounds.take_wound(EZ_WOUND_TRACK, EZ_WOUND_TRACK.empty(), 0, stun=True)
    assert nothing.level is None and nothing.state == EZ_WOUND_TRACK.empty()
    stunned = wounds.hit(EZ_WOUND_TRACK, EZ_WOUND_TRACK.empty(), margin=3, inj=5, cpd=1, stun=True)
    assert stunned.level == OUT_OF_IT
    assert stunned.state.levels[OUT_OF_IT] == (Box.STUN,)
    assert wounds.effect(EZ_WOUND_TRACK, stunned.state) is Effect.NO_ACTIONS
    assert wounds.after_fight(EZ_WOUND_TRACK, stunned.state) == EZ_WOUND_TRACK.empty()


def test_scratches_clear_after_the_fight_even_when_promoted() -> None:
    state = EZ_WOUND_TRACK.empty()
    for _ in range(4):
        state = wounds.take_wound(EZ_WOUND_TRACK, state, 0).state
    state = wounds.take_wound(EZ_WOUND_TRACK, state, VERY_HURT).state
    after = wounds.after_fight(EZ_WOUND_TRACK, state)
    assert after.levels[0] == (Box.CLEAR,) * 3
    assert after.levels[HURT] == (Box.CLEAR, Box.CLEAR)
    assert after.levels[VERY_HURT] == (Box.WOUND,)


def test_a_week_of_rest_improves_each_wound_one_level() -> None:
    state = EZ_WOUND_TRACK.empty()
    for level in (HURT, VERY_HURT, OUT_OF_IT):
        state = wounds.take_wound(EZ_WOUND_TRACK, state, level).state
    week1 = wounds.rest_week(EZ_WOUND_TRACK, state)
    assert week1.levels[HURT] == (Box.WOUND, Box.CLEAR)  # the Hurt healed, Very Hurt moved in
    assert week1.levels[VERY_HURT] == (Box.WOUND,)
    assert week1.levels[OUT_OF_IT] == (Box.CLEAR,)
    week3 = wounds.rest_week(EZ_WOUND_TRACK, wounds.rest_week(EZ_WOUND_TRACK, week1))
    assert week3 == EZ_WOUND_TRACK.empty()


def test_a_week_of_rest_works_from_the_mildest_wounds_up() -> None:
    clear3 = (Box.CLEAR,) * 3
    state = WoundState((clear3, (Box.WOUND, Box.WOUND), (Box.WOUND,), (Box.WOUND,), (Box.CLEAR,)))
    rested = wounds.rest_week(EZ_WOUND_TRACK, state)
    # Both Hurts heal; Very Hurt moves to Hurt; Out of It moves to the freed Very Hurt box.
    assert rested.levels[1:4] == ((Box.WOUND, Box.CLEAR), (Box.WOUND,), (Box.CLEAR,))


NARROW = WoundTrack(
    "Narrow",
    (WoundLevel("Scratch", 1, 1), WoundLevel("Hurt", 1, 3), WoundLevel("Very Hurt", 2, 5)),
)


def test_a_wound_waits_when_the_level_below_is_full() -> None:
    state = WoundState(((Box.CLEAR,), (Box.CLEAR,), (Box.WOUND, Box.WOUND)))
    rested = wounds.rest_week(NARROW, state)
    assert rested.levels == ((Box.CLEAR,), (Box.WOUND,), (Box.CLEAR, Box.WOUND))
    # Medical care cannot move a Very Hurt into the full Hurt level either.
    assert wounds.treat(NARROW, rested, 2, result=4) == rested


def test_resting_also_clears_promoted_scratches() -> None:
    state = WoundState(((Box.SCRATCH,), (Box.SCRATCH,), (Box.WOUND, Box.CLEAR)))
    assert wounds.rest_week(NARROW, state).levels == ((Box.CLEAR,), (Box.WOUND,), (Box.CLEAR,) * 2)


def test_medical_care_on_fair_or_better_heals_one_level() -> None:
    state = wounds.take_wound(EZ_WOUND_TRACK, EZ_WOUND_TRACK.empty(), VERY_HURT).state
    assert wounds.treat(EZ_WOUND_TRACK, state, VERY_HURT, result=0) == state
    treated = wounds.treat(EZ_WOUND_TRACK, state, VERY_HURT, result=1)
    assert treated.levels[HURT] == (Box.WOUND, Box.CLEAR)
    assert wounds.treat(EZ_WOUND_TRACK, treated, HURT, result=3) == EZ_WOUND_TRACK.empty()
    with pytest.raises(RulesError) as info:
        wounds.treat(EZ_WOUND_TRACK, treated, OUT_OF_IT, result=3)
    assert info.value.setting == "level"


def test_medical_care_frequency_depends_on_the_era() -> None:
    assert wounds.may_treat("Fantasy/Medieval", 0)
    assert not wounds.may_treat("Fantasy/Medieval", 1)
    assert wounds.may_treat("Industrial Era", 1)
    assert wounds.may_treat("Modern", 2) and not wounds.may_treat("Modern", 3)
    with pytest.raises(RulesError):
        wounds.may_treat("Stone Age", 0)
    with pytest.raises(RulesError):
        wounds.may_treat("Modern", -1)


@pytest.mark.parametrize(
    ("era", "per_wound"), [("Fantasy/Medieval", 1), ("Industrial Era", 2), ("Modern", 3)]
)
def test_each_wound_takes_the_era_s_rolls_a_week(era, per_wound) -> None:
    """ezfudge-essentials.txt:387-392: the healer "cannot make rolls on those wounds again
    until that time period is up (but he can treat any newly acquired wounds)"; Era /
    Frequency: Fantasy/Medieval 1 / week, Industrial Era 2 / week, Modern 3 / week."""
    assert wounds.tries_left(era, 1, 0) == per_wound
    assert wounds.tries_left(era, 1, per_wound) == 0
    # A newly acquired wound at the same level brings its own rolls.
    assert wounds.tries_left(era, 2, per_wound) == per_wound
    assert wounds.tries_left(era, 0, 0) == 0
    assert wounds.tries_left(era, 1, per_wound + 2) == 0  # never below none


def test_tries_left_refuses_an_unknown_era_or_a_negative_count() -> None:
    with pytest.raises(RulesError):
        wounds.tries_left("Stone Age", 1, 0)
    with pytest.raises(RulesError):
        wounds.tries_left("Modern", 1, -1)


def test_fair_is_read_on_the_campaign_s_ladder() -> None:
    """ezfudge-essentials.txt:387 "A Fair (+1) or better result": on a ladder where Fair is
    +2, a +1 does not heal."""
    state = wounds.take_wound(EZ_WOUND_TRACK, EZ_WOUND_TRACK.empty(), HURT).state
    assert wounds.treat(EZ_WOUND_TRACK, state, HURT, result=1, fair=2) == state
    assert wounds.treat(EZ_WOUND_TRACK, state, HURT, result=2, fair=2) == EZ_WOUND_TRACK.empty()


def test_a_treated_wound_moves_down_a_level_and_a_hurt_heals() -> None:
    """ezfudge-essentials.txt:383 "Hurts do not become Scratches when they improve"."""
    assert wounds.treated_to(VERY_HURT, improved=True) == HURT
    assert wounds.treated_to(HURT, improved=True) is None
    assert wounds.treated_to(OUT_OF_IT, improved=False) == OUT_OF_IT


def test_heal_box_clears_one_mark() -> None:
    state = wounds.take_wound(EZ_WOUND_TRACK, EZ_WOUND_TRACK.empty(), HURT).state
    assert wounds.heal_box(EZ_WOUND_TRACK, state, HURT) == EZ_WOUND_TRACK.empty()
    with pytest.raises(RulesError):
        wounds.heal_box(EZ_WOUND_TRACK, state, VERY_HURT)
    with pytest.raises(RulesError):
        wounds.heal_box(EZ_WOUND_TRACK, state, 7)


def test_thresholds_are_a_setting() -> None:
    gentle = WoundTrack(
        "Gentle",
        (
            WoundLevel("Scratch", 3, 1),
            WoundLevel("Hurt", 2, 4, penalty=-1),
            WoundLevel("Out of It", 1, 8, Effect.NO_ACTIONS),
        ),
    )
    assert wounds.level_for_damage(gentle, 3) == 0
    hurt = wounds.take_wound(gentle, gentle.empty(), 1).state
    assert wounds.penalty(gentle, hurt) == -1


@pytest.mark.parametrize(
    ("make", "setting"),
    [
        (lambda: WoundLevel("", 1, 1), "level.name"),
        (lambda: WoundLevel("Hurt", 0, 1), "level.boxes"),
        (lambda: WoundLevel("Hurt", 1, 1, penalty=1), "level.penalty"),
        (lambda: WoundTrack("T", (WoundLevel("Scratch", 1, 1),)), "track.levels"),
        (lambda: WoundTrack("T", (WoundLevel("S", 1, 0), WoundLevel("H", 1, 3))), "track.levels"),
        (lambda: WoundTrack("T", (WoundLevel("S", 1, 3), WoundLevel("H", 1, 3))), "track.levels"),
        (
            lambda: WoundTrack(
                "T", (WoundLevel("S", 1, 1, Effect.NO_ACTIONS), WoundLevel("H", 1, 3))
            ),
            "track.levels",
        ),
        (lambda: wounds.take_wound(EZ_WOUND_TRACK, WoundState(()), 0), "state.levels"),
        (lambda: wounds.take_wound(EZ_WOUND_TRACK, EZ_WOUND_TRACK.empty(), 5), "level"),
    ],
)
def test_bad_wound_tracks_are_refused(make: object, setting: str) -> None:
    with pytest.raises(RulesError) as info:
        make()  # type: ignore[operator]
    assert info.value.setting == setting


def test_wound_tracks_and_states_round_trip_through_json() -> None:
    assert WoundTrack.from_dict(json.loads(json.dumps(EZ_WOUND_TRACK.to_dict()))) == EZ_WOUND_TRACK
    state = wounds.take_wound(EZ_WOUND_TRACK, EZ_WOUND_TRACK.empty(), OUT_OF_IT, stun=True).state
    state = wounds.take_wound(EZ_WOUND_TRACK, state, 0).state
    assert WoundState.from_dict(json.loads(json.dumps(state.to_dict()))) == state


@pytest.mark.parametrize(
    ("load", "data", "setting"),
    [
        (WoundTrack.from_dict, "wounds", "track"),
        (WoundTrack.from_dict, {"name": "W"}, "track.levels"),
        (
            WoundLevel.from_dict,
            {"name": "H", "boxes": 1, "min_damage": 3, "effect": "x"},
            "level.effect",
        ),
        (WoundLevel.from_dict, {"name": "H", "boxes": 1}, "level.min_damage"),
        (WoundLevel.from_dict, {"boxes": 1, "min_damage": 3}, "level.name"),
        (WoundState.from_dict, {"levels": "x"}, "state.levels"),
        (WoundState.from_dict, {"levels": [["bruise"]]}, "state.levels"),
    ],
)
def test_wound_from_dict_names_the_bad_field(load: object, data: object, setting: str) -> None:
    with pytest.raises(RulesError) as info:
        load(data)  # type: ignore[operator]
    assert info.value.setting == setting


@given(st.lists(st.tuples(st.integers(0, 4), st.booleans()), max_size=15))
def test_wounds_never_exceed_the_boxes(blows: list[tuple[int, bool]]) -> None:
    state = EZ_WOUND_TRACK.empty()
    for level, stun in blows:
        state = wounds.take_wound(EZ_WOUND_TRACK, state, level, stun=stun).state
        assert [len(r) for r in state.levels] == [lv.boxes for lv in EZ_WOUND_TRACK.levels]
    assert WoundState.from_dict(json.loads(json.dumps(state.to_dict()))) == state
    rested = wounds.rest_week(EZ_WOUND_TRACK, state)
    marked = sum(b is not Box.CLEAR for r in rested.levels for b in r)
    assert marked <= sum(b is Box.WOUND for r in state.levels for b in r)


@given(st.integers(1, 4), st.integers(0, 3))
def test_taking_then_healing_a_wound_returns_to_the_start(level: int, extra: int) -> None:
    start = EZ_WOUND_TRACK.empty()
    for _ in range(extra):
        start = wounds.take_wound(EZ_WOUND_TRACK, start, 0).state
    taken = wounds.take_wound(EZ_WOUND_TRACK, start, level)
    assert taken.level is not None
    assert wounds.heal_box(EZ_WOUND_TRACK, taken.state, taken.level) == start
