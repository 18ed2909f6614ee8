"""Which language a person's pages speak.

Until they choose one, their browser's (Accept-Language, or the language cookie a choice left
on this device). A logged-in person's choice on the Account page is kept on their profile
(``campaigns.models.Profile``) and copied into their session when they log in
(``campaigns.accounts.language``); this middleware reads it from the session on each request,
which costs no query (sessions are read from the cache). It also keeps the device's language
cookie in step with the choice, so that after a log-out, when the session is gone, the same
device still speaks the chosen language; choosing "my browser's" again removes the cookie.

It stands where Django's LocaleMiddleware stands: after the session, before CommonMiddleware.
"""

from django.conf import settings
from django.http import HttpRequest, HttpResponseBase
from django.middleware.locale import LocaleMiddleware
from django.utils import translation
from django.utils.translation import trans_real

# The person's chosen language in their session: a code of settings.LANGUAGES, or "" for their
# browser's. Absent: nobody is logged in (or the session predates the choice), and the device's
# cookie or the browser decide.
SESSION_KEY = "fudgetable.language"


def supported(code: str | None) -> str | None:
    """``code`` as one of settings.LANGUAGES (a variant falls back to its language), or None."""
    if not code:
        return None
    try:
        return translation.get_supported_language_variant(code)
    except LookupError:
        return None


def browser_language(request: HttpRequest) -> str:
    """The first of the browser's Accept-Language that the site speaks, else the default."""
    header = request.META.get("HTTP_ACCEPT_LANGUAGE", "")
    for code, _ in trans_real.parse_accept_lang_header(header):
        if code == "*":
            break
        found = supported(code)
        if found:
            return found
    return settings.LANGUAGE_CODE


def chosen_language(request: HttpRequest) -> str | None:
    """The logged-in person's choice as their session holds it: a language, "" for their
    browser's, or None when the session says nothing."""
    session = getattr(request, "session", None)
    if session is None:
        return None
    chosen = session.get(SESSION_KEY)
    if chosen is None:
        return None
    return supported(chosen) or ""


def request_language(request: HttpRequest) -> str:
    """The language ``request``'s person reads: their choice, else their device's."""
    chosen = chosen_language(request)
    if chosen is None:
        return translation.get_language_from_request(request)
    return chosen or browser_language(request)


def _is_static(request: HttpRequest) -> bool:
    return request.path_info.startswith(str(settings.STATIC_URL))


class PersonLanguageMiddleware(LocaleMiddleware):
    """Django's LocaleMiddleware, with a logged-in person's own choice first."""

    def process_request(self, request: HttpRequest) -> None:
        if _is_static(request):
            # A stylesheet speaks no language: its session is not read for it.
            return
        translation.activate(request_language(request))
        request.LANGUAGE_CODE = translation.get_language()

    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        if _is_static(request):
            return response
        response = super().process_response(request, response)
        chosen = chosen_language(request)
        cookie = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)
        if chosen and cookie != chosen:
            set_device_language(response, chosen)
        elif chosen == "" and cookie is not None:
            set_device_language(response, "")
        # The answer is made: what runs next in this thread or context (another request's
        # static file, a socket's push, a refusal made before any middleware) starts from the
        # default again, never from this person's language.
        translation.deactivate()
        return response


def set_device_language(response: HttpResponseBase, language: str) -> None:
    """Leaves ``language`` on this device (the cookie), or takes it away for ""."""
    if not language:
        response.delete_cookie(
            settings.LANGUAGE_COOKIE_NAME,
            path=settings.LANGUAGE_COOKIE_PATH,
            domain=settings.LANGUAGE_COOKIE_DOMAIN,
            samesite="Lax",
        )
        return
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite="Lax",
    )
