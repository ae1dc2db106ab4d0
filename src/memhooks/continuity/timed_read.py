"""A transcript read within a time budget, for PreCompact: its head, then its tail. Standard
library only.

Reading costs little; what is done with a record costs: every prompt and reply is redacted, at
0.3 to 1.2 s per MB of text. A transcript of long replies can thus take minutes, and a hook
killed by the host's timeout writes nothing. So reading has a deadline, and spends it where a
restore needs it: the head first (the session's goal), for at most a share of the time, then
the tail (the latest work), starting as far from the end as the head's pace says can be read
before the deadline. What was not read is said in ``note``, for the checkpoint to tell.
"""

from __future__ import annotations

import os
import time

from memhooks import TYPE_CHECKING
from memhooks.continuity.transcript import ReadProgress, iter_records

if TYPE_CHECKING:
    from collections.abc import Iterator

    from memhooks.continuity.transcript_records import Record

#: Bytes read at most from the head, and from the head and the tail together.
HEAD_BYTES = 16 << 20
READ_CAP = 256 << 20
#: The head's share of the time, and how much of the rest the tail is planned to take (the
#: pace of the tail may differ from the head's; the deadline holds either way).
HEAD_SHARE = 0.25
TAIL_PLAN = 0.6


class TimedRead:
    """The records of `path` read before `deadline` (a `time.monotonic()` value), head then
    tail; afterwards `note` says what was left out, if anything."""

    def __init__(self, path: str, deadline: float) -> None:
        self.path = path
        self.deadline = deadline
        self.size = 0
        self.head = ReadProgress()
        self.tail = ReadProgress()
        self.tail_start = 0

    def __iter__(self) -> Iterator[Record]:
        try:
            self.size = os.stat(self.path).st_size
        except OSError:
            return
        started = time.monotonic()
        head_deadline = min(self.deadline, started + (self.deadline - started) * HEAD_SHARE)
        head_deadline = self.deadline if self.size <= HEAD_BYTES else head_deadline
        yield from iter_records(
            self.path, limit=HEAD_BYTES, deadline=head_deadline, progress=self.head
        )
        if self.head.end >= self.size:
            self.tail.end = self.tail_start = self.head.end
            return
        self.tail_start = max(self.head.end, self.size - self._affordable(started))
        # A start inside a line skips that line (iter_records), so nothing is read twice.
        yield from iter_records(
            self.path, offset=self.tail_start, deadline=self.deadline, progress=self.tail
        )

    def _affordable(self, started: float) -> int:
        """Bytes of the tail that can be read in time, at the pace the head was read."""
        spent = max(time.monotonic() - started, 1e-3)
        pace = self.head.end / spent
        left = max(self.deadline - time.monotonic(), 0.0)
        return int(min(pace * left * TAIL_PLAN, READ_CAP - self.head.end))

    @property
    def complete(self) -> bool:
        return self.size == 0 or (
            self.tail_start <= self.head.end
            and not self.head.stopped
            and not self.tail.stopped
            and max(self.head.end, self.tail.end) >= self.size
        )

    def note(self) -> str:
        """One line on what was not read, or "" when the whole transcript was."""
        if self.complete:
            return ""
        mb = 1 << 20
        read = self.head.end + max(0, self.tail.end - self.tail_start)
        parts = [f"the first {self.head.end / mb:,.1f} MB"]
        if self.tail.end > self.tail_start:
            parts.append(f"from {self.tail_start / mb:,.1f} MB to {self.tail.end / mb:,.1f} MB")
        return (
            f"[memhooks] This checkpoint was made from {read / mb:,.1f} MB of the "
            f"{self.size / mb:,.1f} MB transcript ({' and '.join(parts)}): reading it whole "
            "would have run past the hook's timeout. What lies outside is not in it."
        )
