"""tables.screen.memo: a fragment is built once per key and language, never served in another."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Any

import pytest
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

from tables.screen import memo


def _counting(built: list[str], text: str) -> SafeString:
    built.append(text)
    return mark_safe(f"<p>{gettext(text)}</p>")


def test_a_fragment_is_built_once_per_key_then_kept() -> None:
    memo.forget()
    built: list[str] = []
    with translation.override("en"):
        first = memo.remembered("t", ("a",), lambda: _counting(built, "Rules"))
        again = memo.remembered("t", ("a",), lambda: _counting(built, "Rules"))
        other = memo.remembered("t", ("b",), lambda: _counting(built, "Rules"))
    assert first is again and first == other == "<p>Rules</p>"
    assert built == ["Rules", "Rules"]  # key a once, key b once
    # Kinds are apart: the same key under another kind is another fragment.
    with translation.override("en"):
        memo.remembered("u", ("a",), lambda: _counting(built, "Rules"))
    assert len(built) == 3


def test_each_language_gets_its_own_fragment() -> None:
    memo.forget()
    with translation.override("zh-hans"):
        zh = memo.remembered("t", 1, lambda: mark_safe(gettext("Rules")))
    with translation.override("en"):
        en = memo.remembered("t", 1, lambda: mark_safe(gettext("Rules")))
    with translation.override(None):
        none = memo.remembered("t", 1, lambda: mark_safe(gettext("Rules")))
    assert (zh, en, none) == ("规则", "Rules", "Rules")


def test_rendering_in_a_language_keeps_each_language_apart() -> None:
    memo.forget()
    texts = []
    for language in ("zh-hans", "en", "zh-hans"):
        with memo.rendering_in(language):
            texts.append(memo.remembered("t", 1, lambda: mark_safe(gettext("Rules"))))
    assert texts == ["规则", "Rules", "规则"]
    # The same stores as a plain override: a fragment kept inside is found outside.
    with translation.override("en"):
        assert memo.remembered("t", 1, lambda: mark_safe("never built")) == "Rules"


def test_a_full_store_lets_the_least_recently_used_go(monkeypatch: pytest.MonkeyPatch) -> None:
    """A full store drops one fragment, the one used longest ago, not all of them: the
    fragments every table in play shows stay."""
    memo.forget()
    monkeypatch.setattr(memo, "MAX_KEPT", 3)
    built: list[str] = []
    with translation.override("en"):
        for key in (0, 1, 2):
            memo.remembered("t", key, partial(_counting, built, str(key)))
        memo.remembered("t", 0, lambda: _counting(built, "0 again"))  # used: kept
        memo.remembered("t", 3, partial(_counting, built, "3"))  # 1 goes
        for key in (0, 2, 3):
            memo.remembered("t", key, lambda: _counting(built, "never"))
        memo.remembered("t", 1, partial(_counting, built, "1 again"))
    assert built == ["0", "1", "2", "3", "1 again"]


def test_a_remembered_render_is_keyed_by_its_view(settings: Any, tmp_path: Any) -> None:
    """``remembered_render`` renders a template once per distinct view (by its repr) and
    language, passing the view under the given name and any extra context."""
    (tmp_path / "frag.html").write_text("{{ v.n }}/{{ extra }}")
    settings.TEMPLATES = [
        {"BACKEND": "django.template.backends.django.DjangoTemplates", "DIRS": [tmp_path]}
    ]
    memo.forget()
    first = memo.remembered_render("frag.html", "v", _View(1), extra="a")
    kept = memo.remembered_render("frag.html", "v", _View(1), extra="ignored: same view")
    other = memo.remembered_render("frag.html", "v", _View(2), extra="b")
    assert (first, kept, other) == ("1/a", "1/a", "2/b")


@dataclass(frozen=True)
class _View:
    n: int


def test_holes_are_filled_in_per_call_and_render_the_template_once(
    settings: Any, tmp_path: Any
) -> None:
    """A piece whose numbers change far more often than the rest (a countdown's end) is
    rendered once per view, the numbers filled in on every call, in text and attributes;
    a call with other holes is another piece."""
    (tmp_path / "clock.html").write_text('<b data-ends-at="{{ end }}">{{ v.n }}: {{ end }}</b>')
    settings.TEMPLATES = [
        {"BACKEND": "django.template.backends.django.DjangoTemplates", "DIRS": [tmp_path]}
    ]
    memo.forget()
    rendered: list[str] = []

    def counted(template: str, context: Any) -> str:
        rendered.append(template)
        return render_to_string(template, context)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("tables.screen.memo.render_to_string", counted)
        first = memo.remembered_render("clock.html", "v", _View(7), holes={"end": 1000})
        again = memo.remembered_render("clock.html", "v", _View(7), holes={"end": 2000})
        bare = memo.remembered_render("clock.html", "v", _View(7))
    assert first == '<b data-ends-at="1000">7: 1000</b>'
    assert again == '<b data-ends-at="2000">7: 2000</b>'
    assert bare == '<b data-ends-at="">7: </b>'
    assert rendered == ["clock.html", "clock.html"]  # once with the holes, once without
