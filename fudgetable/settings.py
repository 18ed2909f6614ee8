"""FudgeTable's one settings module, read from environment variables.

With nothing set it runs locally on SQLite and the in-memory channel layer. DATABASE_URL and
REDIS_URL switch to PostgreSQL and Redis for several processes. DEBUG=0 is production mode
(scripts/run's default): on the embedded default it makes its secret key on first use and keeps
it beside the database; served on loopback alone it speaks plain HTTP to this machine, and
anything else needs a TLS proxy in front (BEHIND_TLS_PROXY) and the site's address (SITE_URL).
"""

import os
from datetime import timedelta
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP
from django.utils.translation import gettext_lazy as _

from fudgetable.hosting import on_loopback, secret_key_in

BASE_DIR = Path(__file__).resolve().parent.parent

_DEV_SECRET_KEY = "django-insecure-local-development-only"


def env_str(name: str, default: str = "") -> str:
    return os.environ.get(name, default).strip()


def env_bool(name: str, default: bool) -> bool:
    value = env_str(name).lower()
    if not value:
        return default
    if value in {"1", "true", "yes", "on"}:
        return True
    if value in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name} must be true or false, not {value!r}")


def env_int(name: str, default: int) -> int:
    value = env_str(name)
    if not value:
        return default
    try:
        return int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a whole number, not {value!r}") from None


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in env_str(name, default).split(",") if item.strip()]


POOL_WAIT_SECONDS = 10


def database_from_url(url: str, *, pool_size: int) -> dict[str, object]:
    """Django's DATABASES entry for a postgres:// URL (the only server database supported),
    with a pool of at most ``pool_size`` connections for this process."""
    # Imported here: the embedded default has no use for psycopg, nor room for its memory.
    from psycopg_pool import ConnectionPool

    parts = urlsplit(url)
    if parts.scheme not in {"postgres", "postgresql"}:
        raise ImproperlyConfigured(f"DATABASE_URL must start with postgres://, not {url!r}")
    return {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": unquote(parts.path.lstrip("/")) or "postgres",
        "USER": unquote(parts.username or ""),
        "PASSWORD": unquote(parts.password or ""),
        "HOST": parts.hostname or "",
        "PORT": str(parts.port or ""),
        # A connection Django keeps belongs to its thread, and Django's ASGI handler gave
        # each request a new thread: kept connections were never used again, so every request
        # opened one, and dozens lingered until garbage-collected. A pool hands each request,
        # and the sockets' thread, one that is open already (docs/performance.md).
        "CONN_MAX_AGE": 0,
        "OPTIONS": {
            "pool": {
                "min_size": 2,
                "max_size": pool_size,
                "timeout": POOL_WAIT_SECONDS,
                # A connection the server dropped (a restart) is replaced, not handed out.
                "check": ConnectionPool.check_connection,
            }
        },
    }


DEBUG = env_bool("DEBUG", True)

# Who can reach the server. scripts/run's daphne listens on HOST; on loopback, with no proxy in
# front and no other name to answer to, it serves this machine alone, so production mode speaks
# plain HTTP there (secure cookies and an HTTPS redirect would only break it, and nothing crosses
# a network) and the demo logins may be made. Reached from elsewhere it goes through a TLS proxy
# (BEHIND_TLS_PROXY), and is refused otherwise.
HOST = env_str("HOST", "127.0.0.1")
PORT = env_int("PORT", 8000)
BEHIND_TLS_PROXY = env_bool("BEHIND_TLS_PROXY", False)
# The address people open: the host the site answers to, the origin forms come from, and the
# links that e-mails and `manage.py reset_link` give out.
SITE_URL = env_str("SITE_URL").rstrip("/")
_site = urlsplit(SITE_URL)
if SITE_URL and (_site.scheme not in {"http", "https"} or not _site.hostname):
    raise ImproperlyConfigured(f"SITE_URL must be like https://table.example.org, not {SITE_URL!r}")
