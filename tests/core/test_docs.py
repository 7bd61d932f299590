"""The docs stay true and the README stays the newcomer's page: every path the
where-to-change table names exists, for every family the roster lists; CONTRIBUTING stays a
guide of at most 300 lines whose layout names every folder and shared module of the tree;
the README opens with the two commands, stays short, says no sentence twice and sends
measurement detail to benchmarks/README.md, whose commands name scripts that exist; no doc
points outside the repository, every relative link resolves, and every section a doc or the
code names in CONTRIBUTING is there."""

from __future__ import annotations

import re
from pathlib import Path

from checkout_consent.families import WORLDS
from checkout_consent.runtime.provenance import REPO_ROOT

README = (REPO_ROOT / "README.md").read_text()
CONTRIBUTING = (REPO_ROOT / "CONTRIBUTING.md").read_text()
BENCHMARKS = (REPO_ROOT / "benchmarks" / "README.md").read_text()
README_MAX_LINES = 250
CONTRIBUTING_MAX_LINES = 300
DOCS = sorted((REPO_ROOT / "docs").glob("*.md"))
# every Markdown page a reader meets (the generated board and submission notes aside)
PAGES = [
    REPO_ROOT / "README.md",
    REPO_ROOT / "CONTRIBUTING.md",
    REPO_ROOT / "SECURITY.md",
    REPO_ROOT / "benchmarks" / "README.md",
    REPO_ROOT / "cassettes" / "README.md",
    *sorted(REPO_ROOT.glob("checkout_consent/*/README.md")),
    *DOCS,
]


def section(text: str, heading: str) -> str:
    """A `## heading` section's text, up to the next `## ` heading."""
    return text.split(f"\n## {heading}\n", 1)[1].split("\n## ", 1)[0]


def where_to_change_paths() -> list[str]:
    section_text = section(CONTRIBUTING, "Where to change a thing")
    rows = [r for r in section_text.splitlines() if r.startswith("| ") and "`" in r]
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
        found = 0
        for world in WORLDS:  # a world's folder is its name (`<world>`, or `<family>`)
            concrete = REPO_ROOT / path.replace("<family>", world.name).replace(
                "<world>", world.name
            )
            there = concrete.exists() or concrete.with_suffix(".py").exists()  # module, package
            found += there
            if not path.startswith("tasks/"):  # a world whose tasks are its code reads no data
                assert there, f"CONTRIBUTING names {path}, but {concrete} does not exist"
        assert found, f"CONTRIBUTING names {path}, which no world has"


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
        f"README.md has {len(README.splitlines())} lines: move detail to docs/, "
        "CONTRIBUTING.md or benchmarks/README.md"
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
    pages = [REPO_ROOT / "README.md", REPO_ROOT / "CONTRIBUTING.md", *DOCS]
    assert len(pages) >= 9, pages
    for page in pages:
        name, text = page.relative_to(REPO_ROOT).as_posix(), page.read_text()
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
    for doc in PAGES:
        outside = "../" + "shared"  # the planning folder beside a checkout, absent in a clone
        assert outside not in doc.read_text(), f"{doc} links outside the repository"


def links(text: str) -> list[str]:
    """The relative targets of a page's Markdown links, anchors dropped."""
    found = re.findall(r"\]\(([^)\s#]+)(?:#[^)]*)?\)", text)
    return [t for t in found if not re.match(r"[a-z]+:", t)]


def test_docs__every_relative_link_resolves_inside_the_repository():
    checked = 0
    for page in PAGES:
        for target in links(page.read_text()):
            resolved = (page.parent / target).resolve()
            assert resolved.exists(), f"{page.relative_to(REPO_ROOT)} links to {target}"
            assert resolved.is_relative_to(REPO_ROOT.resolve()), (page, target)
            checked += 1
    assert checked >= 30, checked


def test_docs__link_check_catches_a_broken_link():
    assert links("see [x](docs/x.md#y) and [w](https://example.com)") == ["docs/x.md"]


def test_contributing__is_a_guide_of_at_most_300_lines_with_its_sections():
    lines = CONTRIBUTING.splitlines()
    assert len(lines) <= CONTRIBUTING_MAX_LINES, (
        f"CONTRIBUTING.md has {len(lines)} lines: design records and manuals go in docs/"
    )
    headings = [line for line in lines if line.startswith("## ")]
    assert headings == [
        "## Set up and test",
        "## Layout",
        "## Where to change a thing",
        "## Adding a family",
        "## Conventions",
    ], headings
    for rule in ("Layers", "Money in integer cents", "Determinism", "Hostile inputs", "Versions"):
        assert f"\n### {rule}\n" in section(CONTRIBUTING, "Conventions"), rule
    assert "### Module cap: 400 lines" in CONTRIBUTING
    for doc in DOCS:  # CONTRIBUTING is the index of docs/
        assert f"](docs/{doc.name})" in CONTRIBUTING, doc.name


