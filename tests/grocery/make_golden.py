"""Write tests/grocery/golden.json by running every control on every public task.

Run: PYTHONPATH=. python tests/grocery/make_golden.py  (then review the diff and commit)
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from checkout_consent.grocery import dataset
from checkout_consent.grocery.controls import CONTROLS
from tests.grocery.helpers import graded

PATH = Path(__file__).with_name("golden.json")


def golden() -> dict[str, Any]:
    return {
        name: {t: graded(name, t).model_dump(mode="json") for t in dataset.PUBLIC_IDS}
        for name in CONTROLS
    }


if __name__ == "__main__":
    PATH.write_text(json.dumps(golden(), indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {PATH}")
