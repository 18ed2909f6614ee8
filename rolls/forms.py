import re
import uuid
from collections.abc import Sequence
from typing import Any

from django import forms

from fudgetable.rules.resolution import Commonness

MODIFIERS = re.compile(r"^\s*([+-]?\d{1,2}\s*)*$")


def new_key() -> str:
    """A fresh idempotency key for a roll form: resending the same form rolls nothing new."""
    return uuid.uuid4().hex


def parse_modifiers(text: str) -> tuple[int, ...]:
    if not MODIFIERS.match(text or ""):
        raise forms.ValidationError('Write modifiers as whole numbers, e.g. "+1 -2".')
    return tuple(int(part) for part in re.findall(r"[+-]?\d+", text or ""))


class RollForm(forms.Form):
    kind = forms.ChoiceField(
        choices=[
            ("check", "Trait check"),
            ("contest", "Opposed roll"),
            ("situational", "Situational roll"),
            ("reaction", "NPC reaction"),
        ],
        initial="check",
    )
    character = forms.IntegerField(required=False)
    trait = forms.CharField(required=False, max_length=20, help_text='A trait, or "untrained"')
    commonness = forms.ChoiceField(
        choices=[(c.value, c.value.capitalize()) for c in Commonness],
        required=False,
        initial=Commonness.SOME.value,
        label="If untrained, how common is it?",
    )
    modifiers = forms.CharField(required=False, max_length=40, help_text='e.g. "+1 -1"')
    difficulty = forms.IntegerField(required=False, min_value=-20, max_value=60)
    advantage = forms.IntegerField(required=False, min_value=0, max_value=4, initial=0)
    disadvantage = forms.IntegerField(required=False, min_value=0, max_value=4, initial=0)
    opponent = forms.IntegerField(required=False)
    opponent_trait = forms.IntegerField(required=False)
    opponent_modifiers = forms.CharField(required=False, max_length=40)
    label = forms.CharField(required=False, max_length=120)
    secret = forms.BooleanField(required=False, label="Secret (only GMs see it)")
    hidden_difficulty = forms.BooleanField(required=False, label="Keep the difficulty hidden")
    key = forms.CharField(max_length=64, min_length=8)
    challenge = forms.IntegerField(required=False)  # a check's margin marks this challenge

    def clean_modifiers(self) -> tuple[int, ...]:
        return parse_modifiers(self.cleaned_data["modifiers"])

    def clean_opponent_modifiers(self) -> tuple[int, ...]:
        return parse_modifiers(self.cleaned_data["opponent_modifiers"])

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        kind = data.get("kind")
        if kind in ("check", "contest") and not data.get("trait"):
            self.add_error("trait", "Pick the trait to roll.")
        if kind == "contest" and not (data.get("opponent") and data.get("opponent_trait")):
            self.add_error("opponent", "Pick the opponent and the trait they oppose with.")
        if data.get("advantage") and data.get("disadvantage"):
            self.add_error("advantage", "Advantage and disadvantage dice never mix in one roll.")
        return data


class FudgePointForm(forms.Form):
    use = forms.CharField(max_length=30)
    key = forms.CharField(max_length=64, min_length=8)


class NoteForm(forms.Form):
    note = forms.CharField(max_length=500, required=False)


class SessionEndForm(forms.Form):
    """Extra XP per PC for keys and end-of-session questions; fields are added per PC."""

    def __init__(self, *args: Any, characters: Sequence[Any] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for character in characters:
            self.fields[f"xp_{character.pk}"] = forms.IntegerField(
                label=f"Extra XP for {character.name}", min_value=0, max_value=20, initial=0
            )

    def extra_xp(self) -> dict[int, int]:
        return {
            int(name[3:]): value
            for name, value in self.cleaned_data.items()
            if name.startswith("xp_") and value
        }
