"""The display value of a point, and the audit's actions in words."""

from __future__ import annotations

import pytest
from django.utils import translation

from clubs.templatetags.club_tags import audit_action, point_value


@pytest.mark.parametrize(
    ("points", "value", "shown"),
    [
        (12, "1 元", "12 元"),  # 1 分 = 1 元
        (-12, "0.5 元", "-6 元"),  # half a 元 a point: owing 12 reads -6
        (7, "0.1元", "0.7 元"),
        (3, "元", "3 元"),  # a unit without a number: the points in it
        (3, "", ""),  # not set: nothing shown
    ],
)
def test_points_in_the_clubs_unit(points: int, value: str, shown: str) -> None:
    assert point_value(points, value) == shown


def test_an_audit_action_reads_in_words_and_an_unknown_one_as_its_code() -> None:
    with translation.override("zh-hans"):
        assert audit_action("forbid") == "设为禁止同桌"
    assert audit_action("something-new") == "something-new"
