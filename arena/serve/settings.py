"""The Django settings of ``arena serve``, built at run time from the environment.

``ARENA_SERVE_DIR``: the service's folder (the SQLite database ``serve.sqlite3``, the secret key,
the uploads, the compiled catalog). ``DATABASE_URL`` (``postgresql://user:pass@host:port/name``):
that database instead of SQLite. ``ARENA_SERVE_HTTPS=1``: cookies only over HTTPS.
``ARENA_SERVE_LOGIN_FAILURES`` (5) failed logins of one user name from one address lock it out
from there for ``ARENA_SERVE_LOGIN_LOCKOUT_MINUTES`` (15) minutes (django-axes).
"""

from __future__ import annotations

import os
import secrets
from datetime import timedelta
from pathlib import Path
from urllib.parse import unquote, urlparse

from django.core.exceptions import ImproperlyConfigured

PACKAGE = Path(__file__).parent


def service_dir() -> Path:
    """The folder named by ``ARENA_SERVE_DIR``."""
    folder = os.environ.get("ARENA_SERVE_DIR")
    if not folder:
        raise ImproperlyConfigured("ARENA_SERVE_DIR is not set")  # not shown
    return Path(folder)


def secret_key(folder: Path) -> str:
    """The key kept in ``folder/secret_key`` (readable by its owner only), made at the first start."""
    path = folder / "secret_key"
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return path.read_text(encoding="ascii").strip()
    with os.fdopen(fd, "w", encoding="ascii") as f:
        key = secrets.token_urlsafe(50)
        f.write(key + "\n")
    return key


KEEP_CONNECTIONS = {"CONN_MAX_AGE": 600, "CONN_HEALTH_CHECKS": True}
"""Each of the web server's threads keeps its database connection between requests (ten minutes,
checked before reuse): opening one per request took a tenth of the pages' CPU (SQLite registers its
functions on every new connection; PostgreSQL adds a TCP handshake and authentication)."""


def database(url: str | None, folder: Path) -> dict[str, object]:
    """Django's ``DATABASES["default"]``: PostgreSQL from ``url``, else SQLite in ``folder``."""
    if not url:
        # IMMEDIATE: a writer takes the lock when its transaction begins, so two writers queue on the
        # busy timeout instead of one failing with "database is locked" when it upgrades a read.
        return {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": str(folder / "serve.sqlite3"),
            "OPTIONS": {
                "transaction_mode": "IMMEDIATE",
                "timeout": 30,
                "init_command": "PRAGMA journal_mode=WAL;",
            },
            **KEEP_CONNECTIONS,
        }
    parts = urlparse(url)
    if parts.scheme not in ("postgres", "postgresql"):
        raise ImproperlyConfigured(f"DATABASE_URL: unsupported scheme {parts.scheme!r}")  # not shown
    return {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": unquote(parts.path.lstrip("/")),
        "USER": unquote(parts.username or ""),
        "PASSWORD": unquote(parts.password or ""),
        "HOST": parts.hostname or "",
        "PORT": str(parts.port or ""),
        **KEEP_CONNECTIONS,
    }


DIR = service_dir()
SECRET_KEY = secret_key(DIR)
DEBUG = False
ALLOWED_HOSTS = [h for h in os.environ.get("ARENA_SERVE_HOSTS", "*").split(",") if h]
HTTPS = os.environ.get("ARENA_SERVE_HTTPS") == "1"

INSTALLED_APPS = [
    # the service's apps, in their layers (a later one builds on the earlier; docs/serve.md,
    # "How the service is built"); first, so that their templates win over the admin's
    "arena.serve.accounts",
    "arena.serve.submissions",
    "arena.serve.ladder",
    "arena.serve.finals",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "axes",
    "django_tasks",
    "django_tasks_db",  # the tasks' table and its admin (arena.serve.tasks)
]
MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",  # /static/: the admin's CSS and JS (STATIC_* below)
    "django.contrib.sessions.middleware.SessionMiddleware",
    "arena.serve.language.ChosenLanguage",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "arena.serve.security.ContentSecurityPolicy",
    "axes.middleware.AxesMiddleware",  # last: it turns a locked-out login into security.locked_out
]
ROOT_URLCONF = "arena.serve.urls"
TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [str(PACKAGE / "templates")],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ]
        },
    }
]
DATABASES = {"default": database(os.environ.get("DATABASE_URL"), DIR)}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
# Passwords hashed with Argon2id at OWASP's first configuration (19 MiB, 2 passes, 1 lane:
# arena.serve.passwords): 20 ms of CPU a login here against scrypt's 150 ms and PBKDF2's 220 ms, so a
# class's login burst fits in 2 cores. The others are Django's own list: a password stored with any of
# them still verifies, and is stored again with Argon2id at its next login (docs/security.md).
PASSWORD_HASHERS = [
    "arena.serve.passwords.OwaspArgon2PasswordHasher",
    "django.contrib.auth.hashers.ScryptPasswordHasher",
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2SHA1PasswordHasher",
    "django.contrib.auth.hashers.BCryptSHA256PasswordHasher",
]
SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
"""Sessions read from the web process's memory, written through to the database (a restart loses
nothing): no query for the session on each page."""
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "arena"}}
"""In the process's memory (no other service): ``live.json``'s answers (views_watch.live)."""

LANGUAGE_CODE = "es"
LANGUAGES = [("es", "Español"), ("en", "English")]
USE_I18N = True
USE_TZ = True
TIME_ZONE = "UTC"
LOCALE_PATHS = [str(DIR / "locale")]  # the catalog compiled at start-up (arena.serve.boot)

