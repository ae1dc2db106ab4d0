# Copyright (c) 2025 memhooks developers. Licensed under the MIT License.
"""Print a demo run for a person: each step, the hooks that ran, and what they injected."""

from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING

from memhooks.text.progress import Progress, say

if TYPE_CHECKING:
    from memhooks.demo.session import DemoReport, DemoStep, Injection

#: Long enough to show a briefing's task, todos and files; the rest is elided.
MAX_LINES = 40


def _reached(injection: Injection) -> str:
    if injection.reached_model is None:
        return ""
    return (
        "  (seen in the request to the model)"
        if injection.reached_model
        else "  (NOT found in any request)"
    )


def _context(text: str) -> str:
    lines = text.splitlines()
    if len(lines) > MAX_LINES:
        lines = [*lines[:MAX_LINES], f"… {len(lines) - MAX_LINES} more lines"]
    return textwrap.indent("\n".join(lines), "    │ ", lambda _line: True)


def _head(report: DemoReport) -> list[str]:
    how = (
        "the real claude CLI, offline, against a local mock of the API"
        if report.mode == "claude"
        else f"the hook entry points run directly ({report.why})"
    )
    return [f"memhooks demo: {how}", f"project: {report.project}", ""]


def _step(number: int, step: DemoStep) -> list[str]:
    status = "" if step.ok else "  [FAILED]"
    out = [f"── {number}. {step.title}{status}", f"   you: {step.prompt[:110]}"]
    for injection in step.hooks:
        ms = f"{injection.ms:.0f} ms" if injection.ms is not None else "? ms"
        if not injection.context:
            out.append(f"   hook {injection.hook:<22} {ms:>7}  injected nothing")
            continue
        out.append(f"   hook {injection.hook:<22} {ms:>7}  injected:{_reached(injection)}")
        out.append(_context(injection.context))
    if step.reply:
        out.append(f"   claude: {step.reply.splitlines()[0][:110]}")
    out.append("")
    return out


def _tail(report: DemoReport) -> list[str]:
    out = []
    if report.memory_files:
        out.append("memory tree written by the plugin:")
        out.extend(f"  {name}" for name in report.memory_files)
    out.extend(report.notes)
    return out


def render(report: DemoReport) -> str:
    out = _head(report)
    for number, step in enumerate(report.steps, 1):
        out += _step(number, step)
    return "\n".join(out + _tail(report))


class Stream:
    """Prints the run as it goes. A step is printed once it is settled: every context it
    injected was seen in a request, or a later step has run (compaction's context reaches
    the model only in the next request). `watch` is what the session calls before each step
    (its number and title) and when it is over (0). In a terminal, a step that runs for a
    while says so every few seconds."""

    def __init__(self) -> None:
        self.printed = -1  # the head is not out yet
        self.running: Progress | None = None

    def _print(self, lines: list[str]) -> None:
        if lines:
            print("\n".join(lines), flush=True)

    def _settled(self, report: DemoReport, index: int, over: bool) -> bool:
        later = over or index < len(report.steps) - 1
        return later or all(i.reached_model is not False for i in report.steps[index].hooks)

    def watch(self, report: DemoReport, upcoming: int, title: str = "") -> None:
        if self.running is not None:
            self.running.stop()
        if self.printed < 0:
            self._print(_head(report))
            self.printed = 0
        while self.printed < len(report.steps) and self._settled(
            report, self.printed, over=not upcoming
        ):
            self.printed += 1
            self._print(_step(self.printed, report.steps[self.printed - 1]))
        if upcoming:
            say(f"demo step {upcoming}: {title}...")
            self.running = Progress(f"demo step {upcoming}, still running").start()

    def finish(self, report: DemoReport) -> None:
        self.watch(report, 0)
        self._print(_tail(report))
