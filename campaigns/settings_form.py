"""The campaign's settings form: every rule a GM changes, in plain fields grouped as the
page shows them, and the JSON that only an expert writes. The rules module checks every
setting; the form only gathers them and names a bad one by what the GM sees."""

import json
from collections.abc import Mapping
from dataclasses import replace
from typing import Any, cast

from django import forms
from django.utils import translation
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from campaigns.forms import NewCampaignForm, campaign_language_choices
from campaigns.ladder_words import clean_rung_words, rung_fields
from fudgetable.input_rule import json_problems
from fudgetable.rules import rulesets
from fudgetable.rules.advancement import KeyAward
from fudgetable.rules.building import POOR, Distribution
from fudgetable.rules.dice import METHOD_KEYS, get_method
from fudgetable.rules.errors import RulesError
from fudgetable.rules.resolution import NPC_ROLL_MODES, Criticals, ModifierPolicy, Outcome
from fudgetable.rules.rulesets import BuildMethod, BuildRules, Ruleset
from fudgetable.rules.rulesets.model import MAX_TRAITS
from fudgetable.rules.tracks import DIES, INCAPACITATED, ConditionGroup, ConditionTrack
from fudgetable.rules.wounds import MEDICAL_CARE_PER_WEEK, WoundLevel, WoundTrack
from fudgetable.rules_words import said, said_lazy

DEFAULT = ("", _("Ruleset default"))
# What only an expert changes, written as JSON under "Expert settings": a ladder of their own,
# another advancement table, and a build or track that the plain fields cannot describe.
EXPERT_SETTINGS = ("ladder", "advancement", "build", "injury_track", "wound_track")

# Each track setting: what the page calls it and the list of levels it holds. The rules name a
# bad level by its kind ("injury_track.group.boxes"), which is no key the GM typed.
TRACKS: Mapping[str, tuple[Any, str, Any]] = {
    "injury_track": (_("Injury track"), "groups", ConditionGroup.from_dict),
    "wound_track": (_("Wound track"), "levels", WoundLevel.from_dict),
}

CRITICALS = {
    Criticals.OFF: _("No criticals"),
    Criticals.NATURAL: _("A natural +4 or -4 on the dice"),
    Criticals.MARGIN: _("A result four or more levels past the difficulty"),
    Criticals.BOTH: _("Either of those"),
}
MODIFIER_POLICIES = {
    ModifierPolicy.SUM: _("Add them all up"),
    ModifierPolicy.LARGEST: _("Only the largest bonus and the largest penalty count"),
    ModifierPolicy.CAPPED: _("Add them up, but never past +3 or -3"),
}
OPPOSED_TIES = {
    Outcome.SUCCESS: _("The one acting succeeds"),
    Outcome.FAILURE: _("The one acting fails"),
    Outcome.TIE: _("A tie"),
    Outcome.DRAW: _("A draw"),
    Outcome.STATUS_QUO: _("Nothing changes"),
}
LAST_BOXES = {INCAPACITATED: _("Incapacitated"), DIES: _("The character dies")}


def medical_era_words(era: str) -> str:
    """An era of medical care and the rolls a week it allows, in the active language."""
    rolls = MEDICAL_CARE_PER_WEEK[era]
    words = ngettext("%(era)s: %(rolls)d roll a week", "%(era)s: %(rolls)d rolls a week", rolls)
    return words % {"era": said(era), "rolls": rolls}


# The builds a ladder of traits offers (Fudge Lite's, Fudge 1995's, Fate's).
SLOT_BUILDS = {
    BuildMethod.DISTRIBUTION: _("Trait slots: so many traits at each level (below)"),
    BuildMethod.ON_THE_FLY: _("Fudge On The Fly: slots filled the first time a trait is checked"),
    BuildMethod.OVER_THE_EDGE: _("Quick build: one Great and two Good traits"),
    BuildMethod.WUSHU: _("Quick build: a Superb, a Great and a Good trait"),
}
MAX_BOXES = 20  # more than any seed's track; a sheet shows every box


def _lines(text: str | None) -> list[str]:
    """A textarea's non-blank lines, trimmed: one trait or question per line."""
    return [line.strip() for line in (text or "").splitlines() if line.strip()]


def _choices(values: Any, label: Any = str) -> list[tuple[str, str]]:
    return [DEFAULT, *((str(value), label(value)) for value in values)]


def _dice_label(key: str) -> str:
    return said(get_method(key).label)


