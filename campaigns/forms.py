"""Campaign forms. The rules module checks every ruleset setting; a form only gathers them."""

import json
from typing import Any

from django import forms

from campaigns.models import Membership, SessionZero
from fudgetable.rules import rulesets
from fudgetable.rules.advancement import KeyAward
from fudgetable.rules.dice import METHOD_KEYS, get_method
from fudgetable.rules.errors import RulesError
from fudgetable.rules.resolution import NPC_ROLL_MODES, Criticals, ModifierPolicy

DEFAULT = ("", "Ruleset default")
# Settings too structured for a plain field; a GM edits them as JSON under "Advanced".
ADVANCED_SETTINGS = (
    "ladder",
    "build",
    "advancement",
    "injury_track",
    "wound_track",
    "damage_options",
)


def _lines(text: str | None) -> list[str]:
    """A textarea's non-blank lines, trimmed: one trait or question per line."""
    return [line.strip() for line in (text or "").splitlines() if line.strip()]


def _choices(values: Any, label: Any = str) -> list[tuple[str, str]]:
    return [DEFAULT, *((str(value), label(value)) for value in values)]


class CampaignForm(forms.Form):
    name = forms.CharField(max_length=120)
    pitch = forms.CharField(
        max_length=4000,
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text="A few lines that tell players what the game is about.",
    )
    ruleset = forms.ChoiceField(
        choices=[(key, preset.label) for key, preset in rulesets.PRESETS.items()],
        initial=rulesets.DEFAULT_KEY,
    )
    version = forms.IntegerField(widget=forms.HiddenInput, required=False)

    # Overrides: blank keeps the ruleset's default.
    dice = forms.ChoiceField(
        choices=_choices(METHOD_KEYS, lambda key: get_method(key).label), required=False
    )
    default_difficulty = forms.CharField(
        max_length=40,
        required=False,
        help_text="A rung name such as Fair or Good, or a number.",
    )
    suggested_traits = forms.ChoiceField(
        label="Start from a suggested list",
        choices=[("", "No, use the box below"), *((name, name) for name in rulesets.TRAIT_LISTS)],
        required=False,
        help_text="Used when the box below is blank: the seeds' own trait lists.",
    )
    trait_list = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 6}),
        help_text="One trait, skill, role or ability per line. Blank keeps the ruleset's list.",
    )
    last_box = forms.ChoiceField(
        label="Last injury box",
        choices=[DEFAULT, ("dies", "The character dies"), ("incapacitated", "Incapacitated")],
        required=False,
    )
    xp_on_a_miss = forms.ChoiceField(
        label="XP on a miss",
        choices=[DEFAULT, ("yes", "Yes: +1 XP for each failed roll"), ("no", "No")],
        required=False,
    )
    xp_per_session = forms.IntegerField(
        label="XP per session", min_value=0, max_value=10, required=False
    )
    key_award = forms.ChoiceField(
        label="Keys",
        choices=[
            ("", "Not used"),
            (KeyAward.EACH_HIT.value, "1 XP each time a PC hits a key"),
            (KeyAward.PER_KEY.value, "1 XP per key a PC hit, at the session's end"),
            (KeyAward.ANY_KEY.value, "1 XP at the session's end for hitting any key"),
        ],
        required=False,
        help_text="Counted by the GM as each session ends.",
    )
    session_questions = forms.CharField(
        label="End-of-session questions",
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text="One question per line; each yes is 1 XP as a session ends.",
    )
    starting_fudge_points = forms.IntegerField(min_value=0, max_value=20, required=False)
    fudge_points_per_xp = forms.IntegerField(
        label="Fudge points per XP",
        min_value=1,
        max_value=10,
        required=False,
        help_text="EZFudge: what a player pays in Fudge points for 1 XP (3 if left empty).",
    )
    fudge_point_uses = forms.MultipleChoiceField(
        choices=list(rulesets.FUDGE_POINT_USES.items()),
        widget=forms.CheckboxSelectMultiple,
        required=False,
        help_text="None ticked keeps the ruleset's uses.",
    )
    npc_roll = forms.ChoiceField(
        label="NPC roll mode", choices=_choices(NPC_ROLL_MODES), required=False
    )
    criticals = forms.ChoiceField(choices=_choices(member.value for member in Criticals))
    modifier_policy = forms.ChoiceField(
        choices=_choices(member.value for member in ModifierPolicy), required=False
    )
    advanced = forms.CharField(
        label="Advanced settings (JSON)",
        required=False,
        widget=forms.Textarea(attrs={"rows": 6, "spellcheck": "false"}),
        help_text=(
            "An object with any of: " + ", ".join(ADVANCED_SETTINGS) + ". See docs/rules.md."
        ),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["criticals"].required = False

    @classmethod
    def initial_for(
        cls, *, name: str, pitch: str, ruleset: str, overrides: dict[str, Any], version: int
    ) -> dict[str, Any]:
        initial: dict[str, Any] = {
            "name": name,
            "pitch": pitch,
            "ruleset": ruleset,
            "version": version,
        }
        for setting, value in overrides.items():
            if setting in ADVANCED_SETTINGS:
                continue
            if setting in ("trait_list", "session_questions"):
                value = "\n".join(value)
            elif setting == "xp_on_a_miss":
                value = "yes" if value else "no"
            initial[setting] = value
        advanced = {k: v for k, v in overrides.items() if k in ADVANCED_SETTINGS}
        if advanced:
            initial["advanced"] = json.dumps(advanced, indent=2)
        return initial

    def clean_advanced(self) -> dict[str, Any]:
        raw = self.cleaned_data["advanced"].strip()
        if not raw:
            return {}
        try:
            value = json.loads(raw)
        except json.JSONDecodeError as error:
            raise forms.ValidationError(
                f"This is not valid JSON: {error.msg} (line {error.lineno})."
            ) from None
        if not isinstance(value, dict):
            raise forms.ValidationError('Write an object: { "setting": value, … }.')
        unknown = sorted(set(value) - set(ADVANCED_SETTINGS))
        if unknown:
            raise forms.ValidationError(
                f"{', '.join(unknown)}: set these with the fields above, not here."
            )
        return value

    def overrides(self) -> dict[str, Any]:
        """The settings the GM set, in the form the rules module reads."""
        data = self.cleaned_data
        overrides: dict[str, Any] = dict(data.get("advanced") or {})
        for setting in ("dice", "last_box", "npc_roll", "criticals", "modifier_policy"):
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
        if data.get("key_award"):
            overrides["key_award"] = data["key_award"]
        questions = _lines(data.get("session_questions"))
        if questions:
            overrides["session_questions"] = questions
        for setting in ("xp_per_session", "starting_fudge_points", "fudge_points_per_xp"):
            if data.get(setting) is not None:
                overrides[setting] = data[setting]
        if data.get("fudge_point_uses"):
            overrides["fudge_point_uses"] = list(data["fudge_point_uses"])
        return overrides

    def add_rules_error(self, error: RulesError) -> None:
        """Shows a rules error beside the field it is about (the advanced box for nested ones)."""
        top = error.setting.split(".")[0].split("[")[0]
        if top in self.fields and top not in ADVANCED_SETTINGS:
            self.add_error(top, error.message)
        elif top in ADVANCED_SETTINGS:
            self.add_error("advanced", f"{error.setting}: {error.message}")
        else:
            self.add_error(None, f"{error.setting}: {error.message}")


class DeleteCampaignForm(forms.Form):
    typed_name = forms.CharField(label="Type the campaign's name to delete it", max_length=120)


class SessionZeroForm(forms.ModelForm):
    safety_tools = forms.MultipleChoiceField(
        choices=SessionZero.SafetyTool.choices,
        widget=forms.CheckboxSelectMultiple,
        required=False,
        label="Safety tools in use",
    )
    version = forms.IntegerField(widget=forms.HiddenInput)

    class Meta:
        model = SessionZero
        fields = ["lines", "veils", "safety_tools", "agreed_options"]
        widgets = {
            "lines": forms.Textarea(attrs={"rows": 4}),
            "veils": forms.Textarea(attrs={"rows": 4}),
            "agreed_options": forms.Textarea(attrs={"rows": 4}),
        }
        help_texts = {
            "lines": "Content that will not appear in the game at all, one per line.",
            "veils": "Content that may happen, but off screen, one per line.",
            "agreed_options": "Options the table agreed on: death or incapacitation, XP, …",
        }


class InviteForm(forms.Form):
    role = forms.ChoiceField(
        choices=[
            (Membership.Role.PLAYER, Membership.Role.PLAYER.label),
            (Membership.Role.OBSERVER, Membership.Role.OBSERVER.label),
        ],
        initial=Membership.Role.PLAYER,
    )
    expires_in_days = forms.IntegerField(
        min_value=1, max_value=365, required=False, help_text="Blank: never expires."
    )
    max_uses = forms.IntegerField(
        min_value=1, max_value=1000, required=False, help_text="Blank: any number of people."
    )


class RoleForm(forms.Form):
    role = forms.ChoiceField(choices=Membership.Role.choices)
