"""One Lighthouse run of one page, and what in its report fails the audit.

The timing-based Performance score and Total Blocking Time depend on how busy this shared
machine is, so they are reported, never judged. Everything else is judged: the
Accessibility, Best Practices and SEO categories must score 100, and the byte audits must
pass (Lighthouse's own pass mark, a score of at least 0.9).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
LIGHTHOUSE = HERE / "node_modules" / ".bin" / "lighthouse"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = (
    # What Chromium needs to run headless as root, and no calls home during a measurement.
    "--no-sandbox",
    "--headless",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
)
JUDGED_CATEGORIES = ("accessibility", "best-practices", "seo")
BYTE_AUDITS = (
    "uses-text-compression",
    "uses-long-cache-ttl",
    "unused-javascript",
    "total-byte-weight",
)
PASS_MARK = 0.9
RUN_SECONDS = 180
ATTEMPTS = 3
"""A run that Lighthouse itself gives up on (a page it found too slow to load on a busy
machine, or its trace lost: NO_NAVSTART, 3 of 20 runs once on a loaded machine) is run again,
up to three times in all; the last failure is reported with Lighthouse's own words."""


@dataclass
class Report:
    page: str
    preset: str
    scores: dict[str, int]
    """Category id → 0-100."""
    tbt_ms: float
    bytes: int
    failing: list[str] = field(default_factory=list)
    """The judged things that fail, one line each."""


def judge(page: str, preset: str, lhr: dict[str, Any]) -> Report:
    """What a Lighthouse result (its JSON) says, and which judged things fail."""
    categories = lhr["categories"]
    audits = lhr["audits"]
    scores = {key: round(100 * (c["score"] or 0)) for key, c in categories.items()}
    failing: list[str] = []
    for key in JUDGED_CATEGORIES:
        if scores[key] < 100:
            for ref in categories[key]["auditRefs"]:
                audit = audits[ref["id"]]
                if ref["weight"] and audit["score"] is not None and audit["score"] < 1:
                    failing.append(f"{key}: {ref['id']} ({audit['title']}){_where(audit)}")
            if not failing:
                failing.append(f"{key}: scores {scores[key]}")
    for key in BYTE_AUDITS:
        audit = audits[key]
        if audit["score"] is not None and audit["score"] < PASS_MARK:
            failing.append(f"bytes: {key} {audit.get('displayValue', '')} ({audit['title']})")
    return Report(
        page=page,
        preset=preset,
        scores=scores,
        tbt_ms=float(audits["total-blocking-time"]["numericValue"]),
        bytes=int(audits["total-byte-weight"]["numericValue"]),
        failing=failing,
    )


def _where(audit: dict[str, Any], most: int = 3) -> str:
    """Where a failing audit failed: the first few elements or messages its details list."""
    items = (audit.get("details") or {}).get("items") or []
    found = []
    for item in items[:most]:
        node = item.get("node") or {}
        found.append(str(node.get("selector") or item.get("description") or item.get("url")))
    return "".join(f"\n    {line}" for line in found)


class Chromium:
    """Debian's Chromium, kept open for Lighthouse to drive (``--port``), its cookie jar set
    per page: Lighthouse's ``--extra-headers`` reach its HTTP requests but not the table's
    WebSocket handshake, which would then be refused as logged out."""

    def __init__(self, folder: Path) -> None:
        from tests.load.server import free_port

        self.port = free_port()
        self.profile = folder / "chromium"
        self.process = subprocess.Popen(
            [
                os.environ.get("CHROME_PATH", CHROMIUM),
                *CHROMIUM_ARGS,
                f"--remote-debugging-port={self.port}",
                f"--user-data-dir={self.profile}",
                "about:blank",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )

    def log_in(self, url: str, session: str | None) -> None:
        """The browser's cookies: only ``session``'s, or none (logged out)."""
        from playwright.sync_api import sync_playwright

        with sync_playwright() as pw:
            browser = _connect(pw, self.port)
            context = browser.contexts[0]
            context.clear_cookies()
            if session is not None:
                context.add_cookies([{"name": "sessionid", "value": session, "url": url}])

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=10)
        shutil.rmtree(self.profile, ignore_errors=True)  # the reports beside it are kept


def _connect(pw: Any, port: int, seconds: float = 20) -> Any:
    """Playwright attached to the Chromium listening on ``port``, once it listens."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            return pw.chromium.connect_over_cdp(f"http://127.0.0.1:{port}")
        except Exception:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)  # Chromium is still starting; it sends no event when it listens


def run(url: str, *, preset: str, session: str | None, out: Path, port: int) -> dict[str, Any]:
    """Lighthouse's JSON result for ``url`` under ``preset`` (mobile or desktop), in the
    Chromium on ``port`` (:class:`Chromium`, logged in as ``session``)."""
    argv = [
        str(LIGHTHOUSE),
        url,
        "--quiet",
        "--output=json",
        f"--output-path={out}",
        f"--port={port}",
        "--only-categories=performance,accessibility,best-practices,seo",
    ]
    if preset == "desktop":
        argv.append("--preset=desktop")
    if session is not None:
        argv.append("--extra-headers=" + json.dumps({"Cookie": f"sessionid={session}"}))
    for attempt in range(ATTEMPTS):
        done = subprocess.run(argv, timeout=RUN_SECONDS, capture_output=True, text=True)
        if done.returncode == 0:
            break
        if attempt == ATTEMPTS - 1:
            raise RuntimeError(f"lighthouse {url} failed:\n{done.stderr[-3000:]}")
        said = done.stderr.strip().splitlines()[-1:] or ["(nothing)"]
        print(f"lighthouse {url} failed ({said[0]}); again", file=sys.stderr, flush=True)
    result: dict[str, Any] = json.loads(out.read_text())
    return result