SITE_URL = SITE_URL or f"http://{f'[{HOST}]' if ':' in HOST else HOST}:{PORT}"
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS") or ([_site.hostname] if _site.hostname else [])
LOOPBACK_ONLY = on_loopback(HOST) and not BEHIND_TLS_PROXY and all(map(on_loopback, ALLOWED_HOSTS))

DATABASE_URL = env_str("DATABASE_URL")
SQLITE_PATH = Path(env_str("SQLITE_PATH") or BASE_DIR / "db.sqlite3")
# On the embedded default the key lives beside the database, never in the repository; with
# DATABASE_URL every process on every machine must share one, so it is given.
SECRET_KEY_FILE = env_str("SECRET_KEY_FILE") or (
    "" if DATABASE_URL else str(SQLITE_PATH.parent / "secret-key")
)
SECRET_KEY = env_str("SECRET_KEY")
if not SECRET_KEY and SECRET_KEY_FILE:
    SECRET_KEY = secret_key_in(Path(SECRET_KEY_FILE), make=not DEBUG)
_LOOPBACK_HOSTS = ["localhost", "127.0.0.1", "[::1]"]
if DEBUG:
    SECRET_KEY = SECRET_KEY or _DEV_SECRET_KEY
    ALLOWED_HOSTS = ALLOWED_HOSTS or [*_LOOPBACK_HOSTS, "testserver"]
else:
    if len(SECRET_KEY) < 50 or SECRET_KEY == _DEV_SECRET_KEY:
        raise ImproperlyConfigured(
            "Production mode (DEBUG=0) needs SECRET_KEY: a random string of 50+ characters, "
            "e.g. from `python -c 'import secrets; print(secrets.token_urlsafe(64))'`. On the "
            "embedded default one is made in SECRET_KEY_FILE; with DATABASE_URL every process "
            "must be given the same one."
        )
    if not (on_loopback(HOST) or BEHIND_TLS_PROXY):
        raise ImproperlyConfigured(
            f"HOST={HOST} would serve plain HTTP beyond this machine. Put a TLS proxy in front "
            "(the README's 'Put it online') and set BEHIND_TLS_PROXY=1 and SITE_URL, or keep "
            "HOST on loopback."
        )
    if not ALLOWED_HOSTS and BEHIND_TLS_PROXY:
        raise ImproperlyConfigured(
            "Production mode behind a proxy needs the site's address: "
            "SITE_URL=https://table.example.org (or ALLOWED_HOSTS=table.example.org)."
        )
    ALLOWED_HOSTS = ALLOWED_HOSTS or _LOOPBACK_HOSTS
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS") or (
    [f"{_site.scheme}://{_site.netloc}"] if _site.hostname else []
)

INSTALLED_APPS = [
    # daphne first, so that `runserver` serves websockets too.
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "channels",
    "django_htmx",
    "axes",
    "django_ratelimit",
    "fudgetable",
    "campaigns",
    "characters",
    "rolls",
]

# WhiteNoise comes last, against its docs' advice, because it is the one middleware that can
# only run synchronously: anywhere higher, Django's ASGI handler hops between the event loop
# and the request's thread around every middleware below it (docs/performance.md).
MIDDLEWARE = [
    # First, so it compresses what the rest made. A table page is 60-90 % smaller for it; its
    # random padding keeps a page's CSRF token from being read off its compressed size (BREACH).
    "django.middleware.gzip.GZipMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # After the session, which holds a logged-in person's chosen language, and before
    # CommonMiddleware, which resolves URLs in the active language (Django's docs).
    "fudgetable.language.PersonLanguageMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # After htmx's, so that a refusal is in words to htmx and a page otherwise.
    "fudgetable.input_rule.InputRuleMiddleware",
    "fudgetable.middleware.BusyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Last, so that a locked-out log-in is answered with the lockout page.
    "axes.middleware.AxesMiddleware",
]

