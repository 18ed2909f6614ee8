"""The forms of a person's own account: signing up, and the e-mail address a forgotten password
is reset through."""

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User
from django.utils.translation import gettext_lazy as _

EMAIL_HELP = _("Only for a link to choose a new password, should you forget yours.")


class SignupForm(UserCreationForm[User]):
    email = forms.EmailField(
        label=_("E-mail address (optional)"), required=False, help_text=EMAIL_HELP
    )

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email")


class EmailForm(forms.Form):
    email = forms.EmailField(label=_("E-mail address"), required=False, help_text=EMAIL_HELP)
