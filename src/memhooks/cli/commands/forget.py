"""`memhooks forget QUERY|PATH`: show the memory that would be retired, and retire it with --yes.
With --user, in the user tier (memories about the person, every project).

Seed 003: forgetting retires (the file stays, out of the index and search, with the reason
and date; GC deletes it after the grace period, `memhooks restore` brings it back). Nothing is
retired without --yes, so the user sees what goes first.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from memhooks.cli.common import add_json, memory_paths, open_store, require_tree
from memhooks.cli.output import emit
from memhooks.errors import Exit, UserError
from memhooks.install.invocation import cli_hint
from memhooks.store import TREE_PREFIX as PREFIX
from memhooks.store import MemoryPaths

FORGET_FLOOR = 1.0
DEFAULT_REASON = "forgotten at the user's request"


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "forget",
        help="retire a memory found by path or search (shows it first; --yes to confirm)",
        description="Find a memory by its path (relative to .claude/memory/) or by the best "
        "search match for QUERY, and show it. Without --yes nothing changes. With --yes it "
        "is retired, never deleted: it leaves the index and search, keeps its file with the "
        "reason, and `memhooks restore PATH` brings it back. With --user it looks in the user "
        "tier (memories about you, every project) instead of this project.",
        epilog="Example: memhooks forget redis cache  ->  memhooks forget "
        "decisions/2025-01-02_001_use-redis.md --yes --reason 'we dropped redis'",
    )
    parser.add_argument("target", nargs="+", help="a memory path, or words to search for")
    parser.add_argument("--yes", action="store_true", help="retire it (default: only show it)")
    parser.add_argument("--reason", help=f"why, kept in the file (default: {DEFAULT_REASON!r})")
    parser.add_argument(
        "--user",
        action="store_true",
        help="look in the user tier (memories about you, every project), not this project",
    )
    add_json(parser)
    parser.set_defaults(func=run)


def _as_path(paths: MemoryPaths, target: str, prefix: str) -> str | None:
    relative = target.strip().removeprefix(prefix).removeprefix(PREFIX)
    if not relative.endswith(".md") or " " in relative:
        return None
    from memhooks.store import UnsafePathError, contained

    try:
        path = contained(Path(paths.base), relative)
    except UnsafePathError as exc:
        raise UserError(str(exc), Exit.REFUSED) from None
    if not path.is_file():
        raise UserError(f"no memory at {prefix}{relative}", Exit.NOT_FOUND)
    return relative


def _search(paths: MemoryPaths, query: str, prefix: str) -> list[Any]:
    from memhooks.recall.search_index import SearchIndex

    if not Path(paths.search_db).exists():
        raise UserError(
            f"no search index for {prefix} on this machine: run {cli_hint('rebuild')}, "
            "or give the path",
            Exit.NOT_FOUND,
        )
    with SearchIndex(paths.search_db) as index:
        return list(index.query(query, limit=4, min_score=FORGET_FLOOR))


def run(args: argparse.Namespace) -> int:
    paths = memory_paths(args)
    require_tree(paths)
    store = open_store(paths)
    prefix, flag = PREFIX, ""
    if args.user:
        from memhooks.cli.user_store import open_user_store
        from memhooks.store import display

        store = open_user_store(paths, store.settings)
        paths, prefix, flag = store.paths, display(store.paths), " --user"
    target = " ".join(args.target)
    relative = _as_path(paths, target, prefix)
    others: list[Any] = []
    if relative is None:
        hits = _search(paths, target, prefix)
        if not hits:
            raise UserError(
                f'no active memory in {prefix} matches "{target}": try other words or the path',
                Exit.NOT_FOUND,
            )
        relative, others = hits[0].path, hits[1:]
    meta, _body, _digest = store.read(relative)
    title = str(meta.get("title") or relative)
    description = str(meta.get("description") or "")
    status = str(meta.get("record_status") or "active")
    shown = f"{prefix}{relative} — {title}" + (f": {description}" if description else "")
    data: dict[str, Any] = {
        "path": prefix + relative,
        "title": title,
        "description": description,
        "category": meta.get("category"),
        "record_status": status,
        "other_matches": [prefix + h.path for h in others],
    }
    if status != "active":
        data["retired"] = False
        emit(data, f"Already {status}, nothing to do: {shown}", as_json=args.json)
        return Exit.OK
    if not args.yes:
        lines = [f"Would retire: {shown}"]
        if others:
            lines.append("Other matches (not touched):")
            lines += [f"- {prefix}{h.path} — {h.title}" for h in others]
        lines.append(
            "Nothing changed. To confirm: "
            + cli_hint(f'forget{flag} {relative} --yes --reason "…"').strip("`")
        )
        data["retired"] = False
        emit(data, "\n".join(lines), as_json=args.json)
        return Exit.OK
    reason = " ".join((args.reason or DEFAULT_REASON).split())
    saved = store.set_record_status(relative, "retired", reason)
    data.update(retired=True, record_status=saved.entry.record_status, reason=reason)
    emit(
        data,
        f"Retired: {shown}\nReason: {reason}\nThe file is kept (GC deletes it after the grace "
        f"period); {cli_hint('restore' + flag + ' ' + relative)} brings it back.",
        as_json=args.json,
    )
    return Exit.OK
