"""axe-core in a Playwright page: the violations that count, and a line for each.

axe-core is the npm package pinned in ``tests/audit/package.json`` (``npm ci`` in that
folder installs it; ``scripts/test`` and ``.ci/run`` do). Every rule axe runs by default is
run; a violation counts when its impact is critical, serious or moderate.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

AXE_JS = Path(__file__).resolve().parents[1] / "audit" / "node_modules" / "axe-core" / "axe.min.js"
COUNTED = ("critical", "serious", "moderate")
NO_AXE = f"axe-core is not installed ({AXE_JS}): run `npm ci` in tests/audit"

RUN_JS = """async () => {
  const result = await axe.run(document, {resultTypes: ["violations"]});
  return result.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map((n) => ({target: n.target.join(" "), summary: n.failureSummary})),
  }));
}"""


def installed() -> bool:
    return AXE_JS.is_file()


def violations(page: Any) -> list[dict[str, Any]]:
    """The page's counted violations as axe reports them (id, impact, help, nodes)."""
    if not page.evaluate("() => typeof axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE_JS))
    found: list[dict[str, Any]] = page.evaluate(RUN_JS)
    return [v for v in found if v["impact"] in COUNTED]


def describe(found: list[dict[str, Any]]) -> str:
    """One line per violation and node, for a failure message."""
    lines = []
    for v in found:
        for n in v["nodes"]:
            summary = " ".join(str(n["summary"]).split())
            lines.append(f"{v['id']} ({v['impact']}) {n['target']}: {summary}")
    return "\n".join(lines)
