"""Small machine-local files kept under `.cache/`: the hooks' prompt, pointer and citation caches,
the injection ledger, and the consolidation log and summary. Standard library only (the hot
path).
"""

from __future__ import annotations

import json
import os
import time

from memhooks import TYPE_CHECKING
from memhooks.store.files import read_bytes, read_text, write_atomic
from memhooks.store.locking import quick_lock

if TYPE_CHECKING:
    from typing import Any

    from memhooks.store.paths import MemoryPaths


# ------------------------------------------------------------------ hook_caches
# Small machine-local files the hooks keep under `.cache/`. Standard library only (the hot path).
#
# - `.cache/prompts.json`: the latest prompts (redacted), for PreCompact, which can run
#   before the transcript has them;
# - `.cache/citations.json`: the staleness verdicts of the memories' code citations;
# - `.cache/subagent-pointers.json`: pointers PreToolUse(Agent) leaves for the next
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


# ------------------------------------------------------------------ ledger
# What each hook injected, in characters, per session: shown by `memhooks status`.
#
# Hidden context is what users of memory plugins complain about most, so every hook that adds
# context counts it here. Parallel hooks (sub-agents, sessions side by side) take turns under the
# store's lock mechanism (`locking.quick_lock`) on a lock file of the ledger's own (never the
# store lock, which a long write may hold): no count taken in turn is lost. A hook that waited
# LOCK_SECONDS in vain drops its count rather than stall the session: by decision, a hook's time
# cap comes before exact bookkeeping, so `status` shows at least what was injected (a drop needs
# another hook holding the ledger for a second, as only a starved machine does). The file is a
# cache and holds only the latest sessions.


LEDGER_SESSIONS = 10


MAX_CHARS = 100_000


#: How long a hook waits for another hook's count (each takes well under a millisecond).
LOCK_SECONDS = 1.0


def _load(file: str) -> dict[str, dict[str, list[int]]]:
    try:
        data = json.loads(read_text(file, MAX_CHARS))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def record_injected(file: str, session_id: str, hook: str, chars: int) -> bool:
    """Add one injection of `chars` characters by `hook` to the session's counts. False when
    the count was dropped: the ledger's turn not had within LOCK_SECONDS, or no ledger."""
    if not session_id or chars <= 0:
        return True
    # `injected.lock`, not the `injected.json.lock` that older versions create and delete (one
    # of them would take this file, kept, for a held turn and wait out LOCK_SECONDS).
    turn = quick_lock(os.path.splitext(file)[0] + ".lock", LOCK_SECONDS)
    try:
        turn.__enter__()
    except OSError:
        # Another hook's turn for longer than LOCK_SECONDS, a symlinked `.cache/` (never
        # followed out of the tree), a read-only or full tree: no count, as before.
        return False
    try:
        _add(file, session_id, hook, chars)
    finally:
        turn.__exit__()
    return True


def _add(file: str, session_id: str, hook: str, chars: int) -> None:
    data = _load(file)
    session = data.pop(session_id, None)
    if not isinstance(session, dict):
        session = {}
    runs, total = session.get(hook) or [0, 0]
    session[hook] = [int(runs) + 1, int(total) + chars]
    data[session_id] = session  # re-inserted last: the dict keeps sessions oldest first
    kept = dict(list(data.items())[-LEDGER_SESSIONS:])
    write_atomic(file, json.dumps(kept, sort_keys=False), durable=False)


def session_counts(file: str, session_id: str | None) -> tuple[str, dict[str, tuple[int, int]]]:
    """(session id, {hook: (injections, characters)}) for that session (nothing yet: {}), or
    the latest one when no session id is known."""
    data = _load(file)
    if session_id:
        if session_id not in data:
            return session_id, {}
        sid = session_id
    elif not data:
        return "", {}
    else:
        sid = next(reversed(data))
    session = data.get(sid)
    if not isinstance(session, dict):
        return sid, {}
    out = {}
    for hook, value in session.items():
        if isinstance(value, list) and len(value) == len(("runs", "chars")):
            out[str(hook)] = (int(value[0]), int(value[1]))
    return sid, out


