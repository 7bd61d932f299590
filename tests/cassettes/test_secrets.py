"""No tracked cassette or log holds anything that looks like a credential; the scan that says
so knows every provider's key format, finds a key planted in a header, a body or run.json,
and replay refuses such a directory before playing it."""

import gzip
import json
import subprocess
import zipfile
from pathlib import Path

import pytest

from checkout_consent.cassettes import store
from checkout_consent.cassettes.load import CassetteRefused
from checkout_consent.cassettes.preflight import check_directory
from checkout_consent.cassettes.scan import scan, scan_bytes, scan_directory
from checkout_consent.runtime.provenance import REPO_ROOT
from tests.cassettes.forge import copy_units

pytestmark = pytest.mark.cassette


def _planted() -> dict[str, tuple[str, str]]:
    """kind -> (the key, the finding it must give), each assembled at run time so no
    key-shaped literal sits in the repo."""

    def key(*parts: str) -> str:
        return "".join(parts)

    return {
        "openai": (key("sk-", "proj-", "A1b2" * 10), "openai key"),
        "openai-legacy": (key("sk-", "Q9w8" * 12), "openai key"),
        "anthropic": (key("sk-", "ant-", "api03-", "Z9y8" * 10), "anthropic key"),
        "google": (key("AI", "za", ("Sy7_" * 9)[:35]), "google api key"),
        "groq": (key("gs", "k_", "G4h5" * 13), "groq key"),
        "xai": (key("xa", "i-", "X1y2" * 20), "xai key"),
        "mistral": (key("MISTRAL", "_API_KEY=", "m3N4" * 8), "provider key by name"),
        "together": (key("tgp", "_v1_", "T0g3" * 10), "together key"),
        "together-by-name": (key("TOGETHER", "_API_KEY=", "ab12" * 16), "provider key by name"),
        "fireworks": (key("fw", "_", "F1r2" * 6), "fireworks key"),
        "perplexity": (key("pp", "lx-", "P3x4" * 12), "perplexity key"),
        "huggingface": (key("hf", "_", "H5f6" * 9), "hugging face token"),
        "aws-access": (key("AK", "IA", "Q2W3E4R5T6Y7U8I9"), "aws access key"),
        "aws-session": (key("AS", "IA", "Z2X3C4V5B6N7M8L9"), "aws access key"),
        "aws-secret": (
            key("aws_secret", "_access_key=", "w" * 20, "/+", "x" * 18),
            "aws secret key",
        ),
        "github-ghp": (key("gh", "p_", "G7t8" * 9), "github token"),
        "github-gho": (key("gh", "o_", "G7t8" * 9), "github token"),
        "github-ghs": (key("gh", "s_", "G7t8" * 9), "github token"),
        "github-pat": (key("github", "_pat_", "P1a2" * 15), "github token"),
        "pem": (key("-----BEGIN ", "RSA PRIVATE", " KEY-----"), "pem private key"),
    }


PLANTED = _planted()
SPOTS = ("header", "body", "run.json")


def tracked_logs_and_cassettes() -> list[Path]:
    """Every tracked file under cassettes/ and logs/, and every tracked .eval log anywhere
    (the leaderboard's example submissions; a stray log directory too, were one committed)."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--", "cassettes", "logs", "*.eval"],
        cwd=REPO_ROOT,
        capture_output=True,
        check=True,
        timeout=60,
    ).stdout
    return [REPO_ROOT / name for name in listed.decode().split("\0") if name]


def test_secret_scan__tracked_cassettes_and_logs_are_clean():
    """Tracked files only: a user's own logs/ may hold anything; the repo may not."""
    tracked = tracked_logs_and_cassettes()
    assert any(p.name == store.CASSETTE for p in tracked)
    assert any(
        p.suffix == ".eval" and "logs" not in p.relative_to(REPO_ROOT).parts[:1] for p in tracked
    )  # the scan reaches .eval logs outside logs/
    findings = scan(tracked)
    assert findings == [], "\n".join(map(str, findings))


def _small_copy(tmp_path: Path) -> tuple[Path, Path]:
    """A one-unit copy of a committed cassette directory: (directory, its unit)."""
    source = store.CASSETTE_ROOT / "shopkit" / "openai--shopkit-noop"
    copy = tmp_path / "copy"
    copy_units(source, copy, lambda names: names[:1])
    return copy, copy / store.CASSETTE


def _plant(directory: Path, unit: Path, spot: str, secret: str) -> Path:
    if spot == "run.json":
        manifest = json.loads((directory / store.MANIFEST).read_text())
        manifest["model_args"]["note"] = secret
        (directory / store.MANIFEST).write_text(json.dumps(manifest))
        return directory / store.MANIFEST
    data = json.loads(gzip.decompress(unit.read_bytes()))
    request = data["units"][0]["requests"][0]
    if spot == "header":
        request["headers"]["x-note"] = secret
    else:  # what a compact cassette keeps of the request body: the last message
        request["last"] = f"user: note {secret}"
    unit.write_bytes(gzip.compress(json.dumps(data).encode()))
    return unit


@pytest.mark.parametrize("spot", SPOTS)
@pytest.mark.parametrize("kind", sorted(PLANTED))
def test_secret_scan__finds_each_kind_of_key_wherever_it_is_planted(kind, spot, tmp_path):
    directory, unit = _small_copy(tmp_path)
    assert scan_directory(directory) == []  # the copy is clean until a key is planted
    secret, finding = PLANTED[kind]
    where = _plant(directory, unit, spot, secret)
    found = scan_directory(directory)
    assert [(f.path, f.kind) for f in found] == [(str(where), finding)]
    assert secret not in str(found[0])  # the report does not repeat the key
    with pytest.raises(CassetteRefused, match="looks like a credential") as refused:
        check_directory(directory)  # replay's first step: nothing is played
    assert secret not in str(refused.value)


@pytest.mark.parametrize(
    "data",
    [
        b"headers:\n  authorization:\n  - REDACTED\n  content-type:\n  - application/json\n",
        b'{"headers": {"Authorization": "REDACTED", "content-type": "application/json"}}',
    ],
    ids=["legacy yaml", "compact json"],
)
def test_secret_scan__a_kept_auth_header_is_a_finding_even_without_a_key(data):
    assert [f.kind for f in scan_bytes("c", data, cassette=True)] == ["secret header kept"]
    assert scan_bytes("c", data, cassette=False) == []


def test_secret_scan__reads_inside_eval_logs(tmp_path: Path):
    from checkout_consent.runtime.compat import enable_zstd_zip

    enable_zstd_zip()  # zstd, as Inspect writes .eval logs
    log = tmp_path / "run.eval"
    secret = PLANTED["openai"][0].encode()
    with zipfile.ZipFile(log, "w", compression=zipfile.ZIP_ZSTANDARD) as archive:  # type: ignore[attr-defined]
        archive.writestr("samples/s_epoch_1.json", b'{"key": "' + secret + b'"}')
    assert [f.kind for f in scan([tmp_path])] == ["openai key"]


def test_secret_scan__ordinary_identifiers_are_not_keys():
    text = (
        b"def fw_fee_total(): pass\nhf_model = 'gpt2'\nsk-learn is a library\n"
        b"task_key = 'T1'\nAKIA is a prefix\n"
    )
    assert scan_bytes("code.py", text, cassette=False) == []
