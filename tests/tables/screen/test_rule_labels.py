from __future__ import annotations

from typing import Any

from engine.rules import Rules
from ledger.models import Entry
from tables.screen import rule_labels


def hand_entry(**fields: Any) -> Entry:
    return Entry.objects.create(kind=Entry.Kind.HAND, **fields)


def test_rules_summary_names_overrides() -> None:
    rules = Rules.profile_named("jiuyao_fan").with_options(qiang_gang=False, min_win_points=6)
    summary = rule_labels.rules_summary(rules.to_json())
    labels = dict(summary.changes)
    assert len(summary.changes) == 2
    assert any(v == "6" for v in labels.values())
    assert rule_labels.rules_summary(Rules().to_json()).changes == []


def test_every_rule_option_and_choice_has_words() -> None:
    """A new engine option must not reach the room form or card as its raw name."""
    from engine.rules import OPTION_CHOICES
    from tables.screen.rule_labels import OPTION_LABELS, VALUE_LABELS

    options = set(Rules().to_json()) - {"profile"}
    assert options <= set(OPTION_LABELS), options - set(OPTION_LABELS)
    for name, values in OPTION_CHOICES.items():
        assert set(values) <= set(VALUE_LABELS.get(name, {})), name
