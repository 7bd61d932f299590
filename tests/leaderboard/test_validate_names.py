"""A submission's folder name and the names its card shows cannot be faked (issue 41,
item 2): a folder whose name reads as another submission's of the family (their
`core.names.keys` meet) is refused, as is a model or harness name holding an invisible
character or mixing scripts."""

from __future__ import annotations

import shutil

import pytest

from checkout_consent.leaderboard.validate import validate
from tests.leaderboard.helpers import SMALL, copy_example, edit_card


@pytest.mark.parametrize(
    "fake", ["contro1-shopkit-noop", "control-shopkit-n0op", "controi-shopkit-noop"]
)
def test_validate__a_folder_named_like_another_submission_is_refused(tmp_path, fake: str) -> None:
    real = copy_example(tmp_path, *SMALL)
    twin = real.parent / fake
    shutil.copytree(real, twin)
    edit_card(twin, lambda card: card.update(submission_id=fake))
    verdict = validate(twin, cassettes=False)
    if fake == "controi-shopkit-noop":  # i and l are not confusable: a name of its own
        assert not any("reads as" in r for r in verdict.refusals), verdict.refusals
        return
    assert (
        f"the folder name {fake!r} reads as 'control-shopkit-noop', another submission's: rename it"
        in verdict.refusals
    )
    assert validate(real, cassettes=False).refusals == [
        f"the folder name 'control-shopkit-noop' reads as {fake!r}, another submission's: rename it"
    ]


@pytest.mark.parametrize(
    ("field", "value", "says"),
    [
        ("model", "openai/gpt\u200b-4.1", "ZERO WIDTH SPACE"),
        ("model", "anthropic/\u0441laude", "mixes the cyrillic and latin scripts"),
        ("harness", "inspect\u202e", "RIGHT-TO-LEFT OVERRIDE"),
    ],
)
def test_validate__a_card_name_with_invisible_or_mixed_script_is_refused(
    tmp_path, field: str, value: str, says: str
) -> None:
    sub = copy_example(tmp_path, *SMALL)

    def change(card: dict) -> None:
        if field == "model":
            card["model"]["id"] = value
        else:
            card["agent"]["harness"] = value

    edit_card(sub, change)
    verdict = validate(sub, cassettes=False)
    assert any(says in r for r in verdict.refusals), verdict.refusals
