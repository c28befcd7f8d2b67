"""The settings of the test run: config/settings.py as it is, with two changes.

Passwords are hashed with MD5 instead of PBKDF2 (1,000,000 rounds, about 0.5 s a hash on
the CI machine, and every user a factory makes, every ``client.login`` and every sign-in
in a browser test hashes one). What a test checks of a password (that the right one
signs in, that a wrong one does not, the validators) does not depend on the hasher; the
production profile keeps Django's default list, and `make run` (the Procfile) and
the production smoke stage (deploy/smoke.py) run on config.settings.

pytest-django exports DJANGO_SETTINGS_MODULE (pyproject.toml), so the processes a test
starts (gunicorn, a Celery worker) read these settings too and accept the test's users.
"""

from config.settings import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# PostgreSQL does not wait for the disk at each commit in tests (the live-server and
# transactional tests commit thousands of times): a crash of the machine is the only
# thing that would lose a commit, and a test database does not outlive its run. What is
# committed is visible to every other connection at once all the same.
if "postgresql" in DATABASES["default"]["ENGINE"]:  # noqa: F405
    DATABASES["default"].setdefault("OPTIONS", {})["options"] = "-c synchronous_commit=off"  # noqa: F405
