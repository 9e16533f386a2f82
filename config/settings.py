"""Django settings for the Shangrao mahjong site.

Configured from environment variables (see ``config/env.py``):
SECRET_KEY, DEBUG, ALLOWED_HOSTS, CSRF_TRUSTED_ORIGINS, HTTPS, DATABASE_URL, REDIS_URL.
"""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path

from django.utils.translation import gettext_lazy as _

from config import env

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = env.env_bool(os.environ, "DEBUG", True)
SECRET_KEY = env.secret_key(os.environ, debug=DEBUG)
ALLOWED_HOSTS = env.env_list(os.environ, "ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"])
CSRF_TRUSTED_ORIGINS = env.env_list(os.environ, "CSRF_TRUSTED_ORIGINS", [])

# HTTPS=1 in production, served over TLS (usually behind a proxy that terminates it and sets
# X-Forwarded-Proto): secure cookies, redirects to https and HSTS, so `check --deploy` is clean.
if env.env_bool(os.environ, "HTTPS", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = 365 * 24 * 3600
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "axes",  # failed logins (accounts.forms.LoginForm says when it refuses)
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "django_htmx",  # its {% htmx_script %} tag loads htmx and the WebSocket extension
    "accounts",
    "tables",
    "ledger",
    "clubs",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Pages and fragments are gzipped; static files never reach it (WhiteNoise answers them
    # first, with the copies compressed at collectstatic). Django's gzip pads each response by a
    # random length and its CSRF token is masked per response, against BREACH (docs/web.md).
    "django.middleware.gzip.GZipMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",  # request.htmx: the HX-* request headers read
]

ROOT_URLCONF = "config.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.debug",
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

ASGI_APPLICATION = "config.asgi.application"

DATABASES = {"default": env.database_config(os.environ, BASE_DIR)}

CHANNEL_LAYERS = {"default": env.channel_layer_config(os.environ)}

CACHES = {"default": env.cache_config(os.environ)}

# Django's own logging, plus: channels_redis logs a traceback a second while Redis is down;
# one line a minute says as much (config.logs).
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"outage_lines": {"()": "config.logs.OutageLines"}},
    "loggers": {"channels_redis.pubsub": {"filters": ["outage_lines"]}},
}

# The live table's pacing (tables.play.clock): how long a bot or a 托管 seat waits before it moves,
# and how long a player may be disconnected before the bot takes the seat over.
TABLE_BOT_DELAY_SECONDS = float(os.environ.get("TABLE_BOT_DELAY_SECONDS", "0.8"))
# Every discard (and gang) holds a claim window this long, whoever may claim: a table that
# paused only when some seat could claim would tell everyone that someone holds the tile.
TABLE_CLAIM_PAUSE_SECONDS = float(os.environ.get("TABLE_CLAIM_PAUSE_SECONDS", "1.0"))
TABLE_DISCONNECT_GRACE_SECONDS = float(os.environ.get("TABLE_DISCONNECT_GRACE_SECONDS", "30"))
# Every open page beats this often (tables.socket.heartbeat); a page (and its socket's slots)
# that stops beating is gone 2.5 beats later: 10 s after its process was killed
# (tables.play.presence).
TABLE_HEARTBEAT_SECONDS = float(os.environ.get("TABLE_HEARTBEAT_SECONDS", "4"))

AUTH_USER_MODEL = "accounts.User"
LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "lobby"
LOGOUT_REDIRECT_URL = "lobby"

AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",  # refuses before the password is checked
    "django.contrib.auth.backends.ModelBackend",
]

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Failed logins (django-axes, counted in the database so every process agrees): 5 from one
# address lock that address out for 15 minutes, whatever usernames they tried (spraying one
# guess at many accounts); the owner of a guessed username still logs in from elsewhere. The
# username + address pair is listed too, so a lockout record says which account was tried.
AXES_FAILURE_LIMIT = 5
AXES_COOLOFF_TIME = timedelta(minutes=15)
AXES_LOCKOUT_PARAMETERS = ["ip_address", ["username", "ip_address"]]
AXES_CLIENT_IP_CALLABLE = "config.clientip.axes_ip"
AXES_RESET_ON_SUCCESS = True
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False  # a locked address can't extend its lock
AXES_DISABLE_ACCESS_LOG = True  # failures only: no record of every successful login
AXES_VERBOSE = False
# Axes' middleware would replace the login page with its own lockout page; LoginForm shows the
# refusal in the page's language instead (and LoginView answers 429).
SILENCED_SYSTEM_CHECKS = ["axes.W002"]

# Behind reverse proxies: how many of ours append to X-Forwarded-For (0: trust no such header).
TRUSTED_PROXY_COUNT = int(os.environ.get("TRUSTED_PROXY_COUNT", "0"))
# A room number is the only key to a private room: numbers that lead nowhere are counted per
# account and per IP address (accounts are free), and past these many in the window further
# look-ups are refused for its rest.
ROOM_LOOKUP_MISSES_ALLOWED = 20
ROOM_LOOKUP_MISSES_PER_IP_ALLOWED = 40
ROOM_LOOKUP_WINDOW_SECONDS = 15 * 60
# New accounts from one address (django-ratelimit, counted in the shared cache): accounts are
# free, and each would bring a fresh allowance of room-number misses.
SIGNUP_RATE = "5/h"
# Table sockets open at once (tables.play.page_leases): per account at one room, per account;
# and for spectators only, per spectating account and per room (a seated player never counts
# against those, so spectators can't crowd a player out).
TABLE_SOCKETS_PER_ACCOUNT_ROOM = 8
TABLE_SOCKETS_PER_ACCOUNT = 24
TABLE_SPECTATOR_SOCKETS_PER_ACCOUNT = 4
TABLE_SPECTATORS_PER_ROOM = 48
# Table sockets one account may open at one room per minute: reconnect churn is an input too.
TABLE_CONNECTS_PER_MINUTE = 30
# One server process: past this many table sockets, or its event loop this many seconds late,
# a new page without a seat is refused with "try again later" (1013) and retries with
# backoff; a seated player's page only past a quarter more, or four times as late
# (tables.socket.limits.ProcessLoad).
TABLE_PROCESS_SOCKETS = int(os.environ.get("TABLE_PROCESS_SOCKETS", "1600"))
TABLE_PROCESS_LAG_SECONDS = float(os.environ.get("TABLE_PROCESS_LAG_SECONDS", "0.25"))
# Threads (and PostgreSQL connections) per process for the tables' changes and reads
# (tables.socket.table_threads); SQLite always uses Channels' one database thread. One: in
# paired runs at 400 tables on two processes it gave a lower p99 than four (docs/performance.md).
TABLE_DB_THREADS = int(os.environ.get("TABLE_DB_THREADS", "1"))
# Inputs one table socket may send: this many a second on average, this many at once.
TABLE_INPUT_RATE = 10.0
TABLE_INPUT_BURST = 20

LANGUAGE_CODE = "zh-hans"
LANGUAGES = [
    ("zh-hans", _("Simplified Chinese")),
    ("en", _("English")),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "Asia/Shanghai"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
# daphne serves the static files itself through WhiteNoise, from STATIC_ROOT as collectstatic
# fills it (scripts/run, scripts/test and .ci/run run it): each file under a name with a hash of
# its bytes, so WhiteNoise lets browsers keep it for a year, and gzipped once there rather
# than on every request. With DEBUG on, WhiteNoise finds them in the apps' folders instead.
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT") or BASE_DIR / "staticfiles")
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

if not DEBUG:
    SESSION_COOKIE_SECURE = env.env_bool(os.environ, "SECURE_COOKIES", True)
    CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
