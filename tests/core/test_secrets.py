"""No committed cassette or log holds anything that looks like a credential, and the scan
that says so does find one when it is there."""

import gzip
import shutil
from pathlib import Path

import pytest

from checkout_consent.cassettes import store
from checkout_consent.cassettes.scan import scan, scan_bytes
from checkout_consent.runtime.provenance import REPO_ROOT

pytestmark = pytest.mark.cassette
# Key-shaped strings, assembled at run time so no key-shaped literal sits in the repo.
PLANTED = {
    "openai": b"sk-" + b"proj-AbCdEfGhIjKlMnOpQrStUvWx0123",
    "anthropic": b"sk-" + b"ant-api03-AbCdEfGhIjKlMnOpQrStUv",
    "bearer": b"Bearer eyJhbGciOiJIUzI1NiJ9abcdefgh",
    "aws": b"AKIAIOSFODNN7EXAMPLE",
}


def test_secret_scan__committed_cassettes_and_logs_are_clean():
    assert store.run_dirs([store.CASSETTE_ROOT])
    findings = scan([REPO_ROOT / "cassettes", REPO_ROOT / "logs"])
    assert findings == [], "\n".join(map(str, findings))


@pytest.mark.parametrize("kind", sorted(PLANTED))
def test_secret_scan__finds_a_key_planted_in_a_cassette_copy(kind, tmp_path: Path):
    source = store.run_dirs([store.CASSETTE_ROOT])[0]
    copy = shutil.copytree(source, tmp_path / "copy")
    unit = store.unit_files(copy)[0]
    planted = b"x-note: " + PLANTED[kind] + b"\n      content-type:"
    text = gzip.decompress(unit.read_bytes()).replace(b"content-type:", planted, 1)
    unit.write_bytes(gzip.compress(text))
    findings = scan([copy])
    assert len(findings) == 1 and findings[0].path == str(unit)
    assert PLANTED[kind].decode() not in str(findings[0])  # the report does not repeat it


def test_secret_scan__a_kept_auth_header_is_a_finding_even_without_a_key():
    data = b"headers:\n  authorization:\n  - REDACTED\n  content-type:\n  - application/json\n"
    assert [f.kind for f in scan_bytes("c.yaml", data, cassette=True)] == ["secret header kept"]
    assert scan_bytes("c.yaml", data, cassette=False) == []


def test_secret_scan__reads_inside_eval_logs(tmp_path: Path):
    import zipfile

    from checkout_consent.runtime.compat import enable_zstd_zip

    enable_zstd_zip()  # zstd, as Inspect writes .eval logs

    log = tmp_path / "run.eval"
    with zipfile.ZipFile(log, "w", compression=zipfile.ZIP_ZSTANDARD) as archive:  # type: ignore[attr-defined]
        archive.writestr("samples/s_epoch_1.json", b'{"key": "' + PLANTED["openai"] + b'"}')
    assert [f.kind for f in scan([tmp_path])] == ["openai/anthropic-style key"]
