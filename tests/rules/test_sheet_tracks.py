"""The tracks on a sheet: which ones each preset gives, what a tap on a box does, the healing
actions, fitting a stored state to a changed track, and what the sheet draws."""

from dataclasses import replace

import pytest

from fudgetable.rules.errors import RulesError
from fudgetable.rules.rulesets import PRESETS, resolve
from fudgetable.rules.sheet_tracks import (
    CONDITION,
    HEALING,
    INJURY,
    WOUNDS,
    Taken,
    TrackView,
    heal,
    pc_track_size,
    set_box,
    sheet_tracks,
    state_of,
    stun,
    take_condition,
    taken,
    view,
)
from fudgetable.rules.tracks import (
    DIES,
    INCAPACITATED,
    LITE_INJURY_TRACK,
    LITE_PENALTY_TRACK,
    ConditionGroup,
    ConditionTrack,
    Marking,
    TrackState,
)
from fudgetable.rules.wounds import EZ_WOUND_TRACK, Box, WoundLevel, WoundState, WoundTrack

LITE, EZ, PEUP = PRESETS["fudge-lite"], PRESETS["ezfudge"], PRESETS["peupfudge"]
C, S, W, T = Box.CLEAR, Box.SCRATCH, Box.WOUND, Box.STUN
# EZ_WOUND_TRACK's boxes, numbered down the sheet: Scratch 0-2, Hurt 3-4, Very Hurt 5,
# Out of It 6, Near Death 7.
HURT, VERY_HURT, OUT_OF_IT, NEAR_DEATH = 3, 5, 6, 7


def injury(*boxes: str | None) -> TrackState:
    return TrackState(boxes)


def wounds(*levels: tuple[Box, ...]) -> WoundState:
    return WoundState(levels)


EMPTY_WOUNDS = EZ_WOUND_TRACK.empty()


# --- which tracks a sheet has ---------------------------------------------------------------


def test_a_pcs_track_size_comes_from_the_campaigns_track() -> None:
    assert pc_track_size(LITE) == 4  # 2 minor + 2 serious
    assert pc_track_size(EZ) == 8  # 3 + 2 + 1 + 1 + 1 wound boxes
    assert pc_track_size(PEUP) == 4  # no boxes of its own: Fudge Lite's size
    wide = replace(LITE, injury_track=LITE_PENALTY_TRACK)
    assert pc_track_size(wide) == 6


def test_each_preset_gives_a_pc_its_own_tracks() -> None:
    assert sheet_tracks(LITE) == {INJURY: LITE_INJURY_TRACK}
    assert sheet_tracks(PRESETS["fudge-1995"]) == {INJURY: LITE_INJURY_TRACK}
    assert sheet_tracks(PRESETS["fate"]) == {INJURY: LITE_INJURY_TRACK}
    assert sheet_tracks(EZ) == {WOUNDS: EZ_WOUND_TRACK}
    assert sheet_tracks(PEUP) == {}  # Peupfudge tracks harm through statuses


def test_a_campaign_may_keep_both_an_injury_and_a_wound_track() -> None:
    both = resolve("ezfudge", {"injury_track": LITE_INJURY_TRACK.to_dict()})
    assert list(sheet_tracks(both)) == [INJURY, WOUNDS]


@pytest.mark.parametrize(("ruleset", "most"), [(LITE, 4), (EZ, 8), (PEUP, 4)])
def test_an_npc_has_one_condition_track_of_1_box_up_to_a_pcs_size(ruleset, most) -> None:
    for boxes in (1, most):
        track = sheet_tracks(ruleset, npc_boxes=boxes)[CONDITION]
        assert (track.name, track.size, track.marking) == ("Condition", boxes, Marking.IN_ORDER)
        assert track.groups == (ConditionGroup("Condition", boxes),)
    for boxes in (0, most + 1):
        with pytest.raises(RulesError) as error:
            sheet_tracks(ruleset, npc_boxes=boxes)
        assert error.value.setting == "npc_boxes"
        assert error.value.message == f"an NPC's track has 1 to {most} boxes"


