# os.lstat and os.open(O_NOFOLLOW) on plain strings: the reads that never follow a symlink.
# ruff: noqa: PTH118, PTH208
"""What `memhooks view` shows, gathered from the tree as plain JSON-ready data.

Memories come from the catalog (the derived list every command reads) plus each file's body,
read without following symlinks and capped, and its commits (`view.history`, one `git log`);
retire/archive reasons come from the frontmatter of the few files that are not active.
Sessions, checkpoints, the host's compaction summaries and sub-agent results form the
timeline; `status`'s collector gives the health line, the counts and the stale citations.
"""

from __future__ import annotations

import datetime as dt
import os
import re
import stat
from typing import Any

from memhooks.store import MemoryPaths, load_catalog
from memhooks.text import clip

BODY_CAP = 20_000  # characters of one memory body shown in the view
TIMELINE_CAP = 4_000  # characters of one journal or checkpoint shown
READ_CAP = 256 * 1024  # bytes read from any one file
_CUT_FOR_VIEW = "\n\n… (cut for the view)"  # ends a body cut to its cap
TIMELINE_MAX = 500  # newest timeline items kept
_SUPERSEDED = re.compile(r"superseded by\s+`?([^\s`;,]+\.md)", re.IGNORECASE)
_COMPACTION = re.compile(
    r"^### (\S+) compaction \((\w+)\): the host's own summary[ \t]*\n\n((?:>.*(?:\n|$))*)",
    re.MULTILINE,
)
_FENCE = re.compile(r"\A---[ \t]*\r?\n.*?^---[ \t]*\r?\n?", re.DOTALL | re.MULTILINE)


def read_safe(path: str, cap: int = READ_CAP) -> str | None:
    """A regular file's text (at most `cap` bytes), never through a symlink; None otherwise."""
    from memhooks.store import read_bytes

    try:
        return read_bytes(path, cap).decode("utf-8", errors="replace")
    except OSError:
        return None


def _safe_dir(paths: MemoryPaths, relative: str) -> str | None:
    """An existing folder of the tree reached without a symlink on the way."""
    current = paths.base
    for part in relative.split("/"):
        current = os.path.join(current, part)
        try:
            if not stat.S_ISDIR(os.lstat(current).st_mode):
                return None
        except OSError:
            return None
    return current


def split_body(text: str) -> str:
    """The markdown body after the frontmatter (no YAML parse: bodies are shown, not trusted)."""
    match = _FENCE.match(text)
    return text[match.end() :] if match else text


def _reason(text: str, key: str) -> str:
    """`retired_reason` or `archived_reason` from the frontmatter, via the project's parser."""
    from memhooks.store import UnparsableMemoryError, parse_text

    try:
        value = parse_text(text).meta.get(key, "")
    except UnparsableMemoryError:
        return ""
    return str(value or "")


def _mtime(path: str) -> str:
    try:
        moment = os.lstat(path).st_mtime
    except OSError:
        return ""
    return dt.datetime.fromtimestamp(moment, dt.timezone.utc).isoformat(timespec="seconds")


def memories(
    paths: MemoryPaths,
    stale: dict[str, list[str]],
    history: dict[str, list[dict[str, str]]] | None = None,
) -> list[dict[str, Any]]:
    cat = load_catalog(paths.catalog)
    if cat is None:
        return []
    from memhooks.store import CATEGORIES

    order = {c.name: n for n, c in enumerate(CATEGORIES)}
    newest = sorted(cat.entries.values(), key=lambda e: e.sort_key(), reverse=True)
    out = []
    for entry in sorted(newest, key=lambda e: order.get(e.category, len(order))):
        text = read_safe(os.path.join(paths.base, *entry.path.split("/"))) or ""
        reason = ""
        if entry.record_status in ("retired", "archived"):
            reason = _reason(text, f"{entry.record_status}_reason")
        found = _SUPERSEDED.search(reason)
        out.append(
            {
                "path": entry.path,
                "category": entry.category,
                "title": entry.title,
                "description": entry.description,
                "tags": list(entry.tags),
                "created": entry.created,
                "updated": entry.updated,
                "status": entry.record_status,
                "reason": reason,
                "superseded_by": found.group(1).removeprefix("./") if found else "",
                "stale": stale.get(entry.path, []),
                "body": clip(split_body(text), BODY_CAP, mark=_CUT_FOR_VIEW),
                "history": (history or {}).get(entry.path, []),
            }
        )
    return out


def chains(items: list[dict[str, Any]]) -> list[list[str]]:
    """Memories that superseded each other, oldest first; each chain of two or more."""
    newer = {m["path"]: m["superseded_by"] for m in items if m["superseded_by"]}
    older = set(newer.values())
    out = []
    for start in sorted(p for p in newer if p not in older):
        chain, seen = [start], {start}
        while chain[-1] in newer and newer[chain[-1]] not in seen:
            chain.append(newer[chain[-1]])
            seen.add(chain[-1])
        out.append(chain)
    return out


