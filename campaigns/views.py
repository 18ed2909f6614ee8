from datetime import timedelta

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django_ratelimit.core import is_ratelimited

from campaigns import services
from campaigns.access import gm_or_403, membership_or_404, owner_or_403
from campaigns.forms import (
    DeleteCampaignForm,
    InviteForm,
    NewCampaignForm,
    RoleForm,
    SessionZeroForm,
)
from campaigns.models import Campaign, Invite, Membership, SessionZero
from campaigns.selectors import campaign_ruleset, campaign_summary, members_of, membership_for
from campaigns.settings_form import CampaignSettingsForm
from fudgetable.http import AuthenticatedHttpRequest, address_key
from fudgetable.offline import offline_copy
from fudgetable.rules.errors import RulesError
from fudgetable.rules_words import said


def _settings_form(campaign: Campaign, data: QueryDict | None = None) -> CampaignSettingsForm:
    return CampaignSettingsForm(
        data,
        in_force=campaign_ruleset(campaign),
        initial={
            "name": campaign.name,
            "pitch": campaign.pitch,
            "ruleset": campaign.ruleset,
            "language": campaign.language,
            "version": campaign.version,
        },
        ladder_words=campaign.ladder_words,
    )


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def campaign_create(request: AuthenticatedHttpRequest) -> HttpResponse:
    form = NewCampaignForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        # Every rule starts as the ruleset's own; Settings changes any of them later.
        campaign = services.campaign_create(
            owner=request.user,
            name=form.cleaned_data["name"],
            pitch=form.cleaned_data["pitch"],
            ruleset=form.cleaned_data["ruleset"],
        )
        messages.success(
            request,
            gettext(
                "%(name)s is ready, with %(rules)s's own rules (change any of them in Settings). "
                "Invite your players next."
            )
            % {"name": campaign.name, "rules": said(campaign_ruleset(campaign).label)},
        )
        return redirect("campaigns:detail", campaign.pk)
    return render(request, "campaigns/form.html", {"form": form})


@offline_copy
@require_safe
@login_required
def campaign_detail(request: AuthenticatedHttpRequest, campaign_id: int) -> HttpResponse:
    membership = membership_or_404(request.user, campaign_id)
    return render(request, "campaigns/detail.html", _detail_context(membership))


def _detail_context(membership: Membership) -> dict[str, object]:
    campaign = membership.campaign
    return {
        "campaign": campaign,
        "membership": membership,
        "members": members_of(campaign),
        "summary": campaign_summary(campaign),
        "ruleset": campaign_ruleset(campaign),
        "roles": Membership.Role.choices,
    }


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def campaign_settings(request: AuthenticatedHttpRequest, campaign_id: int) -> HttpResponse:
    campaign = gm_or_403(request.user, campaign_id).campaign
    status = 200
    if request.method == "POST":
        form = _settings_form(campaign, request.POST)
        if form.is_valid():
            try:
                services.campaign_update(
                    campaign=campaign,
                    version=form.cleaned_data["version"] or 0,
                    name=form.cleaned_data["name"],
                    pitch=form.cleaned_data["pitch"],
                    ruleset=form.cleaned_data["ruleset"],
                    overrides=form.overrides(),
                    language=form.cleaned_data["language"],
                    ladder_words=form.ladder_words(),
                )
            except RulesError as error:
                form.add_rules_error(error)
            except services.StaleEdit:
                campaign.refresh_from_db()
                form = _settings_form(campaign)
                messages.error(
                    request,
                    gettext(
                        "Someone else saved these settings while you were editing, so your "
                        "changes were not saved. These are the current settings; make your "
                        "changes again."
                    ),
                )
                status = 409
            else:
                messages.success(request, gettext("Settings saved."))
                return redirect("campaigns:detail", campaign.pk)
    else:
        form = _settings_form(campaign)
    return render(
        request, "campaigns/settings.html", {"form": form, "campaign": campaign}, status=status
    )