def test_an_npcs_last_box_follows_the_campaigns_session_zero_choice() -> None:
    assert sheet_tracks(LITE, npc_boxes=2)[CONDITION].last_box == INCAPACITATED
    deadly = resolve("fudge-lite", {"last_box": DIES})
    assert sheet_tracks(deadly, npc_boxes=2)[CONDITION].last_box == DIES


# --- fitting a stored state to its track ----------------------------------------------------


@pytest.mark.parametrize("stored", [None, {}, "junk", {"boxes": "junk"}, {"boxes": None}])
def test_nothing_usable_stored_means_an_empty_injury_track(stored) -> None:
    assert state_of(LITE_INJURY_TRACK, stored) == LITE_INJURY_TRACK.empty()


def test_a_stored_injury_state_that_fits_is_read_as_it_is() -> None:
    state = injury("", "twisted ankle", None, None)
    assert state_of(LITE_INJURY_TRACK, state.to_dict()) == state


def test_a_shorter_injury_track_keeps_the_marks_that_still_have_a_box() -> None:
    shorter = ConditionTrack("Injury", (ConditionGroup("Minor injury", 3),))
    assert state_of(shorter, {"boxes": ["", "cut", None, ""]}) == injury("", "cut", None)


def test_a_longer_injury_track_keeps_every_mark_and_adds_clear_boxes() -> None:
    assert state_of(LITE_PENALTY_TRACK, {"boxes": ["", "", None, ""]}) == injury(
        "", "", None, "", None, None
    )


def test_stored_entries_that_are_not_marks_read_as_clear() -> None:
    assert state_of(LITE_INJURY_TRACK, {"boxes": ["", 3, True, "burn"]}) == injury(
        "", None, None, "burn"
    )


@pytest.mark.parametrize(
    "stored", [None, "junk", {"levels": "junk"}, {"levels": [5, {"a": 1}, None]}]
)
def test_nothing_usable_stored_means_an_empty_wound_track(stored) -> None:
    assert state_of(EZ_WOUND_TRACK, stored) == EMPTY_WOUNDS


def test_a_stored_wound_state_that_fits_is_read_as_it_is() -> None:
    state = wounds((S, T, C), (W, C), (C,), (C,), (W,))
    assert state_of(EZ_WOUND_TRACK, state.to_dict()) == state


def test_a_changed_wound_track_keeps_each_levels_marks_that_still_fit() -> None:
    stored = {"levels": [["scratch", "clear", "stun"], ["wound", "wound"], ["wound"], [], []]}
    # Two levels now: a narrower Scratch level and a wider Hurt level.
    changed = WoundTrack("Wounds", (WoundLevel("Scratch", 1, 1), WoundLevel("Hurt", 3, 3)))
    assert state_of(changed, stored) == wounds((S,), (W, W, C))


def test_stored_wound_marks_gather_at_the_start_of_their_level() -> None:
    # Marks fill a level from its first box, so a gap left by hand closes up.
    stored = {"levels": [["clear", "clear", "stun"], ["clear", "wound"], [], [], []]}
    assert state_of(EZ_WOUND_TRACK, stored) == wounds((T, C, C), (W, C), (C,), (C,), (C,))


def test_unknown_or_odd_wound_entries_are_dropped() -> None:
    stored = {"levels": [["scratch", "bruise", 7, ["wound"]], ["wound", None]]}
    assert state_of(EZ_WOUND_TRACK, stored) == wounds((S, C, C), (W, C), (C,), (C,), (C,))


# --- a tap on an injury box -----------------------------------------------------------------


def test_tapping_the_next_free_box_marks_it() -> None:
    state = set_box(LITE_INJURY_TRACK, injury("", None, None, None), 1, marked=True)
    assert state == injury("", "", None, None)


def test_tapping_a_later_empty_box_marks_every_free_box_up_to_it() -> None:
    # Boxes are marked in order, so a mark asked of box 2 fills boxes 0 and 1 first.
    state = set_box(LITE_INJURY_TRACK, LITE_INJURY_TRACK.empty(), 2, marked=True)
    assert state == injury("", "", "", None)


