"""PreToolUse: refuse Claude's direct writes into `.claude/memory/` (seed 003's write guard)
and into the user tier's tree (`memhooks.store.user_tier`, always through `--user`).

The refusal carries the CLI command that does the same thing through the store, so Claude
retries at once; it is decided before the host's own permission prompt. With
`guard.direct_edits: "allow"` a file tool may edit one memory file: its current bytes are
kept in `.cache/guard/` so that PostToolUse can put them back when the edit is invalid.
"""

from __future__ import annotations

import os

from memhooks import TYPE_CHECKING
from memhooks.guard.write_guard import (
    GUARDED_TOOLS,
    USER_MARKER,
    decide,
    names_machine_folder,
    targets,
)
from memhooks.store import read_bytes, user_dir

if TYPE_CHECKING:
    from typing import Any

    from memhooks.hooks.event import HookInput
    from memhooks.store import MemoryPaths, Settings

#: The sub-agent tools, whose PreToolUse gives the sub-agent its pointers (subagent_pointers).
AGENT_TOOLS = ("Agent", "Task")
#: Larger files get no hash in the refusal (`memhooks show --json` prints it).
HASH_READ_CAP = 4 * 1024 * 1024


def _cwd(hook: HookInput) -> str:
    return hook.cwd or os.getcwd()


def wants(hook: HookInput, paths: MemoryPaths) -> bool:
    """A sub-agent's start (its pointers), or a guarded tool whose input names a path inside
    the tree, the user tier or this machine's memhooks folders: decided from the input."""
    if hook.tool_name in AGENT_TOOLS:
        return True
    if hook.tool_name not in GUARDED_TOOLS:
        return False
    cwd = _cwd(hook)
    return bool(
        targets(hook.tool_name, hook.tool_input, cwd, paths.base)
        or targets(hook.tool_name, hook.tool_input, cwd, user_dir(), USER_MARKER)
        or names_machine_folder(hook.tool_name, hook.tool_input, cwd)
    )


def current_hash(path: str) -> str | None:
    """The store's OCC hash of an existing memory file (`memory_file.content_hash`)."""
    try:
        data = read_bytes(path, HASH_READ_CAP, whole=True)
    except OSError:  # missing, a symlink, a FIFO or a device, too big: no hash
        return None
    import hashlib

    return hashlib.sha256(data).hexdigest()[:16]


def handle(hook: HookInput, paths: MemoryPaths, settings: Settings) -> dict[str, Any] | None:
    if hook.tool_name in AGENT_TOOLS:  # hooks.json's "Agent|Task" group
        from memhooks.hooks import subagent_pointers

        return subagent_pointers.handle(hook, paths, settings)
    from memhooks.install.invocation import cli_command

    verdict = decide(
        hook.tool_name,
        hook.tool_input,
        cwd=_cwd(hook),
        memory_base=paths.base,
        cli=cli_command(),
        allow_direct=settings.direct_edits == "allow",
        current_hash=current_hash,
        user_base=user_dir(),
    )
    if verdict is None:
        return None
    if verdict.action == "allow" and verdict.target is not None:
        from memhooks.store import keep_backup

        keep_backup(paths, verdict.target.relative)
        return None
    return {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": verdict.reason,
        }
    }
