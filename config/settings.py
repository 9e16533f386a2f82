"""Django settings for the Shangrao mahjong site.

Configured from environment variables (see ``config/env.py``):
SECRET_KEY, DEBUG, ALLOWED_HOSTS, CSRF_TRUSTED_ORIGINS, HTTPS, DATABASE_URL, REDIS_URL.
"""

from __future__ import annotations

import os
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
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "django_htmx",  # its {% htmx_script %} tag loads htmx and the WebSocket extension
    "accounts",
    "tables",
    "ledger",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
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

# The live table's pacing (tables.clock): how long a bot or a 托管 seat waits before it moves,
# and how long a player may be disconnected before the bot takes the seat over.
TABLE_BOT_DELAY_SECONDS = float(os.environ.get("TABLE_BOT_DELAY_SECONDS", "0.8"))
# Every discard (and gang) holds a claim window this long, whoever may claim: a table that
# paused only when some seat could claim would tell everyone that someone holds the tile.
TABLE_CLAIM_PAUSE_SECONDS = float(os.environ.get("TABLE_CLAIM_PAUSE_SECONDS", "1.0"))
TABLE_DISCONNECT_GRACE_SECONDS = float(os.environ.get("TABLE_DISCONNECT_GRACE_SECONDS", "30"))

AUTH_USER_MODEL = "accounts.User"
LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "lobby"
LOGOUT_REDIRECT_URL = "lobby"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Failed logins per username + IP before further attempts are refused.
LOGIN_RATE_LIMIT_ATTEMPTS = 5
LOGIN_RATE_LIMIT_WINDOW_SECONDS = 15 * 60
# A room number is the only key to a private room: numbers that lead nowhere are counted per
# user, and past this many in the window further look-ups are refused for its rest.
ROOM_LOOKUP_MISSES_ALLOWED = 20
ROOM_LOOKUP_WINDOW_SECONDS = 15 * 60

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
# daphne serves the static files itself through WhiteNoise, straight from the apps' folders:
# one process, no collectstatic step and no separate web server needed. STATIC_ROOT is only
# for a deployment that wants collectstatic (e.g. behind a CDN).
STATIC_ROOT = os.environ.get("STATIC_ROOT") or None
WHITENOISE_USE_FINDERS = True
# The tile sprite is always linked with a hash of its bytes (?v=…, tables.templatetags.
# mahjong_tiles), so any one URL of it never changes: browsers may keep it for good.
WHITENOISE_IMMUTABLE_FILE_TEST = r"/tiles/sprite\.svg$"

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

if not DEBUG:
    SESSION_COOKIE_SECURE = env.env_bool(os.environ, "SECURE_COOKIES", True)
    CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
