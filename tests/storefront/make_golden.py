"""Regenerate golden_controls.json by executing the controls. Bump grader.VERSION first if
the world's rules changed: `python -m tests.storefront.make_golden`."""

import json

from checkout_consent.storefront import WORLD

from .test_controls import GOLDEN, golden_rows, records

if __name__ == "__main__":
    rows = golden_rows(records())
    GOLDEN.write_text(
        json.dumps({"world_version": WORLD.world_version, "controls": rows}, indent=1) + "\n"
    )
    print(f"wrote {GOLDEN}")
