"""The README and docs/ARCHITECTURE.md describe the code that exists.

Every project app is named in both, and the contract table in ARCHITECTURE.md lists
exactly the contracts in `.importlinter`, each with the layers it really has.
"""

import configparser
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
