"""PostToolUse: notice what a Bash call changed in the tree behind the store's back, and
settle a direct edit of a memory file when `guard.direct_edits` allows them.

After every Bash call the write guard's second layer (`guard.tree_settle`) compares a few
dozen stats with what the store recorded; only on a difference does it look deeper, and
Claude and the user are told what was settled (redacted, indexed, put aside, deleted).
With "allow", Claude's Write or Edit of a memory file is validated, redacted and indexed
under the store lock, or undone, and Claude is told why (`decision: block` + `reason`).
"""

from __future__ import annotations

import os

from memhooks import TYPE_CHECKING
from memhooks.guard.write_guard import FILE_TOOLS, targets

if TYPE_CHECKING:
    from typing import Any

    from memhooks.hooks.event import HookInput
    from memhooks.store import MemoryPaths, Settings

#: The tools whose calls may change the tree in ways no guard foresaw.
WATCHED_TOOLS = ("Bash",)


def _memory_file(hook: HookInput, paths: MemoryPaths) -> str:
    if hook.tool_name not in FILE_TOOLS:
        return ""
    found = targets(hook.tool_name, hook.tool_input, hook.cwd or os.getcwd(), paths.base)
    return found[0].relative if len(found) == 1 and found[0].category_folder else ""


def wants(hook: HookInput, paths: MemoryPaths) -> bool:
    return hook.tool_name in WATCHED_TOOLS or bool(_memory_file(hook, paths))


def handle(hook: HookInput, paths: MemoryPaths, settings: Settings) -> dict[str, Any] | None:
    from memhooks.install.invocation import cli_command

    if hook.tool_name in WATCHED_TOOLS:
        from memhooks.guard.tree_settle import look

        return notice(look(paths, settings, cli_command(), from_claude=True))
    if settings.direct_edits != "allow":
        return None
    relative = _memory_file(hook, paths)
    if not relative:
        return None
    from memhooks.guard.direct_edit import settle

    undone, message = settle(paths, settings, relative, cli_command())
    if not message:
        return None
    output: dict[str, Any] = {
        "hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": message}
    }
    if undone:
        output.update(decision="block", reason=message)
    return output


def notice(messages: list[str]) -> dict[str, Any] | None:
    """What was settled, for Claude (the context) and the user (a system message)."""
    if not messages:
        return None
    text = "\n".join(messages)[:9000]
    return {
        "systemMessage": text,
        "hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": text},
    }