def _markdown_files(paths: MemoryPaths, relative: str) -> list[tuple[str, str]]:
    """(name, full path) of the visible `.md` files of a tree folder, sorted; [] when the folder
    is missing, unreadable or not safe to list."""
    folder = _safe_dir(paths, relative)
    if folder is None:
        return []
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return []
    return [
        (name, os.path.join(folder, name))
        for name in names
        if name.endswith(".md") and not name.startswith(".")
    ]


def _folder_items(
    paths: MemoryPaths, relative: str, kind: str, skip: set[str]
) -> list[dict[str, Any]]:
    out = []
    for name, full in _markdown_files(paths, relative):
        rel = f"{relative}/{name}"
        if rel in skip:
            continue
        text = read_safe(full)
        if text is None:
            continue
        out.append(
            {
                "kind": kind,
                "path": rel,
                "when": _mtime(full),
                "title": name.removesuffix(".md"),
                "body": clip(split_body(text), TIMELINE_CAP, mark=_CUT_FOR_VIEW),
            }
        )
    return out


def compactions(paths: MemoryPaths) -> list[dict[str, Any]]:
    """The host's compaction summaries that PostCompact keeps in `sessions/<id>.md`'s journal."""
    out = []
    for name, full in _markdown_files(paths, "sessions"):
        text = read_safe(full) or ""
        session = name.removesuffix(".md")
        for found in _COMPACTION.finditer(text):
            when, how, quoted = found.groups()
            body = "\n".join(
                line[2:] if line.startswith("> ") else line[1:] for line in quoted.splitlines()
            )
            out.append(
                {
                    "kind": "compaction summary",
                    "path": f"sessions/{name}",
                    "when": when,
                    "title": f"session {session} ({how})",
                    "session_id": session,
                    "body": clip(body.strip("\n"), TIMELINE_CAP, mark=_CUT_FOR_VIEW),
                }
            )
    return out


def timeline(paths: MemoryPaths, items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Journals, checkpoints, compaction summaries, session summaries and sub-agent results,
    newest first."""
    catalogued = {m["path"] for m in items}
    events = _folder_items(paths, "sessions", "session journal", catalogued)
    events += _folder_items(paths, "checkpoints", "checkpoint", catalogued)
    events += _folder_items(paths, "checkpoints/sessions", "session checkpoint", catalogued)
    events += compactions(paths)
    for memory in items:
        if memory["category"] in ("session_summary", "subagent"):
            kind = "session summary" if memory["category"] == "session_summary" else "sub-agent"
            events.append(
                {
                    "kind": kind,
                    "path": memory["path"],
                    "when": memory["updated"] or memory["created"],
                    "title": memory["title"],
                    "body": "",
                }
            )
    events.sort(key=lambda e: (e["when"], e["path"]), reverse=True)
    return events[:TIMELINE_MAX]


def injected(paths: MemoryPaths) -> list[dict[str, Any]]:
    """The ledger: characters per hook for each session it keeps, newest first."""
    from memhooks.store import all_sessions

    out = []
    for sid, hooks in reversed(list(all_sessions(paths.injected).items())):
        out.append(
            {
                "session_id": sid,
                "hooks": {h: {"injections": n, "chars": c} for h, (n, c) in hooks.items()},
                "total_chars": sum(c for _, c in hooks.values()),
            }
        )
    return out


def gather(paths: MemoryPaths) -> dict[str, Any]:
    from memhooks.view.history import history
    from memhooks.view.tree_status import collect

    status = collect(paths)
    items = memories(paths, status.get("stale_citations") or {}, history(paths.base))
    return {
        "generated": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
        "root": status["root"],
        "status": {
            "status_line": status["status_line"],
            "active": status["active"],
            "counts": status["counts"],
            "total": status["total"],
            "retired": status["retired"],
            "archived_records": status["archived_records"],
            "stale": status["stale"],
            "index": status["index"],
        },
        "memories": items,
        "chains": chains(items),
        "timeline": timeline(paths, items),
        "injected": injected(paths),
    }


#: The view's group for Claude Code's own auto memory: listed, never written.
NATIVE_GROUP = "native, not imported (read only)"


def native_memories(paths: MemoryPaths) -> list[dict[str, Any]]:
    """The view's rows for the project's native topic files not imported yet (Claude Code's
    own auto memory), in their own read-only group, each under its absolute path: they are
    not in the store until `memhooks import --native`."""
    from pathlib import Path

    from memhooks.transfer.native import TAG, native_folder, not_imported

    folder = native_folder(Path(paths.base).parent.parent)
    if not folder.is_dir():
        return []
    return [
        {
            "path": str(native.path),
            "category": NATIVE_GROUP,
            "title": native.title,
            "description": native.description,
            "tags": [TAG, native.type],
            "created": "",
            "updated": "",
            "status": "native",
            "reason": "",
            "superseded_by": "",
            "stale": [],
            "body": clip(native.body, BODY_CAP, mark=_CUT_FOR_VIEW),
            "history": [],
            "tier": "native",
        }
        for native in not_imported(paths, folder)
    ]
