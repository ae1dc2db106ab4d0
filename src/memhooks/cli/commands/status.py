"""`memhooks status`: active, started, last activity, counts per category, index health."""

from __future__ import annotations

import argparse
from typing import Any

from memhooks import catalog as catalog_io
from memhooks.categories import CATEGORIES
from memhooks.cli.common import add_json, memory_paths
from memhooks.cli.errors import Exit
from memhooks.cli.output import emit
from memhooks.invocation import cli_hint
from memhooks.paths import MemoryPaths
from memhooks.session_state import StateUnreadableError, read_state
from memhooks.status_line import one_line, read_status


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
    try:
        data = paths.index.read_bytes()
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
    from memhooks.citation_check import stale_of

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
    return {
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
    if data["problem"]:
        lines.append(f"Problem: {data['problem']}")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    data = collect(memory_paths(args))
    emit(data, render(data), as_json=args.json)
    return Exit.OK
