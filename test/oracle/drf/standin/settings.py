"""Settings of the local JASPAR REST API stand-in.

Production-like on purpose (DEBUG off, SQLite, CONN_MAX_AGE 0), because the
stand-in is a performance anchor for the real service, which runs Django +
Django REST Framework on SQLite.

Environment:
  JASPAR_DATA      dataset folder (matrices.csv, matrices/, sites/);
                   default the release the repository ships: data/jaspar-2024
  JASPAR_DB        SQLite file; default <system temp dir>/jaspar-drf-standin/jaspar.sqlite3
  JASPAR_THROTTLE  e.g. "25/second" to throttle anonymous clients per IP as
                   the real service does; unset = no throttle (benchmarks
                   would otherwise measure the throttle)
  DJANGO_DEBUG     "1" for Django's debug pages
"""
import os
import tempfile
from pathlib import Path

ANCHOR_DIR = Path(__file__).resolve().parent.parent
DATA_DIR = Path(os.environ.get("JASPAR_DATA", ANCHOR_DIR / ".." / ".." / ".." / "data" / "jaspar-2024")).resolve()
DB_PATH = os.environ.get(
    "JASPAR_DB", os.path.join(tempfile.gettempdir(), "jaspar-drf-standin", "jaspar.sqlite3")
)
THROTTLE = os.environ.get("JASPAR_THROTTLE") or None

SECRET_KEY = "local-stand-in-no-secret"
DEBUG = os.environ.get("DJANGO_DEBUG") == "1"
ALLOWED_HOSTS = ["*"]

INSTALLED_APPS = [
    "django.contrib.contenttypes",
    "django.contrib.auth",  # DRF's default authentication gives AnonymousUser
    "rest_framework",
    "matrix",
]
# The stack `django-admin startproject` gives, minus sessions/CSRF/messages,
# which a read-only API does not touch. These add X-Frame-Options,
# X-Content-Type-Options, Referrer-Policy and the APPEND_SLASH redirect.
MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]
ROOT_URLCONF = "standin.urls"
WSGI_APPLICATION = "standin.wsgi.application"
TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "APP_DIRS": True,  # the browsable API's templates live in rest_framework
        "OPTIONS": {"context_processors": ["django.template.context_processors.request"]},
    }
]
DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": DB_PATH}}
DEFAULT_AUTO_FIELD = "django.db.models.AutoField"
STATIC_URL = "/static/"
USE_TZ = True

REST_FRAMEWORK = {
    # JASPAR renames DRF's `ordering` parameter.
    "ORDERING_PARAM": "order",
    # JASPAR's settings list only a YAML parser; it shows up in OPTIONS "parses".
    "DEFAULT_PARSER_CLASSES": ["matrix.renderers.YAMLParser"],
    "DEFAULT_THROTTLE_RATES": {"anon": THROTTLE},
}
