"""The hooks' small machine-local caches: the latest prompts, the sub-agent pointers, the
citations' staleness verdicts. Standard library only (the hot path).
"""

from __future__ import annotations

import json
import time

from memhooks import TYPE_CHECKING
from memhooks.store.files import read_text, write_atomic

if TYPE_CHECKING:
    from typing import Any

    from memhooks.store.paths import MemoryPaths


# - `local/prompts.json`: the latest prompts (redacted), for PreCompact, which can run
#   before the transcript has them;
# - `local/citations.json`: the staleness verdicts of the memories' code citations;
# - `local/subagent-pointers.json`: pointers PreToolUse(Agent) leaves for the next
#   SubagentStart of the same session (`hooks.subagent_pointers`): {session_id, at, type,
#   text} entries, oldest call first, under a lock of their own; one older than
#   HANDOFF_SECONDS belongs to a sub-agent that never started.
#
# All are rewritten without fsync: a lost write costs a recomputation or a pointer.


PROMPTS_KEPT = 5


CITATIONS_CAP = 4_000_000


#: Memories whose verdicts are remembered.
VERDICTS_KEPT = 2_000


def read_prompts(paths: MemoryPaths) -> list[object]:
    """The kept prompts as written ({session_id, prompt} items); [] when none or unreadable."""
    try:
        data = json.loads(read_text(paths.prompts))
    except (OSError, ValueError):
        return []
    return data if isinstance(data, list) else []


def keep_prompt(paths: MemoryPaths, session_id: str, prompt: str) -> None:
    """Add a (redacted) prompt, keeping the last PROMPTS_KEPT; OSError when not written."""
    kept = read_prompts(paths)
    kept.append({"session_id": session_id, "prompt": prompt})
    text = json.dumps(kept[-PROMPTS_KEPT:], ensure_ascii=False)
    write_atomic(paths.prompts, text, durable=False)


def load_verdicts(target: str) -> dict[str, dict[str, object]]:
    """{memory path: its last verdict}; {} when none or unreadable."""
    try:
        data = json.loads(read_text(target, CITATIONS_CAP) or "{}")
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def save_verdicts(target: str, verdicts: dict[str, dict[str, object]]) -> None:
    """Write the verdicts, the most recent VERDICTS_KEPT; skipped on a read-only tree (they
    are recomputed next time)."""
    if len(verdicts) > VERDICTS_KEPT:
        verdicts = dict(list(verdicts.items())[-VERDICTS_KEPT:])
    try:
        text = json.dumps(verdicts, separators=(",", ":"))
        write_atomic(target, text, durable=False)
    except OSError:
        pass


#: A waiting entry older than this belongs to a sub-agent that never started.
HANDOFF_SECONDS = 120.0


HANDOFF_KEPT = 20


HANDOFF_MAX_CHARS = 200_000


#: How long a hook waits for another's handoff (each takes about a millisecond).
HANDOFF_LOCK_SECONDS = 1.0


def _waiting(paths: MemoryPaths) -> list[dict[str, Any]]:
    try:
        data = json.loads(read_text(paths.handoff, HANDOFF_MAX_CHARS))
    except ValueError:
        return []
    now = time.time()
    return [
        e
        for e in (data if isinstance(data, list) else [])
        if isinstance(e, dict)
        and isinstance(e.get("at"), int | float)
        and now - e["at"] < HANDOFF_SECONDS
    ]


def leave_pointers(
    paths: MemoryPaths, session_id: str, text: str, *, at: float = 0.0, agent_type: str = ""
) -> None:
    """Queue `text` for the next sub-agent of `session_id` (and of `agent_type`, when the
    call named one). `at`: when the call's hook started, so that parallel calls queue in
    call order whichever finished ranking first."""
    from memhooks.store.locking import LockTimeoutError, quick_lock

    # An empty entry too: it keeps the order, so the next sub-agent does not take another's.
    entry = {"session_id": session_id, "at": at or time.time(), "type": agent_type, "text": text}
    try:
        with quick_lock(paths.handoff + ".lock", HANDOFF_LOCK_SECONDS):
            entries = _waiting(paths)
            entries.append(entry)
            entries.sort(key=lambda e: float(e["at"]))
            text = json.dumps(entries[-HANDOFF_KEPT:])
            write_atomic(paths.handoff, text, durable=False)
    except LockTimeoutError:
        return


def take_pointers(paths: MemoryPaths, session_id: str, agent_type: str = "") -> str:
    """The oldest waiting text of `session_id` left for this kind of sub-agent, removed from
    the queue; "" when none."""
    from memhooks.store.locking import LockTimeoutError, quick_lock

    try:
        with quick_lock(paths.handoff + ".lock", HANDOFF_LOCK_SECONDS):
            entries = _waiting(paths)
            for i, entry in enumerate(entries):
                kind = entry.get("type")
                if entry.get("session_id") != session_id:
                    continue
                if agent_type and isinstance(kind, str) and kind and kind != agent_type:
                    continue
                del entries[i]
                write_atomic(paths.handoff, json.dumps(entries), durable=False)
                text = entry.get("text")
                return text if isinstance(text, str) else ""
    except LockTimeoutError:
        return ""
    return ""
