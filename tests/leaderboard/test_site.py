"""The committed board: current (`leaderboard build --check`, what CI runs), deterministic,
plain HTML with local plots only, and rendered by a real headless browser where one exists."""

import shutil
from html.parser import HTMLParser
from pathlib import Path

import pytest

from checkout_consent.cli.main import main
from checkout_consent.leaderboard import build
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


def test_leaderboard_build__twice_gives_byte_identical_files(copy):
    build.write(copy)
    first = {p: p.read_bytes() for p in sorted(copy.rglob("*")) if p.is_file()}
    build.write(copy)
    assert first == {p: p.read_bytes() for p in sorted(copy.rglob("*")) if p.is_file()}
    svg = next((copy / "site" / "plots").glob("*.svg")).read_text()
    assert "<dc:date>" not in svg and "Matplotlib v" not in svg


def test_leaderboard_build__check_fails_on_a_stale_board(copy, capsys):
    (copy / "README.md").write_text("edited by hand\n")
    (copy / "site" / "plots" / "old.svg").write_text("<svg/>")
    assert main(["leaderboard", "build", "--check", "--root", str(copy)]) == 1
    err = capsys.readouterr().err
    assert "stale: " in err and "README.md" in err and "old.svg" in err
    build.write(copy)
    assert not (copy / "site" / "plots" / "old.svg").exists()


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
