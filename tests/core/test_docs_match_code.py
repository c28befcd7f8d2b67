"""The README and docs/ARCHITECTURE.md describe the code that exists.

Every project app is named in both, and the contract table in ARCHITECTURE.md lists
exactly the contracts in `.importlinter`, each with the layers it really has. Every file
or folder of the project they name in backticks exists, every module, class or function
they name (`core.transitions.apply`) can be imported, and the counts they state ("five
shared parts: ...", "17 contracts") are the counts of what they list or of what is there.
"""

import configparser
import importlib
import re
from pathlib import Path

import pytest
from django.conf import settings

from tests.project import project_app_configs

ROOT = Path(settings.BASE_DIR)
README = (ROOT / "README.md").read_text()
ARCHITECTURE = (ROOT / "docs" / "ARCHITECTURE.md").read_text()


def project_apps():
    return sorted(config.name for config in project_app_configs())


def contracts():
    parser = configparser.ConfigParser()
    parser.read(ROOT / ".importlinter")
    prefix = "importlinter:contract:"
    return {
        section.removeprefix(prefix): parser[section]
        for section in parser.sections()
        if section.startswith(prefix)
    }


def documented_contracts():
    """Rows of the contract table: `name` | layers."""
    rows = re.findall(r"^\| `([\w-]+)` \| (.+) \|$", ARCHITECTURE, flags=re.MULTILINE)
    return dict(rows)


@pytest.mark.parametrize("app", project_apps())
def test_every_app_is_described_in_the_readme_and_the_architecture(app):
    folder = app.replace(".", "/") + "/"
    assert f"`{folder}" in README or f" {folder}" in README, f"README does not name {folder}"
    assert re.search(rf"^{re.escape(folder)}\s", ARCHITECTURE, flags=re.MULTILINE), (
        f"docs/ARCHITECTURE.md's layout does not list {folder}"
    )


def test_the_contract_table_lists_exactly_the_contracts_that_are_checked():
    assert set(documented_contracts()) == set(contracts())


@pytest.mark.parametrize("name", sorted(contracts()))
def test_each_documented_contract_names_the_layers_it_checks(name):
    contract = contracts()[name]
    documented = documented_contracts().get(name, "")
    modules = re.findall(r"[\w.]+", contract.get("layers", "") + contract.get("source_modules", ""))
    for module in modules:
        short = module.split(".")[-1]
        assert short in documented, f"{name}: `{module}` is checked but not documented"


PROJECT_PACKAGES = {app.split(".")[0] for app in project_apps()} | {"config", "tests", "bench"}
NUMBER_WORDS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8}
DOCS = {"README.md": README, "docs/ARCHITECTURE.md": ARCHITECTURE}


def quoted(text: str) -> set[str]:
    return set(re.findall(r"`([^`\n]+)`", text))


def named_paths(text: str) -> set[str]:
    """`feedback/ingest.py`, `deploy/nginx/`: paths in the project's own folders."""
    return {
        name.split(":")[0].rstrip(",")
        for name in quoted(text)
        if re.fullmatch(r"[\w.-]+(/[\w.-]*)+(:\d+)?", name)
        and name.split("/")[0] in PROJECT_FOLDERS
    }


PROJECT_FOLDERS = PROJECT_PACKAGES | {"deploy", "docs", "scripts", "templates", "static"}


def named_objects(text: str) -> set[str]:
    """`core.transitions.apply`, `feedback.ingest`: dotted names under a project package."""
    return {
        name.removesuffix("()")
        for name in quoted(text)
        if re.fullmatch(r"[a-z_]+(\.[A-Za-z_]\w*)+(\(\))?", name)
        and name.split(".")[0] in PROJECT_PACKAGES
        and not name.endswith((".py", ".md", ".txt", ".html", ".json", ".conf", ".sh"))
    }