@require_POST
@login_required
def campaign_archive(request: AuthenticatedHttpRequest, campaign_id: int) -> HttpResponse:
    campaign = owner_or_403(request.user, campaign_id).campaign
    archived = request.POST.get("archived", "1") == "1"
    services.campaign_archive(campaign=campaign, archived=archived)
    done = gettext("%(name)s is archived.") if archived else gettext("%(name)s is active again.")
    messages.success(request, done % {"name": campaign.name})
    return redirect("campaigns:detail", campaign.pk)


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def campaign_delete(request: AuthenticatedHttpRequest, campaign_id: int) -> HttpResponse:
    campaign = owner_or_403(request.user, campaign_id).campaign
    form = DeleteCampaignForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            services.campaign_delete(campaign=campaign, typed_name=form.cleaned_data["typed_name"])
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, gettext("%(name)s was deleted.") % {"name": campaign.name})
            return redirect("dashboard")
    return render(request, "campaigns/delete.html", {"form": form, "campaign": campaign})


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def session_zero(request: AuthenticatedHttpRequest, campaign_id: int) -> HttpResponse:
    membership = membership_or_404(request.user, campaign_id)
    campaign = membership.campaign
    record, _ = SessionZero.objects.get_or_create(campaign=campaign)
    status = 200
    form = None
    if request.method == "POST":
        if not membership.is_gm:
            raise PermissionDenied(gettext("Only the campaign's GMs can edit session zero."))
        form = SessionZeroForm(request.POST, instance=record)
        if form.is_valid():
            try:
                services.session_zero_update(
                    session_zero=record,
                    version=form.cleaned_data["version"],
                    lines=form.cleaned_data["lines"],
                    veils=form.cleaned_data["veils"],
                    safety_tools=form.cleaned_data["safety_tools"],
                    agreed_options=form.cleaned_data["agreed_options"],
                )
            except services.StaleEdit:
                record.refresh_from_db()
                form = None
                status = 409
                messages.error(
                    request,
                    gettext(
                        "Someone else saved session zero while you were editing, so your changes "
                        "were not saved. This is what it says now; make your changes again."
                    ),
                )
            else:
                messages.success(request, gettext("Session zero saved."))
                return redirect("campaigns:session_zero", campaign.pk)
    if form is None and membership.is_gm:
        form = SessionZeroForm(instance=record, initial={"version": record.version})
    return render(
        request,
        "campaigns/session_zero.html",
        {
            "campaign": campaign,
            "membership": membership,
            "record": record,
            "form": form,
            "tools": SessionZero.SafetyTool.choices,
        },
        status=status,
    )


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def invites(request: AuthenticatedHttpRequest, campaign_id: int) -> HttpResponse:
    campaign = gm_or_403(request.user, campaign_id).campaign
    form = InviteForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        days = form.cleaned_data["expires_in_days"]
        services.invite_create(
            campaign=campaign,
            created_by=request.user,
            role=form.cleaned_data["role"],
            expires_at=timezone.now() + timedelta(days=days) if days else None,
            max_uses=form.cleaned_data["max_uses"],
        )
        messages.success(
            request, gettext("New invite link made. Copy it and send it to your players.")
        )
        return redirect("campaigns:invites", campaign.pk)
    links = [
        (invite, request.build_absolute_uri(reverse("join", args=[invite.token])))
        for invite in campaign.invites.all()
    ]
    return render(
        request, "campaigns/invites.html", {"campaign": campaign, "form": form, "links": links}
    )


@require_POST
@login_required
def invite_revoke(
    request: AuthenticatedHttpRequest, campaign_id: int, invite_id: int
) -> HttpResponse:
    campaign = gm_or_403(request.user, campaign_id).campaign
    invite = get_object_or_404(Invite, pk=invite_id, campaign=campaign)
    services.invite_revoke(invite=invite)
    messages.success(request, gettext("That invite link no longer works."))
    return redirect("campaigns:invites", campaign.pk)


@require_POST
@login_required
def member_role(
    request: AuthenticatedHttpRequest, campaign_id: int, membership_id: int
) -> HttpResponse:
    actor = gm_or_403(request.user, campaign_id)
    target = get_object_or_404(Membership, pk=membership_id, campaign_id=campaign_id)
    form = RoleForm(request.POST)
    if not form.is_valid():
        messages.error(request, gettext("Pick one of the roles."))
    else:
        try:
            services.membership_set_role(
                actor=actor, membership=target, role=form.cleaned_data["role"]
            )
        except ValidationError as error:
            messages.error(request, error.messages[0])
        else:
            messages.success(
                request,
                gettext("%(name)s is now %(role)s.")
                % {"name": target.user.get_username(), "role": target.get_role_display()},
            )
    return _members_response(request, actor)