def test_tapping_a_marked_box_clears_only_that_box() -> None:
    state = set_box(LITE_INJURY_TRACK, injury("", "", "", None), 0, marked=False)
    assert state == injury(None, "", "", None)


@pytest.mark.parametrize(("box", "marked"), [(0, True), (3, False)])
def test_asking_for_what_a_box_already_shows_changes_nothing(box, marked) -> None:
    state = injury("", "", None, None)
    assert set_box(LITE_INJURY_TRACK, state, box, marked=marked) is state


@pytest.mark.parametrize("marking", [Marking.GM_PICKS, Marking.NONLINEAR])
def test_on_a_track_where_boxes_are_chosen_the_tapped_box_takes_the_mark(marking) -> None:
    track = replace(LITE_INJURY_TRACK, marking=marking)
    assert set_box(track, track.empty(), 3, marked=True) == injury(None, None, None, "")


def test_a_blank_track_wants_each_condition_named_so_a_bare_tap_is_refused() -> None:
    blank = replace(LITE_INJURY_TRACK, blank=True)
    with pytest.raises(RulesError, match="name the condition"):
        set_box(blank, blank.empty(), 0, marked=True)


@pytest.mark.parametrize("box", [-1, 4])
def test_a_box_off_the_injury_track_is_refused(box) -> None:
    with pytest.raises(RulesError) as error:
        set_box(LITE_INJURY_TRACK, LITE_INJURY_TRACK.empty(), box, marked=True)
    assert (error.value.setting, error.value.message) == ("box", "Injury has boxes 0 to 3")


def test_an_npc_track_fills_in_order_too() -> None:
    track = sheet_tracks(LITE, npc_boxes=2)[CONDITION]
    assert set_box(track, track.empty(), 1, marked=True) == injury("", "")


# --- a tap on a wound box -------------------------------------------------------------------


def test_a_box_on_the_scratch_level_takes_a_scratch_and_higher_ones_a_wound() -> None:
    state = set_box(EZ_WOUND_TRACK, EMPTY_WOUNDS, 0, marked=True)
    state = set_box(EZ_WOUND_TRACK, state, HURT, marked=True)
    assert state == wounds((S, C, C), (W, C), (C,), (C,), (C,))


def test_a_wound_fills_its_level_from_the_first_box_whichever_box_was_tapped() -> None:
    state = set_box(EZ_WOUND_TRACK, EMPTY_WOUNDS, 2, marked=True)
    assert state == wounds((S, S, S), (C, C), (C,), (C,), (C,))
    state = set_box(EZ_WOUND_TRACK, state, HURT + 1, marked=True)
    assert state.levels[1] == (W, W)


def test_clearing_a_wound_box_clears_the_later_marks_of_its_level() -> None:
    state = wounds((S, T, S), (W, W), (W,), (C,), (C,))
    cleared = set_box(EZ_WOUND_TRACK, state, 1, marked=False)
    assert cleared == wounds((S, C, C), (W, W), (W,), (C,), (C,))
    assert set_box(EZ_WOUND_TRACK, cleared, VERY_HURT, marked=False).levels[2] == (C,)


@pytest.mark.parametrize(("box", "marked"), [(0, True), (HURT, False)])
def test_asking_a_wound_box_for_what_it_shows_changes_nothing(box, marked) -> None:
    state = wounds((S, C, C), (C, C), (C,), (C,), (C,))
    assert set_box(EZ_WOUND_TRACK, state, box, marked=marked) is state


@pytest.mark.parametrize("box", [-1, 8, 100])
def test_a_box_off_the_wound_track_is_refused(box) -> None:
    with pytest.raises(RulesError) as error:
        set_box(EZ_WOUND_TRACK, EMPTY_WOUNDS, box, marked=True)
    assert (error.value.setting, error.value.message) == ("box", "Wounds has boxes 0 to 7")


