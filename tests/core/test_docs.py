"""The docs stay true: every path the README's where-to-change table names exists, for every
family the roster lists; and no doc points outside the repository."""

from __future__ import annotations

import re

from checkout_consent.families import FAMILIES
from checkout_consent.runtime.provenance import REPO_ROOT

README = (REPO_ROOT / "README.md").read_text()


def where_to_change_paths() -> list[str]:
    section = README.split("## Where to change a thing", 1)[1].split("\n## ", 1)[0]
    rows = [r for r in section.splitlines() if r.startswith("| ") and "`" in r]
    return [p for r in rows for p in re.findall(r"`([^`]+)`", r.split("|")[2]) if "/" in p]


def test_readme__where_to_change_table_names_only_paths_that_exist():
    paths = where_to_change_paths()
    assert len(paths) >= 10, paths
    for path in paths:
        for spec in FAMILIES:
            concrete = REPO_ROOT / path.replace("<family>", spec.name)
            assert concrete.exists() or concrete.with_suffix(".py").exists(), \
                f"README names {path}, but {concrete} does not exist"  # a module or a package


def test_docs__never_point_outside_the_repository():
    for doc in [REPO_ROOT / "README.md", REPO_ROOT / "CONTRIBUTING.md",
                *REPO_ROOT.glob("checkout_consent/*/README.md")]:
        outside = "../" + "shared"  # the planning folder beside a checkout, absent in a clone
        assert outside not in doc.read_text(), f"{doc} links outside the repository"
