"""The command line of the tools that read only stdin (``wincheck``, ``score``).

They take no options: their input says everything. An argument given to them would be
ignored, so it is refused with a usage line (exit status 2) instead; ``-h`` / ``--help``
prints the tool's description.

>>> stdin_only("python -m engine.score", "Scores hands.", [])
>>> stdin_only("python -m engine.score", "Scores hands.", ["--rules", "jiuyao_fan"])
2
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

__all__ = ["stdin_only"]


def stdin_only(prog: str, doc: str, argv: Sequence[str] | None) -> int | None:
    """``None`` when there are no arguments (read stdin), else the exit status after
    printing the help (0) or refusing the arguments (2). ``argv`` defaults to
    ``sys.argv[1:]``."""
    args = list(sys.argv[1:] if argv is None else argv)
    if not args:
        return None
    if args in (["-h"], ["--help"]):
        sys.stdout.write(doc)
        return 0
    sys.stderr.write(
        f"usage: {prog} < lines\n{prog}: takes no arguments, it reads everything from "
        f"stdin, one question a line; refused: {' '.join(args)}\n"
    )
    return 2