# --- stun results (EZFudge "Stun Results", "Attacking to Stun") ------------------------------


def test_a_tap_with_stun_ticked_lightly_circles_the_box() -> None:
    """ezfudge-essentials.txt:377 "otherwise lightly circle the result"."""
    state = set_box(EZ_WOUND_TRACK, EMPTY_WOUNDS, HURT, marked=True, stun=True)
    assert state == wounds((C, C, C), (T, C), (C,), (C,), (C,))
    # A plain tap on the same level still marks a wound beside the circle.
    assert set_box(EZ_WOUND_TRACK, state, HURT + 1, marked=True).levels[1] == (T, W)


def test_a_stun_that_would_be_a_scratch_has_no_effect_so_the_tap_is_refused() -> None:
    """ezfudge-essentials.txt:377 "An injury that would have generated a Scratch result has
    no effect"."""
    with pytest.raises(RulesError) as error:
        set_box(EZ_WOUND_TRACK, EMPTY_WOUNDS, 1, marked=True, stun=True)
    assert (error.value.setting, error.value.message) == (
        "stun",
        "a stun that would be a Scratch has no effect",
    )


def test_a_full_level_promotes_a_stun_like_a_wound() -> None:
    state = wounds((C, C, C), (C, C), (W,), (C,), (C,))
    # Very Hurt is full: tapping it asks for nothing new (the box already shows a mark).
    assert set_box(EZ_WOUND_TRACK, state, VERY_HURT, marked=True, stun=True) is state
    assert stun(EZ_WOUND_TRACK, state, 2, name="Very Hurt", npc_boxes=3) == (
        wounds((C, C, C), (C, C), (W,), (T,), (C,)),
        "Out of It",
        1,
        False,
    )


def test_stuns_heal_like_scratches_after_the_fight() -> None:
    """ezfudge-essentials.txt:400 "All Stun results heal like Scratches"."""
    state = set_box(EZ_WOUND_TRACK, EMPTY_WOUNDS, OUT_OF_IT, marked=True, stun=True)
    assert view(WOUNDS, EZ_WOUND_TRACK, state).consequence == "Takes no actions"
    assert heal(EZ_WOUND_TRACK, state, "after-fight") == EMPTY_WOUNDS


def test_a_condition_track_has_no_stun_to_circle() -> None:
    with pytest.raises(RulesError, match="no stun results"):
        set_box(LITE_INJURY_TRACK, LITE_INJURY_TRACK.empty(), 0, marked=True, stun=True)


def test_a_fights_stun_on_an_npc_marks_its_boxes_named_as_a_stun() -> None:
    """An NPC keeps one condition track, which has no circles: the boxes say it was a stun."""
    track = sheet_tracks(EZ, npc_boxes=3)[CONDITION]
    assert stun(track, track.empty(), 1, name="Hurt", npc_boxes=2) == (
        injury("Hurt (stun)", "Hurt (stun)", None),
        "Hurt (stun)",
        2,
        False,
    )
    # A Scratch-level stun does nothing, here too.
    assert stun(track, track.empty(), 0, name="Scratch", npc_boxes=1) == (
        track.empty(),
        "",
        0,
        False,
    )
    full = injury("", "", "")
    assert stun(track, full, 1, name="Hurt", npc_boxes=2) == (full, "", 0, True)


# --- taking a named condition (Fudge Lite "Blank Conditions", "Marking Off Multiple Boxes") --

BLANK = replace(LITE_PENALTY_TRACK, blank=True)


def test_a_blank_track_takes_the_seed_s_named_conditions() -> None:
    """fudge-lite-3.1.0.txt:817 "a PC might take the two minor conditions "twisted ankle" and
    "hurt feelings", and the serious condition "cracked ribs"." """
    blank = replace(LITE_INJURY_TRACK, blank=True)
    state = blank.empty()
    for name in ("twisted ankle", "hurt feelings", "cracked ribs"):
        state = take_condition(blank, state, name=name, effect=0)
    assert state == injury("twisted ankle", "hurt feelings", "cracked ribs", None)
    drawn = view(INJURY, blank, state)
    assert [taken for _, _, _, taken in drawn.drawn_rows] == [
        "twisted ankle, hurt feelings",
        "cracked ribs",
    ]
    assert drawn.drawn_rows[1][2] == ((2, "marked", "cracked ribs"), (3, "clear", ""))
    assert drawn.blank and drawn.marking == "in order" and not drawn.stuns


