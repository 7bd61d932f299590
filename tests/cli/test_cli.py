"""The CLI as a user meets it: the README's first command in a real subprocess, the README
table checked against that run, and the refusal to report when sanity fails."""

import json
import re
import subprocess
import sys
from dataclasses import replace

import pytest

import checkout_consent.cli.main as cli
from checkout_consent.cli.readme import END, START, table
from checkout_consent.families import FAMILIES, family, worlds_of
from checkout_consent.runtime.provenance import REPO_ROOT

pytestmark = pytest.mark.inspect


@pytest.fixture(scope="module")
def everything(tmp_path_factory) -> list[dict]:
    """`checkout-consent run --json`: every family's controls, played offline (the offline
    driver, not Inspect: no .eval logs), as a user runs it."""
    logs = tmp_path_factory.mktemp("logs")
    out = subprocess.run(
        ["checkout-consent", "--log-dir", str(logs), "run", "--json"],
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert out.returncode == 0, out.stderr[-3000:]
    assert not list(logs.glob("*.eval")), "the bare run went through Inspect"
    return json.loads(out.stdout)


def test_run__every_family_and_control_reported(everything):
    seen = {(e["family"], e["scenario"], e["model"]) for e in everything}
    for fam in FAMILIES:
        for world in worlds_of(fam.name):  # every variant too
            for control in world.sanity_controls:
                assert (fam.name, world.variant, f"control/{fam.name}-{control}") in seen
    assert all(e["records"] for e in everything)


def test_readme__controls_table_is_what_the_run_gives(everything):
    results: dict[str, dict[str, list[dict]]] = {}
    for e in everything:
        control = e["model"].removeprefix(f"control/{e['family']}-")
        label = e["family"] if e["scenario"] is None else f"{e['family']}/{e['scenario']}"
        results.setdefault(label, {})[control] = e["records"]
    readme = (REPO_ROOT / "README.md").read_text()
    block = re.search(re.escape(START) + r"\n(.*?)\n?" + re.escape(END), readme, re.S)
    assert block is not None
    assert block.group(1) == table(dict(sorted(results.items()))), (
        "README table is stale: run `python -m checkout_consent.cli.readme`"
    )


def test_run__refuses_to_report_when_sanity_fails(monkeypatch, tmp_path, capsys):
    from checkout_consent.cli import run

    broken = replace(
        family("storefront"),
        check_sanity=lambda records: ["planted problem"],
        public_args={"seeds": "0"},
    )
    monkeypatch.setattr(run, "family", lambda name: broken)
    monkeypatch.setattr(run, "worlds_of", lambda name: (broken,))
    monkeypatch.setattr(run, "world_of_args", lambda name, args: broken)
    code = cli.main(["--log-dir", str(tmp_path), "run", "storefront"])
    out = capsys.readouterr()
    assert code == 2 and "planted problem" in out.err  # the controls alone: shown, and named
    assert "NOT as expected: storefront" in out.out.splitlines()[-1]
    code = cli.main(
        ["--log-dir", str(tmp_path), "run", "storefront", "--model", "control/storefront-oracle"]
    )  # a model's run: not reported at all
    err = capsys.readouterr().err
    assert code == 2 and "planted problem" in err and "refusing to report" in err


def test_list__names_every_family_and_its_controls():
    out = subprocess.run(
        [sys.executable, "-m", "checkout_consent.cli", "list"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    for name in (f.name for f in FAMILIES):
        assert name in out.stdout and f"control/{name}-" in out.stdout


def test_cli__unknown_family_is_a_clear_error():
    out = subprocess.run(
        [sys.executable, "-m", "checkout_consent.cli", "run", "nosuch"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode != 0 and "invalid choice" in out.stderr


def test_run__a_provider_without_its_key_is_a_clear_error(monkeypatch, tmp_path):
    from checkout_consent.runtime.runner import RunFailed, run_models

    for var in ("OPENAI_API_KEY", "AZUREAI_OPENAI_API_KEY", "OPENAI_BASE_URL"):
        monkeypatch.delenv(var, raising=False)
    with pytest.raises(RunFailed, match="OPENAI_API_KEY"):
        run_models(
            family("storefront"), ["openai/gpt-4o"], task_args={"seeds": "0"}, log_dir=tmp_path
        )
