import re
from collections.abc import Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext, gettext_lazy

from fudgetable.rules.advancement import KeyAward, SessionCounts
from fudgetable.rules.resolution import Commonness
from fudgetable.rules.rulesets import Ruleset

MODIFIERS = re.compile(r"^\s*([+-]?\d{1,2}\s*)*$")


def parse_modifiers(text: str) -> tuple[int, ...]:
    if not MODIFIERS.match(text or ""):
        raise forms.ValidationError(gettext('Write modifiers as whole numbers, e.g. "+1 -2".'))
    return tuple(int(part) for part in re.findall(r"[+-]?\d+", text or ""))


class LineKeysField(forms.Field):
    """The keys of the sheet's lines a roller left ticked (``sheet_modifiers.SheetLine.key``).
    Only keys the sheet offers count, so anything else is dropped, not trusted."""

    widget = forms.SelectMultiple

    def to_python(self, value: Any) -> list[str]:
        if not value:
            return []
        if not isinstance(value, list | tuple) or len(value) > 50:
            raise forms.ValidationError(gettext("Tick the sheet's lines that apply."))
        return [str(key)[:200] for key in value]


class SharedFields(dict[str, forms.Field]):
    """A form's fields, shared by its instances rather than deep-copied for each: Django copies
    them so that one request may change its form's fields, and the roll forms never do (they
    are read, never drawn from here). The copy of RollForm's 24 fields, their widgets and
    validators was 8 % of a roll (docs/performance.md, "A roll's cost")."""

    def __deepcopy__(self, memo: dict[int, object]) -> "SharedFields":
        return self


def fields_shared[F: forms.Form](form: type[F]) -> type[F]:
    form.base_fields = SharedFields(form.base_fields)
    return form


class SheetLinesForm(forms.Form):
    """The sheet's lines as a roll form showed them (``roll_lines.ticks`` reads them)."""

    sheet_lines = LineKeysField(required=False)
    sheet_lines_shown = LineKeysField(required=False)  # what the roller saw, ticked or not
    sheet_lines_for = forms.CharField(required=False, max_length=20)  # the trait they were for


@fields_shared
class RollForm(SheetLinesForm):
    kind = forms.ChoiceField(
        choices=[
            ("check", gettext_lazy("Trait check")),
            ("contest", gettext_lazy("Opposed roll")),
            ("situational", gettext_lazy("Situational roll")),
            ("reaction", gettext_lazy("NPC reaction")),
        ],
        initial="check",
    )
    character = forms.IntegerField(required=False)
    trait = forms.CharField(
        required=False, max_length=20, help_text=gettext_lazy('A trait, or "untrained"')
    )
    commonness = forms.ChoiceField(
        choices=[(c.value, c.value.capitalize()) for c in Commonness],
        required=False,
        initial=Commonness.SOME.value,
        label=gettext_lazy("If untrained, how common is it?"),
    )
    # Fudge 1995 3.4: an untrained skill a high attribute could help defaults to Mediocre.
    helped = forms.BooleanField(
        required=False, label=gettext_lazy("If untrained, a high attribute helps")
    )
    helper = forms.IntegerField(required=False)  # a second trait lending +1 (F95 3.3)
    minimum = forms.IntegerField(required=False, min_value=-20, max_value=60)  # F95 3.5
    modifiers = forms.CharField(
        required=False, max_length=40, help_text=gettext_lazy('e.g. "+1 -1"')
    )
    difficulty = forms.IntegerField(required=False, min_value=-20, max_value=60)
    advantage = forms.IntegerField(required=False, min_value=0, max_value=4, initial=0)
    disadvantage = forms.IntegerField(required=False, min_value=0, max_value=4, initial=0)
    opponent = forms.IntegerField(required=False)
    opponent_trait = forms.IntegerField(required=False)
    opponent_modifiers = forms.CharField(required=False, max_length=40)
    label = forms.CharField(required=False, max_length=120)
    secret = forms.BooleanField(required=False, label=gettext_lazy("Secret (only GMs see it)"))
    hidden_difficulty = forms.BooleanField(
        required=False, label=gettext_lazy("Keep the difficulty hidden")
    )
    key = forms.CharField(max_length=64, min_length=8)
    challenge = forms.IntegerField(required=False)  # a check's margin marks this challenge
    faces = forms.CharField(required=False, max_length=300)  # rolled by hand (dice_in_hand)

    def clean_modifiers(self) -> tuple[int, ...]:
        return parse_modifiers(self.cleaned_data["modifiers"])

    def clean_opponent_modifiers(self) -> tuple[int, ...]:
        return parse_modifiers(self.cleaned_data["opponent_modifiers"])

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        kind = data.get("kind")
        if kind in ("check", "contest") and not data.get("trait"):
            self.add_error("trait", gettext("Pick the trait to roll."))
        if kind == "contest" and not (data.get("opponent") and data.get("opponent_trait")):
            self.add_error("opponent", gettext("Pick the opponent and the trait they oppose with."))
        if data.get("advantage") and data.get("disadvantage"):
            self.add_error(
                "advantage", gettext("Advantage and disadvantage dice never mix in one roll.")
            )
        return data


