"""Screenshots of `inspect view` for finished logs, to check that every headline value is
shown whole with its unit (issue 34). Not a test: it needs Debian's Chromium.

    python benchmarks/view_screenshots.py OUT_DIR [LOG.eval ...]

With no LOG, every world's committed reference run (its reference control's submission:
leaderboard/submissions/<family>/control-*/logs/run.eval), named by the world's task.
For each log it starts `inspect view` on the log's folder (loopback), opens the log in
headless Chromium through the DevTools protocol, waits until the page shows the log's
results (its `n_tasks`), and writes `OUT_DIR/<world>.png` (the results header) and
`OUT_DIR/<world>-samples.png` (the sample list with its score columns); then it re-scores
the log with `inspect score` in an 80-column terminal and writes what it printed to
`OUT_DIR/<world>-score.txt`. Look at them; do not commit them.
"""

from __future__ import annotations

import asyncio
import base64
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp

CHROMIUM = "/usr/bin/chromium"
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def wait_http(url: str, seconds: float = 60.0) -> Any:
    """GET `url` until it answers (JSON when it is JSON), for at most `seconds`."""
    end = time.monotonic() + seconds
    async with aiohttp.ClientSession() as http:
        while True:
            try:
                async with http.get(url) as got:
                    if got.content_type == "application/json":
                        return await got.json()
                    return await got.text()
            except aiohttp.ClientError:
                if time.monotonic() > end:
                    raise
                await asyncio.sleep(0.5)


class Page:
    """One DevTools page session: send a method, get its result."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws, self.next_id = ws, 0

    async def call(self, method: str, **params: Any) -> dict[str, Any]:
        self.next_id += 1
        await self.ws.send_json({"id": self.next_id, "method": method, "params": params})
        while True:
            msg = await self.ws.receive_json()
            if msg.get("id") == self.next_id:
                return dict(msg.get("result", {}))

    async def text(self) -> str:
        got = await self.call("Runtime.evaluate", expression="document.body.innerText")
        return str(got.get("result", {}).get("value", ""))

    async def shot(self, url: str, wait_for: str, out: Path, seconds: float = 90.0) -> None:
        await self.call("Page.navigate", url=url)
        end = time.monotonic() + seconds
        while wait_for.lower() not in (await self.text()).lower():
            if time.monotonic() > end:
                print(f"{out.name}: page never showed {wait_for!r}; shot anyway")
                break
            await asyncio.sleep(1.0)
        await asyncio.sleep(2.0)  # let the panels lay out
        png = await self.call("Page.captureScreenshot", format="png")
        out.write_bytes(base64.b64decode(png["data"]))
        print(f"wrote {out}")


async def shoot(out_dir: Path, logs: dict[str, Path], width: int = 1400) -> None:
    debug = free_port()
    profile = tempfile.mkdtemp(prefix="view-shots-")
    browser = subprocess.Popen(
        [
            CHROMIUM,
            *FLAGS,
            f"--user-data-dir={profile}",
            f"--remote-debugging-port={debug}",
            f"--window-size={width},1000",
            "about:blank",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        targets = await wait_http(f"http://127.0.0.1:{debug}/json/list")
        page_ws = next(t for t in targets if t["type"] == "page")["webSocketDebuggerUrl"]
        async with aiohttp.ClientSession() as http, http.ws_connect(page_ws, max_msg_size=0) as ws:
            page = Page(ws)
            for name, log in logs.items():
                await shoot_log(page, log, out_dir, name)
    finally:
        browser.terminate()
        browser.wait(timeout=30)
        shutil.rmtree(profile, ignore_errors=True)


REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from checkout_consent.families import WORLDS as ROSTER  # noqa: E402
from checkout_consent.leaderboard.examples import SUBMISSIONS, submission_id  # noqa: E402

# world task -> (its reference control's committed run, the scorer that re-scores it)
WORLDS = {
    world.name: (
        SUBMISSIONS
        / world.name
        / submission_id(world, world.controls.reference)
        / "logs"
        / "run.eval",
        f"{world.name}_scorer",
    )
    for world in ROSTER
}


def score_80(log: Path, scorer: str, out: Path) -> None:
    """`inspect score` of `log` as an 80-column terminal shows it (the card's model needs
    a client, never a call: a placeholder key)."""
    with tempfile.TemporaryDirectory(prefix="view-score-") as tmp:
        got = subprocess.run(
            ["inspect", "score", str(log), "--scorer", f"checkout_consent/{scorer}",
             "--action", "overwrite", "--output-file", f"{tmp}/rescored.eval"],
            capture_output=True, text=True, timeout=600, cwd=tmp,
            env={**os.environ, "COLUMNS": "80", "OPENAI_API_KEY": "placeholder"},
        )  # fmt: skip
    out.write_text(got.stdout + got.stderr)
    print(f"wrote {out} (exit {got.returncode})")


async def shoot_log(page: Page, log: Path, out_dir: Path, name: str) -> None:
    port = free_port()
    view = subprocess.Popen(
        [
            "inspect",
            "view",
            "--log-dir",
            str(log.parent),
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        base = f"http://127.0.0.1:{port}/"
        await wait_http(base)
        await page.shot(f"{base}#/logs/{log.name}", "n_tasks", out_dir / f"{name}.png")
        await page.shot(
            f"{base}#/logs/{log.name}/samples", "integrity", out_dir / f"{name}-samples.png"
        )
    finally:
        view.terminate()
        view.wait(timeout=30)


def main(argv: list[str]) -> int:
    if not argv or argv[0].startswith("-"):
        print("usage: python benchmarks/view_screenshots.py OUT_DIR [LOG.eval ...]")
        return 2
    out_dir = Path(argv[0])
    out_dir.mkdir(parents=True, exist_ok=True)
    if argv[1:]:
        logs = {Path(a).stem: Path(a).resolve() for a in argv[1:]}
    else:
        logs = {w: log for w, (log, _) in WORLDS.items()}
    missing = [str(p) for p in logs.values() if not p.is_file()]
    if missing or not Path(CHROMIUM).exists():
        print(f"missing: {', '.join(missing) or CHROMIUM} (apt-get install -y chromium)")
        return 2
    asyncio.run(shoot(out_dir, logs))
    for name, log in logs.items():
        if name in WORLDS:
            score_80(log, WORLDS[name][1], out_dir / f"{name}-score.txt")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
