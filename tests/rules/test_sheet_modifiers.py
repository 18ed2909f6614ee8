"""What a sheet brings to a roll, against the seeds' words."""

from dataclasses import replace

from fudgetable.rules.character import Fault, Gift, Modifier
from fudgetable.rules.resolution.action import ModifierPolicy
from fudgetable.rules.rulesets import PRESETS
from fudgetable.rules.sheet_modifiers import SheetDetail, SheetLine, Ticks, sheet_modifiers
from fudgetable.rules.tracks import LITE_PENALTY_TRACK
from fudgetable.rules.wounds import EZ_WOUND_TRACK, Box

# Fudge Lite 3.1.0, "Condition Penalties": "this injury track gives the following penalties
# to physical actions: Scratch: [][][] / Hurt (-1): [] / Very Hurt (-2): [] / Incapacitated: []"
LITE = replace(PRESETS["fudge-lite"], injury_track=LITE_PENALTY_TRACK)
EZ = PRESETS["ezfudge"]
C, S, W = Box.CLEAR, Box.SCRATCH, Box.WOUND


def injury(marked: int) -> dict:
    """The Fudge Lite track with its first ``marked`` boxes marked, in order."""
    boxes = ["x"] * marked + [None] * (LITE_PENALTY_TRACK.size - marked)
    return {"injury": {"boxes": boxes}}


def test_an_unhurt_sheet_offers_nothing() -> None:
    assert sheet_modifiers(LITE, trait="Stealth", tracks_state={}).lines == ()


def test_scratches_carry_no_penalty_and_hurt_is_minus_one() -> None:
    assert sheet_modifiers(LITE, trait="Stealth", tracks_state=injury(3)).lines == ()
    hurt = sheet_modifiers(LITE, trait="Stealth", tracks_state=injury(4))
    assert hurt.lines == (SheetLine("track:injury", "Injury: Hurt", -1),)
    assert hurt.no_action == ""


def test_very_hurt_replaces_hurt_with_minus_two() -> None:
    """Penalties on one track replace each other: the worst in force counts."""
    lines = sheet_modifiers(LITE, trait="Stealth", tracks_state=injury(5)).lines
    assert [(line.name, line.amount) for line in lines] == [("Injury: Very Hurt", -2)]


def test_an_incapacitated_character_may_take_no_action() -> None:
    taken_out = sheet_modifiers(LITE, trait="Stealth", tracks_state=injury(6))
    assert taken_out.no_action == "incapacitated"


def test_ezfudge_out_of_it_or_worse_takes_no_actions() -> None:
    """EZFudge: "If you are Out of It or worse, you can take no actions"."""
    levels = [[C, C, C], [W, C], [C], [W], [C]]
    out = sheet_modifiers(EZ, trait="Body", tracks_state={"wounds": {"levels": levels}})
    assert out.no_action == "Out of It"
    assert out.lines == ()  # EZ itself gives no roll penalties
    levels = [[S, C, C], [W, W], [W], [C], [C]]
    very_hurt = sheet_modifiers(EZ, trait="Body", tracks_state={"wounds": {"levels": levels}})
    assert very_hurt.no_action == ""  # barely moves, but acts


def test_a_campaigns_wound_level_penalty_is_a_line() -> None:
    hurt = replace(EZ_WOUND_TRACK.levels[1], penalty=-1)
    levels = (EZ_WOUND_TRACK.levels[0], hurt, *EZ_WOUND_TRACK.levels[2:])
    ruleset = replace(EZ, wound_track=replace(EZ_WOUND_TRACK, levels=levels))
    state = {"wounds": {"levels": [[S, C, C], [W, C], [C], [C], [C]]}}
    lines = sheet_modifiers(ruleset, trait="Body", tracks_state=state).lines
    assert lines == (SheetLine("track:wounds", "Wounds: Hurt", -1),)


def test_an_npc_reads_its_own_condition_track() -> None:
    npc = sheet_modifiers(LITE, trait="Brawl", tracks_state={}, npc_boxes=1)
    assert npc.no_action == ""
    state = {"condition": {"boxes": ["x"]}}
    assert sheet_modifiers(LITE, trait="Brawl", tracks_state=state, npc_boxes=1).no_action


def test_a_gift_or_fault_naming_the_trait_is_a_line_and_a_situation_starts_unticked() -> None:
    gifts = [Gift("Keen eyes", (Modifier("Perception", 1),))]
    faults = [
        Fault("Greedy", (Modifier("perception", -1, "near gold"),)),
        Fault("Clumsy", (Modifier("Acrobatics", -1),)),
    ]
    offered = sheet_modifiers(LITE, trait="Perception", tracks_state={}, gifts=gifts, faults=faults)
    assert [(line.name, line.amount, line.situational) for line in offered.lines] == [
        ("Keen eyes (gift)", 1, False),
        ("Greedy (fault), near gold", -1, True),
    ]
    assert [line.name for line in offered.chosen()] == ["Keen eyes (gift)"]
    assert [line.name for line in offered.chosen(Ticks({"fault:Greedy:0"}))] == [
        "Greedy (fault), near gold"
    ]


def test_a_line_the_form_did_not_show_keeps_its_default() -> None:
    """A roller who unticked the gift before the PC was hurt still takes the wound: the form
    never showed it, so nobody chose to leave it out."""
    gifts = [Gift("Keen eyes", (Modifier("Perception", 1),))]
    faults = [Fault("Greedy", (Modifier("Perception", -1, "near gold"),))]
    offered = sheet_modifiers(
        LITE, trait="Perception", tracks_state=injury(4), gifts=gifts, faults=faults
    )
    shown = {"gift:Keen eyes:0", "fault:Greedy:0"}
    assert [line.key for line in offered.chosen(Ticks(set(), shown))] == ["track:injury"]
    ticked = offered.chosen(Ticks({"fault:Greedy:0"}, shown))
    assert [line.key for line in ticked] == ["track:injury", "fault:Greedy:0"]


def test_a_peupfudge_status_applies_and_a_property_waits_for_its_situation() -> None:
    """Peupfudge, appendix C: "Exhausted (-2 to A ...)", "Rested (+1 to A ...)"."""
    details = [
        SheetDetail("Energy", "Exhausted", -2),
        SheetDetail("Mood", "Calm", 0),
        SheetDetail("Left-handed", "", 1, situational=True),
    ]
    offered = sheet_modifiers(
        PRESETS["peupfudge"], trait="Muscle", tracks_state={}, details=details
    )
    assert [(line.key, line.name, line.amount) for line in offered.lines] == [
        ("status:Energy", "Energy: Exhausted", -2),
        ("property:Left-handed", "Left-handed", 1),
    ]
    assert [line.key for line in offered.chosen()] == ["status:Energy"]


def test_the_ruleset_still_decides_how_the_lines_add_up() -> None:
    """Fudge Lite counts the largest bonus and the largest penalty only."""
    lite = PRESETS["fudge-lite"].static_rules
    assert lite.modifiers is ModifierPolicy.LARGEST
    assert lite.combine([-1, -2, +1, +1]) == -1
