from __future__ import annotations

from xml.etree import ElementTree

from ledger.charts import cumulative_chart


def test_a_line_per_player_summed_step_by_step_without_scripts() -> None:
    svg = cumulative_chart(
        series=[("甲", [2, -1, 3]), ("乙", [-2, 1, -3])],
        x_labels=["1", "2", "3"],
        title="累计积分",
        x_title="局",
        y_title="分",
    )
    root = ElementTree.fromstring(svg)
    assert root.get("viewBox") == "0 0 440 320"
    assert root.get("width") is None  # scales to its container
    text = "".join(root.itertext())
    for word in ("累计积分", "局", "分", "甲", "乙"):
        assert word in text
    assert "script" not in svg
    assert "4" in text  # 甲's running total after three hands