# Log-in throttling (django-axes): after LOGIN_FAILURE_LIMIT wrong passwords for one username
# from one address, or from one address for any, passwords from there are not checked for
# LOGIN_COOLOFF_MINUTES, before any is hashed, so a flood of guesses no longer ties up the
# server either. Per name *and* address, so a stranger's wrong guesses cannot lock a GM out
# from everywhere. The pages that ask for a password again (a new password, deleting the
# account) count and obey the same (``fudgetable.http.password_confirmed``). Unlock early
# with `manage.py axes_reset_username NAME` or `axes_reset_ip ADDRESS`.
# PersonByKeyBackend is ModelBackend reading the person by key (fudgetable.auth_backend);
# ModelBackend stays for the sessions signed in before it, which name it.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "fudgetable.auth_backend.PersonByKeyBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = env_int("LOGIN_FAILURE_LIMIT", 5)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("LOGIN_COOLOFF_MINUTES", 15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"], "ip_address"]
AXES_RESET_ON_SUCCESS = True
AXES_DISABLE_ACCESS_LOG = True  # failures are kept; a row per good log-in is not needed
AXES_VERBOSE = False  # its start-up banner on every manage.py command
AXES_LOCKOUT_CALLABLE = "campaigns.accounts.views.locked_out"
AXES_CLIENT_IP_CALLABLE = "fudgetable.http.client_address"
# Sign-ups, and invite links that name no invite, per address (django-ratelimit).
SIGNUPS_PER_HOUR = env_int("SIGNUPS_PER_HOUR", 10)
RESTORES_PER_HOUR = env_int("RESTORES_PER_HOUR", 10)  # per person: each reads a whole file
UPLOADS_PER_HOUR = env_int("UPLOADS_PER_HOUR", 60)  # pictures per person: each up to 1 s of CPU
UNKNOWN_INVITES_PER_HOUR = env_int("UNKNOWN_INVITES_PER_HOUR", 20)
# Pings on the scene per person: each flashes on every screen, so a flood is everyone's.
PINGS_PER_MINUTE = env_int("PINGS_PER_MINUTE", 30)
# django-ratelimit counts in the default cache and asks for one shared by every process. On
# the embedded default that is the process's own memory, and there is one process; scaled
# mode uses Django's own Redis cache, which its list of known backends predates.
SILENCED_SYSTEM_CHECKS = ["django_ratelimit.E003", "django_ratelimit.W001"]

ROOT_URLCONF = "fudgetable.urls"
ASGI_APPLICATION = "fudgetable.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.csp",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# The largest request body this server takes, in MiB as nginx counts them: a larger one is
# answered 413 before it is read (fudgetable/body_limit.py). A campaign's backup, the largest
# thing anyone sends, is at most 20 MB (decimal) within it (rolls/backup/views.py); the proxies
# in deploy/ stop at the same 20 MiB (nginx's ``client_max_body_size 20m``, Caddy's 20MiB).
MAX_BODY_MB = env_int("MAX_BODY_MB", 20)
if MAX_BODY_MB < 1:
    raise ImproperlyConfigured("MAX_BODY_MB must be 1 or more")
MAX_BODY_BYTES = MAX_BODY_MB * 1024 * 1024

# HTTP requests that run in Django at once in this process; the rest wait their turn
# (fudgetable/request_queue.py). Two kept the roll benchmark's p99 lowest on SQLite, where a
# request never waits on a network; PostgreSQL's queries do, so more run at once there.
HTTP_CONCURRENCY = env_int("HTTP_CONCURRENCY", 8 if DATABASE_URL else 2)
if HTTP_CONCURRENCY < 1:
    raise ImproperlyConfigured("HTTP_CONCURRENCY must be 1 or more")
if DATABASE_URL:
    # A connection for each HTTP turn, the restores' and the uploads' turns
    # (fudgetable/asgi.py) and the sockets' one thread (Channels runs their database work
    # there), and one to spare.
    DATABASES = {"default": database_from_url(DATABASE_URL, pool_size=HTTP_CONCURRENCY + 4)}
