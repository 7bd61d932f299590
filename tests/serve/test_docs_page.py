"""serve-api's /docs renders offline: Swagger UI's script and style come from the server's
own packaged assets (never a CDN), and headless Chromium, with every other host blocked,
draws the operations list from them."""

from __future__ import annotations

import re
import subprocess
import urllib.request
from pathlib import Path

from tests.conftest import chromium, needs_chromium
from tests.serve.conftest import Live


def _get(url: str) -> tuple[int, str]:
    with urllib.request.urlopen(url, timeout=30) as response:  # noqa: S310 (loopback)
        return response.status, response.read().decode("utf-8", "replace")


def test_docs__every_asset_the_page_loads_is_served_by_the_server_itself(live: Live) -> None:
    for page in ("/docs", "/redoc"):
        status, html = _get(live.url + page)
        assert status == 200
        assets = re.findall(r'(?:src|href)="([^"]+)"', html)
        assert assets and all(a.startswith("/") for a in assets), assets  # no other host
        for asset in assets:
            status, body = _get(live.url + asset)
            assert status == 200 and len(body) > 1000 or asset.endswith(".png"), asset


@needs_chromium
def test_docs__headless_chromium_draws_the_operations_offline(live: Live, tmp_path: Path) -> None:
    browser = chromium()
    assert browser is not None, "CI needs chromium: .ci/run installs it"
    status, openapi = _get(live.url + "/openapi.json")
    operations = re.findall(r'"operationId":\s*"([^"]+)"', openapi)
    assert status == 200 and operations
    args = [
        browser,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",  # nothing but us
        f"--user-data-dir={tmp_path / 'profile'}",
        "--virtual-time-budget=15000",
    ]
    dom = subprocess.run(
        [*args, "--dump-dom", live.url + "/docs"], capture_output=True, text=True, timeout=120
    ).stdout
    assert 'class="swagger-ui' in dom
    drawn = re.findall(r'class="opblock-summary-path"[^>]*data-path="([^"]+)"', dom)
    paths = set(re.findall(r'^\s{4}"(/[^"]*)":', _pretty(openapi), re.M))
    assert paths and paths <= set(drawn), (paths, drawn)
    shot = tmp_path / "docs.png"
    subprocess.run(
        [*args, "--window-size=1200,1600", f"--screenshot={shot}", live.url + "/docs"],
        capture_output=True,
        timeout=120,
    )
    assert shot.is_file() and shot.stat().st_size > 20_000  # a drawn page, not a blank one


def _pretty(openapi: str) -> str:
    import json

    return json.dumps(json.loads(openapi), indent=2)