def test_a_blank_condition_needs_its_name() -> None:
    with pytest.raises(RulesError, match="name the condition"):
        take_condition(BLANK, BLANK.empty(), name="   ", effect=0)


@pytest.mark.parametrize(("effect", "boxes"), [(0, 1), (1, 2), (2, 3), (3, 4), (4, 5)], ids=str)
def test_an_effect_marks_a_box_per_rung_from_mediocre(effect, boxes) -> None:
    """fudge-lite-3.1.0.txt:821-831: Mediocre effect 1 box ... Superb effect 5 boxes."""
    state = take_condition(BLANK, BLANK.empty(), name="shot", effect=effect)
    assert state.boxes == ("shot",) * boxes + (None,) * (6 - boxes)


def test_the_seed_s_punch_and_stab() -> None:
    """fudge-lite-3.1.0.txt:833 "getting punched might mark off one injury box while getting
    shot or stabbed might mark off four"."""
    state = take_condition(BLANK, BLANK.empty(), name="punched", effect=0)
    state = take_condition(BLANK, state, name="stabbed", effect=3)
    assert state.boxes == ("punched", "stabbed", "stabbed", "stabbed", "stabbed", None)
    assert view(INJURY, BLANK, state).penalty == -2  # Very Hurt's, the worst marked


def test_an_effect_past_the_last_box_fills_the_track_and_a_full_one_is_refused() -> None:
    state = take_condition(LITE_INJURY_TRACK, LITE_INJURY_TRACK.empty(), name="", effect=4)
    assert state == injury("", "", "", "")
    with pytest.raises(RulesError, match="already marked"):
        take_condition(LITE_INJURY_TRACK, state, name="", effect=0)


def test_a_condition_below_mediocre_marks_nothing() -> None:
    with pytest.raises(RulesError, match="below Mediocre"):
        take_condition(BLANK, BLANK.empty(), name="graze", effect=-1)


def test_where_boxes_are_chosen_the_condition_goes_in_the_box_named() -> None:
    track = replace(LITE_INJURY_TRACK, blank=True, marking=Marking.NONLINEAR)
    state = take_condition(track, track.empty(), name="afraid", effect=0, box=3)
    assert state == injury(None, None, None, "afraid")
    assert view(INJURY, track, state).free == (
        (0, "Minor injury, box 1"),
        (1, "Minor injury, box 2"),
        (2, "Serious injury, box 1"),
    )
    with pytest.raises(RulesError, match="choose which condition"):
        take_condition(track, state, name="angry", effect=0)
    with pytest.raises(RulesError, match="one condition"):
        take_condition(track, state, name="angry", effect=2, box=0)


def test_a_wound_track_takes_no_named_condition() -> None:
    with pytest.raises(RulesError, match="takes wounds"):
        take_condition(EZ_WOUND_TRACK, EMPTY_WOUNDS, name="bruise", effect=0)


# --- healing --------------------------------------------------------------------------------


def test_an_injury_track_offers_tending_and_a_long_rest() -> None:
    assert HEALING[ConditionTrack] == (("tend", "Tend minor injuries"), ("rest", "Long rest"))


def test_tending_clears_the_minor_boxes_only() -> None:
    state = injury("", "", "", None)
    assert heal(LITE_INJURY_TRACK, state, "tend") == injury(None, None, "", None)


def test_a_long_rest_clears_every_box() -> None:
    state = injury("", "", "", "")
    assert heal(LITE_INJURY_TRACK, state, "rest") == LITE_INJURY_TRACK.empty()


