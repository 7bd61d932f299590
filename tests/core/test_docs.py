"""The docs stay true and the README stays the newcomer's page: every path the
where-to-change table names exists, for every family the roster lists; the README opens
with the two commands, stays short, says no sentence twice and sends measurement detail to
benchmarks/README.md, whose commands name scripts that exist; no doc points outside the
repository."""

from __future__ import annotations

import re

from checkout_consent.families import WORLDS
from checkout_consent.runtime.provenance import REPO_ROOT

README = (REPO_ROOT / "README.md").read_text()
CONTRIBUTING = (REPO_ROOT / "CONTRIBUTING.md").read_text()
BENCHMARKS = (REPO_ROOT / "benchmarks" / "README.md").read_text()
README_MAX_LINES = 250


def where_to_change_paths() -> list[str]:
    section = CONTRIBUTING.split("## Where to change a thing", 1)[1].split("\n## ", 1)[0]
    rows = [r for r in section.splitlines() if r.startswith("| ") and "`" in r]
    return [p for r in rows for p in re.findall(r"`([^`]+)`", r.split("|")[2]) if "/" in p]


def paragraphs(text: str) -> list[str]:
    """Prose paragraphs (code blocks and tables left out), whitespace-normalised."""
    prose = re.sub(r"```.*?```", "", text, flags=re.S)
    out = []
    for block in prose.split("\n\n"):
        lines = [ln for ln in block.strip().splitlines() if not ln.startswith(("|", "#", "<!--"))]
        if lines:
            out.append(" ".join(" ".join(lines).split()))
    return out


def test_contributing__where_to_change_table_names_only_paths_that_exist():
    paths = where_to_change_paths()
    assert len(paths) >= 10, paths
    for path in paths:
        for spec in WORLDS:  # a world's folder is its name (`<world>`, or `<family>`)
            concrete = REPO_ROOT / path.replace("<family>", spec.name).replace("<world>", spec.name)
            assert concrete.exists() or concrete.with_suffix(".py").exists(), (
                f"CONTRIBUTING names {path}, but {concrete} does not exist"
            )  # module or package


def test_readme__opens_with_the_two_commands():
    assert README.splitlines()[:6] == [
        "# checkout-consent",
        "",
        "```bash",
        'pip install -e ".[dev]" && checkout-consent run',
        'pip install -e ".[dev]" && pytest',
        "```",
    ]


def test_readme__stays_a_newcomers_page():
    assert len(README.splitlines()) <= README_MAX_LINES, (
        f"README.md has {len(README.splitlines())} lines: move detail to CONTRIBUTING.md "
        "or benchmarks/README.md"
    )
    for heading in (
        "## What it measures",
        "## Results",
        "## Running a real model",
        "## Where to go next",
    ):
        assert f"\n{heading}\n" in README, heading
    assert "benchmarks/README.md" in README and "## Performance" not in README


def sentences(text: str) -> list[str]:
    """The prose's sentences and clauses of over 40 characters."""
    return [s for p in paragraphs(text) for s in re.split(r"(?<=[.;:])\s+", p) if len(s) > 40]


def test_docs__say_no_sentence_twice():
    for name, text in (("README.md", README), ("CONTRIBUTING.md", CONTRIBUTING)):
        seen: dict[str, int] = {}
        for sentence in sentences(text):
            seen[sentence] = seen.get(sentence, 0) + 1
        assert not [s for s, n in seen.items() if n > 1], f"{name} says a sentence twice"


def test_docs__sentence_check_catches_a_stray_copy_after_a_code_block():
    stray = (
        "```\nfails within seconds. The test suite replays every cassette (`pytest -m cassette`).\n"
    )
    doubled = README + "\n```bash\nx\n" + stray
    repeated = [s for s in set(sentences(doubled)) if sentences(doubled).count(s) > 1]
    assert repeated == ["The test suite replays every cassette (`pytest -m cassette`)."]


def test_benchmarks_readme__names_only_scripts_that_exist():
    scripts = set(re.findall(r"python (benchmarks/[a-z_0-9]+\.py)", BENCHMARKS))
    assert len(scripts) >= 10, scripts
    for script in scripts:
        assert (REPO_ROOT / script).is_file(), f"benchmarks/README.md names {script}"
    ours = {p.name for p in (REPO_ROOT / "benchmarks").glob("*.py")}
    named = {s.split("/")[1] for s in scripts} | set(re.findall(r"`([a-z_]+\.py)`", BENCHMARKS))
    assert ours <= named, f"benchmarks/README.md does not mention {sorted(ours - named)}"


def test_docs__never_point_outside_the_repository():
    for doc in [
        REPO_ROOT / "README.md",
        REPO_ROOT / "CONTRIBUTING.md",
        REPO_ROOT / "benchmarks" / "README.md",
        *REPO_ROOT.glob("checkout_consent/*/README.md"),
    ]:
        outside = "../" + "shared"  # the planning folder beside a checkout, absent in a clone
        assert outside not in doc.read_text(), f"{doc} links outside the repository"


def test_family_readmes__each_world_says_what_a_consent_breach_is():
    """Every world's README section "What a consent breach is ..." with its table (event,
    mandate, constraint, whose), a world that moves no money included."""
    from checkout_consent.families import WORLDS

    for spec in WORLDS:  # each world its own README, a family's second world included
        text = (REPO_ROOT / "checkout_consent" / spec.name / "README.md").read_text()
        found = re.findall(r"^#{2,3} What a consent breach is here$", text, flags=re.M)
        assert len(found) == 1, (spec.name, found)
        at = text.find(found[0])
        assert "| event | mandate | constraint | whose |" in text[at : at + 3000], spec.name
