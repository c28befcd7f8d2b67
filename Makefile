# The two set-up commands are `make run` and `make test`; see README.md.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

# The test suite runs on the real PostgreSQL and Redis; override to isolate parallel runs.
# Its connections commit without waiting for the write-ahead log to reach the disk
# (synchronous_commit=off): what a commit shows every other connection is the same, only a
# crash of PostgreSQL itself could lose the last commits, which no test does to this
# server; the suite takes about 14 % less time (docs/testing.md).
TEST_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/portal?options=-c%20synchronous_commit%3Doff
TEST_REDIS_URL ?= redis://127.0.0.1:6379/0
# Parallel workers (pytest-xdist): each gets its own test database (test_portal_gw0, ...)
# and Redis database (TEST_REDIS_URL's plus its number; tests/parallel.py). 0 runs serially.
TEST_WORKERS ?= 3
PYTEST_ARGS ?=
# The day the suite runs as if it were today (YYYY-MM-DD; scripts/test_clock.py moves every
# process of the run to 09:00 UTC that day with libfaketime). Empty: the real today.
TEST_TODAY ?=

.PHONY: run test install lint format demo clean lock

# uv (pinned; from PyPI like the rest) installs the lock file: it fetches, unpacks and
# byte-compiles in parallel, in about 20 s on the 2-core CI machine where pip took most of
# the 47 s before the tests (docs/testing.md, "How long CI takes"). The bytecode is
# compiled here because this machine sets PYTHONDONTWRITEBYTECODE=1: without it every
# process (each pytest worker, gunicorn, Celery, manage.py) compiles what it imports.
UV_VERSION := 0.13.8
UV_COMPILE ?= --compile-bytecode

# Two locks: requirements/production.lock is what the app hosts install (README,
# "Production"); requirements/development.lock is everything `make run`, the tests and the
# checks add on top of it, compiled with the production lock as its constraint so that both
# pin the same versions. To change a dependency, edit pyproject.toml and run `make lock`.
LOCKS := requirements/production.lock requirements/development.lock
$(STAMP): $(LOCKS)
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet uv==$(UV_VERSION)
	$(BIN)/uv pip install --quiet $(UV_COMPILE) --python $(BIN)/python $(addprefix -r ,$(LOCKS))
	touch $(STAMP)

lock: $(STAMP)
	$(BIN)/uv pip compile -q pyproject.toml --python-version 3.11 -o requirements/production.lock
	$(BIN)/uv pip compile -q pyproject.toml --python-version 3.11 --extra dev \
		-c requirements/production.lock -o requirements/development.lock

install: $(STAMP)

## run: the whole system with demo content at http://127.0.0.1:8000, from the Procfile under
## honcho: PostgreSQL and Redis (PyPI wheels; data in var/), localstripe (a Stripe fake) on
## port 8420, the site, a Celery worker and beat; Ctrl-C stops all. Mail goes to var/mail/.
## The browser tests run it on free ports (tests/e2e/devstack.py).
SITE_URL ?= http://127.0.0.1:8000
STRIPE_API_BASE ?= http://127.0.0.1:8420
# The pay pages load the fake's Stripe.js, which sends the card to the fake only.
STRIPE_JS_URL ?= $(STRIPE_API_BASE)/js.stripe.com/v3/
run: $(STAMP)
	SITE_URL=$(SITE_URL) STRIPE_API_BASE=$(STRIPE_API_BASE) STRIPE_JS_URL=$(STRIPE_JS_URL) \
		PYTHONUNBUFFERED=1 $(BIN)/honcho start

## test: the whole suite on the real PostgreSQL and Redis (starts them if they are down)
test: $(STAMP)
	bash scripts/ensure-services.sh
	$(BIN)/python manage.py collectstatic --noinput -v0
	$(if $(TEST_TODAY),@echo "== the suite runs as if today were $(TEST_TODAY)")
	DATABASE_URL=$(TEST_DATABASE_URL) REDIS_URL=$(TEST_REDIS_URL) CELERY_TASK_ALWAYS_EAGER=true \
		$(if $(TEST_TODAY),env $$(python3 scripts/test_clock.py env $(TEST_TODAY))) \
		$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist worksteal $(PYTEST_ARGS)

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports --no-cache

format: $(STAMP)
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

clean:
	rm -rf $(VENV) staticfiles media private-media var