def test_an_npcs_condition_needs_a_long_rest() -> None:
    track = sheet_tracks(LITE, npc_boxes=2)[CONDITION]
    assert heal(track, injury("", ""), "tend") == injury("", "")
    assert heal(track, injury("", ""), "rest") == injury(None, None)


@pytest.mark.parametrize(
    ("track", "state", "action"),
    [
        (LITE_INJURY_TRACK, LITE_INJURY_TRACK.empty(), "after-fight"),
        (EZ_WOUND_TRACK, EMPTY_WOUNDS, "tend"),
        (EZ_WOUND_TRACK, EMPTY_WOUNDS, "nap"),
    ],
)
def test_a_track_refuses_another_tracks_healing(track, state, action) -> None:
    with pytest.raises(RulesError) as error:
        heal(track, state, action)
    assert error.value.setting == "action"
    assert error.value.message == f"{track.name} has no healing action {action!r}"


def test_a_wound_track_offers_the_ezfudge_healing() -> None:
    # Medical care is a healer's roll at the table (rolls/fight/healing.py), not a button here.
    assert [action for action, _ in HEALING[WoundTrack]] == ["after-fight", "rest-week"]


def test_after_the_fight_scratches_and_stuns_are_erased() -> None:
    state = wounds((S, S, C), (W, S), (T,), (C,), (C,))
    assert heal(EZ_WOUND_TRACK, state, "after-fight") == wounds((C, C, C), (W, C), (C,), (C,), (C,))


def test_a_week_of_rest_improves_every_wound_one_level() -> None:
    state = wounds((S, C, C), (W, C), (W,), (C,), (C,))
    # The Hurt heals; the Very Hurt becomes a Hurt; the Scratch went after the fight.
    assert heal(EZ_WOUND_TRACK, state, "rest-week") == wounds((C, C, C), (W, C), (C,), (C,), (C,))


def test_medical_care_is_no_longer_a_tap_that_always_passes() -> None:
    state = wounds((C, C, C), (W, C), (C,), (W,), (C,))
    with pytest.raises(RulesError, match="no healing action 'medical-care'"):
        heal(EZ_WOUND_TRACK, state, "medical-care")


# --- what the sheet draws -------------------------------------------------------------------


def test_an_injury_track_is_drawn_as_rows_of_numbered_boxes() -> None:
    drawn = view(INJURY, LITE_INJURY_TRACK, injury("", None, None, None))
    assert drawn == TrackView(
        key=INJURY,
        name="Injury",
        rows=(
            ("Minor injury", "", ((0, "marked"), (1, "clear"))),
            ("Serious injury", "", ((2, "clear"), (3, "clear"))),
        ),
        penalty=0,
        consequence="",
        healing=HEALING[ConditionTrack],
        names=("", "", "", ""),
        marking="in order",
    )
    assert (drawn.marked, drawn.size) == (1, 4)  # what the sheet's bar and the party strip say


def test_a_stun_counts_as_a_box_taken() -> None:
    """EZFudge: stun results are circled, not marked; the box is still taken."""
    drawn = view("wounds", EZ_WOUND_TRACK, wounds((T, C, C), (W, C), (C,), (C,), (C,)))
    assert (drawn.marked, drawn.size) == (2, 8)


def test_a_full_injury_track_shows_the_session_zero_consequence() -> None:
    full = injury("", "", "", "")
    assert view(INJURY, LITE_INJURY_TRACK, full).consequence == "Incapacitated"
    deadly = replace(LITE_INJURY_TRACK, last_box=DIES)
    assert view(INJURY, deadly, full).consequence == "Dies"


def test_a_penalty_track_notes_each_penalty_and_shows_the_one_in_force() -> None:
    drawn = view(INJURY, LITE_PENALTY_TRACK, injury("", "", "", "", None, None))
    assert [(name, note) for name, note, _ in drawn.rows] == [
        ("Scratch", ""),
        ("Hurt", "-1"),
        ("Very Hurt", "-2"),
        ("Incapacitated", ""),
    ]
    assert [number for _, _, boxes in drawn.rows for number, _ in boxes] == list(range(6))
    assert drawn.penalty == -1


