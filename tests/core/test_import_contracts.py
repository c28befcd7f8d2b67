"""Every module of the project sits in a layer of an import contract (`.importlinter`).

`lint-imports` checks only the modules a contract names: a module in no layer may import
anything from anywhere and nothing says so. So a new module must be placed in its app's
contract (docs/ARCHITECTURE.md, "The contracts") before this test passes. Migrations and
tests are outside the layers; a package's `__init__.py` that imports nothing (a docstring)
needs no place of its own, its modules have theirs.
"""

import ast
import configparser
from pathlib import Path

import pytest
from django.conf import settings

from tests.project import project_app_configs

ROOT = Path(settings.BASE_DIR)
OUTSIDE_THE_LAYERS = {"migrations", "tests"}


def read_contracts():
    parser = configparser.ConfigParser()
    parser.read(ROOT / ".importlinter")
    return parser


def root_packages(parser) -> list[str]:
    return parser["importlinter"]["root_packages"].split()


def layered_modules(parser) -> set[str]:
    """The modules named in a layer below a root package (the `apps` contract's layers are
    whole apps, which place nothing inside them)."""
    roots = set(root_packages(parser))
    named = set()
    for section in parser.sections():
        contract = parser[section]
        if section.startswith("importlinter:contract:") and contract.get("type") == "layers":
            for layer in contract["layers"].split("\n"):
                named.update(name.strip() for name in layer.split("|") if name.strip())
    return named - roots


def imports_something(path: Path) -> bool:
    tree = ast.parse(path.read_text(), filename=str(path))
    return any(isinstance(node, ast.Import | ast.ImportFrom) for node in ast.walk(tree))


def project_modules(roots) -> dict[str, Path]:
    """Dotted name -> file, for every Python module under the root packages."""
    modules = {}
    for root in roots:
        for path in (ROOT / root).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            if OUTSIDE_THE_LAYERS & set(parts):
                continue
            if parts[-1] == "__init__":
                parts = parts[:-1]
                if len(parts) == 1 or not imports_something(path):
                    continue
            modules[".".join(parts)] = path
    return modules


def placed(module: str, named: set[str]) -> bool:
    """In a layer itself or inside a package that is one (`sponsors.benefits.views`)."""
    parts = module.split(".")
    return any(".".join(parts[:end]) in named for end in range(2, len(parts) + 1))


def test_every_project_module_is_in_a_layer_of_its_app():
    parser = read_contracts()
    named = layered_modules(parser)
    unplaced = sorted(
        module for module in project_modules(root_packages(parser)) if not placed(module, named)
    )
    assert not unplaced, (
        "these modules are in no import contract; add each to its app's layers in "
        f".importlinter (and the table in docs/ARCHITECTURE.md): {unplaced}"
    )


def test_every_project_app_is_a_root_package_of_the_contracts():
    roots = set(root_packages(read_contracts()))
    missing = sorted({config.name.split(".")[0] for config in project_app_configs()} - roots)
    assert not missing, f"apps outside every import contract: {missing}"


@pytest.mark.parametrize(
    ("module", "expected"),
    [
        ("sponsors.services.billing", True),  # named in the sponsors contract
        ("sponsors.benefits.views", True),  # inside sponsors.benefits, itself a layer
        ("feedback.trends.charts", True),
        ("core.transitions", True),
        ("core.a_module_added_tomorrow", False),
        ("benchmarks.services.a_new_workflow", False),  # its siblings' places are not its own
        ("sponsors", False),  # the apps contract places apps, not what is in them
    ],
)
def test_a_module_counts_as_placed_only_where_a_layer_names_it(module, expected):
    assert placed(module, layered_modules(read_contracts())) is expected


def test_a_new_module_shows_up_as_a_project_module(tmp_path, monkeypatch):
    package = tmp_path / "app"
    (package / "migrations").mkdir(parents=True)
    (package / "__init__.py").write_text('"""Only a docstring."""\n')
    (package / "views.py").write_text("from app.models import Thing\n")
    (package / "models.py").write_text("")
    (package / "migrations" / "0001_initial.py").write_text("import django\n")
    (package / "sub").mkdir()
    (package / "sub" / "__init__.py").write_text("from app.sub.inner import run\n")
    (package / "sub" / "inner.py").write_text("")
    monkeypatch.setattr(f"{__name__}.ROOT", tmp_path)

    assert set(project_modules(["app"])) == {"app.views", "app.models", "app.sub", "app.sub.inner"}
