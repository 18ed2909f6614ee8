"""Campaign-wide character settings the GM keeps: EZFudge people packages and Peupfudge's
poor / decent / great marks per ability."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from campaigns.access import gm_or_403
from characters import services
from characters.forms import AbilityMarksForm, PeoplePackageForm
from characters.models import AbilityMarks, PeoplePackage
from fudgetable.http import AuthenticatedHttpRequest
from fudgetable.rules.errors import RulesError
from fudgetable.rules_words import said


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def people_packages(request: AuthenticatedHttpRequest, campaign_id: int) -> HttpResponse:
    campaign = gm_or_403(request.user, campaign_id).campaign
    form = PeoplePackageForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            services.people_package_save(
                campaign=campaign,
                name=form.cleaned_data["name"],
                description=form.cleaned_data["description"],
                points=form.cleaned_data["points"],
                changes_text=form.cleaned_data["changes"],
            )
        except RulesError as error:
            form.add_error("changes", f"{error.setting}: {said(error.message)}")
        else:
            messages.success(
                request,
                _("People package %(name)s saved.") % {"name": form.cleaned_data["name"]},
            )
            return redirect("characters:packages", campaign.pk)
    packages = PeoplePackage.objects.filter(campaign=campaign)
    return render(
        request,
        "characters/packages.html",
        {"campaign": campaign, "form": form, "packages": packages},
    )


@require_POST
@login_required
def people_package_delete(
    request: AuthenticatedHttpRequest, campaign_id: int, package_id: int
) -> HttpResponse:
    campaign = gm_or_403(request.user, campaign_id).campaign
    package = get_object_or_404(PeoplePackage, pk=package_id, campaign=campaign)
    services.people_package_delete(package=package)
    messages.success(request, _("People package %(name)s deleted.") % {"name": package.name})
    return redirect("characters:packages", campaign.pk)


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def ability_marks(request: AuthenticatedHttpRequest, campaign_id: int) -> HttpResponse:
    campaign = gm_or_403(request.user, campaign_id).campaign
    form = AbilityMarksForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        services.ability_marks_set(campaign=campaign, **form.cleaned_data)
        messages.success(
            request, _("Marks for %(name)s saved.") % {"name": form.cleaned_data["ability"]}
        )
        return redirect("characters:ability_marks", campaign.pk)
    marks = AbilityMarks.objects.filter(campaign=campaign)
    return render(
        request,
        "characters/ability_marks.html",
        {"campaign": campaign, "form": form, "marks": marks},
    )


@require_POST
@login_required
def ability_marks_delete(
    request: AuthenticatedHttpRequest, campaign_id: int, marks_id: int
) -> HttpResponse:
    campaign = gm_or_403(request.user, campaign_id).campaign
    marks = get_object_or_404(AbilityMarks, pk=marks_id, campaign=campaign)
    services.ability_marks_delete(marks=marks)
    return redirect("characters:ability_marks", campaign.pk)
