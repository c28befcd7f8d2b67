#!/usr/bin/env bash
# The virtualenv an app host has: requirements/production.lock and nothing else (README,
# "Production"). .ci/run builds it and runs the production smoke stage's processes
# (manage.py, gunicorn, Celery) from it, so a runtime import missing from the production
# lock fails CI. tests/core/test_dependencies.py checks that the lock holds no test tool.
set -euo pipefail
cd "$(dirname "$0")/.."
venv="${1:-.venv-production}"
test -x "$venv/bin/python" || .venv/bin/uv venv --quiet --python python3.11 "$venv"
.venv/bin/uv pip install --quiet --python "$venv/bin/python" -r requirements/production.lock
echo "production virtualenv $venv: $(.venv/bin/uv pip list --quiet --python "$venv/bin/python" --format=freeze | wc -l) packages"
