"""The architecture the house plan draws, held by a test, by folder and transitively:
core below everything, pure worlds, Inspect only in its own layer, private Inspect in one
module, one module vocabulary in every family, and size limits that hold in every folder
(a limit no folder is exempt from cannot be met by moving code). Imports inside functions
count (that is where drift hides)."""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import checkout_consent
from checkout_consent.families import WORLDS

PACKAGE = Path(checkout_consent.__file__).parent
ROOT = "checkout_consent"
LAYERS_ABOVE_CORE = ("runtime", "cassettes", "serve", "leaderboard", "cli", "families", "_registry")
# the layers that may use the roster (families.py): nothing at or below the roster reaches them
LAYERS_ABOVE_ROSTER = ("cassettes", "serve", "leaderboard", "cli", "_registry")
WORLD_MODULES = ("state", "generate", "actions", "grader", "record")
# Every family folder has these modules (a module or a subpackage), each meaning one thing
# (CONTRIBUTING, "The family vocabulary"), and a README.md.
VOCABULARY = (
    "state",
    "dataset",
    "generate",
    "actions",
    "grader",
    "record",
    "prompts",
    "tools",
    "task",
    "controls",
    "views",
)
# What a family's subpackages may hold, named for it: the control agents with their plans
# and checks, building task data, executing builds (no `bench/`: nothing here is one).
SUBPACKAGES = ("controls", "authoring", "sandbox")
# Size limits that hold everywhere in the package, so no folder is a place to move code to.
MAX_MODULE_LINES, MAX_FUNCTION_LINES = 400, 60


def worlds() -> list[tuple[str, tuple[str, ...]]]:
    """Every world folder (under the package) and the vocabulary it must have."""
    return [(f.name, VOCABULARY) for f in WORLDS]


# what a pure module may not reach: I/O, clocks, processes, randomness, Inspect
IMPURE = {
    "os",
    "io",
    "pathlib",
    "shutil",
    "tempfile",
    "subprocess",
    "socket",
    "time",
    "datetime",
    "random",
    "uuid",
    "secrets",
    "urllib",
    "http",
    "httpx",
    "yaml",
    "inspect_ai",
    "anyio",
    "asyncio",
    "threading",
    "multiprocessing",
    "sqlite3",
}
COMPAT = f"{ROOT}.runtime.compat"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(p): p for p in PACKAGE.rglob("*.py")}


@functools.cache
def imports(name: str) -> frozenset[str]:
    """Every module `name` imports, anywhere in the file (functions included)."""
    tree = ast.parse(MODULES[name].read_text())
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(
                f"{node.module}.{a.name}"
                for a in node.names
                if f"{node.module}.{a.name}" in MODULES
            )
    return frozenset(found)


def ours(name: str) -> bool:
    return name == ROOT or name.startswith(ROOT + ".")


@functools.cache
def reach(name: str) -> frozenset[str]:
    """Every module `name` reaches through our own modules (itself excluded)."""
    seen: set[str] = set()
    todo = [name]
    while todo:
        for dep in imports(todo.pop()):
            target = dep
            while ours(target) and target not in MODULES:
                target = target.rpartition(".")[0]
            if target in seen:
                continue
            seen.add(target)
            if target in MODULES and target != ROOT:
                todo.append(target)
    return frozenset(seen)


def top(name: str) -> str:
    return name.split(".")[0]


def in_folder(folder: str) -> list[str]:
    return sorted(
        m for m in MODULES if m.startswith(f"{ROOT}.{folder}.") or m == f"{ROOT}.{folder}"
    )


def test_core__reaches_nothing_above_it_and_no_inspect_or_io():
    for name in in_folder("core"):
        for dep in reach(name):
            assert not any(dep.startswith(f"{ROOT}.{layer}") for layer in LAYERS_ABOVE_CORE), (
                f"{name} reaches {dep}"
            )
            assert not any(dep.startswith(f"{ROOT}.{f.name}") for f in WORLDS), (
                f"{name} reaches family module {dep}"
            )
            assert top(dep) not in IMPURE, f"{name} reaches {dep}"


