from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext_lazy
from django.views import defaults
from django.views.decorators.http import require_safe

# htmx swaps nothing on an error status, and live.js shows a plain-text answer as the page's
# notice: so a refused command says why in words, over HTTP and over the table's socket alike.
FORBIDDEN_TEXT = gettext_lazy("You may not do that here.")
NOT_FOUND_TEXT = gettext_lazy(
    "That is not there any more: reload the page to see the table as it stands."
)


@require_safe
def healthz(request: HttpRequest) -> HttpResponse:
    return HttpResponse("ok", content_type="text/plain")


def _in_words(text: object, status: int) -> HttpResponse:
    return HttpResponse(str(text), status=status, content_type="text/plain; charset=utf-8")


def forbidden(request: HttpRequest, exception: Exception) -> HttpResponse:
    """The 403 page; to htmx, the refusal's own words ("Only the campaign's GMs can do that.")."""
    if getattr(request, "htmx", False):
        return _in_words(str(exception) or FORBIDDEN_TEXT, 403)
    return defaults.permission_denied(request, exception)


def not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """The 404 page; to htmx, a line that says what to do. It never says whether a campaign
    exists: an outsider's command and a deleted countdown read the same."""
    if getattr(request, "htmx", False):
        return _in_words(NOT_FOUND_TEXT, 404)
    return defaults.page_not_found(request, exception)