def all_sessions(file: str) -> dict[str, dict[str, tuple[int, int]]]:
    """Every session the ledger keeps (oldest first): {hook: (injections, characters)}."""
    out: dict[str, dict[str, tuple[int, int]]] = {}
    for sid in _load(file):
        out[str(sid)] = session_counts(file, str(sid))[1]
    return out


# ------------------------------------------------------------------ consolidation_files
# The files `memhooks consolidate` keeps: the log of what `--apply` changed, and the cached
# summary SessionStart reads (`.cache/consolidation.json`). Standard library only: SessionStart
# reads the summary and marks it mentioned.


SUMMARY_CAP = 4_000


#: The log is appended to whole; past this it is refused rather than cut.
LOG_CAP = 64_000_000


LOG_HEADER = (
    "# Consolidation log\n\nWhat `memhooks consolidate --apply` changed in .claude/memory/, "
    "newest last.\n"
)


def read_summary(paths: MemoryPaths) -> dict[str, Any] | None:
    """The cached summary; None when it is missing, unreadable or not a JSON object."""
    try:
        data = json.loads(read_text(paths.consolidation, SUMMARY_CAP) or "{}")
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def write_summary(paths: MemoryPaths, data: dict[str, Any]) -> None:
    """Replace the cached summary (machine-local: no fsync)."""
    write_atomic(paths.consolidation, json.dumps(data), durable=False)


def append_log(target: str | os.PathLike[str], entry: str) -> None:
    """Add `entry` at the end of the consolidation log (made with its header when new or
    empty); the caller holds the store lock."""
    # Read whole and strictly: a log cut at a read cap, or one that does not decode, would
    # be rewritten short (UnsafeFileError or UnicodeDecodeError instead; nothing written).
    try:
        data = read_bytes(target, LOG_CAP, whole=True)
    except FileNotFoundError:
        data = b""
    current = data.decode("utf-8").replace("\r\n", "\n") or LOG_HEADER
    write_atomic(target, current.rstrip("\n") + "\n\n" + entry)


# ------------------------------------------------------------------ native_marks
# Which memories came from Claude Code's own auto memory, and from which native file. Standard
# library only: SessionStart reads it.
#
# `memhooks import --native` files the project's native topic files as memories (their frontmatter
# keeps `native_path` and `native_hash`) and writes this machine's map in `.cache/native-
# imports.json`: memory path -> the native file's absolute path. It is derived and machine-local,
# like the rest of `.cache/`: the next `import --native` writes it again from the memories'
# frontmatter. SessionStart leaves out of the index lines it injects the memories whose native
# file is still there, since the host already loads its own index (`MEMORY.md` of the native
# folder) into the same context.


MARKS_CAP = 1_000_000


def read_marks(paths: MemoryPaths) -> dict[str, str]:
    """memory path (relative to `.claude/memory/`) -> native file; {} when none or unreadable."""
    try:
        with open(paths.native_marks, encoding="utf-8") as handle:
            data = json.loads(handle.read(MARKS_CAP))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {k: v for k, v in data.items() if isinstance(k, str) and isinstance(v, str)}


def write_marks(paths: MemoryPaths, marks: dict[str, str]) -> None:
    write_atomic(paths.native_marks, json.dumps(marks, indent=1, sort_keys=True) + "\n")


def without_native(paths: MemoryPaths, index: str) -> tuple[str, int]:
    """The index text less the pointer lines of memories imported from native files that are
    still there (the host injects its own index of them), and how many lines were left out."""
    marks = read_marks(paths) if index else {}
    if not marks:
        return index, 0
    kept: list[str] = []
    dropped = 0
    for line in index.splitlines(keepends=True):
        path = _pointer(line)
        if path in marks and os.path.isfile(marks[path]):
            dropped += 1
            continue
        kept.append(line)
    return "".join(kept), dropped


def _pointer(line: str) -> str:
    """The memory path of a pointer line `- [Title](path.md) — description`, or ""."""
    if not line.startswith("- ["):
        return ""
    start = line.find("](")
    end = line.find(")", start + 2) if start > 0 else -1
    return line[start + 2 : end] if end > start else ""