def resolves(dotted: str) -> bool:
    parts = dotted.split(".")
    for split in range(len(parts), 0, -1):
        try:
            target = importlib.import_module(".".join(parts[:split]))
        except ImportError:
            continue
        for attribute in parts[split:]:
            if not hasattr(target, attribute):
                return False
            target = getattr(target, attribute)
        return True
    return False


@pytest.mark.parametrize("doc", sorted(DOCS))
def test_every_file_and_folder_the_doc_names_exists(doc):
    missing = sorted(path for path in named_paths(DOCS[doc]) if not (ROOT / path).exists())
    assert not missing, f"{doc} names paths that do not exist: {missing}"


@pytest.mark.parametrize("doc", sorted(DOCS))
def test_every_module_and_function_the_doc_names_exists(doc):
    missing = sorted(name for name in named_objects(DOCS[doc]) if not resolves(name))
    assert not missing, f"{doc} names modules or functions that do not exist: {missing}"


def test_the_counts_the_architecture_states_are_the_counts_it_lists():
    for word, listing in re.findall(r"\b(\w+) shared\s+parts: ([^.]+)\.", ARCHITECTURE):
        assert NUMBER_WORDS[word] == len(re.findall(r"`(\w+)`", listing)), listing
    stated = re.findall(r"\b(\d+) contracts\b", README + ARCHITECTURE)
    for count in stated:
        assert int(count) == len(contracts()), f"the docs say {count} contracts"


def documented_table(heading: str) -> list[str]:
    """The backticked first cells of the table that follows the sentence ``heading``."""
    start = ARCHITECTURE.index(heading)
    table = re.search(r"\n\| ---.*?\n((?:\|.*\n)+)", ARCHITECTURE[start:]).group(1)
    return re.findall(r"^\| `([^`]+)` \|", table, flags=re.MULTILINE)


def project_python_files():
    for package in project_packages():
        for path in (ROOT / package).rglob("*.py"):
            if "migrations" not in path.parts:
                yield path


def project_packages():
    return sorted({name.split(".")[0] for name in project_apps()} | {"config"})


def test_the_list_of_what_redis_keeps_names_every_module_that_uses_the_cache():
    uses_cache = {
        str(path.relative_to(ROOT))
        for path in project_python_files()
        if re.search(r"^\s*from django\.core\.cache import", path.read_text(), re.MULTILINE)
    }
    documented = documented_table("these modules keep things in the cache")
    assert sorted(documented) == sorted(uses_cache)


def test_the_list_of_celery_tasks_names_every_task_there_is():
    from config.celery import app

    app.loader.import_default_modules()
    tasks = {name for name in app.tasks if name.split(".")[0] in project_packages()}
    assert sorted(documented_table("The Celery tasks")) == sorted(tasks)


def test_the_defaults_the_readme_states_for_make_are_the_makefiles():
    makefile = (ROOT / "Makefile").read_text()
    stated = re.findall(r"`([A-Z_]+)` \(default ([^)]+)\)", README)
    assert stated, "the README states no make default"
    for name, default in stated:
        actual = re.search(rf"^{name} \?= (.*)$", makefile, flags=re.MULTILINE)
        assert actual and actual.group(1).strip() == default, name


def test_the_numeric_defaults_the_readme_states_are_the_settings():
    rows = re.findall(r"^\| ((?:`[A-Z_]+`(?:, )?)+) \| .* \| ([^|]+) \|$", README, re.MULTILINE)
    checked = 0
    for names_cell, defaults_cell in rows:
        names = re.findall(r"`([A-Z_]+)`", names_cell)
        defaults = re.findall(r"`([^`]+)`", defaults_cell)
        if len(names) != len(defaults) or not all(
            re.fullmatch(r"-?[0-9.]+", value) for value in defaults
        ):
            continue
        for name, default in zip(names, defaults, strict=True):
            assert float(getattr(settings, name)) == float(default), name
            checked += 1
    assert checked >= 5