else:
    DATABASES = {
        "default": {
            "ENGINE": "fudgetable.sqlite",
            "NAME": SQLITE_PATH,
            "OPTIONS": {
                # WAL lets the table page read while a roll is written; IMMEDIATE takes the write
                # lock at BEGIN so concurrent writers queue instead of failing mid-transaction.
                "init_command": "PRAGMA journal_mode=wal; PRAGMA synchronous=normal;",
                "transaction_mode": "IMMEDIATE",
                "timeout": 20,
            },
        }
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Table and sheet pages one person may have open at one campaign (per process): each socket's
# work runs on the process's one shared thread, so thirty of one player's slowed every other
# player's rolls (rolls/table/people_sockets.py).
SOCKETS_PER_PERSON = env_int("SOCKETS_PER_PERSON", 8)

REDIS_URL = env_str("REDIS_URL")
# Messages a socket's channel holds before the layer drops more (Channels' default), and how
# long one waits there. A socket that missed some is caught up (docs/architecture.md).
CHANNEL_OPTIONS = {
    "capacity": env_int("CHANNEL_CAPACITY", 100),
    "expiry": env_int("CHANNEL_EXPIRY", 60),
}
REDIS_LAYERS = {
    "core": "channels_redis.core.RedisChannelLayer",
    # Pub/sub keeps no queue in Redis and unbounded ones in each process: nothing to set.
    "pubsub": "channels_redis.pubsub.RedisPubSubChannelLayer",
}
# Pub/sub by default: on the same load it cost less CPU a roll and had the lower p99, and it
# drops nothing for being full. The core layer's capacity counts a whole process's sockets
# together, so a burst at a busy table could drop messages and cost every socket behind a
# full table state (docs/performance.md, "Scaled mode").
CHANNEL_LAYER = env_str("CHANNEL_LAYER", "pubsub")
if CHANNEL_LAYER not in REDIS_LAYERS:
    raise ImproperlyConfigured(f"CHANNEL_LAYER must be core or pubsub, not {CHANNEL_LAYER!r}")


def redis_services(url: str, layer: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """Scaled mode's channel layer (``core`` or ``pubsub``) and cache on the Redis at ``url``."""
    # Imported here: the embedded default never loads the Redis client.
    from redis.exceptions import ConnectionError as RedisConnectionError

    # A connection Redis dropped (a restart) is opened again and the command sent once more:
    # without it, the first command on each pooled connection after Redis came back failed
    # (a socket's handshake, a push). While Redis is away the retry is refused at once too.
    again = {"retry_on_error": [RedisConnectionError]}
    channel_layers: dict[str, Any] = {
        "default": {
            "BACKEND": REDIS_LAYERS[layer],
            "CONFIG": {
                # Longer than the 5 s a receive blocks in BZPOPMIN: at redis-py 8's default of
                # 5 s the read raced it and tore down idle sockets (channels_redis issue 422).
                "hosts": [{"address": url, "socket_timeout": 15, **again}],
                **(CHANNEL_OPTIONS if layer == "core" else {}),
            },
        }
    }
    caches: dict[str, Any] = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": url,
            # A Redis that stopped answering (not one that refuses: that fails at once) holds
            # a request no longer than this before the session falls back to the database.
            "OPTIONS": {"socket_connect_timeout": 2, "socket_timeout": 2, **again},
        }
    }
    return channel_layers, caches


if REDIS_URL:
    CHANNEL_LAYERS, CACHES = redis_services(REDIS_URL, CHANNEL_LAYER)
else:
    CHANNEL_LAYERS = {
        "default": {"BACKEND": "fudgetable.memory_layer.InMemoryLayer", "CONFIG": CHANNEL_OPTIONS}
    }
# Sessions are read from the cache (written through to the database), which saves a query on
# every request. The cache is the process's own memory on the embedded default, which has one
# process, and Redis when there are several, so a logout is seen by all of them at once. While
# Redis is away they are read from the database alone (fudgetable/sessions.py).
SESSION_ENGINE = "fudgetable.sessions"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "dashboard"
LOGOUT_REDIRECT_URL = "login"

