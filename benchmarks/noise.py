"""The noise floor of a committed sampled run (docs/record-ladder.sh TEMP=0.8 ... EPOCHS=4):
each epoch's headline, the spread between epochs beside tau^2-bench's 5-11 points, and
pass^k by the world's pass rule. Reads the committed cassettes' goldens; nothing is run.

    python benchmarks/noise.py
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from checkout_consent.cli.discrimination import noise_block  # noqa: E402
from checkout_consent.cli.results import committed  # noqa: E402

if __name__ == "__main__":
    print(noise_block(committed()))