def test_a_wound_track_is_drawn_with_the_damage_each_level_takes() -> None:
    drawn = view(WOUNDS, EZ_WOUND_TRACK, wounds((S, T, C), (W, C), (C,), (C,), (C,)))
    assert drawn.rows == (
        ("Scratch", "damage 1+", ((0, "scratch"), (1, "stun"), (2, "clear"))),
        ("Hurt", "damage 3+", ((3, "wound"), (4, "clear"))),
        ("Very Hurt", "damage 5+", ((5, "clear"),)),
        ("Out of It", "damage 7+", ((6, "clear"),)),
        ("Near Death", "damage 9+", ((7, "clear"),)),
    )
    assert (drawn.key, drawn.name, drawn.penalty, drawn.consequence) == (
        WOUNDS,
        "Wounds",
        0,
        "",
    )
    assert drawn.healing == HEALING[WoundTrack]


@pytest.mark.parametrize(
    ("box", "consequence"), [(VERY_HURT, "Barely moves"), (OUT_OF_IT, "Takes no actions")]
)
def test_a_bad_wound_shows_its_consequence(box, consequence) -> None:
    state = set_box(EZ_WOUND_TRACK, EMPTY_WOUNDS, box, marked=True)
    assert view(WOUNDS, EZ_WOUND_TRACK, state).consequence == consequence


def test_a_wound_level_with_a_penalty_shows_it() -> None:
    levels = (WoundLevel("Scratch", 1, 1), WoundLevel("Hurt", 1, 3, penalty=-1))
    track = WoundTrack("Wounds", levels)
    drawn = view(WOUNDS, track, wounds((C,), (W,)))
    assert drawn.penalty == -1


def test_an_existing_npc_too_big_for_a_shrunk_track_is_fitted_not_refused():
    lite = resolve("fudge-lite")
    assert sheet_tracks(lite, npc_boxes=8, fit=True)[CONDITION].size == 4
    assert sheet_tracks(lite, npc_boxes=0, fit=True)[CONDITION].size == 1


# --- what a change marked (the table logs it) -----------------------------------------------


def test_a_tap_on_a_wound_box_takes_that_level() -> None:
    after = set_box(EZ_WOUND_TRACK, EMPTY_WOUNDS, HURT, marked=True)
    assert taken(EZ_WOUND_TRACK, EMPTY_WOUNDS, after) == (Taken("Hurt", 1),)


def test_a_tap_on_the_third_scratch_takes_three_and_a_stun_is_told_apart() -> None:
    scratched = set_box(EZ_WOUND_TRACK, EMPTY_WOUNDS, 2, marked=True)
    assert taken(EZ_WOUND_TRACK, EMPTY_WOUNDS, scratched) == (Taken("Scratch", 3),)
    stunned = set_box(EZ_WOUND_TRACK, scratched, VERY_HURT, marked=True, stun=True)
    assert taken(EZ_WOUND_TRACK, scratched, stunned) == (Taken("Very Hurt", 1, stuns=1),)


def test_a_box_cleared_or_a_heal_takes_nothing() -> None:
    hurt = set_box(EZ_WOUND_TRACK, EMPTY_WOUNDS, HURT, marked=True)
    assert taken(EZ_WOUND_TRACK, hurt, EMPTY_WOUNDS) == ()
    assert taken(EZ_WOUND_TRACK, hurt, hurt) == ()
    assert taken(EZ_WOUND_TRACK, hurt, heal(EZ_WOUND_TRACK, hurt, "rest-week")) == ()


def test_a_condition_taken_names_its_group_and_itself() -> None:
    track = replace(LITE_INJURY_TRACK, blank=True)
    empty = track.empty()
    after = take_condition(track, empty, name="twisted  ankle", effect=2)  # three boxes
    assert taken(track, empty, after) == (
        Taken("Minor injury", 2, names=("twisted ankle",)),
        Taken("Serious injury", 1, names=("twisted ankle",)),
    )