# The interface speaks these (docs/translations.md). A person's pages follow their browser
# (Accept-Language) until they choose one on the Account page (fudgetable/language.py); what a
# table pushes is in its campaign's language, chosen by the GM (docs/architecture.md).
LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", _("English")),
    ("pt-br", _("Brazilian Portuguese")),
    ("es", _("Spanish")),
    ("fr", _("French")),
    ("de", _("German")),
]
# The catalogues, compiled and committed (docs/translations.md says why and how to update them).
LOCALE_PATHS = [BASE_DIR / "locale"]
# The device keeps the chosen language a year, so that it outlives a log-out (language.py).
LANGUAGE_COOKIE_AGE = 60 * 60 * 24 * 365
LANGUAGE_COOKIE_HTTPONLY = True
LANGUAGE_COOKIE_SAMESITE = "Lax"
TIME_ZONE = env_str("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(env_str("STATIC_ROOT") or BASE_DIR / "staticfiles")
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

# Every script and style is a file of ours or carries the request's nonce; nothing inline else.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF, CSP.NONCE],
    "style-src": [CSP.SELF, CSP.NONCE],
    "img-src": [CSP.SELF, "data:"],
    "connect-src": [CSP.SELF],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
    "form-action": [CSP.SELF],
}
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SESSION_COOKIE_HTTPONLY = True

if not DEBUG and BEHIND_TLS_PROXY:
    # Reached over HTTPS through the proxy, which says so in this header (trusted only when
    # BEHIND_TLS_PROXY says a proxy is there: anyone can send it otherwise). On loopback alone
    # the server speaks plain HTTP to this machine, where none of this would let it work.
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    # A health check asks daphne itself, past the proxy, over plain HTTP.
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 60 * 60 * 24 * 365)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    LANGUAGE_COOKIE_SECURE = True

# Password resets by e-mail: through the mail server EMAIL_HOST names, else each e-mail is
# written to the server's log (the console), where the operator finds the link to pass on.
_EMAIL_HOST = env_str("EMAIL_HOST")
_EMAIL_PORT = env_int("EMAIL_PORT", 587)
MAILERS = {
    "default": (
        {
            "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "OPTIONS": {
                "host": _EMAIL_HOST,
                "port": _EMAIL_PORT,
                "username": env_str("EMAIL_HOST_USER"),
                "password": env_str("EMAIL_HOST_PASSWORD"),
                "use_tls": env_bool("EMAIL_USE_TLS", _EMAIL_PORT == 587),
                "use_ssl": env_bool("EMAIL_USE_SSL", _EMAIL_PORT == 465),
                # A mail server that does not answer must not hold a request's thread.
                "timeout": 10,
            },
        }
        if _EMAIL_HOST
        else {"BACKEND": "django.core.mail.backends.console.EmailBackend"}
    )
}
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL") or (
    f"FudgeTable <noreply@{_site.hostname or 'localhost'}>"
)
PASSWORD_RESETS_PER_HOUR = env_int("PASSWORD_RESETS_PER_HOUR", 5)

# Table talk (rolls.talk.services, rolls.talk.webhooks): messages one person may send a table in
# MESSAGE_LIMIT_SECONDS; and whether a campaign's webhook may be a plain-http address, or one
# that resolves to a private, loopback or link-local address (a LAN chat server, the tests).
MESSAGE_LIMIT = env_int("MESSAGE_LIMIT", 8)
MESSAGE_LIMIT_SECONDS = env_int("MESSAGE_LIMIT_SECONDS", 10)
WEBHOOKS_ALLOW_PRIVATE = env_bool("WEBHOOKS_ALLOW_PRIVATE", False)
WEBHOOK_TIMEOUT = env_int("WEBHOOK_TIMEOUT", 10)  # seconds one delivery waits for an answer

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"refusals": {"()": "fudgetable.log_filters.RefusalsWithoutTraceback"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "filters": ["refusals"]}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
    "loggers": {
        "daphne": {"level": "WARNING"},
        # Django's own console handler printed each of its lines a second time, beside the
        # root's; its lines now go to the root's handler alone.
        "django": {"handlers": [], "level": "INFO", "propagate": True},
    },
}
