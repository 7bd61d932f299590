"""The agent card: strict, with one clear line per problem, safe against hostile YAML."""

import pytest

from checkout_consent.leaderboard.submission import CardError, dump_card, parse_card, read_card
from tests.leaderboard.helpers import SMALL, SUBMISSIONS


def _example_text() -> str:
    return (SUBMISSIONS / SMALL[0] / SMALL[1] / "submission.yaml").read_text()


def test_card__committed_example_round_trips():
    card = read_card(SUBMISSIONS / SMALL[0] / SMALL[1])
    assert parse_card(dump_card(card)) == card
    assert card.kind == "control"


@pytest.mark.parametrize(
    ("edit", "says"),
    [
        (lambda t: t.replace("contact:", "kontakt:"), "contact: Field required"),
        (lambda t: t.replace("epochs: 1", "epochs: many"), "epochs:"),
        (lambda t: t.replace("kind: control", "kind: robot"), "kind:"),
        (lambda t: t.replace("schema_version: 1", "schema_version: 1\nsurprise: 1"), "surprise:"),
        (
            lambda t: t.replace("normalized_usd:", "normalized_usd: .nan\n  x_usd:"),
            "normalized_usd",
        ),
    ],
)
def test_card__bad_field_is_one_clear_line(edit, says):
    with pytest.raises(CardError) as caught:
        parse_card(edit(_example_text()))
    assert any(says in line for line in caught.value.lines), caught.value.lines
    assert all(line.startswith("submission.yaml: ") for line in caught.value.lines)


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("a: [1, 2", "not valid YAML"),
        ("- just\n- a list\n", "expected a mapping"),
        ("a: &x [1]\nb: *x\n", "anchors and aliases"),
        ("!!python/object/apply:os.system ['true']\n", "not valid YAML"),
    ],
)
def test_card__hostile_yaml_is_refused_without_running(text, says):
    with pytest.raises(CardError) as caught:
        parse_card(text)
    assert says in str(caught.value)


def test_card__grocery_needs_its_snapshot_and_seed():
    text = _example_text().replace("family: shopkit", "family: grocery")
    with pytest.raises(CardError, match="grocery: required for this family"):
        parse_card(text)
    with pytest.raises(CardError, match="grocery.seed"):
        parse_card(text + "grocery:\n  store_snapshot: v3.0\n  seed: -1\n")
    card = parse_card(text + "grocery:\n  store_snapshot: v3.0\n  seed: 0\n")
    assert card.section == {"store_snapshot": "v3.0", "seed": 0}
    assert "grocery:\n  store_snapshot: v3.0\n  seed: 0\n" in dump_card(card)


def test_card__a_section_of_another_family_is_refused():
    with pytest.raises(CardError, match="grocery: Extra inputs are not permitted"):
        parse_card(_example_text() + "grocery:\n  store_snapshot: v3.0\n  seed: 0\n")


def test_card__missing_file_is_refused(tmp_path):
    with pytest.raises(CardError, match="submission.yaml: no such file"):
        read_card(tmp_path)


def _as_human(text: str) -> str:
    return text.replace("kind: control", "kind: human").replace(
        f"id: {read_card(SUBMISSIONS / SMALL[0] / SMALL[1]).model.id}", "id: human/web"
    )


def _without_tokens_and_cost(text: str) -> str:
    """The card with its `tokens:` and `cost:` blocks (and their indented lines) left out."""
    kept, skipping = [], False
    for line in text.splitlines():
        if line.startswith(("tokens:", "cost:")):
            skipping = True
        elif skipping and line.startswith(" "):
            continue
        else:
            skipping = False
            kept.append(line)
    return "\n".join(kept) + "\n"


def test_card__a_human_card_states_time_not_tokens_or_cost():
    card = parse_card(_without_tokens_and_cost(_as_human(_example_text())))
    assert card.kind == "human" and card.tokens is None and card.cost is None
    assert "tokens" not in dump_card(card) and parse_card(dump_card(card)) == card
    with pytest.raises(CardError) as caught:
        parse_card(_as_human(_example_text()))  # tokens copied from a model's card
    assert any(
        "a human card states its time (wall_time_seconds), not tokens" in line
        for line in caught.value.lines
    ), caught.value.lines


def test_card__a_models_or_controls_card_still_states_tokens_and_cost():
    with pytest.raises(CardError) as caught:
        parse_card(_without_tokens_and_cost(_example_text()))
    assert any(
        "a control's card states its tokens and cost" in line for line in caught.value.lines
    ), caught.value.lines
