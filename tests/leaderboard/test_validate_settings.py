"""A submission is played with the public settings: every -T argument that changes what
the agent may do (turn budgets, hints, replies, briefs, dates) must be the public default,
read from the log's recorded task arguments and derived from each family's spec."""

import pytest

from checkout_consent.families import WORLDS
from checkout_consent.leaderboard.expected import public_settings, settings_differences
from checkout_consent.leaderboard.validate import validate
from tests.leaderboard.helpers import STOREFRONT, copy_example, edit_log


def _other(value):
    """A value that is not `value` as a setting."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    return "1" if value is None else f"{value}-other"


def _refused(folder, says):
    verdict = validate(folder, cassettes=False)
    assert not verdict.ok
    assert any(says in r for r in verdict.refusals), verdict.refusals


def test_settings_differences__every_family_names_each_changed_setting():
    for spec in WORLDS:
        public = public_settings(spec.name)
        assert set(public) == set(spec.task_params)
        assert settings_differences(spec.name, public) == []
        for key, value in public.items():
            changed = settings_differences(spec.name, {**public, key: _other(value)})
            if key in spec.dataset.public_args:  # chooses part of the public set: coverage's job
                assert changed == []
            else:
                assert len(changed) == 1 and f"task argument {key}=" in changed[0], changed


def test_settings_differences__same_setting_in_text_is_accepted_unknown_args_are_not():
    spec = next(
        s
        for s in WORLDS
        if any(
            isinstance(v, int) and not isinstance(v, bool) for v in public_settings(s.name).values()
        )
    )
    public = public_settings(spec.name)
    as_text = {k: v if v is None else str(v) for k, v in public.items()}
    assert settings_differences(spec.name, as_text) == []
    [unknown] = settings_differences(spec.name, {**public, "sneaky": 1})
    assert "task argument 'sneaky' is not one of" in unknown
    dropped = next(k for k in public if k not in spec.dataset.public_args)
    [missing] = settings_differences(spec.name, {k: v for k, v in public.items() if k != dropped})
    assert f"task argument {dropped} is not recorded" in missing


def test_validate__storefront_turns_per_day_of_1000_is_refused(tmp_path):
    sub = copy_example(tmp_path, *STOREFRONT)

    def more_turns(log):
        log.eval.task_args["turns_per_day"] = 1000

    edit_log(sub, more_turns)
    _refused(sub, "run.eval: task argument turns_per_day='1000' is not the public setting None")


@pytest.mark.parametrize("turns", [41, "80"])
def test_validate__grocery_larger_turn_budget_is_refused(tmp_path, turns):
    sub = copy_example(tmp_path, "grocery", "control-grocery-reference")

    def more_turns(log):
        log.eval.task_args["turns"] = turns

    edit_log(sub, more_turns)
    _refused(sub, f"task argument turns={str(turns)!r} is not the public setting 40")
