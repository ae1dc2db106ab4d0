# Copyright (c) 2025 memhooks developers. Licensed under the MIT License.
"""What the host logged about each hook run: its status, its time and what it injected.

Standard library only. Reads a `claude --debug-file` log: the host writes one "finished with
status" line per hook process (with its own duration, except for SessionEnd) and the hook's
stdout just after it.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, replace
from datetime import datetime

# "Hooks: SessionStart:resume [cmd] (plugin memory@memhooks) finished with status 0 (50ms)"
_HOOK_DONE = re.compile(
    r"^(?P<ts>\S+) \[DEBUG\] (?:Hooks: )?(?P<event>[A-Za-z]+)(?::(?P<qual>\S+))? "
    r"\[(?P<cmd>.*)\](?: \(plugin (?P<plugin>[^)]*)\))? "
    r"(?:finished|completed) with status (?P<status>-?\d+)(?: \((?P<ms>\d+)ms\))?"
)


# '"Hook SessionStart:resume (SessionStart) success:\n{...hook stdout...}"', one JSON string
_HOOK_OUTPUT = re.compile(r'^\S+ \[DEBUG\] (?P<quoted>"Hook (?P<label>\S+) \(\w+\) success:.*")$')


@dataclass(frozen=True)
class HookRun:
    """One hook process as the host saw it. `ms` is None when the host logged no duration."""

    event: str
    qualifier: str
    status: int
    ms: float | None
    command: str
    measured: str  # "host" (its own figure) or "log-gap" (time since the previous log line)
    context: str = ""  # the additionalContext it printed, when the host logged it

    @property
    def label(self) -> str:
        return f"{self.event}:{self.qualifier}" if self.qualifier else self.event


def _timestamp(text: str) -> float | None:
    try:
        return datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()
    except ValueError:
        return None


def _additional_context(quoted: str) -> str:
    """The additionalContext inside one logged hook output, or "" when there is none."""
    try:
        logged = json.loads(quoted)
        output = json.loads(str(logged).split("success:\n", 1)[1])
    except (ValueError, IndexError):
        return ""
    specific = output.get("hookSpecificOutput") if isinstance(output, dict) else None
    return str(specific.get("additionalContext") or "") if isinstance(specific, dict) else ""


def parse_hook_runs(debug_log: str, command_part: str = "") -> list[HookRun]:
    """The hook runs in a `--debug-file` log whose command contains `command_part`."""
    runs: list[HookRun] = []
    previous: float | None = None
    for line in debug_log.splitlines():
        stamp = _timestamp(line.split(" ", 1)[0])
        output = _HOOK_OUTPUT.match(line)
        if output:
            # The host logs a hook's stdout just after its "finished" line.
            context = _additional_context(output["quoted"])
            for index in range(len(runs) - 1, -1, -1):
                if runs[index].label == output["label"]:
                    if context and not runs[index].context:
                        runs[index] = replace(runs[index], context=context)
                    break
        match = _HOOK_DONE.match(line)
        if match and command_part in match["cmd"]:
            ms: float | None = float(match["ms"]) if match["ms"] else None
            measured = "host"
            if ms is None and stamp is not None and previous is not None:
                # SessionEnd is logged without a duration; the gap since the line before
                # is an upper bound that includes the host's own shutdown work.
                ms, measured = round((stamp - previous) * 1000, 1), "log-gap"
            qualifier = match["qual"] or ""
            runs.append(
                HookRun(match["event"], qualifier, int(match["status"]), ms, match["cmd"], measured)
            )
        if stamp is not None:
            previous = stamp
    return runs
