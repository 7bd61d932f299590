"""`submit validate` refuses a bad path before Inspect is imported: a missing folder, a
symlink, an oversized file and a special file each cost a stat, never Inspect's import."""

import os
import subprocess
import sys

from tests.leaderboard.helpers import SMALL, copy_example


def _validate_in_a_fresh_process(*dirs):
    """Run `checkout-consent submit validate DIRS` with -X importtime: (exit, stdout, the
    modules imported)."""
    done = subprocess.run(
        [
            sys.executable,
            "-X",
            "importtime",
            "-m",
            "checkout_consent.cli",
            "submit",
            "validate",
            "--no-cassettes",
            *map(str, dirs),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    imported = {
        line.rsplit("|", 1)[-1].strip()
        for line in done.stderr.splitlines()
        if line.startswith("import time:")
    }
    return done.returncode, done.stdout, imported


def test_submit_validate__bad_paths_are_refused_before_inspect_is_imported(tmp_path):
    link = tmp_path / "link"
    link.symlink_to(copy_example(tmp_path / "real", *SMALL), target_is_directory=True)
    big = copy_example(tmp_path / "big", *SMALL)
    with open(big / "README.md", "wb") as f:  # sparse: 65 MB declared, nothing written
        f.truncate(65 * 1024 * 1024)
    special = copy_example(tmp_path / "special", *SMALL)
    os.mkfifo(special / "README.md.fifo")
    code, out, imported = _validate_in_a_fresh_process(tmp_path / "nonexistent", link, big, special)
    assert code == 1
    assert f"{tmp_path / 'nonexistent'}: no such file" in out
    assert f"{link}: is a symlink (links are never followed)" in out
    assert "README.md: is larger than 64 MB (68,157,440 bytes)" in out
    assert "README.md.fifo: is not a regular file" in out
    assert out.count("REFUSED") == 4
    assert "checkout_consent.leaderboard.validate" in imported  # the probe sees imports
    assert not any(m == "inspect_ai" or m.startswith("inspect_ai.") for m in imported)
