"""A submission is played with the public settings: every -T argument that changes what
the agent may do (turn budgets, hints, replies, briefs, dates) must be the public default,
read from the log's recorded task arguments and derived from each world."""

import pytest

from checkout_consent.families import WORLDS
from checkout_consent.leaderboard.expected import public_settings, settings_differences
from checkout_consent.leaderboard.validate import validate
from checkout_consent.runtime.meta import task_params
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
    for world in WORLDS:
        public = public_settings(world.name)
        assert set(public) == set(task_params(world))
        assert settings_differences(world.name, public) == []
        for key, value in public.items():
            changed = settings_differences(world.name, {**public, key: _other(value)})
            if key in world.dataset.public_args or key in world.dataset.choosers:
                # chooses part of the public set: coverage's job
                assert changed == []
            else:
                assert len(changed) == 1 and f"task argument {key}=" in changed[0], changed


def test_settings_differences__same_setting_in_text_is_accepted_unknown_args_are_not():
    world = next(
        s
        for s in WORLDS
        if any(
            isinstance(v, int) and not isinstance(v, bool) for v in public_settings(s.name).values()
        )
    )
    public = public_settings(world.name)
    as_text = {k: v if v is None else str(v) for k, v in public.items()}
    assert settings_differences(world.name, as_text) == []
    [unknown] = settings_differences(world.name, {**public, "sneaky": 1})
    assert "task argument 'sneaky' is not one of" in unknown
    dropped = next(
        k for k in public if k not in world.dataset.public_args and k not in world.dataset.choosers
    )
    [missing] = settings_differences(world.name, {k: v for k, v in public.items() if k != dropped})
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


def test_settings_differences__a_task_choice_is_one_in_every_world():
    """Pizza's public set is its default (`public_args` empty): `-T tasks=...`, as the human
    baseline's documented command gives it, chooses part of the set, as grocery's does."""
    for name, choice in (("pizza", "wrong-topping-1"), ("grocery", "normal-week")):
        assert settings_differences(name, {**public_settings(name), "tasks": choice}) == []
