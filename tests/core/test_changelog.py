"""Each world's README keeps its changelog as inspect_evals writes one: a `## Changelog`
section whose headings `### [N-X] - YYYY-MM-DD` run from the `version` in its `eval.yaml`
down to 1, newest first, each over the entry naming that version as its records do, and
dated from `git log`: a bump made in `eval.yaml` on the day of its commit (today while
uncommitted); a version older than `eval.yaml` no later than the commit that wrote it
there. The scratch world's template (tests/scratch/coinjar/) is held the same way."""

from __future__ import annotations

import datetime
import re
import subprocess
from pathlib import Path

import pytest
import yaml

from checkout_consent.core.contract import Meta
from checkout_consent.families import WORLDS
from checkout_consent.runtime.provenance import REPO_ROOT

FOLDERS = [REPO_ROOT / "checkout_consent" / w.name for w in WORLDS]
FOLDERS.append(REPO_ROOT / "tests" / "scratch" / "coinjar")
HEADING = re.compile(r"^### \[(\d+)-([A-Z])\] - (\d{4}-\d{2}-\d{2})$", re.M)


def changelog(readme: str) -> str:
    assert "\n## Changelog\n" in readme, "the README has no `## Changelog` section"
    return readme.split("\n## Changelog\n", 1)[1].split("\n## ", 1)[0]


def _git(*argv: str) -> str:
    done = subprocess.run(["git", *argv], cwd=REPO_ROOT, capture_output=True, text=True, timeout=60)
    return done.stdout if done.returncode == 0 else ""


def _version_line(text: str) -> str | None:
    return next((ln for ln in text.splitlines() if ln.startswith("version:")), None)


def bump_date(eval_yaml: Path) -> tuple[str, bool]:
    """(date, exact): the day `eval.yaml`'s version line last changed, and whether that
    change was a bump (False: the commit that first wrote the line, for an older version)."""
    rel = eval_yaml.relative_to(REPO_ROOT).as_posix()
    today = datetime.date.today().isoformat()  # as git dates a commit made now
    if _version_line(_git("show", f"HEAD:{rel}")) != _version_line(eval_yaml.read_text()):
        return today, True  # bumped (or added) and not yet committed
    log = _git("log", "-1", "--format=%H %ad", "--date=short", "-G^version:", "--", rel)
    commit, date = log.split()
    return date, _version_line(_git("show", f"{commit}^:{rel}")) is not None


@pytest.mark.parametrize("folder", FOLDERS, ids=[f.name for f in FOLDERS])
def test_changelog__dated_headings_run_from_the_eval_yaml_version_down(folder) -> None:
    meta = Meta.model_validate(yaml.safe_load((folder / "eval.yaml").read_text()))
    section = changelog((folder / "README.md").read_text(encoding="utf-8"))
    heads = HEADING.findall(section)
    assert heads, f"{folder.name}: no `### [N-X] - YYYY-MM-DD` heading in its changelog"
    assert f"{heads[0][0]}-{heads[0][1]}" == meta.version, "the newest heading is not eval.yaml's"
    assert [int(n) for n, _, _ in heads] == list(range(meta.number, 0, -1))
    dates = [d for _, _, d in heads]
    assert dates == sorted(dates, reverse=True), "headings are not newest first"
    entries = HEADING.split(section)[4::4]  # each heading's text
    for (n, _, _), entry in zip(heads, entries, strict=True):
        stamp = "-".join(x for x in (meta.family, meta.scenario, n) if x)
        assert f"- `{stamp}`: " in entry, f"{folder.name} [{n}]: no entry naming `{stamp}`"


@pytest.mark.parametrize("folder", FOLDERS, ids=[f.name for f in FOLDERS])
def test_changelog__the_newest_heading_is_dated_by_git_log_of_the_bump(folder) -> None:
    date, exact = bump_date(folder / "eval.yaml")
    newest = HEADING.findall(changelog((folder / "README.md").read_text(encoding="utf-8")))[0]
    if exact:
        assert newest[2] == date, f"{folder.name}: its version was bumped on {date}"
    else:
        assert newest[2] <= date, f"{folder.name}: its version was in eval.yaml by {date}"


def test_changelog__a_heading_out_of_order_or_undated_is_refused() -> None:
    good = "\n## Changelog\n\n### [2-A] - 2026-12-04\n\n- `w-2`: b\n\n### [1-A] - 2026-11-29\n"
    assert [h[0] for h in HEADING.findall(changelog(good))] == ["2", "1"]
    assert not HEADING.findall("### [2-A] 2026-12-04\n### [2] - 2026-12-04\n## [2-A] - x\n")
    with pytest.raises(AssertionError):
        changelog("Changelog:\n\n- `w-1`: the first version.\n")
