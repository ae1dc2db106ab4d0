"""PostToolUse: settle a direct edit of a memory file, when `guard.direct_edits` allows them.

With the default ("deny") PreToolUse refuses such edits and this hook has nothing to do.
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
    from memhooks.store.config import Settings
    from memhooks.store.paths import MemoryPaths


def _memory_file(hook: HookInput, paths: MemoryPaths) -> str:
    if hook.tool_name not in FILE_TOOLS:
        return ""
    found = targets(hook.tool_name, hook.tool_input, hook.cwd or os.getcwd(), paths.base)
    return found[0].relative if len(found) == 1 and found[0].category_folder else ""


def wants(hook: HookInput, paths: MemoryPaths) -> bool:
    return bool(_memory_file(hook, paths))


def handle(hook: HookInput, paths: MemoryPaths, settings: Settings) -> dict[str, Any] | None:
    if settings.direct_edits != "allow":
        return None
    relative = _memory_file(hook, paths)
    if not relative:
        return None
    from memhooks.guard.direct_edit import settle
    from memhooks.install.invocation import cli_command

    undone, message = settle(paths, settings, relative, cli_command())
    if not message:
        return None
    output: dict[str, Any] = {
        "hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": message}
    }
    if undone:
        output.update(decision="block", reason=message)
    return output
