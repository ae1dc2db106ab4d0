"""What a tree holds and how it is doing: on or off, counts per category, the index's health,
stale citations, what the hooks injected. `memhooks status` prints it; `memhooks view` shows
it on the page."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from memhooks.store import (
    CATEGORIES,
    CONSENT_OFF,
    CONSENT_ON,
    MemoryPaths,
    StateUnreadableError,
    consent_decision,
    load_catalog,
    read_state,
    read_status,
    status_line,
)

STALE_CHECK_SECONDS = 5.0


def index_health(paths: MemoryPaths) -> dict[str, Any]:
    from memhooks.store import read_bytes

    try:
        data = read_bytes(paths.index)
    except OSError:
        return {"exists": False}
    text = data.decode("utf-8", errors="replace")
    entries = sum(1 for line in text.splitlines() if line.startswith("- ["))
    cut_note = next((line for line in text.splitlines() if line.startswith("> ")), "")
    return {
        "exists": True,
        "entries": entries,
        "lines": len(text.splitlines()),
        "bytes": len(data),
        "cut_note": cut_note.lstrip("> "),
    }


def stale_memories(paths: MemoryPaths, active: list[str]) -> dict[str, list[str]]:
    """{memory: files} for the memories whose cited code changed (cached verdicts)."""
    from memhooks.recall.citation_check import stale_of

    try:  # a command has the time a prompt has not
        return stale_of(paths, active, budget=STALE_CHECK_SECONDS)
    except (OSError, ValueError):
        return {}


def collect(paths: MemoryPaths) -> dict[str, Any]:
    try:
        state = read_state(paths.session)
        problem = ""
    except StateUnreadableError as exc:
        state, problem = None, str(exc)
    cat = load_catalog(paths.catalog)
    counts = cat.counts() if cat else {}
    retired = sum(1 for e in cat.entries.values() if e.record_status == "retired") if cat else 0
    archived = sum(1 for e in cat.entries.values() if e.record_status == "archived") if cat else 0
    index_archived = (
        sum(1 for e in cat.entries.values() if e.active and e.index_archived_at) if cat else 0
    )
    status = read_status(paths)
    stale = stale_memories(paths, [e.path for e in cat.active()] if cat else [])
    from memhooks.recall.search_index import SIDECARS
    from memhooks.store import conflicted_files, quarantined

    journal = Path(paths.search_db + SIDECARS[0])
    says_active = bool(state and state.get("active") is True)
    decided = consent_decision(paths.base)
    return {
        "conflicts": conflicted_files(paths.base, tuple(c.folder for c in CATEGORIES)),
        "quarantined": quarantined(paths),
        "search_journal": journal.is_file(),
        "root": paths.base,
        "local": paths.cache,
        "quarantine": paths.quarantine,
        "rebuild_log": paths.rebuild_log,
        "exists": state is not None or Path(paths.base).is_dir(),
        "active": says_active and decided is not None and decided["state"] == CONSENT_ON,
        "why": why(says_active=says_active, decided=decided),
        "started": (state or {}).get("started"),
        "last_activity": (state or {}).get("lastActivity"),
        "last_memory_write": (state or {}).get("lastMemoryWrite"),
        "project": (state or {}).get("project"),
        "branch": (state or {}).get("branch"),
        "counts": {c.name: counts.get(c.name, 0) for c in CATEGORIES},
        "total": sum(counts.values()),
        "retired": retired,
        "archived_records": archived,
        "index": {**index_health(paths), "archived": index_archived},
        "status_line": status_line(status),
        "catalog": cat is not None,
        "stale": len(stale),
        "stale_citations": stale,
        "problem": problem,
        "injected": injected(paths),
        "semantic": semantic_state(paths),
        "rebuild": background_rebuild(paths),
        "dropped_patterns": dropped_patterns(paths),
        "unmerged": unmerged(paths),
    }


def unmerged(paths: MemoryPaths) -> dict[str, object] | None:
    """In a linked worktree, the memories not on the main branch yet (continuity.unmerged);
    None elsewhere, or when git cannot tell."""
    from memhooks.continuity.unmerged import not_on_main

    return not_on_main(paths)


def background_rebuild(paths: MemoryPaths) -> dict[str, str]:
    """The rebuild SessionStart last started: {"job": running, failed or "",
    "detail": its process id, or why it failed}."""
    from memhooks.store import rebuild_job

    job, detail = rebuild_job(paths)
    return {"job": job, "detail": detail}


def dropped_patterns(paths: MemoryPaths) -> list[str]:
    """A line for each `redact.extra_patterns` entry too slow to run (`store.pattern_timings`)."""
    from memhooks.store import load_settings, usable_patterns

    patterns = load_settings(paths.config).redact_patterns
    return usable_patterns(paths.patterns, patterns)[1] if patterns else []


def why(*, says_active: bool, decided: dict[str, Any] | None) -> str:
    """Why memory is on or off for this checkout on this machine, in one phrase."""
    since = f" on {decided['since']}" if decided and decided.get("since") else ""
    if decided is not None and decided["state"] == CONSENT_OFF:
        return f"turned off for this checkout on this machine (`/memory stop`{since})"
    if decided is None:
        return (
            "nobody turned memory on for this checkout on this machine (a cloned "
            "repository's memory, or a new clone): review it with `/memory view`, then run "
            "`/memory start`"
        )
    if not says_active:
        return (
            "turned on here, but this machine's session record says inactive: run `/memory start`"
        )
    if decided.get("repository"):
        return (
            f"turned on in another checkout of this repository on this machine (`/memory "
            f"start`{since}), which covers its worktrees"
        )
    return f"turned on for this checkout on this machine (`/memory start`{since})"


def semantic_state(paths: MemoryPaths) -> dict[str, Any]:
    """Whether semantic signals serve this project (install.semantic_status)."""
    from memhooks.install.semantic_status import describe

    try:
        return describe(paths)
    except (OSError, ValueError) as exc:
        return {"mode": "?", "serving": False, "ok": False, "detail": str(exc), "fix": ""}


def injected(paths: MemoryPaths) -> dict[str, Any]:
    """Characters each hook put into the context in this session (or the latest one)."""
    import os

    from memhooks.store import session_counts

    sid, counts = session_counts(paths.injected, os.environ.get("CLAUDE_CODE_SESSION_ID") or None)
    return {
        "session_id": sid,
        "hooks": {h: {"injections": n, "chars": c} for h, (n, c) in counts.items()},
        "total_chars": sum(c for _, c in counts.values()),
    }
