"""The GM's forms for countdowns and challenge ladders. Limits are the services' own."""

import re

from django import forms

from rolls import challenges, countdowns
from rolls.clock_selectors import FRAGILITY_CHOICES, PRESET_CHOICES
from rolls.models import Challenge, Countdown

RUNG_LINE = re.compile(r"^\s*(\d{1,2})\s+(\d{1,3})\s*(.*)$")


def first_error(form: forms.Form) -> str:
    """One message for the whole form: the table's cards are too small for more."""
    for field, problems in form.errors.items():
        label = form.fields[field].label if field in form.fields else None
        prefix = f"{label}: " if label else ""
        return prefix + str(problems[0])
    return ""


class CountdownForm(forms.Form):
    name = forms.CharField(max_length=countdowns.NAME_LENGTH)
    boxes = forms.IntegerField(min_value=1, max_value=countdowns.MAX_BOXES)
    outcome = forms.CharField(
        max_length=countdowns.OUTCOME_LENGTH, required=False, label="When the last is marked"
    )
    visibility = forms.ChoiceField(choices=Countdown.Visibility.choices)
    failure_boxes = forms.IntegerField(
        min_value=1, max_value=countdowns.MAX_BOXES, required=False, label="Failure boxes"
    )
    failure_outcome = forms.CharField(
        max_length=countdowns.OUTCOME_LENGTH, required=False, label="When the failures fill"
    )


class ChallengeVisibilityForm(forms.Form):
    visibility = forms.ChoiceField(choices=Challenge.Visibility.choices)


class ChallengeForm(forms.Form):
    preset = forms.ChoiceField(choices=[("", "My own shape"), *PRESET_CHOICES], required=False)
    name = forms.CharField(max_length=challenges.NAME_LENGTH, required=False)
    rungs = forms.CharField(
        max_length=1000,
        required=False,
        widget=forms.Textarea,
        help_text='One rung a line, lowest first: least MoS, boxes, note ("2 2 Solid").',
    )
    fragility = forms.ChoiceField(choices=FRAGILITY_CHOICES, required=False)
    notes = forms.CharField(max_length=challenges.NOTES_LENGTH, required=False)
    visibility = forms.ChoiceField(choices=Challenge.Visibility.choices)

    def clean_rungs(self) -> list[challenges.RungShape]:
        shape = []
        for line in self.cleaned_data["rungs"].splitlines():
            if not line.strip():
                continue
            found = RUNG_LINE.match(line)
            if found is None:
                raise forms.ValidationError(
                    'Write each rung as its least MoS, its boxes and a note: "2 2 Solid".'
                )
            shape.append((int(found[1]), int(found[2]), found[3].strip()))
        return shape


class ChallengeCheckForm(forms.Form):
    margin = forms.IntegerField(min_value=-20, max_value=20, label="Margin")


class RungForm(forms.Form):
    rung = forms.IntegerField(min_value=0, max_value=challenges.MAX_RUNGS - 1)


class RecoverForm(forms.Form):
    periods = forms.IntegerField(min_value=1, max_value=challenges.MAX_PERIODS, label="Periods")
