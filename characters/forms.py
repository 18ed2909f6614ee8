"""Forms for the sheet's small commands. Each carries only what one command needs."""

from collections.abc import Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext, gettext_lazy

from characters.models import Character, Detail, Feature, Gear
from fudgetable.rules.character import (
    ARMOR_TABLE,
    MELEE_WEAPON_TABLE,
    SELF_POWERED_WEAPON_TABLE,
)

NAME_LENGTH = 80


class CharacterCreateForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Name"), max_length=120)
    people_package = forms.TypedChoiceField(
        coerce=int, required=False, empty_value=None, label=gettext_lazy("People package")
    )
    ready_made = forms.BooleanField(
        required=False,
        label=gettext_lazy("Ready-made: a player who joins picks it as theirs"),
    )

    def __init__(
        self,
        *args: Any,
        packages: Sequence[tuple[int, str]] = (),
        gm: bool = False,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        if not gm:  # a player's new PC is their own
            del self.fields["ready_made"]
        if packages:
            field = self.fields["people_package"]
            assert isinstance(field, forms.TypedChoiceField)
            field.choices = [("", gettext("None")), *packages]
        else:
            del self.fields["people_package"]


class ProfileForm(forms.ModelForm):
    version = forms.IntegerField(widget=forms.HiddenInput)

    class Meta:
        model = Character
        fields = ["name", "description", "notes", "mass_scale"]
        widgets = {
            "description": forms.Textarea(attrs={"rows": 3}),
            "notes": forms.Textarea(attrs={"rows": 5}),
        }
        labels = {
            "name": gettext_lazy("Name"),
            "description": gettext_lazy("Description (what others see)"),
            "notes": gettext_lazy("Private notes"),
            "mass_scale": gettext_lazy("Mass scale"),
        }


class TraitAddForm(forms.Form):
    name = forms.CharField(max_length=NAME_LENGTH)
    level = forms.IntegerField(min_value=-99, max_value=99)
    kind = forms.CharField(max_length=10, required=False)
    specialty = forms.CharField(required=False, max_length=NAME_LENGTH)
    specialty_required = forms.BooleanField(required=False)


class TraitForm(forms.Form):
    trait = forms.IntegerField()


class TraitLevelForm(TraitForm):
    level = forms.IntegerField(min_value=-99, max_value=99)


class AllocateForm(TraitForm):
    xp = forms.IntegerField(min_value=1, max_value=100_000, label=gettext_lazy("XP"))


class FeatureAddForm(forms.Form):
    kind = forms.ChoiceField(choices=Feature.Kind.choices)
    name = forms.CharField(max_length=NAME_LENGTH)
    target = forms.CharField(
        required=False, help_text=gettext_lazy("CPD, INJ or a trait"), max_length=NAME_LENGTH
    )
    amount = forms.IntegerField(min_value=-1, max_value=1, required=False)
    situation = forms.CharField(max_length=200, required=False)
    supernormal = forms.BooleanField(required=False)
    pay_xp = forms.BooleanField(required=False, label=gettext_lazy("Pay with XP"))


class FeatureForm(forms.Form):
    feature = forms.IntegerField()
    pay_xp = forms.BooleanField(required=False)


def _gear_presets() -> dict[str, dict[str, Any]]:
    """EZFudge's armour and weapon tables, keyed for a select box."""
    presets: dict[str, dict[str, Any]] = {}
    for i, armor in enumerate(ARMOR_TABLE):
        presets[f"armor-{i}"] = {"kind": "armor", "name": armor.name, "armor_bonus": armor.bonus}
    for i, melee in enumerate(MELEE_WEAPON_TABLE):
        presets[f"melee-{i}"] = {
            "kind": "weapon",
            "name": melee.description,
            "damage_factor": melee.damage_factor,
        }
    for i, gun in enumerate(SELF_POWERED_WEAPON_TABLE):
        # Where the table offers two INJ values the lower is the default; edit it if need be.
        presets[f"gun-{i}"] = {
            "kind": "weapon",
            "name": gun.name,
            "inj": gun.inj_choices[0],
            "ranged": True,
        }
    return presets


GEAR_PRESETS = _gear_presets()


class GearAddForm(forms.Form):
    preset = forms.ChoiceField(
        choices=[("", gettext_lazy("Custom (fill in below)"))]
        + [(key, f"{p['name']}") for key, p in GEAR_PRESETS.items()],
        required=False,
        label=gettext_lazy("From the EZFudge tables"),
    )
    kind = forms.ChoiceField(choices=Gear.Kind.choices)
    name = forms.CharField(max_length=NAME_LENGTH, required=False)
    armor_bonus = forms.IntegerField(min_value=0, max_value=10, required=False)
    damage_factor = forms.IntegerField(min_value=-1, max_value=10, required=False)
    inj = forms.IntegerField(min_value=0, max_value=30, required=False, label=gettext_lazy("INJ"))
    quality = forms.BooleanField(required=False)
    # Shot or thrown (a bow, a sling, a javelin): the fight's ranged phase offers it.
    ranged = forms.BooleanField(required=False)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        preset = GEAR_PRESETS.get(data.get("preset") or "")
        if preset:
            chosen = {"armor_bonus": None, "damage_factor": None, "inj": None, **preset}
            chosen["name"] = data.get("name") or preset["name"]
            # A knife from the table may still be marked as thrown.
            chosen["ranged"] = bool(data.get("ranged") or preset.get("ranged"))
            data.update(chosen)
        elif not data.get("name"):
            self.add_error(
                "name", gettext("Name the armour or weapon, or pick one from the tables.")
            )
        data.pop("preset", None)
        return data


class GearForm(forms.Form):
    gear = forms.IntegerField()


class GearRangedForm(forms.Form):
    gear = forms.IntegerField()
    ranged = forms.BooleanField(required=False)


class ItemAddForm(forms.Form):
    name = forms.CharField(max_length=NAME_LENGTH)
    quantity = forms.IntegerField(min_value=1, max_value=9999, initial=1)
    note = forms.CharField(max_length=200, required=False)
    inside = forms.IntegerField(required=False)


class ItemMoveForm(forms.Form):
    item = forms.IntegerField()
    inside = forms.IntegerField(required=False)


class ItemForm(forms.Form):
    item = forms.IntegerField()


class DetailAddForm(forms.Form):
    kind = forms.ChoiceField(choices=Detail.Kind.choices)
    name = forms.CharField(max_length=NAME_LENGTH)
    value = forms.CharField(max_length=200, required=False)
    modifier = forms.IntegerField(min_value=-99, max_value=99, required=False)


class DetailForm(forms.Form):
    detail = forms.IntegerField()


class TrackBoxForm(forms.Form):
    """A tap on a box says which box and what the page showed it should become."""

    track = forms.CharField(max_length=20)
    box = forms.RegexField(
        regex=r"^\d{1,2}:(mark|clear)$",
        error_messages={"invalid": gettext_lazy("not a box of this track")},
    )
    # Ticked beside a wound track: the tapped box is circled as a stun result, not marked.
    stun = forms.BooleanField(required=False)

    def clean_box(self) -> tuple[int, bool]:
        number, wish = self.cleaned_data["box"].split(":")
        return int(number), wish == "mark"


CONDITION_LENGTH = 60
MOST_EFFECT = 8  # a superhuman effect past Superb marks a box more per rung


class TrackConditionForm(forms.Form):
    """A condition taken on a condition track: its name, and the effect that says how many
    boxes it marks (Mediocre 1 ... Superb 5), or the one box it goes in."""

    track = forms.CharField(max_length=20)
    name = forms.CharField(
        max_length=CONDITION_LENGTH, required=False, label=gettext_lazy("Condition")
    )
    effect = forms.IntegerField(min_value=0, max_value=MOST_EFFECT, initial=0)
    box = forms.IntegerField(min_value=0, max_value=99, required=False)


class TrackEaseForm(forms.Form):
    track = forms.CharField(max_length=20)
    box = forms.IntegerField(min_value=0, max_value=99)


class PointsTradeForm(forms.Form):
    spend = forms.IntegerField(min_value=1, max_value=1000)


class FudgePointsForm(forms.Form):
    by = forms.IntegerField(min_value=-5, max_value=5)


class XpForm(forms.Form):
    amount = forms.IntegerField(min_value=-1000, max_value=1000)


class ExceptionForm(forms.Form):
    note = forms.CharField(max_length=200, label=gettext_lazy("Why this build may stand"))


class TradeForm(forms.Form):
    level = forms.IntegerField(min_value=-99, max_value=99)


class EmptyForm(forms.Form):
    pass


class PeoplePackageForm(forms.Form):
    """A GM's people package; each line of ``changes`` is one change a new character gets:
    "role Sailor = Good", "attribute Body = Good", "gift Night vision" or "fault Stubborn"."""

    name = forms.CharField(label=gettext_lazy("Name"), max_length=NAME_LENGTH)
    description = forms.CharField(label=gettext_lazy("Description"), max_length=400, required=False)
    points = forms.IntegerField(
        min_value=-50, max_value=50, initial=0, label=gettext_lazy("Build points")
    )
    changes = forms.CharField(
        label=gettext_lazy("Changes"),
        widget=forms.Textarea(attrs={"rows": 5}),
        help_text=gettext_lazy(
            'One per line: "role Sailor = Good", "attribute Body = Good", '
            '"gift Night vision", "fault Stubborn".'
        ),
    )


class AbilityMarksForm(forms.Form):
    ability = forms.CharField(label=gettext_lazy("Ability"), max_length=NAME_LENGTH)
    poor = forms.IntegerField(label=gettext_lazy("Poor"), min_value=0, max_value=40)
    decent = forms.IntegerField(label=gettext_lazy("Decent"), min_value=0, max_value=40)
    great = forms.IntegerField(label=gettext_lazy("Great"), min_value=0, max_value=40)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        poor, decent, great = (data.get(key) for key in ("poor", "decent", "great"))
        if (
            poor is not None
            and decent is not None
            and great is not None
            and not (poor < decent < great)
        ):
            raise forms.ValidationError(gettext("Poor, decent and great must rise: e.g. 2, 5, 8."))
        return data
