"""The composer under the table's log (a line said, whispered or typed as a roll), and the GM's
table-talk settings: dice in hand, and the webhook the log is sent on to."""

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from campaigns.access import gm_or_403, membership_or_404
from campaigns.models import Membership
from fudgetable import entry_ids
from fudgetable.http import AuthenticatedHttpRequest, new_key
from fudgetable.live import audience_of
from rolls import dice_in_hand, fragments
from rolls.models import Roll
from rolls.talk import services as talk
from rolls.talk import webhooks
from rolls.talk.models import TableTalk
from rolls.views import own_spends, spend_fudge_point, spent_on_a_page

TEMPLATE = "rolls/talk/parts.html"


class PeopleField(forms.Field):
    """The people a whisper is ticked to (user ids, or "gms"): checked against the table by
    the service, which names one that is not there."""

    widget = forms.CheckboxSelectMultiple

    def to_python(self, value: Any) -> list[str]:
        if not value:
            return []
        if not isinstance(value, list | tuple) or len(value) > talk.MAX_PEOPLE:
            raise forms.ValidationError(_("Pick at most %d people.") % talk.MAX_PEOPLE)
        return [str(person)[:20] for person in value]


class TalkForm(forms.Form):
    line = forms.CharField(max_length=4000, strip=False)
    key = forms.CharField(max_length=64, min_length=8)
    speaking_as = forms.IntegerField(required=False)
    to = PeopleField(required=False)


def composer_context(membership: Membership) -> dict[str, object]:
    """What the table page's composer needs: whom this person may speak as, whom they may
    whisper to, and a key for the first line."""
    observer = membership.role == Membership.Role.OBSERVER
    speaking = [] if observer else list(talk.speakers(membership))
    return {
        "speakers": speaking,
        "whisper_people": talk.listeners(membership),
        "talk_key": new_key(),
        "dice_in_hand": dice_in_hand.allowed(membership.campaign),
    }


@require_POST
@login_required
def say(request: AuthenticatedHttpRequest, campaign_id: int) -> HttpResponse:
    membership = membership_or_404(request.user, campaign_id)
    membership.user = request.user  # the same row: a message names its speaker without a query
    form = TalkForm(request.POST)
    problem, helped, sent, entry = "", False, "", None
    if not form.is_valid():
        problem = _("Write something to send, and pick only people at this table.")
    else:
        data = form.cleaned_data
        chosen = None
        if data["speaking_as"] is not None:
            chosen = talk.speakers(membership).filter(pk=data["speaking_as"]).first()
            if chosen is None:
                problem = _("You cannot speak as that character.")
        if not problem:
            try:
                result = talk.composer_send(
                    membership=membership,
                    line=data["line"],
                    key=data["key"],
                    speaking_as=chosen,
                    to=tuple(data["to"]),
                )
                entry = result.entry
                helped, sent = result.help, entry_ids.encode(entry.pk) if entry else ""
            except talk.Refused as refused:
                problem = refused.message
    if not request.htmx:
        if problem:
            messages.error(request, problem)
        return redirect("rolls:table", campaign_id)
    context = {"problem": problem, "help": helped, "sent": sent, "fresh_key": new_key()}
    if entry is not None:
        context.update(_after(membership, entry))
    return render(request, f"{TEMPLATE}#answer", context)


def _after(membership: Membership, entry: Roll) -> dict[str, object]:
    """What changes under the composer once a line landed. A roll this person may spend a
    Fudge point on shows with its spend buttons, as the roller's "You rolled" does (the log's
    copy is everyone's and carries none); any other line clears it. A whisper puts the picker
    back to everyone, and says so, so the next line is not whispered by mistake: the answer
    does it, over HTTP and over the socket alike."""
    context: dict[str, object] = {"rolled": _rolled(membership, entry)}
    if entry.whispered:
        context["whispered_to"] = ", ".join(entry.snapshot.get("to", ()))
        context["whisper_people"] = talk.listeners(membership)
    return context


def _rolled(membership: Membership, entry: Roll) -> str:
    if entry.kind == Roll.Kind.MESSAGE:
        return ""
    spend = own_spends(membership, entry)
    if not spend:
        return ""
    url = reverse("rolls:talk_fudge_point", args=[membership.campaign_id, entry.pk])
    return fragments.roll_entry(
        entry, audience_of(membership), spend=spend, spend_url=url, spend_target="#talk-rolled"
    )


@require_POST
@login_required
def fudge_point(request: AuthenticatedHttpRequest, campaign_id: int, roll_id: int) -> HttpResponse:
    """A Fudge point spent from the composer's "You rolled": the same spend as the roller's
    (``rolls.views.spend_fudge_point``: the same rules and refusals), answered under the
    composer, where the person is, with the new entry and its own spend buttons."""
    membership = membership_or_404(request.user, campaign_id)
    made, problem = spend_fudge_point(membership, roll_id, request.POST)
    if not request.htmx:
        return spent_on_a_page(request, membership, made, problem)
    context = {
        "rolled": _rolled(membership, made) if made is not None else "",
        "spend_problem": problem,
    }
    return render(request, f"{TEMPLATE}#rolled", context)


class TalkSettingsForm(forms.ModelForm):
    class Meta:
        model = TableTalk
        fields = ["dice_in_hand", "webhook_url", "webhook_format"]
        labels = {
            "dice_in_hand": gettext_lazy(
                "Dice in hand: players may enter the faces of dice they rolled themselves"
            ),
            "webhook_url": gettext_lazy("Webhook address (https)"),
            "webhook_format": gettext_lazy("Format"),
        }
        help_texts = {
            "webhook_url": gettext_lazy(
                "The table's public entries (never a secret roll, a whisper or a GM-only "
                "line) are posted here, e.g. a Discord channel's webhook. Empty: none."
            ),
        }

    def clean_webhook_url(self) -> str:
        url = str(self.cleaned_data["webhook_url"] or "")
        if url:
            problem = webhooks.address_problem(url)
            if problem:
                raise forms.ValidationError(_("That address cannot be used: %s.") % problem)
        return url


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def talk_settings(request: AuthenticatedHttpRequest, campaign_id: int) -> HttpResponse:
    membership = gm_or_403(request.user, campaign_id)
    campaign = membership.campaign
    settings = TableTalk.objects.filter(campaign=campaign).first() or TableTalk(campaign=campaign)
    form = TalkSettingsForm(request.POST or None, instance=settings)
    if request.method == "POST" and form.is_valid():
        webhooks.talk_settings_save(talk=settings, **form.cleaned_data)
        messages.success(request, _("Table talk settings saved."))
        return redirect("rolls:talk_settings", campaign_id)
    context = {
        "campaign": membership.campaign,
        "form": form,
        "state": webhooks.state(settings),
    }
    return render(request, TEMPLATE, context, status=422 if form.errors else 200)
