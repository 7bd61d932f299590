"""The architecture STYLE.md draws, held by a test: pure worlds, core below families."""

import ast
from pathlib import Path

import checkout_consent

PACKAGE = Path(checkout_consent.__file__).parent
# A family's Inspect glue: tools.py, task.py, and modules named inspect_*.py (an adapter
# that drives an Inspect agent). Nothing else in a family may import inspect_ai.
INSPECT_GLUE = {"tools.py", "task.py"}
# Core modules that must run without Inspect (so a log can be re-graded offline).
CORE_PURE = {"money.py", "rng.py", "world.py", "trace.py", "family.py", "controls.py",
             "args.py", "spec.py", "surface.py", "pricing.py", "version.py"}
WORLD_MODULES = {"state.py", "generate.py", "actions.py", "grader.py"}
IMPURE = {"random", "uuid", "time", "datetime", "secrets", "os", "subprocess"}
FAMILIES = sorted(p.name for p in PACKAGE.iterdir()
                  if p.is_dir() and (p / "__init__.py").exists() and p.name != "core")


def imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_core__never_imports_a_family():
    for path in (PACKAGE / "core").rglob("*.py"):
        bad = {m for m in imports(path) for f in FAMILIES if m.startswith(f"checkout_consent.{f}")}
        assert not bad, f"{path.name} imports {bad}"


def test_core__pure_modules_do_not_import_inspect():
    for path in (PACKAGE / "core").glob("*.py"):
        if path.name in CORE_PURE:
            assert not any(m.startswith("inspect_ai") for m in imports(path)), path.name


def test_families__only_tools_and_task_import_inspect():
    for family in FAMILIES:
        for path in (PACKAGE / family).rglob("*.py"):
            if path.name not in INSPECT_GLUE and not path.name.startswith("inspect_"):
                found = {m for m in imports(path) if m.startswith("inspect_ai")}
                assert not found, f"{family}/{path.name} imports {found}"


def test_families__never_import_each_other():
    for family in FAMILIES:
        others = [f for f in FAMILIES if f != family]
        for path in (PACKAGE / family).rglob("*.py"):
            bad = {m for m in imports(path) for o in others
                   if m.startswith(f"checkout_consent.{o}")}
            assert not bad, f"{family}/{path.name} imports {bad}"


def test_worlds__have_no_clock_randomness_or_io():
    for family in FAMILIES:
        for name in WORLD_MODULES:
            path = PACKAGE / family / name
            if path.exists():
                found = {m for m in imports(path) if m.split(".")[0] in IMPURE}
                assert not found, f"{family}/{name} imports {found}"


def test_architecture__sees_every_family():
    assert "storefront" in FAMILIES
