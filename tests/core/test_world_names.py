"""One name for the world (issue 43): a `World` value is `world` everywhere in the package,
its tests and benchmarks, never `spec`, `fam` or `Family` (nor `family`, which names a
world's family: a string). Code identifiers are read with `tokenize` and `ast`, so prose in
docstrings and comments ("the spec's briefing", a seed's specification) is not flagged."""

from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path

import checkout_consent

REPO = Path(checkout_consent.__file__).parent.parent
# an identifier that names a World otherwise than `world` (a world's task file is
# `task_file`, its templates `templates`: spelled for what they are, never `spec`)
ALIAS = re.compile(r"^(spec|specs|fam|Family|spec_of|load_spec)$|^spec_")


def sources() -> list[Path]:
    return sorted(
        p
        for folder in ("checkout_consent", "tests", "benchmarks")
        for p in (REPO / folder).rglob("*.py")
    )


def _names_a_world(annotation: ast.expr | None) -> bool:
    """`World` or `World | None`: an annotation of one World value (not a list of them)."""
    if annotation is None:
        return False
    text = ast.unparse(annotation).replace(" ", "")
    return text in ("World", "World|None", "core.World", "Optional[World]")


def alias_problems(source: str, where: str) -> list[str]:
    """`file:line: why` for each identifier in `source` naming a World otherwise than
    `world`: a `spec`/`fam`/`Family` token, a parameter or annotated name of type `World`
    called something else, an import of `World` under another name."""
    problems = []
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type == tokenize.NAME and ALIAS.search(tok.string):
            problems.append(f"{where}:{tok.start[0]}: identifier {tok.string!r}")
    tree = ast.parse(source)
    if any(isinstance(n, ast.ClassDef) and n.name == "World" for n in ast.walk(tree)):
        return problems  # a `World` of its own (benchmarks/prefix.py's tally), not ours
    for node in ast.walk(tree):
        if isinstance(node, ast.arg) and _names_a_world(node.annotation) and node.arg != "world":
            problems.append(f"{where}:{node.lineno}: World parameter {node.arg!r}")
        elif isinstance(node, ast.AnnAssign) and _names_a_world(node.annotation):
            name = ast.unparse(node.target).rpartition(".")[2]
            if name not in ("world", "WORLD"):  # WORLD: a world folder's own
                problems.append(f"{where}:{node.lineno}: World named {name!r}")
        elif isinstance(node, ast.ImportFrom):
            for alias in node.names:
                if alias.name == "World" and alias.asname not in (None, "World"):
                    problems.append(f"{where}:{node.lineno}: World imported as {alias.asname!r}")
    return problems


def test_world__has_one_name_in_the_package_its_tests_and_benchmarks():
    problems = [
        line
        for path in sources()
        for line in alias_problems(path.read_text(), str(path.relative_to(REPO)))
    ]
    assert not problems, "a World named otherwise than `world`:\n" + "\n".join(problems)


def test_world__the_name_check_fails_on_each_alias():
    """Each rule above can fail: a synthetic module with one alias of each kind."""
    source = (
        "from checkout_consent.core import World as Family\n"
        "def f(spec, fam: World, other: World | None) -> None:\n"
        "    chosen: World = fam\n"
        "    return spec_of(chosen)\n"
    )
    found = alias_problems(source, "m.py")
    assert sorted(found) == sorted(
        [
            "m.py:1: identifier 'Family'",
            "m.py:2: identifier 'spec'",
            "m.py:2: identifier 'fam'",
            "m.py:3: identifier 'fam'",
            "m.py:4: identifier 'spec_of'",
            "m.py:1: World imported as 'Family'",
            "m.py:2: World parameter 'fam'",
            "m.py:2: World parameter 'other'",
            "m.py:3: World named 'chosen'",
        ]
    )
    clean = 'def f(world: World, worlds: list[World]) -> str:\n    """the spec\'s text"""\n'
    assert alias_problems(clean + "    return world.name  # a spec\n", "m.py") == []
    assert alias_problems("WORLD: World = World()\n", "m.py") == []


def test_scenario__a_reference_written_before_the_rename_still_loads():
    """`Scenario.world` was `family` until issue 43: logs on disk carry that key and load
    to the same reference; new ones write `world`; a reference carrying both is refused."""
    from pydantic import ValidationError

    from checkout_consent.core.scenario import Scenario

    old = Scenario.model_validate({"family": "pizza", "scenario_id": "a-1", "seed": 1})
    assert old == Scenario(world="pizza", scenario_id="a-1", seed=1)
    assert old.model_dump()["world"] == "pizza" and "family" not in old.model_dump()
    both = {"family": "pizza", "world": "grocery", "scenario_id": "a-1", "seed": 1}
    try:
        Scenario.model_validate(both)
    except ValidationError:
        pass
    else:
        raise AssertionError("a reference naming its world twice loaded")
