"""The committed board: current (`leaderboard build --check`, what CI runs), deterministic,
plain HTML with local plots only, and rendered by a real headless browser where one exists."""

import dataclasses
import shutil
from html.parser import HTMLParser
from pathlib import Path

import pytest

from checkout_consent.cli.main import main
from checkout_consent.core.consent import breach_rate, rate_headline
from checkout_consent.families import WORLDS, world_named
from checkout_consent.leaderboard import render, site
from checkout_consent.leaderboard.board import View, board, validated
from checkout_consent.leaderboard.submission import season_tasks
from checkout_consent.runtime.provenance import REPO_ROOT
from tests.conftest import needs_chromium
from tests.leaderboard.helpers import screenshot

BOARD = REPO_ROOT / "leaderboard"


class Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: dict[str, int] = {}
        self.srcs: list[str] = []
        self.links: list[str] = []
        self.tables: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags[tag] = self.tags.get(tag, 0) + 1
        attrs = dict(attrs)
        if tag == "img":
            self.srcs.append(attrs["src"])
        if tag == "a":
            self.links.append(attrs["href"])
        if tag == "table":
            self.tables.append(attrs["id"])


@pytest.fixture(scope="module")
def copy(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("board") / "leaderboard"
    shutil.copytree(BOARD, root)
    return root


def test_leaderboard_build__committed_board_is_current(capsys):
    assert main(["leaderboard", "build", "--check", "--root", str(BOARD)]) == 0


# Two more full builds (every plot drawn twice): the default run's
# test_leaderboard_build__committed_board_is_current holds that a build in this process gives
# the committed bytes (another process's build), and
# test_leaderboard_build__check_names_a_stale_file_and_write_removes_a_leftover holds that
# --check names a stale file and a leftover and a build removes the leftover.
@pytest.mark.slow
def test_leaderboard_build__twice_gives_byte_identical_files_and_check_finds_a_stale_one(
    copy, capsys
):
    """The copy holds the committed build (another process's, current by the test above):
    a stale file is found, and a build here writes the committed bytes again."""
    first = {p.relative_to(copy): p.read_bytes() for p in sorted(copy.rglob("*")) if p.is_file()}
    (copy / "README.md").write_text("edited by hand\n")
    (copy / "site" / "plots" / "old.svg").write_text("<svg/>")
    assert main(["leaderboard", "build", "--check", "--root", str(copy)]) == 1
    err = capsys.readouterr().err
    assert "stale: " in err and "README.md" in err and "old.svg" in err
    site.write(copy)  # the second build: the same bytes, the stale plot gone
    assert first == {
        p.relative_to(copy): p.read_bytes() for p in sorted(copy.rglob("*")) if p.is_file()
    }
    assert not (copy / "site" / "plots" / "old.svg").exists()
    svg = next((copy / "site" / "plots").glob("*.svg")).read_text()
    assert "<dc:date>" not in svg and "Matplotlib v" not in svg


def test_leaderboard_build__check_names_a_stale_file_and_write_removes_a_leftover(
    tmp_path, monkeypatch, capsys
):
    """`build --check` and `build` over a board whose generated files are given (the full
    build is the test above's): an edited file and a leftover plot are named, then mended."""
    want = {"README.md": "the board\n", "site/index.html": "<p>page</p>\n"}
    monkeypatch.setattr(site, "rendered", lambda root, rank_humans=False: dict(want))
    (tmp_path / "submissions").mkdir()  # no folder to validate: none refused
    site.write(tmp_path)
    assert main(["leaderboard", "build", "--check", "--root", str(tmp_path)]) == 0
    assert "is current" in capsys.readouterr().out
    (tmp_path / "README.md").write_text("edited by hand\n")
    (tmp_path / "site" / "plots").mkdir()
    (tmp_path / "site" / "plots" / "old.svg").write_text("<svg/>")
    assert main(["leaderboard", "build", "--check", "--root", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert "stale: " in err and "README.md" in err and "old.svg" in err
    assert "index.html" not in err
    assert main(["leaderboard", "build", "--root", str(tmp_path)]) == 0
    assert not (tmp_path / "site" / "plots" / "old.svg").exists()
    assert {n: (tmp_path / n).read_text() for n in want} == want
    assert main(["leaderboard", "build", "--check", "--root", str(tmp_path)]) == 0


def _sections() -> dict[str, list[list[str]]]:
    """The committed README's tables: section heading -> the cells of each row."""
    out = {}
    for block in (BOARD / "README.md").read_text().split("\n## ")[1:]:
        head, *lines = block.split("\n")
        rows = [ln.strip("| ").split(" | ") for ln in lines if ln.startswith("| ")]
        out[head] = rows
    return out


def _tasks(view: View) -> frozenset[str] | None:
    if not view.title:
        return None
    return season_tasks(view.world, 1 if view.title == "All time" else int(view.title[7:]))


def test_board_consent__each_column_is_the_breach_rate_of_the_regraded_records():
    """Every example submission of a world that moves money: its consent column in the
    committed README is core.consent.breach_rate over its re-graded records (the build
    check above re-grades them first; `validated` keeps them per folder)."""
    sections, seen = _sections(), set()
    for view in (v for v in board(BOARD / "submissions") if world_named(v.world).moves_money):
        name, tasks = world_named(view.world).name, _tasks(view)
        for row in view.rows:
            samples = validated(BOARD / row.entry.path).samples
            runs = [
                (s.id, s.record)
                for s in samples
                if s.record is not None
                and (tasks is None or (s.scenario or {}).get("scenario_id", s.id) in tasks)
            ]
            want, show = breach_rate(name, runs), rate_headline(name).show
            assert want is not None and row.consent == want, row.entry.path
            [line] = [r for r in sections[render.heading(view)] if f"]({row.entry.path}/)" in r[1]]
            at = render.shown(view, render.columns(view)).index(render.CONSENT_HEADING)
            assert line[at] == f"{show(want.value)} ({show(want.low)} to {show(want.high)})"
            seen.add(row.entry.path)
    folders = (BOARD / "submissions").glob("*/*")
    assert seen == {
        f"submissions/{p.parent.name}/{p.name}"
        for p in folders
        if world_named(p.parent.name).moves_money
    }


def test_board_consent__the_suite_table_lists_every_money_moving_world_and_model():
    views = board(BOARD / "submissions")
    money = sorted(w.name for w in WORLDS if w.moves_money)
    section = _sections()[render.SUITE_HEADING]
    meaning, (head, *rows) = section[: len(money) + 1], section[len(money) + 1 :]
    assert meaning[0][:3] == ["world", "the agent's breach", "a counterparty's breach"]
    assert [r[0] for r in meaning[1:]] == money
    assert head == [
        "model",
        *(
            w if world_named(w).breaches.measured == "agent" else f"{w} (counterparty)"
            for w in money
        ),
    ]
    # every rate stands beside its row's headline: an idle model's 0% never alone
    assert all(" · " in c for r in rows for c in r[1:] if c != "—")
    models = {  # one row a model: a partial run is its model's row, its cell says so
        render.model_label(dataclasses.replace(r.entry, partial=None))
        for v in views
        if world_named(v.world).moves_money
        for r in v.rows
    }
    assert {r[0] for r in rows} == models
    assert all(len(r) == len(head) for r in rows)
    page = (BOARD / "site" / "index.html").read_text()
    assert '<table id="consent">' in page and '<table id="consent-meaning">' in page


def test_site__plain_html_with_a_table_per_family_and_local_plots():
    page = Page()
    page.feed((BOARD / "site" / "index.html").read_text())
    assert page.tags.get("script", 0) == 0
    assert {"pizza", "shopkit", "storefront"} <= set(page.tables)
    assert page.srcs and all((BOARD / "site" / s).is_file() for s in page.srcs)
    assert "plots/storefront-breakdown.svg" in page.srcs
    assert not [u for u in page.srcs + page.links if "://" in u]
    for link in (u for u in page.links if u.startswith("../")):
        assert (BOARD / "site" / link).resolve().is_dir(), link


@needs_chromium
def test_site__renders_in_a_headless_browser(tmp_path):
    shot = tmp_path / "board.png"
    screenshot((BOARD / "site" / "index.html").as_uri(), shot, 1200, 2400)
    from PIL import Image

    image = Image.open(shot).convert("L")
    assert image.size == (1200, 2400)
    dark = sum(1 for v in image.getdata() if v < 128)
    assert dark > 0.005 * 1200 * 2400  # text and plots drawn, not a blank page


def test_workflow__runs_the_commands_the_tests_run():
    text = (REPO_ROOT / ".github" / "workflows" / "leaderboard.yml").read_text()
    assert "checkout-consent submit validate $dirs" in text
    assert "checkout-consent leaderboard build --check" in text
    assert "leaderboard/submissions/" in text
