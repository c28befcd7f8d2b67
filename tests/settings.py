"""The settings of the test run: config/settings.py as it is, with one change.

Passwords are hashed with MD5 instead of PBKDF2 (1,000,000 rounds, about 0.5 s a hash on
the CI machine, and every user a factory makes, every ``client.login`` and every sign-in
in a browser test hashes one). What a test checks of a password (that the right one
signs in, that a wrong one does not, the validators) does not depend on the hasher; the
production profile keeps Django's default list, and `make run` (scripts/devstack.py) and
the production smoke stage (deploy/smoke.py) run on config.settings.

pytest-django exports DJANGO_SETTINGS_MODULE (pyproject.toml), so the processes a test
starts (gunicorn, a Celery worker) read these settings too and accept the test's users.
"""

from config.settings import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
