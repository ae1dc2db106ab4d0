"""Progress lines for work that takes longer than a few seconds, on stderr.

In a terminal, a step that is still running after `EVERY_SECONDS` says what it is doing and
how far along it is, and says so again at least that often until it ends. Elsewhere (a pipe,
a log file, Claude's Bash tool) and under `--json` (which sets MEMHOOKS_PROGRESS=0 for the
command and the processes it starts) it says nothing: stdout and logs stay as they were.
"""

from __future__ import annotations

import os
import sys
import threading
import time

#: "0" silences progress in this process and its children (`--json` sets it).
QUIET_ENV = "MEMHOOKS_PROGRESS"
#: Seconds between two lines; the first comes only once a step has run this long.
EVERY_SECONDS = 5.0


def wanted() -> bool:
    """Progress is shown: stderr is a terminal, and `--json` did not turn it off."""
    return os.environ.get(QUIET_ENV) != "0" and sys.stderr.isatty()


def silence() -> None:
    """No progress from here on, in this process and the ones it starts (`--json`)."""
    os.environ[QUIET_ENV] = "0"


def say(text: str) -> None:
    """One line about what starts now (a download, a build), when progress is wanted."""
    if wanted():
        sys.stderr.write(f"memhooks: {text}\n")
        sys.stderr.flush()


class Progress:
    """Call with (done, total) as work advances; prints at most one line per interval.

    `start()` adds a ticker thread that repeats the latest state every interval, for work
    whose steps are slower than that (a batch of the token table's build, a demo step);
    `stop()` ends it."""

    def __init__(self, what: str, *, every: float | None = None, show: bool | None = None) -> None:
        self.what = what
        self.every = EVERY_SECONDS if every is None else every
        self.show = wanted() if show is None else show
        self.started = time.monotonic()
        self.last = self.started
        self.spoke = False
        self.done = self.total = 0
        self._stop: threading.Event | None = None

    def step(self, what: str) -> Progress:
        """The same reporter for the next stage of the work ("reading", then "indexing")."""
        return Progress(f"{self.what}: {what}", every=self.every, show=self.show)

    def __call__(self, done: int, total: int) -> None:
        self.done, self.total = done, total
        if not self.show:
            return
        now = time.monotonic()
        if now - self.last >= self.every or (done >= total and self.spoke):
            self._line(now)

    def _line(self, now: float) -> None:
        self.last = now
        self.spoke = True
        far = ""
        if self.total:
            far = f" {self.done:,} of {self.total:,} ({100 * self.done // self.total}%),"
        sys.stderr.write(f"memhooks: {self.what}:{far} {now - self.started:.0f} s so far\n")
        sys.stderr.flush()

    def start(self) -> Progress:
        if self.show and self._stop is None:
            self._stop = threading.Event()
            threading.Thread(target=self._tick, args=(self._stop,), daemon=True).start()
        return self

    def stop(self) -> None:
        if self._stop is not None:
            self._stop.set()
            self._stop = None

    def _tick(self, stop: threading.Event) -> None:
        while not stop.wait(self.every):
            now = time.monotonic()
            if now - self.last >= self.every * 0.9:
                self._line(now)