@require_POST
@login_required
def member_remove(
    request: AuthenticatedHttpRequest, campaign_id: int, membership_id: int
) -> HttpResponse:
    actor = gm_or_403(request.user, campaign_id)
    target = get_object_or_404(Membership, pk=membership_id, campaign_id=campaign_id)
    try:
        services.membership_remove(actor=actor, membership=target)
    except ValidationError as error:
        messages.error(request, error.messages[0])
    else:
        messages.success(
            request, gettext("%(name)s left the table.") % {"name": target.user.get_username()}
        )
    return _members_response(request, actor)


def _members_response(request: AuthenticatedHttpRequest, actor: Membership) -> HttpResponse:
    if request.htmx:
        context = {**_detail_context(actor), "members_alone": True}
        return render(request, "campaigns/detail.html#members", context)
    return redirect("campaigns:detail", actor.campaign_id)


@require_POST
@login_required
def campaign_leave(request: AuthenticatedHttpRequest, campaign_id: int) -> HttpResponse:
    membership = membership_or_404(request.user, campaign_id)
    try:
        services.membership_remove(actor=membership, membership=membership)
    except ValidationError as error:
        messages.error(request, error.messages[0])
        return redirect("campaigns:detail", campaign_id)
    messages.success(request, gettext("You left %(name)s.") % {"name": membership.campaign.name})
    return redirect("dashboard")


PENDING_INVITE = "pending_invite"


def _guessing_invites(request: HttpRequest, *, increment: bool) -> bool:
    """Whether this address opened more invite links that name no invite than a person
    mistyping one would (tokens are long, but guessing costs nothing else)."""
    rate = f"{settings.UNKNOWN_INVITES_PER_HOUR}/h"
    return is_ratelimited(request, group="join", key=address_key, rate=rate, increment=increment)


@require_http_methods(["GET", "HEAD", "POST"])
def join(request: AuthenticatedHttpRequest, token: str) -> HttpResponse:
    """An invite link. Someone not logged in is sent through sign-up or log-in and lands in
    the campaign straight after, without opening the link again."""
    if _guessing_invites(request, increment=False):
        refusal = gettext(
            "Too many invite links that lead nowhere came from this address. Try later."
        )
        return render(request, "campaigns/join.html", {"problem": refusal}, status=429)
    invite = Invite.objects.select_related("campaign__owner").filter(token=token).first()
    if invite is None:
        _guessing_invites(request, increment=True)
        return render(
            request,
            "campaigns/join.html",
            {"problem": gettext("This invite link is not valid.")},
            status=404,
        )
    if request.method == "POST" and request.user.is_authenticated:
        return _accept(request, token)
    problem = invite.problem()
    if not request.user.is_authenticated and problem is None:
        request.session[PENDING_INVITE] = token
    context = {
        "invite": invite,
        "campaign": invite.campaign,
        "ruleset": campaign_ruleset(invite.campaign),
        # Someone already at the table (a player opening the link again) is told so, not
        # offered a Join that would change nothing.
        "membership": membership_for(request.user, invite.campaign_id),
        "problem": problem,
    }
    return render(request, "campaigns/join.html", context, status=410 if problem else 200)


def _accept(request: AuthenticatedHttpRequest, token: str) -> HttpResponse:
    try:
        membership = services.invite_accept(token=token, user=request.user)
    except ValidationError as error:
        messages.error(request, error.messages[0])
        return redirect("dashboard")
    names = {"campaign": membership.campaign.name, "role": membership.get_role_display()}
    welcome = gettext("Welcome to %(campaign)s! You are %(role)s.") % names
    if membership.role == Membership.Role.PLAYER:
        welcome += " " + gettext("Your next step is your character: see below.")
    messages.success(request, welcome)
    return redirect("campaigns:detail", membership.campaign_id)


def accept_pending_invite(request: AuthenticatedHttpRequest) -> HttpResponse | None:
    """After sign-up or log-in: joins the campaign whose invite link brought the person here."""
    token = request.session.pop(PENDING_INVITE, None)
    return _accept(request, token) if token else None


@require_POST
@login_required
def gm_moves(request: AuthenticatedHttpRequest, campaign_id: int) -> HttpResponse:
    campaign = gm_or_403(request.user, campaign_id).campaign
    try:
        services.gm_moves_set(campaign=campaign, moves=request.POST.get("moves", "").splitlines())
    except ValidationError as error:
        messages.error(request, error.messages[0])
    else:
        messages.success(request, gettext("GM moves saved."))
    return redirect("rolls:table", campaign.pk)