def test_worlds__reach_no_io_clock_inspect_or_process_even_through_core():
    for folder, _ in worlds():
        for world in WORLD_MODULES:
            name = f"{ROOT}.{folder}.{world}"
            assert name in MODULES, f"{folder} lacks {world}.py"
            bad = {d for d in reach(name) if top(d) in IMPURE}
            assert not bad, f"{name} reaches {sorted(bad)}"


def test_roster__and_everything_below_it_reach_no_layer_above_it():
    """What a family adds to a presenting layer (the board's `Board`) is declared below
    the roster, so the roster, the families, runtime and core import nothing upwards."""
    below = [f"{ROOT}.families", *in_folder("core"), *in_folder("runtime")]
    below += [m for f in WORLDS for m in in_folder(f.name)]
    for name in below:
        bad = {
            d
            for d in reach(name)
            for layer in LAYERS_ABOVE_ROSTER
            if d == f"{ROOT}.{layer}" or d.startswith(f"{ROOT}.{layer}.")
        }
        assert not bad, f"{name} reaches {sorted(bad)}"


# a family's modules that may import Inspect: its tools, its task, and where it has them, the
# solver that hands the model Inspect's own tools and its Inspect sandbox environment
INSPECT_GLUE = ("tools", "task", "inspect_tools", "sandbox.environment", "sandbox.remote")


def test_inspect__only_runtime_and_family_glue_import_it():
    allowed = {f"{ROOT}._registry"}
    for folder, _ in worlds():
        allowed |= {f"{ROOT}.{folder}.{glue}" for glue in INSPECT_GLUE}
    for name in MODULES:
        if any(top(d) == "inspect_ai" for d in imports(name)):
            assert name.startswith(f"{ROOT}.runtime") or name in allowed, (
                f"{name} imports inspect_ai"
            )


def _private(module: str) -> bool:
    """`inspect_ai._util...` and `inspect_ai.util._sandbox...` alike: any private part."""
    return any(part.startswith("_") for part in module.split(".")[1:])


def test_private_inspect__only_in_the_compat_module():
    for name in MODULES:
        private = {d for d in imports(name) if top(d) == "inspect_ai" and _private(d)}
        assert not private or name == COMPAT, f"{name} imports {private}"
    for path in (PACKAGE.parent / "tests").rglob("*.py"):
        tree = ast.parse(path.read_text())
        found = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
        found |= {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        private = {m for m in found if top(m) == "inspect_ai" and _private(m)}
        assert not private, f"{path} imports {private}"


def test_families__never_import_each_other():
    """A world imports no other world, except that a world of a family beside its first
    (one that names its scenario) may share the first's concept modules."""
    for spec in WORLDS:
        shares = {
            o.name
            for o in WORLDS
            if spec.meta.scenario is not None and o.family == spec.family and not o.meta.scenario
        }
        for name in in_folder(spec.name):
            bad = {
                d
                for d in imports(name)
                for o in WORLDS
                if o.name not in shares | {spec.name}
                and (d == f"{ROOT}.{o.name}" or d.startswith(f"{ROOT}.{o.name}."))
            }
            assert not bad, f"{name} imports {bad}"


def test_families__share_one_module_vocabulary():
    for folder, vocabulary in worlds():
        present = {
            m.rsplit(".", 1)[-1] for m in in_folder(folder) if m.count(".") == folder.count(".") + 2
        }  # a module or a subpackage
        missing = [v for v in vocabulary if v not in present]
        assert not missing, f"{folder} lacks {missing}"
        readme = PACKAGE.joinpath(*folder.split("."), "README.md")
        assert readme.is_file(), f"{folder} has no README.md"


def test_families__subpackages_are_named_for_what_they_hold():
    for folder, _ in worlds():
        root = PACKAGE.joinpath(*folder.split("."))
        subs = {p.parent.name for p in root.glob("*/__init__.py")}
        odd = subs - set(SUBPACKAGES)
        assert not odd, f"{folder} has subpackages {sorted(odd)}; name them {SUBPACKAGES}"


def function_lengths(source: str) -> dict[str, int]:
    """Every function's length in lines (def line to last line), by qualified name: module
    functions and methods (of classes at any depth); a function nested in a function counts
    within its parent, as does a class defined in one."""
    lengths: dict[str, int] = {}

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                lengths[prefix + child.name] = int(child.end_lineno or 0) - child.lineno + 1
            elif isinstance(child, ast.ClassDef):
                visit(child, f"{prefix}{child.name}.")
            else:
                visit(child, prefix)

    visit(ast.parse(source), "")
    return lengths


def only_re_exports(source: str) -> bool:
    """A module whose body is imports (and `__all__`) only: another module's names again."""
    body = [
        n
        for n in ast.parse(source).body
        if not (isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant))
        and not (isinstance(n, ast.ImportFrom) and n.module == "__future__")
    ]
    imports = [n for n in body if isinstance(n, ast.Import | ast.ImportFrom)]
    rest = [
        n
        for n in body
        if n not in imports
        and not (
            isinstance(n, ast.Assign) and [getattr(t, "id", "") for t in n.targets] == ["__all__"]
        )
    ]
    return bool(imports) and not rest