# The login's lockout (django-axes): LoginLockout refuses a locked-out user name before any
# password is hashed; the failures are counted per user name *and* address (a student is not locked
# out by someone else's guesses from elsewhere), the address being the connection's (security.client_ip).
AUTHENTICATION_BACKENDS = [
    "arena.serve.security.LoginLockout",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = int(os.environ.get("ARENA_SERVE_LOGIN_FAILURES", "5"))
AXES_COOLOFF_TIME = timedelta(minutes=int(os.environ.get("ARENA_SERVE_LOGIN_LOCKOUT_MINUTES", "15")))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_CLIENT_IP_CALLABLE = "arena.serve.security.client_ip"
AXES_LOCKOUT_CALLABLE = "arena.serve.security.locked_out"
AXES_DISABLE_ACCESS_LOG = True  # no log of successful logins: the failures are enough (in the admin)
AXES_VERBOSE = False

# Static files (the admin's CSS and JS, the roster's copy button) served by WhiteNoise from the apps'
# own folders, found once when the server starts (no collectstatic, nothing copied into DIR; see
# docs/serve.md, "Static files"). `arena serve manage DIR collectstatic` fills STATIC_ROOT if wanted.
STATIC_URL = "/static/"
STATIC_ROOT = str(DIR / "static")
WHITENOISE_USE_FINDERS = True

# Email: Django's password reset by email, once the instructor names an SMTP server
# (ARENA_SERVE_SMTP_HOST); else the console (nothing leaves the machine) and no reset by email.
SMTP_HOST = os.environ.get("ARENA_SERVE_SMTP_HOST", "")
EMAIL_BACKEND = f"django.core.mail.backends.{'smtp' if SMTP_HOST else 'console'}.EmailBackend"  # not shown
EMAIL_HOST = SMTP_HOST or "localhost"
EMAIL_PORT = int(os.environ.get("ARENA_SERVE_SMTP_PORT", "587"))
EMAIL_HOST_USER = os.environ.get("ARENA_SERVE_SMTP_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("ARENA_SERVE_SMTP_PASSWORD", "")
EMAIL_USE_TLS = os.environ.get("ARENA_SERVE_SMTP_TLS", "1") == "1"
DEFAULT_FROM_EMAIL = os.environ.get("ARENA_SERVE_EMAIL_FROM", EMAIL_HOST_USER or "arena@localhost")
PASSWORD_RESET_BY_EMAIL = bool(SMTP_HOST)
"""Whether /password_reset/ is offered (an SMTP server is named); else it answers 404."""
RESET_REQUESTS_PER_HOUR = int(os.environ.get("ARENA_SERVE_RESET_REQUESTS_PER_HOUR", "10"))
"""Reset requests by email from one address in an hour, at most (then the form says to wait)."""
RESET_EMAILS_PER_HOUR = int(os.environ.get("ARENA_SERVE_RESET_EMAILS_PER_HOUR", "3"))
"""Reset emails to one email address in an hour, at most (then none is sent, silently)."""

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "me"
LOGOUT_REDIRECT_URL = "login"

SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
SESSION_COOKIE_SECURE = HTTPS
CSRF_COOKIE_SECURE = HTTPS
CSRF_COOKIE_SAMESITE = "Lax"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

UPLOAD_MAX_BYTES = 4 * 1024 * 1024
UPLOAD_MAX_FILES = 50
"""An upload of the player's files (not a zip): at most this many."""
DATA_UPLOAD_MAX_NUMBER_FILES = UPLOAD_MAX_FILES + 1
UPLOADS_PER_HOUR = int(os.environ.get("ARENA_SERVE_UPLOADS_PER_HOUR", "12"))
"""A student's uploads in any hour, at most: each is checked in the sandbox, which costs the machine."""
"""The largest zip a student may upload."""
DATA_UPLOAD_MAX_MEMORY_SIZE = UPLOAD_MAX_BYTES + 64 * 1024
FILE_UPLOAD_MAX_MEMORY_SIZE = UPLOAD_MAX_BYTES + 64 * 1024
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {
        "null": {"class": "logging.NullHandler"},
        "stderr": {"class": "logging.StreamHandler"},  # journald's, under systemd
    },
    "loggers": {
        # a page's failure (500) with its traceback: Django sends it only to mail_admins otherwise
        "django.request": {"handlers": ["stderr"], "level": "ERROR", "propagate": False},
        "django.security.DisallowedHost": {"handlers": ["null"], "propagate": False},
        "axes": {"handlers": ["null"], "propagate": False},  # its failures are rows the admin shows
    },
}
CHECK_PARTIDOS = int(os.environ.get("ARENA_SERVE_CHECK_PARTIDOS", "2"))
LIVE_FRESH_S = float(os.environ.get("ARENA_SERVE_LIVE_FRESH_S", "2"))
"""How long a ladder's ``live.json`` answer is given as it is, without looking whether it changed."""
STANDINGS_FRESH_S = float(os.environ.get("ARENA_SERVE_STANDINGS_FRESH_S", "10"))
"""How old a ladder's standings fit may be shown while partidos end (its versions unchanged)."""
CHECKERS = int(os.environ.get("ARENA_SERVE_CHECKERS", "2"))
"""Versions checked at once (a worker process each); more uploads wait their turn in the queue (a burst
of uploads cannot starve the machine)."""
TASKS = {
    "default": {
        "BACKEND": "django_tasks_db.DatabaseBackend",
        "QUEUES": ["checks", "partidos", "finals", "default"],
    }
}
"""The background work: django-tasks' tasks kept in the service's database (no broker), run by the
worker processes ``arena serve`` starts, one queue each (arena.serve.tasks, docs/serve.md)."""
