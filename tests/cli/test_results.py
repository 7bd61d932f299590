"""The Results tables (README.md's real-model rows, each family README's runs) are
generated from the committed cassettes' golden records and held current; a model that is
not a control is listed beside the controls with what its diagnostics counted."""

import gzip
import json
import shutil

from checkout_consent.cassettes import store
from checkout_consent.cli import results


def test_results__tables_are_current(capsys):
    assert results.main(["--check"]) == 0, capsys.readouterr().out


def _as_real_model(tmp_path):
    """A copy of pizza's reference run, relabelled as a model and with one diagnostic."""
    source = store.CASSETTE_ROOT / "pizza" / "openai--pizza-reference"
    target = tmp_path / "pizza" / "openai-api--llama--tiny"
    shutil.copytree(source, target)
    manifest = json.loads((target / "run.json").read_text())
    (target / "run.json").write_text(json.dumps({**manifest, "model": "openai-api/llama/tiny"}))
    golden = sorted(target.glob("*.golden.json.gz"))[0]
    record = json.loads(gzip.decompress(golden.read_bytes()))
    record["diagnostics"] = {"text_tool_calls": 3, "context_overflow": "full"}
    golden.write_bytes(gzip.compress(json.dumps(record).encode(), mtime=0))
    shutil.copytree(source, tmp_path / "pizza" / "openai--pizza-reference")
    return tmp_path


def test_results__a_model_is_listed_beside_the_controls(tmp_path):
    runs = results.committed(_as_real_model(tmp_path))
    assert [(r.model, r.is_control) for r in runs] == [
        ("openai-api/llama/tiny", False),
        ("openai/pizza-reference", True),
    ]
    readme = results.readme_table(runs)
    assert "`openai-api/llama/tiny`" in readme and "pizza-reference" not in readme
    assert "| model | pizza |" in readme.splitlines()[0]
    assert "text tool calls 3, context overflow in 1 sample(s)" in readme
    assert "mean score 100.0% (100.0% to 100.0%), agent breaches 0%" in readme
    family = results.family_table(runs, "pizza")
    assert "| control |" in family and "| model |" in family
    assert results.NONE_YET not in family


def test_results__no_model_yet_is_said(tmp_path):
    shutil.copytree(
        store.CASSETTE_ROOT / "pizza" / "openai--pizza-reference",
        tmp_path / "pizza" / "openai--pizza-reference",
    )
    runs = results.committed(tmp_path)
    assert results.readme_table(runs) == results.NONE_YET
    assert results.family_table(runs, "pizza").endswith(results.NONE_YET)


def test_results__a_run_of_part_of_the_public_set_says_so(tmp_path):
    """A committed run of some of a world's seeds is listed, marked partial with what it
    plays of the public set, in README.md's cell and the family's table."""
    source = store.CASSETTE_ROOT / "storefront" / "openai--storefront-oracle"
    target = tmp_path / "storefront" / "openai-api--llama--tiny"
    shutil.copytree(source, target)
    manifest = json.loads((target / "run.json").read_text())
    args = {**manifest["task_args"], "seeds": "0-1"}
    (target / "run.json").write_text(
        json.dumps({**manifest, "model": "openai-api/llama/tiny", "task_args": args})
    )
    for golden in target.glob("*.golden.json.gz"):
        if golden.name not in ("seed-0-1.golden.json.gz", "seed-1-1.golden.json.gz"):
            golden.unlink()
    [run] = results.committed(tmp_path)
    assert run.part == "seeds 0-1 of 0-9"
    assert results.readme_table([run]).splitlines()[-1].endswith("(partial: seeds 0-1 of 0-9) |")
    assert "| 2 (partial: seeds 0-1 of 0-9) |" in results.family_table([run], "storefront")
