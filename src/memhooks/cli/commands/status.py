"""`memhooks status`: active, started, last activity, counts per category, index health."""

from __future__ import annotations

import argparse
from typing import Any

from memhooks.cli.common import add_json, memory_paths
from memhooks.cli.output import emit
from memhooks.errors import Exit
from memhooks.install.invocation import cli_hint
from memhooks.store import catalog as catalog_io
from memhooks.store.categories import CATEGORIES
from memhooks.store.context_files import one_line, read_status
from memhooks.store.paths import MemoryPaths
from memhooks.store.session_state import StateUnreadableError, read_state


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "status",
        help="show whether memory is on and what it holds",
        description="Report the memory state: active or not, session start, "
        "last activity, memories per category and the index's health.",
    )
    add_json(parser)
    parser.set_defaults(func=run)


def index_health(paths: MemoryPaths) -> dict[str, Any]:
    from memhooks.store.safe_fs import read_bytes

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

    try:
        return stale_of(paths.base, active)
    except (OSError, ValueError):
        return {}


def collect(paths: MemoryPaths) -> dict[str, Any]:
    try:
        state = read_state(paths.session)
        problem = ""
    except StateUnreadableError as exc:
        state, problem = None, str(exc)
    cat = catalog_io.load(paths.catalog)
    counts = cat.counts() if cat else {}
    retired = sum(1 for e in cat.entries.values() if e.record_status == "retired") if cat else 0
    archived = sum(1 for e in cat.entries.values() if e.record_status == "archived") if cat else 0
    index_archived = (
        sum(1 for e in cat.entries.values() if e.active and e.index_archived_at) if cat else 0
    )
    status = read_status(paths)
    stale = stale_memories(paths, [e.path for e in cat.active()] if cat else [])
    from memhooks.recall.search_index import SIDECARS
    from memhooks.store.conflicts import conflicted_files

    journal = paths.search_db.with_name(paths.search_db.name + SIDECARS[0])
    return {
        "conflicts": conflicted_files(str(paths.root), tuple(c.folder for c in CATEGORIES)),
        "search_journal": journal.is_file(),
        "root": str(paths.root),
        "exists": state is not None,
        "active": bool(state and state.get("active") is True),
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
        "status_line": one_line(status),
        "catalog": cat is not None,
        "stale": len(stale),
        "stale_citations": stale,
        "problem": problem,
        "injected": injected(paths),
        "semantic": semantic_state(paths),
    }


def semantic_state(paths: MemoryPaths) -> dict[str, Any]:
    from memhooks.cli.semantic_status import describe

    try:
        return describe(paths)
    except (OSError, ValueError) as exc:
        return {"mode": "?", "serving": False, "ok": False, "detail": str(exc), "fix": ""}


def injected(paths: MemoryPaths) -> dict[str, Any]:
    """Characters each hook put into the context in this session (or the latest one)."""
    import os

    from memhooks.store.ledger import session_counts

    sid, counts = session_counts(
        paths.file("injected"), os.environ.get("CLAUDE_CODE_SESSION_ID") or None
    )
    return {
        "session_id": sid,
        "hooks": {h: {"injections": n, "chars": c} for h, (n, c) in counts.items()},
        "total_chars": sum(c for _, c in counts.values()),
    }


def render(data: dict[str, Any]) -> str:
    if not data["exists"]:
        return (
            f"Memory is not set up in this project ({data['root']}).\n"
            f"Run `/memory start` in Claude Code (or {cli_hint('start')}) to turn it on."
        )
    lines = [
        f"Memory: {'ACTIVE' if data['active'] else 'INACTIVE'}  ({data['root']})",
        f"Started: {data['started'] or '-'}   Last activity: {data['last_activity'] or '-'}",
        f"Status: {data['status_line']}",
        "Memories: "
        + ", ".join(f"{k} {v}" for k, v in data["counts"].items() if v)
        + f" (total {data['total']}; retired {data['retired']})",
    ]
    index = data["index"]
    if index.get("exists"):
        lines.append(
            f"Index: {index['entries']} entries, {index['lines']} lines, "
            f"{index['bytes']:,} bytes; {index['archived']} in MEMORY-archive.md"
        )
    else:
        lines.append("Index: MEMORY.md missing; run `memhooks rebuild`")
    if data["stale"]:
        lines.append(
            f"Stale: {data['stale']} memories cite code that changed; "
            "`memhooks consolidate` lists them for review"
        )
    if not data["catalog"]:
        lines.append("Catalog: missing; run `memhooks rebuild`")
    ledger = data["injected"]
    if ledger["hooks"]:
        lines.append(
            f"Injected this session: {ledger['total_chars']:,} characters ("
            + ", ".join(
                f"{hook} {v['chars']:,} in {v['injections']}" for hook, v in ledger["hooks"].items()
            )
            + ")"
        )
    else:
        lines.append("Injected this session: nothing yet")
    semantic = data["semantic"]
    lines.append(
        f"Semantic signals: {semantic['detail']}"
        + (f" ({semantic['fix']})" if semantic["fix"] else "")
    )
    if data["conflicts"]:
        lines.append(
            f"Conflicts: {len(data['conflicts'])} file(s) hold git conflict markers (not "
            "injected until resolved; then run `memhooks rebuild`): "
            + ", ".join(data["conflicts"][:10])
        )
    if data["search_journal"]:
        lines.append(
            "Search index: an interrupted write left .cache/search.sqlite3-journal; the next "
            "search rolls it back (or run `memhooks rebuild`)"
        )
    if data["problem"]:
        lines.append(f"Problem: {data['problem']}")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    data = collect(memory_paths(args))
    emit(data, render(data), as_json=args.json)
    return Exit.OK
