"""The forms of a person's own account: signing up, and the e-mail address a forgotten password
is reset through (which takes effect once the address confirms it: ``email_change``)."""

from typing import Any

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User
from django.utils.translation import gettext_lazy as _

from campaigns.forms import language_choices

EMAIL_HELP = _(
    "Only for a link to choose a new password, should you forget yours. We send it a link to "
    "confirm it first."
)


class SignupForm(UserCreationForm[User]):
    # Not a field of the model form: the account keeps the address once it is confirmed.
    email = forms.EmailField(
        label=_("E-mail address (optional)"), required=False, help_text=EMAIL_HELP
    )

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username",)


class EmailForm(forms.Form):
    """On the account page beside deleting the account, whose form has a password too: its
    own ids keep each label on its own field."""

    email = forms.EmailField(
        label=_("E-mail address"),
        required=False,
        help_text=_(
            "Leave it empty to keep none. We send the new address a link to confirm it, and tell "
            "the old one."
        ),
    )
    password = forms.CharField(
        label=_("Your password, to confirm"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("auto_id", "id_email_%s")
        super().__init__(*args, **kwargs)


class LanguageForm(forms.Form):
    language = forms.ChoiceField(
        label=_("Language of these pages"),
        choices=language_choices,
        required=False,
        help_text=_(
            "What the table shows everyone (the log, announcements) is in the language its GM "
            "chose for the campaign."
        ),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("auto_id", "id_language_%s")
        super().__init__(*args, **kwargs)
