"""SessionStart's one line about pending consolidation, at most once a day. Standard library only.

`memhooks consolidate` (and `save`/`remember`, at most daily) write a small summary to
`paths.consolidation` (machine-local); SessionStart only reads it here, never runs the analysis.
"""

from __future__ import annotations

import time

from memhooks import TYPE_CHECKING
from memhooks.store import read_summary, write_summary

if TYPE_CHECKING:
    from memhooks.store import MemoryPaths

LABELS = {
    "duplicate": "duplicates",
    "superseded": "superseded",
    "contradiction": "contradictions",
    "relative_date": "relative dates",
    "stale_citation": "stale code citations",
}


def line(paths: MemoryPaths, today: str | None = None) -> str:
    """The line to show now ("" when nothing is pending or it was shown today); marks it shown."""
    data = read_summary(paths)
    if data is None:
        return ""
    pending = data.get("pending")
    kinds = data.get("kinds")
    day = today or time.strftime("%Y-%m-%d", time.gmtime())
    if not isinstance(pending, int) or pending <= 0 or data.get("mentioned") == day:
        return ""
    data["mentioned"] = day
    try:
        write_summary(paths, data)
    except OSError:
        return ""  # cannot record it: better silent than repeated every session
    parts = [  # known kinds only: the file is in the tree, and this line is outside any frame
        f"{n} {LABELS[k]}"
        for k, n in (kinds.items() if isinstance(kinds, dict) else ())
        if k in LABELS and isinstance(n, int) and n
    ]
    detail = f" ({', '.join(parts)})" if parts else ""
    return (
        f"Consolidation: {pending} proposal(s) for .claude/memory/{detail}; "
        "`/memory consolidate` shows them and asks before changing anything."
    )
