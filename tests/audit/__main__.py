"""``python -m tests.audit``: Lighthouse and axe over the ten pages, in production mode.

Examples::

    python -m tests.audit                       # both audits, mobile and desktop, every page
    python -m tests.audit --axe --pages table,calc
    python -m tests.audit --lighthouse --presets mobile --runs 3 --pages table

It sets up a scratch SQLite database with the pages (:mod:`tests.audit.pages`), collects the
static files, starts daphne with DEBUG off and prints a table of scores per page (Performance,
Accessibility, Best Practices, SEO, TBT, bytes) and the counted axe violations, then
``yardstick_ms`` (the machine's speed, ``tests.load.cycle``). It exits 1 if a judged thing
fails: an axe violation, or a Lighthouse category or byte audit (``tests.audit.lighthouse``).
Performance and TBT are a benchmark: printed, never judged.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from playwright.sync_api import ViewportSize

from tests.audit import lighthouse
from tests.audit.pages import AuditPage, pages_create
from tests.load.cycle import yardstick_ms
from tests.load.server import REPO, Server, command_parser, database_ready, free_port

VIEWPORTS: dict[str, ViewportSize] = {
    "phone": {"width": 390, "height": 844},
    "desktop": {"width": 1366, "height": 900},
}
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
SETTLE_MS = 1_500
"""After the load event, for a page's socket to open and its first push to land."""


def _collect_static(env: dict[str, str]) -> None:
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
        cwd=REPO,
        env=env,
        check=True,
    )


def _axe(pages: Sequence[AuditPage], url: str) -> list[str]:
    from playwright.sync_api import sync_playwright

    from tests.browser import axe

    failing: list[str] = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=lighthouse.CHROMIUM, args=list(lighthouse.CHROMIUM_ARGS)
        )
        for view, size in VIEWPORTS.items():
            for p in pages:
                context = browser.new_context(base_url=url, viewport=size, locale="zh-CN")
                if p.session is not None:
                    context.add_cookies([{"name": "sessionid", "value": p.session, "url": url}])
                page = context.new_page()
                page.goto(p.path, wait_until="load")
                page.wait_for_timeout(SETTLE_MS)
                found = axe.violations(page)
                counts = ", ".join(f"{v['id']} {len(v['nodes'])}" for v in found) or "0"
                print(f"axe {view:8} {p.name:8} {counts}", flush=True)
                if found:
                    failing.append(f"axe {view} {p.name}:\n{axe.describe(found)}")
                context.close()
        browser.close()
    return failing


def _lighthouse(
    pages: Sequence[AuditPage], url: str, presets: Sequence[str], runs: int, folder: Path
) -> tuple[list[lighthouse.Report], list[str]]:
    reports: list[lighthouse.Report] = []
    failing: list[str] = []
    chromium = lighthouse.Chromium(folder)
    try:
        for preset in presets:
            for p in pages:
                chromium.log_in(url, p.session)
                for i in range(runs):
                    out = folder / f"{p.name}-{preset}-{i}.json"
                    lhr = lighthouse.run(
                        f"{url}{p.path}",
                        preset=preset,
                        session=p.session,
                        out=out,
                        port=chromium.port,
                    )
                    r = lighthouse.judge(p.name, preset, lhr)
                    reports.append(r)
                    s = r.scores
                    cells = [p.name, preset, *(s[k] for k in CATEGORIES), f"{r.tbt_ms:.0f}"]
                    print(f"| {' | '.join(map(str, cells))} | {r.bytes / 1024:.1f} |", flush=True)
                    failing += [f"lighthouse {preset} {p.name}: {line}" for line in r.failing]
    finally:
        chromium.stop()
    return reports, failing


def main(argv: Sequence[str] | None = None) -> int:
    parser = command_parser("python -m tests.audit", __doc__)
    parser.add_argument("--axe", action="store_true", help="run axe (default: both audits)")
    parser.add_argument("--lighthouse", action="store_true", help="run Lighthouse")
    parser.add_argument("--pages", default="", help="comma-separated page names (default: all)")
    parser.add_argument("--presets", default="mobile,desktop")
    parser.add_argument("--runs", type=int, default=1, help="Lighthouse runs per page and preset")
    parser.add_argument("--json", type=Path, help="write the Lighthouse figures here")
    args = parser.parse_args(argv)
    both = not (args.axe or args.lighthouse)
    folder = Path(tempfile.mkdtemp(prefix="audit-"))
    env = database_ready(None, None, "audit")
    env["STATIC_ROOT"] = str(folder / "static")
    _collect_static(env)
    import django

    django.setup()
    pages = pages_create()
    if args.pages:
        wanted = args.pages.split(",")
        pages = [p for p in pages if p.name in wanted]
    port = free_port()
    server = Server(env, port)
    failing: list[str] = []
    reports: list[lighthouse.Report] = []
    try:
        server.wait_ready()
        url = f"http://127.0.0.1:{port}"
        if both or args.axe:
            failing += _axe(pages, url)
        if both or args.lighthouse:
            print("| page | preset | Perf | A11y | BP | SEO | TBT ms | KiB |")
            print("|---|---|---|---|---|---|---|---|")
            reports, more = _lighthouse(pages, url, args.presets.split(","), args.runs, folder)
            failing += more
    finally:
        server.stop()
        shutil.rmtree(folder / "static", ignore_errors=True)
    if args.json:
        figures: list[dict[str, Any]] = [r.__dict__ for r in reports]
        args.json.write_text(json.dumps(figures, indent=1))
    print(f"Lighthouse's reports: {folder}", file=sys.stderr)
    print(json.dumps({"yardstick_ms": yardstick_ms(), "failing": len(failing)}))
    for line in failing:
        print(line)
    return 1 if failing else 0


if __name__ == "__main__":
    sys.exit(main())
