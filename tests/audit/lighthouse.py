"""One Lighthouse run of one page, and what in its report fails the audit.

The timing-based Performance score and Total Blocking Time depend on how busy this shared
machine is, so they are reported, never judged. Everything else is judged: the
Accessibility, Best Practices and SEO categories must score 100, and the byte audits must
pass (Lighthouse's own pass mark, a score of at least 0.9).
"""

from __future__ import annotations

import json
import os
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
LIGHTHOUSE = HERE / "node_modules" / ".bin" / "lighthouse"
CHROMIUM = "/usr/bin/chromium"
CHROME_FLAGS = (
    "--no-sandbox --headless --disable-gpu --disable-background-networking"
    " --disable-component-update --disable-sync --no-first-run"
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
                    failing.append(f"{key}: {ref['id']} ({audit['title']})")
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


def run(url: str, *, preset: str, session: str | None, out: Path) -> dict[str, Any]:
    """Lighthouse's JSON result for ``url`` under ``preset`` (mobile or desktop)."""
    argv = [
        str(LIGHTHOUSE),
        url,
        "--quiet",
        "--output=json",
        f"--output-path={out}",
        f"--chrome-flags={CHROME_FLAGS}",
        "--only-categories=performance,accessibility,best-practices,seo",
    ]
    if preset == "desktop":
        argv.append("--preset=desktop")
    if session is not None:
        argv.append("--extra-headers=" + json.dumps({"Cookie": f"sessionid={session}"}))
    env = {**os.environ, "CHROME_PATH": os.environ.get("CHROME_PATH", CHROMIUM)}
    subprocess.run(argv, env=env, check=True, timeout=RUN_SECONDS, capture_output=True)
    result: dict[str, Any] = json.loads(out.read_text())
    return result