def _typed_path(setting: str, given: Mapping[str, Any]) -> str:
    """The path of a bad value as the GM typed it: "injury_track.groups[1].boxes" where the
    rules say "injury_track.group.boxes". The rules read each level again to find which."""
    top, _, rest = setting.partition(".")
    if top not in TRACKS or not isinstance(given.get(top), Mapping):
        return setting
    _, part, parse = TRACKS[top]
    kind = part[:-1]
    if rest != kind and not rest.startswith(f"{kind}."):
        return setting
    levels = given[top].get(part)
    for index, level in enumerate(levels if isinstance(levels, list) else []):
        try:
            parse(level)
        except RulesError:
            return f"{top}.{part}[{index}]{rest[len(kind) :]}"
    return setting


class CampaignSettingsForm(NewCampaignForm):
    """Every rule a GM sets, as plain fields; blank keeps the ruleset's own.

    ``in_force`` is the campaign's ruleset as saved. The fields for its build and its track
    are made from it, and only while they can describe it: a build or track of the GM's own
    making stays in the expert JSON. They apply while the ruleset stays the same, since
    another ruleset brings its own build and track.
    """

    version = forms.IntegerField(widget=forms.HiddenInput, required=False)
    language = forms.ChoiceField(
        label=_("Language of the table"),
        choices=campaign_language_choices,
        # Left out of a post (an older page, a script): the table keeps its language.
        required=False,
        help_text=_(
            "What the table shows everyone (the log, announcements) is in this language; each "
            "person's own pages follow their browser or their choice on the Account page."
        ),
    )

    dice = forms.ChoiceField(
        label=_("Dice for an action"),
        choices=lambda: _choices(METHOD_KEYS, _dice_label),
        required=False,
    )
    opposed_dice = forms.ChoiceField(
        label=_("Dice for each side of a contest"),
        choices=lambda: _choices(METHOD_KEYS, _dice_label),
        required=False,
    )
    default_difficulty = forms.CharField(
        label=_("Default difficulty"),
        max_length=40,
        required=False,
        help_text=_("A rung name such as Fair or Good, or a number."),
    )
    npc_roll = forms.ChoiceField(
        label=_("How the GM's side rolls in a contest"),
        choices=_choices(NPC_ROLL_MODES, _dice_label),
        required=False,
    )
    opposed_tie = forms.ChoiceField(
        label=_("A tie in a contest"),
        choices=_choices(OPPOSED_TIES, OPPOSED_TIES.get),
        required=False,
    )
    criticals = forms.ChoiceField(
        label=_("Criticals"), choices=_choices(CRITICALS, CRITICALS.get), required=False
    )
    critical_table = forms.CharField(
        label=_("Critical results table (2d6)"),
        max_length=4000,
        required=False,
        strip=False,  # as typed, so that an error's line number is the line the GM sees
        widget=forms.Textarea(attrs={"rows": 8}),
        help_text=_(
            'One row per line, a 2d6 total and what happens: "2: Blinded for the next round". '
            "Rolled when a check or an opposed roll comes up critical (see Criticals above); "
            "a total with no row is the GM's call. Empty: no table."
        ),
    )
    modifier_policy = forms.ChoiceField(
        label=_("How bonuses and penalties combine"),
        choices=_choices(MODIFIER_POLICIES, MODIFIER_POLICIES.get),
        required=False,
    )

    suggested_traits = forms.ChoiceField(
        label=_("Start from a suggested list"),
        choices=[
            ("", _("No, use the box below")),
            *((name, said_lazy(name)) for name in rulesets.TRAIT_LISTS),
        ],
        required=False,
        help_text=_("Used when the box below is blank: the seeds' own trait lists."),
    )
    trait_list = forms.CharField(
        label=_("Trait list"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 6}),
        help_text=_("One trait, skill, role or ability per line. Blank keeps the ruleset's list."),
    )

    starting_fudge_points = forms.IntegerField(
        label=_("Fudge points a new character starts with"),
        min_value=0,
        max_value=20,
        required=False,
    )
    fudge_point_uses = forms.MultipleChoiceField(
        label=_("What players may spend Fudge points on"),
        choices=[(use, said_lazy(words)) for use, words in rulesets.FUDGE_POINT_USES.items()],
        widget=forms.CheckboxSelectMultiple,
        required=False,
        help_text=_("None ticked keeps the ruleset's uses."),
    )
    fudge_points_per_xp = forms.IntegerField(
        label=_("Fudge points per XP"),
        min_value=1,
        max_value=10,
        required=False,
        help_text=_("EZFudge: what a player pays in Fudge points for 1 XP."),
    )
    xp_per_session = forms.IntegerField(
        label=_("XP per session"), min_value=0, max_value=10, required=False
    )
    key_award = forms.ChoiceField(
        label=_("Keys"),
        choices=[
            ("", _("Not used")),
            (KeyAward.EACH_HIT.value, _("1 XP each time a PC hits a key")),
            (KeyAward.PER_KEY.value, _("1 XP per key a PC hit, at the session's end")),
            (KeyAward.ANY_KEY.value, _("1 XP at the session's end for hitting any key")),
        ],
        required=False,
        help_text=_("Counted by the GM as each session ends."),
    )
    session_questions = forms.CharField(
        label=_("End-of-session questions"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("One question per line; each yes is 1 XP as a session ends."),
    )

    last_box = forms.ChoiceField(
        label=_("Last injury box"), choices=[DEFAULT, *LAST_BOXES.items()], required=False
    )
    xp_on_a_miss = forms.ChoiceField(
        label=_("XP on a miss"),
        choices=[DEFAULT, ("yes", _("Yes: +1 XP for each failed roll")), ("no", _("No"))],
        required=False,
    )
    damage_options = forms.MultipleChoiceField(
        label=_("EZFudge damage roll options"),
        choices=[
            (str(number), said_lazy(words)) for number, words in rulesets.DAMAGE_OPTIONS.items()
        ],
        widget=forms.CheckboxSelectMultiple,
        required=False,
        help_text=_("Used in EZFudge melee exchanges at the table."),
    )
    medical_era = forms.ChoiceField(
        label=_("Medical care: the era"),
        # Made for each form, in the language of its page.
        choices=lambda: _choices(MEDICAL_CARE_PER_WEEK, medical_era_words),
        required=False,
        help_text=_("EZFudge: how many times a week a healer may roll to treat each wound."),
    )

    advanced = forms.CharField(
        label=_("Expert settings (JSON)"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 6, "spellcheck": "false"}),
        help_text=_(
            'An object such as {"ladder": "fate"}: for a ladder of your own, another advancement '
            "table, or a build or track with levels of its own. A setting written here wins "
            "over its field above. docs/rules.md lists them all."
        ),
    )

    def __init__(
        self,
        data: Mapping[str, Any] | None = None,
        *,
        in_force: Ruleset,
        initial: Mapping[str, Any],
        ladder_words: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(data, initial=dict(initial))
        self.in_force = in_force
        self.preset = rulesets.PRESETS[in_force.key]
        # The GM's words for the rungs: field name -> the rung's own name in the rules.
        self.rungs: dict[str, str] = {}
        for name, (field, own) in rung_fields(in_force.ladder, ladder_words or {}).items():
            self.fields[name], self.rungs[name] = field, own
            self.initial[name] = field.initial
        self._ladder_words: dict[str, str] = {}
        # The build and tracks the page shows as plain fields: setting -> its fields' names.
        self.plain: dict[str, list[str]] = {}
        self._overrides: dict[str, Any] = {}
        self.slot_levels: list[int] = []
        self.fields["ruleset"].help_text = gettext(
            "Another ruleset brings its own character building and track; "
            "your other choices here are kept."
        )
        self._say_what_blank_keeps()
        self._add_build_fields()
        for kind in TRACKS:
            self._add_track_fields(kind)
        if in_force.injury_track is None:
            del self.fields["last_box"]
        if in_force.wound_track is None:
            del self.fields["medical_era"]
        self._fill_initial(in_force.overrides)
        # The table in force is shown whole, the preset's too: a GM finishes it by adding rows.
        table = in_force.critical_table
        self.initial["critical_table"] = table.to_text() if table else ""

    # --- Building the page from the campaign's ruleset ---------------------------------

    def _say_what_blank_keeps(self) -> None:
        preset = self.preset
        keeps: dict[str, Any] = {
            "dice": _dice_label(preset.dice),
            "opposed_dice": _dice_label(preset.opposed_dice),
            "npc_roll": _dice_label(preset.npc_roll),
            "opposed_tie": OPPOSED_TIES[preset.opposed_tie],
            "criticals": CRITICALS[preset.criticals],
            "modifier_policy": MODIFIER_POLICIES[preset.modifier_policy],
            "last_box": LAST_BOXES[preset.last_box],
            "xp_on_a_miss": gettext("yes") if preset.xp_on_a_miss else gettext("no"),
            "medical_era": medical_era_words(preset.medical_era),
        }
        for name, words in keeps.items():
            field = self.fields[name]
            assert isinstance(field, forms.ChoiceField)
            choices = list(cast(list[tuple[str, str]], field.choices))
            blank = gettext("As in %(rules)s: %(words)s") % {
                "rules": said(preset.label),
                "words": words,
            }
            field.choices = [("", blank), *choices[1:]]
        numbers = {
            "default_difficulty": preset.ladder.name(preset.default_difficulty),
            "starting_fudge_points": preset.starting_fudge_points,
            "fudge_points_per_xp": preset.fudge_points_per_xp,
            "xp_per_session": preset.xp_per_session,
        }
        for name, value in numbers.items():
            field = self.fields[name]
            blank = gettext("Blank: %(value)s, as in %(rules)s.") % {
                "value": value,
                "rules": said(preset.label),
            }
            field.help_text = f"{field.help_text} {blank}" if field.help_text else blank

    def _add_build_fields(self) -> None:
        build, preset = self.in_force.build, self.preset.build
        fields: dict[str, forms.Field] = {}
        values: dict[str, Any] = {}
        if preset.method is BuildMethod.EZ_POINTS:
            fields["build_points"] = forms.IntegerField(
                label=gettext("Build points for a new character"),
                min_value=0,
                max_value=200,
                required=False,
                help_text=gettext("Blank: %(value)s, as in %(rules)s.")
                % {"value": preset.budget, "rules": said(self.preset.label)},
            )
            values["build_points"] = build.budget
        elif preset.method is BuildMethod.STARTING_XP:
            fields["starting_xp"] = forms.IntegerField(
                label=gettext("Starting XP for a new character"),
                min_value=0,
                max_value=10_000,
                required=False,
                help_text=gettext("Blank: %(value)s, as in %(rules)s.")
                % {"value": preset.starting_xp, "rules": said(self.preset.label)},
            )
            values["starting_xp"] = build.starting_xp
        elif preset.method in SLOT_BUILDS:
            fields["build_method"] = forms.ChoiceField(
                label=gettext("How players build characters"),
                choices=list(SLOT_BUILDS.items()),
                required=False,
            )
            values["build_method"] = build.method.value
            counts = (build.distribution or preset.distribution or Distribution(())).counts
            # The levels a trait may start at: the ladder's own rungs, down to Poor.
            rungs = [r for r in self.in_force.ladder.rungs if r.value >= POOR and not r.extended]
            for index, rung in enumerate(reversed(rungs)):
                name = f"slots_{index}"
                fields[name] = forms.IntegerField(
                    label=rung.name, min_value=0, max_value=MAX_TRAITS, required=False
                )
                values[name] = counts.get(rung.value, 0)
                self.slot_levels.append(rung.value)
        self.fields.update(fields)
        # The fields describe the campaign's build only if building from them gives it back.
        if not fields or self._build_from(values) != _canonical_build(build):
            for name in fields:
                del self.fields[name]
            return
        self.plain["build"] = list(fields)
        self.initial.update(values)

    def _add_track_fields(self, kind: str) -> None:
        preset_track, track = getattr(self.preset, kind), getattr(self.in_force, kind)
        if preset_track is None or track is None:
            return  # a track the ruleset lacks is an expert's to add
        _title, part, _parse = TRACKS[kind]
        ours = getattr(track, part)
        if len(ours) != len(getattr(preset_track, part)):
            return
        fields: dict[str, forms.Field] = {}
        values: dict[str, Any] = {}
        for index, level in enumerate(getattr(preset_track, part)):
            boxes, penalty = f"{kind}_{index}_boxes", f"{kind}_{index}_penalty"
            fields[boxes] = forms.IntegerField(
                label=gettext("%(level)s: boxes") % {"level": level.name},
                min_value=1,
                max_value=MAX_BOXES,
                required=False,
            )
            fields[penalty] = forms.IntegerField(
                label=gettext("%(level)s: penalty") % {"level": level.name},
                min_value=-10,
                max_value=0,
                required=False,
                error_messages={
                    "max_value": gettext("A penalty is 0 or less: a level gives no bonus.")
                },
            )
            values[boxes], values[penalty] = ours[index].boxes, ours[index].penalty
        if isinstance(track, ConditionTrack):
            # Its last box is a field of its own (and a setting of its own).
            track = replace(track, last_box=preset_track.last_box)
        if self._track_from(kind, values) != track:
            return
        self.fields.update(fields)
        self.plain[kind] = list(fields)
        self.initial.update(values)

    def _fill_initial(self, overrides: Mapping[str, Any]) -> None:
        initial: dict[str, Any] = {}
        for setting, value in overrides.items():
            if setting not in self.fields:
                continue
            if setting in ("trait_list", "session_questions"):
                value = "\n".join(value)
            elif setting == "xp_on_a_miss":
                value = "yes" if value else "no"
            elif setting == "damage_options":
                value = [str(number) for number in value]
            elif setting == "default_difficulty":
                value = self.in_force.ladder.name(value)
            initial[setting] = value
        if "injury_track" in self.plain and self.in_force.last_box != self.preset.last_box:
            initial["last_box"] = self.in_force.last_box
        expert = {
            setting: value
            for setting, value in overrides.items()
            if setting not in self.fields and setting not in self.plain
        }
        if expert:
            initial["advanced"] = json.dumps(expert, indent=2)
        self.initial.update(initial)

    # --- From the fields back to settings -----------------------------------------------

    def _build_from(self, values: Mapping[str, Any]) -> BuildRules:
        preset = self.preset.build
        if "build_points" in values:
            return replace(preset, budget=_or(values["build_points"], preset.budget))
        if "starting_xp" in values:
            return replace(preset, starting_xp=_or(values["starting_xp"], preset.starting_xp))
        method = BuildMethod(values["build_method"] or preset.method)
        if method is not BuildMethod.DISTRIBUTION:
            return replace(preset, method=method, distribution=None)
        counts = (preset.distribution or Distribution(())).counts
        slots = {
            level: _or(values[f"slots_{index}"], counts.get(level, 0))
            for index, level in enumerate(self.slot_levels)
        }
        return replace(preset, method=method, distribution=Distribution.of(slots))

    def _track_from(self, kind: str, values: Mapping[str, Any]) -> ConditionTrack | WoundTrack:
        preset_track = getattr(self.preset, kind)
        _title, part, _parse = TRACKS[kind]
        levels = tuple(
            replace(
                level,
                boxes=_or(values[f"{kind}_{index}_boxes"], level.boxes),
                penalty=_or(values[f"{kind}_{index}_penalty"], level.penalty),
            )
            for index, level in enumerate(getattr(preset_track, part))
        )
        track: ConditionTrack | WoundTrack = replace(preset_track, **{part: levels})
        return track

    def clean_advanced(self) -> dict[str, Any]:
        raw = self.cleaned_data["advanced"].strip()
        if not raw:
            return {}
        try:
            value = json.loads(raw)
        except json.JSONDecodeError as error:
            raise forms.ValidationError(
                gettext("This is not valid JSON: %(error)s (line %(line)d, column %(column)d).")
                % {"error": error.msg, "line": error.lineno, "column": error.colno}
            ) from None
        if not isinstance(value, dict):
            raise forms.ValidationError(gettext('Write an object: { "setting": value, … }.'))
        problems = list(json_problems(value))
        if problems:
            raise forms.ValidationError(problems)
        return value

    def clean(self) -> dict[str, Any]:
        super().clean()
        # Checked against the words the table and this page say the other rungs in.
        table = self.cleaned_data.get("language") or self.initial.get("language") or "en"
        languages = tuple(dict.fromkeys((table, translation.get_language() or table)))
        self._ladder_words = clean_rung_words(self, self.rungs, languages)
        if not self.errors:  # gathered only from fields that are all clean
            self._overrides = self._gather(self.cleaned_data)
        return self.cleaned_data

    def _gather(self, data: Mapping[str, Any]) -> dict[str, Any]:
        overrides: dict[str, Any] = {}
        for setting in (
            "dice",
            "opposed_dice",
            "npc_roll",
            "opposed_tie",
            "criticals",
            "modifier_policy",
            "key_award",
            "medical_era",
        ):
            if data.get(setting):
                overrides[setting] = data[setting]
        difficulty = (data.get("default_difficulty") or "").strip()
        if difficulty:
            signed = difficulty.lstrip("+-")
            overrides["default_difficulty"] = int(difficulty) if signed.isdigit() else difficulty
        traits = _lines(data.get("trait_list"))
        if traits:
            overrides["trait_list"] = traits
        elif data.get("suggested_traits"):
            overrides["trait_list"] = list(rulesets.TRAIT_LISTS[data["suggested_traits"]])
        if data.get("xp_on_a_miss"):
            overrides["xp_on_a_miss"] = data["xp_on_a_miss"] == "yes"
        questions = _lines(data.get("session_questions"))
        if questions:
            overrides["session_questions"] = questions
        for setting in ("xp_per_session", "starting_fudge_points", "fudge_points_per_xp"):
            if data.get(setting) is not None:
                overrides[setting] = data[setting]
        if data.get("fudge_point_uses"):
            overrides["fudge_point_uses"] = list(data["fudge_point_uses"])
        if data.get("damage_options"):
            overrides["damage_options"] = [int(number) for number in data["damage_options"]]
        # The build, the track and its last box were shown for the saved ruleset; another
        # one starts from its own.
        if data.get("ruleset") == self.in_force.key:
            if data.get("last_box"):
                overrides["last_box"] = data["last_box"]
            for setting, names in self.plain.items():
                values = {name: data.get(name) for name in names}
                made = (
                    self._build_from(values)
                    if setting == "build"
                    else self._track_from(setting, values)
                )
                if made != getattr(self.preset, setting):
                    overrides[setting] = made.to_dict()
        # Stored only where it differs from the saved ruleset's preset, so a GM who leaves the
        # box as shown and picks another ruleset gets that one's table.
        table = data.get("critical_table") or ""
        preset_table = self.preset.critical_table
        if _lines(table) != _lines(preset_table.to_text() if preset_table else ""):
            overrides["critical_table"] = table if _lines(table) else None
        overrides.update(data.get("advanced") or {})
        return overrides

    def overrides(self) -> dict[str, Any]:
        """The settings the GM set, in the form the rules module reads."""
        return self._overrides

    def ladder_words(self) -> dict[str, str]:
        """The GM's words for the rungs, by each rung's own name; empty: the rules' words."""
        return self._ladder_words

    def add_rules_error(self, error: RulesError) -> None:
        """Shows a rules error where the GM set the value: in the JSON (by the path typed
        there), beside its field, or at the top of the form; never by a name not on the page."""
        given = self.cleaned_data.get("advanced") or {}
        top = error.setting.split(".")[0].split("[")[0]
        if top in given:
            self.add_error(
                "advanced", f"{_typed_path(error.setting, given)}: {said(error.message)}"
            )
        elif top in self.fields:
            self.add_error(top, said(error.message))
        elif top in self.plain:
            self.add_error(self.plain[top][0], said(error.message))
        else:
            self.add_error(None, said(error.message))

    # --- What the template shows -------------------------------------------------------

    @property
    def rung_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.rungs]

    @property
    def build_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.plain.get("build", ()) if not name.startswith("slots_")]

    @property
    def slot_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.plain.get("build", ()) if name.startswith("slots_")]

    @property
    def tracks(self) -> list[dict[str, Any]]:
        """Each track the campaign has, with a row of fields per level; no rows where its
        levels are the GM's own, kept in the expert JSON."""
        shown: list[dict[str, Any]] = []
        for kind, (title, part, _parse) in TRACKS.items():
            if kind in self.plain:
                levels = getattr(getattr(self.preset, kind), part)
                rows = [
                    (level.name, self[f"{kind}_{index}_boxes"], self[f"{kind}_{index}_penalty"])
                    for index, level in enumerate(levels)
                ]
                shown.append({"title": title, "rows": rows})
            elif getattr(self.in_force, kind) is not None:
                shown.append({"title": title, "rows": None})
        return shown

    @property
    def error_summary(self) -> list[tuple[str, str, str]]:
        """Each field error as (field id, its label, the message), for a list at the top
        that links to the field: the page is long on a phone."""
        return [
            (self[name].auto_id, str(self[name].label), str(message))
            for name, messages in self.errors.items()
            if name in self.fields
            for message in messages
        ]


def _or(value: int | None, default: int) -> int:
    """A number field's value; blank keeps the ruleset's."""
    return default if value is None else value


def _canonical_build(build: BuildRules) -> BuildRules:
    """The build as the fields would make it: slots highest first, none empty."""
    if build.distribution is None:
        return build
    return replace(build, distribution=Distribution.of(build.distribution.counts))
