"""Cumulative-points line charts as server-rendered SVG (pygal), inlined in the pages.

No script runs in the browser: pygal's interactive JavaScript is switched off and the SVG
scales with its container (``viewBox``), so it reads on a 390 px phone.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import accumulate
from xml.etree import ElementTree

import pygal
from pygal.style import Style

__all__ = ["cumulative_chart"]

_STYLE = Style(
    background="transparent",
    plot_background="transparent",
    font_family="'Noto Sans CJK SC', 'WenQuanYi Zen Hei', 'PingFang SC', sans-serif",
    label_font_size=15,
    major_label_font_size=15,
    legend_font_size=16,
    title_font_size=17,
    colors=("#1f7a4d", "#c0392b", "#2e6fd8", "#b7791f", "#7b3fa0", "#2c7a7b", "#555", "#d0579a"),
)


def cumulative_chart(
    *,
    series: Sequence[tuple[str, Sequence[int]]],
    x_labels: Sequence[str],
    title: str,
    x_title: str,
    y_title: str,
) -> str:
    """An inline ``<svg>``: one line per ``(name, per-step points)``, summed step by step.

    >>> svg = cumulative_chart(series=[("甲", [2, -1])], x_labels=["1", "2"],
    ...                        title="累计", x_title="局", y_title="分")
    >>> svg.startswith("<svg") and "累计" in svg and "<script" not in svg
    True
    """
    chart = pygal.Line(
        style=_STYLE,
        # A small canvas scaled up: at a phone's 350 px its 15-unit labels are still ~12 px.
        width=440,
        height=320,
        stroke_style={"width": 2.5},
        truncate_label=-1,
        js=(),
        disable_xml_declaration=True,
        explicit_size=False,
        show_dots=len(x_labels) <= 40,
        x_label_rotation=0,
        show_minor_x_labels=False,
        x_labels_major_count=6,
        truncate_legend=12,
        legend_at_bottom=True,
        legend_at_bottom_columns=4,
        margin=8,
        margin_right=24,
        title=title,
        x_title=x_title,
        y_title=y_title,
        print_values=False,
    )
    chart.x_labels = list(x_labels)
    for name, steps in series:
        chart.add(name, list(accumulate(steps)))
    tree = chart.render_tree()
    # pygal writes its chart config as an inline <script> even with ``js=()``; nothing reads it.
    for parent in list(tree.iter()):
        for child in list(parent):
            if str(child.tag).endswith("script"):
                parent.remove(child)
    return ElementTree.tostring(tree, encoding="unicode")
