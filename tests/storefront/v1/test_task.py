"""`inspect eval checkout_consent/storefront_v1` and its alias, `checkout_consent/storefront
-T scenario=adversary_v1`: the same samples and the same records."""

import pytest
from inspect_ai import eval as inspect_eval

from checkout_consent.storefront.task import storefront
from checkout_consent.storefront.v1 import SPEC_V1
from checkout_consent.storefront.v1.task import storefront_v1

pytestmark = pytest.mark.inspect

ALIAS = {"scenario": "adversary_v1"}


def _samples(task) -> list[tuple]:
    return [(s.id, s.input, s.metadata) for s in task.dataset]


def test_storefront_v1__builds_the_samples_its_alias_builds():
    own, alias = storefront_v1(seeds="1,4"), storefront(seeds="1,4", **ALIAS)
    assert _samples(own) == _samples(alias)
    assert [s.metadata["scenario"]["scenario_id"] for s in own.dataset] == ["adversary_v1"] * 2
    assert own.version == alias.version == SPEC_V1.version
    assert own.name == "storefront_v1" and alias.name == "storefront"


def test_storefront_v1__inspect_eval_gives_the_records_of_the_alias(tmp_path):
    scores = {}
    for name, extra in (("storefront_v1", {}), ("storefront", ALIAS)):
        (log,) = inspect_eval(f"checkout_consent/{name}", model="control/storefront-oracle",
                              task_args={"seeds": "0", **extra}, log_dir=str(tmp_path / name),
                              display="none")
        assert log.status == "success", name
        scores[name] = [next(iter(s.scores.values())) for s in log.samples]
    own, alias = scores["storefront_v1"], scores["storefront"]
    assert [s.metadata["record"] for s in own] == [s.metadata["record"] for s in alias]
    assert [s.value for s in own] == [s.value for s in alias]
    (record,) = [s.metadata["record"] for s in own]
    assert record["world_version"] == SPEC_V1.world_version and record["clean_run"]
    assert record["seed"] == 0 and record["cash_final"] > 0


def test_storefront_v1__alias_still_refuses_the_hint_of_v0():
    with pytest.raises(Exception, match="hint coaches adversary_v0"):
        storefront(seeds="0", hint=True, **ALIAS)