def test_contributing__layout_names_every_folder_and_every_shared_module():
    """Every folder of the package (a world's by its path or as `<world>/...`, or
    `<family>/...`) and every module of the layers below and above the worlds is named in
    the Layout section."""
    from checkout_consent.families import WORLDS

    layout = section(CONTRIBUTING, "Layout")
    package = REPO_ROOT / "checkout_consent"
    families = {w.name for w in WORLDS}  # each world's folder is its name
    folders = [p for p in package.rglob("*") if p.is_dir() and p.name != "__pycache__"]
    assert len(folders) >= 20, folders
    for folder in folders:
        rel = folder.relative_to(package).as_posix()
        first, _, rest = rel.partition("/")
        generic = [f"{rel}/"]
        if first in families:
            generic = [f"{p}/{rest}/" if rest else f"{p}/" for p in ("<world>", "<family>")]
        assert f"{rel}/" in layout or any(g in layout for g in generic), (
            f"Layout misses checkout_consent/{rel}/"
        )
    shared = [p for p in package.rglob("*.py") if p.relative_to(package).parts[0] not in families]
    for module in shared:
        if module.stem in ("__init__", "__main__"):
            continue
        name = module.stem.lstrip("_")
        assert re.search(rf"\b_?{name}\b", layout), f"Layout misses {module.relative_to(package)}"


def sections_named(text: str) -> list[str]:
    """The CONTRIBUTING sections a text names: `CONTRIBUTING, "Section"` (or `.md`, either
    quote), and `CONTRIBUTING.md#anchor` as `#anchor`."""
    flat = " ".join(text.split())
    named = re.findall(r"CONTRIBUTING(?:\.md)?(?:\]\([^)]*\))?,? [\"']([^\"']+)[\"']", flat)
    return named + [f"#{a}" for a in re.findall(r"CONTRIBUTING\.md#([\w-]+)", flat)]


def slug(heading: str) -> str:
    """GitHub's anchor for a heading."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def missing_sections(text: str) -> list[str]:
    headings = [ln.lstrip("#").strip() for ln in CONTRIBUTING.splitlines() if ln.startswith("#")]
    anchors = {slug(h) for h in headings}
    return [n for n in sections_named(text) if n.removeprefix("#") not in (*headings, *anchors)]


def test_docs__every_contributing_section_named_elsewhere_exists():
    """Pages, modules (help texts, docstrings) and tests name CONTRIBUTING's sections only
    as they are."""
    files = [*PAGES, *REPO_ROOT.glob("checkout_consent/**/*.py"), *REPO_ROOT.glob("tests/**/*.py")]
    named = 0
    for path in files:
        if path.resolve() == Path(__file__).resolve():
            continue  # this file's examples
        text = path.read_text(encoding="utf-8")
        named += len(sections_named(text))
        assert not missing_sections(text), (path.relative_to(REPO_ROOT), missing_sections(text))
    assert named >= 2, named


def test_docs__a_reference_to_a_moved_section_is_caught():
    text = 'see CONTRIBUTING, "Consent as mandates" and CONTRIBUTING.md#the-whole-suite'
    assert missing_sections(text) == ["Consent as mandates", "#the-whole-suite"]
    linked = '[CONTRIBUTING.md](../CONTRIBUTING.md), "The house rules"'
    assert missing_sections(linked) == ["The house rules"]
    ok = 'CONTRIBUTING.md, "Adding a family"; CONTRIBUTING.md#the-family-vocabulary'
    assert missing_sections(ok) == []


def test_family_readmes__each_world_says_what_a_consent_breach_is():
    """Every world's README section "What a consent breach is ..." with its table (event,
    mandate, constraint, whose), a world that moves no money included."""
    from checkout_consent.families import WORLDS

    for world in WORLDS:  # each world its own README, a family's second world included
        text = (REPO_ROOT / "checkout_consent" / world.name / "README.md").read_text()
        found = re.findall(r"^#{2,3} What a consent breach is here$", text, flags=re.M)
        assert len(found) == 1, (world.name, found)
        at = text.find(found[0])
        assert "| event | mandate | constraint | whose |" in text[at : at + 3000], world.name
