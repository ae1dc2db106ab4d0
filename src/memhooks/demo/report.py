# Copyright (c) 2025 memhooks developers. Licensed under the MIT License.
"""Print a demo run for a person: each step, the hooks that ran, and what they injected."""

from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from memhooks.demo.session import DemoReport, Injection

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


def render(report: DemoReport) -> str:
    how = (
        "the real claude CLI, offline, against a local mock of the API"
        if report.mode == "claude"
        else "the hook entry points run directly (no claude CLI found)"
    )
    out = [f"memhooks demo: {how}", f"project: {report.project}", ""]
    for number, step in enumerate(report.steps, 1):
        status = "" if step.ok else "  [FAILED]"
        out.append(f"── {number}. {step.title}{status}")
        out.append(f"   you: {step.prompt[:110]}")
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
    if report.memory_files:
        out.append("memory tree written by the plugin:")
        out.extend(f"  {name}" for name in report.memory_files)
    out.extend(report.notes)
    return "\n".join(out)
