"""Campaign forms. The rules module checks every ruleset setting; a form only gathers them."""

from django import forms
from django.conf import settings
from django.utils.text import capfirst
from django.utils.translation import get_language_info
from django.utils.translation import gettext_lazy as _

from campaigns.models import Membership, SessionZero
from fudgetable.rules import rulesets
from fudgetable.rules_words import said_lazy


def language_choices() -> list[tuple[str, str]]:
    """Each language in its own words, so a person finds theirs whatever the page speaks."""
    return [
        ("", _("The language of my browser")),
        *(
            (code, capfirst(get_language_info(code)["name_local"]))
            for code, _name in settings.LANGUAGES
        ),
    ]


def campaign_language_choices() -> list[tuple[str, str]]:
    return language_choices()[1:]


class NewCampaignForm(forms.Form):
    """A new campaign asks only what it cannot do without; every rule starts as its ruleset's."""

    name = forms.CharField(label=_("Name"), max_length=120)
    ruleset = forms.ChoiceField(
        label=_("Ruleset"),
        choices=[(key, said_lazy(preset.label)) for key, preset in rulesets.PRESETS.items()],
        initial=rulesets.DEFAULT_KEY,
    )
    pitch = forms.CharField(
        label=_("Pitch (optional)"),
        max_length=4000,
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("A few lines that tell players what the game is about."),
    )


class DeleteCampaignForm(forms.Form):
    typed_name = forms.CharField(label=_("Type the campaign's name to delete it"), max_length=120)


class SessionZeroForm(forms.ModelForm):
    safety_tools = forms.MultipleChoiceField(
        choices=SessionZero.SafetyTool.choices,
        widget=forms.CheckboxSelectMultiple,
        required=False,
        label=_("Safety tools in use"),
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
        labels = {
            "lines": _("Lines"),
            "veils": _("Veils"),
            "agreed_options": _("Agreed options"),
        }
        help_texts = {
            "lines": _("Content that will not appear in the game at all, one per line."),
            "veils": _("Content that may happen, but off screen, one per line."),
            "agreed_options": _("Options the table agreed on: death or incapacitation, XP, …"),
        }


class InviteForm(forms.Form):
    role = forms.ChoiceField(
        label=_("Role"),
        choices=[
            (Membership.Role.PLAYER, Membership.Role.PLAYER.label),
            (Membership.Role.OBSERVER, Membership.Role.OBSERVER.label),
        ],
        initial=Membership.Role.PLAYER,
    )
    expires_in_days = forms.IntegerField(
        label=_("Expires in days"),
        min_value=1,
        max_value=365,
        required=False,
        help_text=_("Blank: never expires."),
    )
    max_uses = forms.IntegerField(
        label=_("Max uses"),
        min_value=1,
        max_value=1000,
        required=False,
        help_text=_("Blank: any number of people."),
    )


class RoleForm(forms.Form):
    role = forms.ChoiceField(label=_("Role"), choices=Membership.Role.choices)