def test_modules__none_is_over_400_lines_anywhere_in_the_package():
    over = {
        name: n
        for name, path in MODULES.items()
        if (n := len(path.read_text().splitlines())) > MAX_MODULE_LINES
    }
    assert not over, f"modules over {MAX_MODULE_LINES} lines: {over}"


def test_functions__none_is_over_60_lines_anywhere_in_the_package():
    over = {
        f"{name}.{fn}": n
        for name, path in MODULES.items()
        for fn, n in function_lengths(path.read_text()).items()
        if n > MAX_FUNCTION_LINES
    }
    assert not over, f"functions over {MAX_FUNCTION_LINES} lines: {over}"


def test_modules__none_only_re_exports_another():
    bare = sorted(name for name, path in MODULES.items() if only_re_exports(path.read_text()))
    assert not bare, f"modules that only re-export another: {bare}"


def test_limits__the_measures_see_what_they_must():
    """The limits above would pass vacuously if the measures saw nothing: prove they see."""
    source = (
        "class A:\n    def m(self):\n        def inner():\n            pass\n"
        "        return 1\n\n\nasync def f():\n    class B:\n        x = 1\n"
        "    return B\n"
    )
    assert function_lengths(source) == {"A.m": 4, "f": 4}
    assert only_re_exports('"""Doc."""\nfrom x import y\n__all__ = ["y"]\n')
    assert not only_re_exports('"""Doc."""\n') and not only_re_exports("import x\nz = x.y\n")
    longest = max(n for p in MODULES.values() for n in function_lengths(p.read_text()).values())
    assert 30 < longest <= MAX_FUNCTION_LINES


def test_roster__is_every_family_folder():
    folders = {p.parent.name for p in PACKAGE.glob("*/__init__.py")} - {
        "core",
        "runtime",
        "cassettes",
        "serve",
        "leaderboard",
        "cli",
    }
    assert folders == {f.name for f in WORLDS}


def test_architecture__the_walker_sees_what_it_must():
    """The checks above would pass vacuously if the walker saw nothing: prove it sees."""
    assert f"{ROOT}.core.world" in reach(f"{ROOT}.core.trace")
    assert "inspect_ai" in {top(d) for d in reach(f"{ROOT}.runtime.scorer")}
    assert f"{ROOT}.families" in reach(f"{ROOT}.cli.main")