class FudgePointForm(forms.Form):
    use = forms.CharField(max_length=30)
    key = forms.CharField(max_length=64, min_length=8)
    faces = forms.CharField(required=False, max_length=300)  # a reroll rolled by hand


@fields_shared
class SheetRollForm(SheetLinesForm):
    """A tap on a trait's Roll button on a sheet."""

    trait = forms.IntegerField()
    key = forms.CharField(max_length=64, min_length=8)


class NoteForm(forms.Form):
    note = forms.CharField(max_length=500, required=False)


class SessionEndForm(forms.Form):
    """What the GM counts for each PC as a session ends: its keys and its yeses to the
    end-of-session questions where the campaign uses them, and any extra XP. Fields are added
    per PC; one left out (a PC made after the GM's page loaded) counts 0."""

    def __init__(
        self, *args: Any, characters: Sequence[Any] = (), ruleset: Ruleset, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.characters = list(characters)
        self.questions = ruleset.session_questions
        award, questions = ruleset.key_award, len(self.questions)
        for pc in self.characters:
            if award is KeyAward.ANY_KEY:
                self.fields[f"keys_{pc.pk}"] = forms.BooleanField(
                    label=gettext("Hit a key"), required=False
                )
            elif award is not None:
                label = (
                    gettext("Times a key was hit")
                    if award is KeyAward.EACH_HIT
                    else gettext("Keys hit")
                )
                self.fields[f"keys_{pc.pk}"] = _count(label, 20)
            if questions:
                self.fields[f"yes_{pc.pk}"] = _count(gettext("Yes answers"), questions)
            self.fields[f"xp_{pc.pk}"] = _count(gettext("Extra XP"), 20)

    def by_character(self) -> list[tuple[Any, list[forms.BoundField]]]:
        return [
            (pc, [self[name] for name in self.fields if name.endswith(f"_{pc.pk}")])
            for pc in self.characters
        ]

    def problem(self) -> str:
        """The first error, named by its PC and field: the answer is one line of text."""
        for pc, fields in self.by_character():
            for field in fields:
                if field.errors:
                    return f"{pc.name}: {field.label}: {field.errors[0]}"
        return gettext("Check the counts and try again.")

    def counts(self) -> dict[int, SessionCounts]:
        data = self.cleaned_data
        return {
            pc.pk: SessionCounts(
                keys=int(data.get(f"keys_{pc.pk}") or 0),
                yes_answers=data.get(f"yes_{pc.pk}") or 0,
                extra_xp=data.get(f"xp_{pc.pk}") or 0,
            )
            for pc in self.characters
        }


def _count(label: str, most: int) -> forms.IntegerField:
    return forms.IntegerField(label=label, min_value=0, max_value=most, initial=0, required=False)
