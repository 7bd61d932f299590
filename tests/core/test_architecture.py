"""The architecture the house plan draws, held by a test, by folder and transitively: the
floors in their written order, worlds importing core through its face,
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
LAYERS_ABOVE_CORE = (
    "runtime",
    "endpoint",
    "cassettes",
    "serve",
    "leaderboard",
    "cli",
    "families",
    "_registry",
)
# the layers that may use the roster (families.py): nothing at or below the roster reaches them
LAYERS_ABOVE_ROSTER = ("endpoint", "cassettes", "serve", "leaderboard", "cli", "_registry")
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


def imports_in(source: str) -> frozenset[str]:
    """Every module `source` imports, anywhere in it (functions included): `import` and
    `from` statements, and a literal `importlib.import_module("checkout_consent....")`."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(
                f"{node.module}.{a.name}"
                for a in node.names
                if f"{node.module}.{a.name}" in MODULES
            )
        elif (
            isinstance(node, ast.Call)
            and (getattr(node.func, "attr", None) or getattr(node.func, "id", None))
            == "import_module"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            found.add(node.args[0].value)
    return frozenset(found)


@functools.cache
def imports(name: str) -> frozenset[str]:
    """Every module `name` imports, anywhere in the file (functions included)."""
    return imports_in(MODULES[name].read_text())


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
    for world in WORLDS:
        shares = {
            o.name
            for o in WORLDS
            if world.meta.scenario is not None and o.family == world.family and not o.meta.scenario
        }
        for name in in_folder(world.name):
            bad = {
                d
                for d in imports(name)
                for o in WORLDS
                if o.name not in shares | {world.name}
                and (d == f"{ROOT}.{o.name}" or d.startswith(f"{ROOT}.{o.name}."))
            }
            assert not bad, f"{name} imports {bad}"


# The floors, lowest first (CONTRIBUTING, "Layers"): a module imports only from its own floor
# or below. The worlds share a floor (and import no other world: the test below); the roster
# is above them (it loads each world), the surfaces above it in their written order, serve
# below cli; `_registry` (Inspect's entry point) is at the top with cli.
FLOORS: dict[str, int] = {
    "core": 0,
    "runtime": 1,
    "<world>": 2,
    "families": 3,
    "endpoint": 4,
    "cassettes": 5,
    "leaderboard": 6,
    "serve": 7,
    "cli": 8,
    "_registry": 8,
}
SURFACES = ("endpoint", "cassettes", "leaderboard", "serve", "cli")
WORLD_NAMES = frozenset(f.name for f in WORLDS)


def floor_of(module: str) -> int | None:
    """The floor of one of our modules (None for a module not ours, or the package root)."""
    parts = module.split(".")
    if parts[0] != ROOT or len(parts) < 2:
        return None
    part = "<world>" if parts[1] in WORLD_NAMES else parts[1]
    return FLOORS.get(part)


def climbs(name: str, imported: frozenset[str]) -> list[str]:
    """The modules `name` imports from a floor above its own."""
    own = floor_of(name)
    assert own is not None, f"{name} is on no floor: add its folder to FLOORS"
    return sorted(d for d in imported if (f := floor_of(d)) is not None and f > own)


def test_floors__no_module_imports_from_a_floor_above_its_own():
    for name in MODULES:
        if name == ROOT:
            continue
        bad = climbs(name, imports(name))
        assert not bad, f"{name} (floor {floor_of(name)}) imports {bad} from above"


def test_floors__every_folder_of_the_package_is_on_one():
    folders = {p.parent.name for p in PACKAGE.glob("*/__init__.py")}
    folders |= {p.stem for p in PACKAGE.glob("*.py") if p.stem != "__init__"}
    assert all(floor_of(f"{ROOT}.{f}") is not None for f in folders), folders


def test_floors__the_surfaces_stand_in_their_written_order():
    """CONTRIBUTING's order: core < runtime < worlds < endpoint < cassettes < leaderboard <
    serve < cli, each surface strictly above the one before it."""
    order = ["core", "runtime", "<world>", *SURFACES]
    assert [FLOORS[p] for p in order] == sorted({FLOORS[p] for p in order})
    assert len({FLOORS[p] for p in order}) == len(order)
    contributing = (PACKAGE.parent / "CONTRIBUTING.md").read_text()
    assert (
        "core < runtime < worlds < endpoint < cassettes < leaderboard < serve < cli" in contributing
    )


def test_floors__the_check_fails_on_each_climb():
    """A climb is seen at module level, inside a function and as an `importlib` string; a
    world reaching the roster or a surface climbs; the order's own rule fails when broken."""
    world = next(iter(sorted(WORLD_NAMES)))
    source = (
        "from checkout_consent.leaderboard import board\n"
        "def f():\n    from checkout_consent.cli.main import main\n"
        "    import importlib\n    importlib.import_module('checkout_consent.serve.mcp')\n"
        "from checkout_consent.core import World\n"
    )
    assert climbs(f"{ROOT}.endpoint.controls", imports_in(source)) == [
        f"{ROOT}.cli.main",
        f"{ROOT}.leaderboard",
        f"{ROOT}.leaderboard.board",
        f"{ROOT}.serve.mcp",
    ]
    roster = "from checkout_consent.families import WORLDS\nimport checkout_consent.endpoint\n"
    assert climbs(f"{ROOT}.{world}.grader", imports_in(roster)) == [
        f"{ROOT}.endpoint",
        f"{ROOT}.families",
    ]
    assert climbs(f"{ROOT}.runtime.scorer", imports_in(f"import {ROOT}.{world}\n")) == [
        f"{ROOT}.{world}"
    ]
    assert climbs(f"{ROOT}.cli.main", imports_in(source)) == []
    swapped = {**FLOORS, "cassettes": FLOORS["leaderboard"], "leaderboard": FLOORS["cassettes"]}
    order = ["core", "runtime", "<world>", *SURFACES]
    assert [swapped[p] for p in order] != sorted({swapped[p] for p in order})


FACE = f"{ROOT}.core"  # core's public face: what a world imports of core


def past_the_face(imported: frozenset[str]) -> list[str]:
    """The core modules a world module imports other than through `checkout_consent.core`."""
    return sorted(d for d in imported if d.startswith(f"{FACE}."))


def test_worlds__import_core_only_through_its_face():
    for world in WORLDS:
        for name in in_folder(world.name):
            deep = past_the_face(imports(name))
            assert not deep, f"{name} imports {deep}: import them from {FACE}"


def test_face__the_check_sees_deep_imports_anywhere():
    """A deep import is seen at module level, in a function, as a submodule taken from the
    face, and as an `importlib` string; the face itself passes."""
    deep = (
        "from checkout_consent.core.money import fmt\n"
        "def f():\n    from checkout_consent.core.rng import stream\n"
        "    import importlib\n    importlib.import_module('checkout_consent.core.trace')\n"
        "from checkout_consent.core import encoding\n"
    )
    assert past_the_face(imports_in(deep)) == [
        f"{FACE}.encoding",
        f"{FACE}.money",
        f"{FACE}.rng",
        f"{FACE}.trace",
    ]
    assert past_the_face(imports_in("from checkout_consent.core import Frozen, fmt\n")) == []


def test_face__exports_every_name_it_holds_sorted():
    """`__all__` is sorted and names exactly what the face imports (its submodules aside)."""
    import types

    import checkout_consent.core as face

    held = {
        n
        for n, v in vars(face).items()
        if not n.startswith("_") and not isinstance(v, types.ModuleType) and n != "annotations"
    }
    assert face.__all__ == sorted(face.__all__) and set(face.__all__) == held


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
    """Core's face (`checkout_consent.core`) is the one exception: it gathers the contract
    the worlds import (its own rule above), not another module's names under a new one."""
    bare = sorted(
        name for name, path in MODULES.items() if only_re_exports(path.read_text()) and name != FACE
    )
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
        "endpoint",
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
