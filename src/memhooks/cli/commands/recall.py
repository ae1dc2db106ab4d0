"""`memhooks recall [QUERY…]`: master.md and the index, or the memories that match a query."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memhooks.cli.common import add_json, memory_paths, report_config, require_tree
from memhooks.cli.output import emit
from memhooks.curate.summary_material import read_if_present
from memhooks.errors import Exit, UserError
from memhooks.install.invocation import cli_hint
from memhooks.recall.lookup import RECALL_FLOOR
from memhooks.store import TREE_PREFIX as PREFIX
from memhooks.store import MemoryPaths
from memhooks.text.frame import frame, one_line

if TYPE_CHECKING:
    from memhooks.recall.search_read import Hit

RECALL_LIMIT = 10
MASTER_CAP = 20_000
INDEX_CAP = 25_000


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "recall",
        help="print master.md and the index, or the memories matching a query",
        description="Without a query: print .claude/memory/master.md (the synthesized project "
        "memory) and MEMORY.md (the index). With a query: list the best-matching memories, "
        "ranked as the per-prompt hook ranks them but with a lower floor and more results, "
        "one line each (path — title: description, score), so that only the files needed "
        "are read; then the session checkpoints that hold the query's words (state saved "
        "before a compaction: never indexed, never pointed at by the hooks); then the turns of "
        "the sessions this machine kept evidence of (the next session's restore shows only "
        "some turns of a long session) that hold the query's words, newest session first: "
        "session, date, turn, and the user's words and Claude's answer around the match. "
        "Session journals, checkpoints and turns are found here only, never in the per-prompt "
        "pointers.",
        epilog="Examples: memhooks recall | memhooks recall auth tokens --limit 5",
    )
    parser.add_argument("query", nargs="*", help="words to search for (none: master.md + index)")
    parser.add_argument(
        "--how",
        action="store_true",
        help="print the resolved command line to run recall with (for /memory recall)",
    )
    parser.add_argument(
        "--limit",
        type=int,
        default=RECALL_LIMIT,
        help=f"at most this many of each kind: memories, checkpoints, turns (default "
        f"{RECALL_LIMIT})",
    )
    parser.add_argument(
        "--min-score",
        type=float,
        default=RECALL_FLOOR,
        help=f"the memories' score floor (default {RECALL_FLOOR}; 0 lists every match); "
        "checkpoints and turns are listed by the query's words they hold, not by a score",
    )
    parser.add_argument(
        "--explain",
        action="store_true",
        help="show why each memory would or would not be pointed at by the per-prompt hook "
        "(terms, scores, matched fields, the store's floor, the gate's decision)",
    )
    add_json(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.how:
        from memhooks.install.invocation import cli_command

        emit({"command": f"{cli_command()} recall"}, f"{cli_command()} recall", as_json=args.json)
        return Exit.OK
    paths = memory_paths(args)
    require_tree(paths)
    if not args.explain:  # --explain reads it strictly: a bad one is its error (exit 5)
        report_config(paths)
    query = " ".join(args.query).strip()
    if not query:
        return _overview(paths, as_json=args.json)
    if args.explain:
        return _explain(paths, query, as_json=args.json)
    if args.limit <= 0:
        raise UserError("--limit must be at least 1", Exit.USAGE)
    return _search(paths, query, args.limit, max(args.min_score, 0.0), as_json=args.json)


def _without_derived_note(index: str) -> str:
    """MEMORY.md without the HTML comment `rebuild` writes for editors: in the frame it would
    read `&lt;!-- Derived by memhooks…` (every tag-like `<` is escaped there)."""
    return "\n".join(
        line
        for line in index.split("\n")
        if not (line.startswith("<!-- Derived by memhooks") and line.endswith("-->"))
    )


def _overview(paths: MemoryPaths, *, as_json: bool) -> int:
    master = read_if_present(Path(paths.master))
    index = read_if_present(Path(paths.index))
    parts: list[str] = []
    if master is None:
        parts.append(
            f"No {PREFIX}master.md yet: nothing has been synthesized. Run /memory synthesize "
            f"(or {cli_hint('synthesize --material')}) to build it from the session summaries."
        )
    else:
        parts.append(
            f"=== {PREFIX}master.md (synthesized project memory) ===\n\n"
            + frame(f"{PREFIX}master.md", _cap(master, MASTER_CAP))
        )
    if index is None:
        parts.append(f"No {PREFIX}MEMORY.md: run {cli_hint('rebuild')} to regenerate it.")
    else:
        parts.append(
            f"=== {PREFIX}MEMORY.md (index: read only the file you need) ===\n\n"
            + frame(f"{PREFIX}MEMORY.md", _cap(_without_derived_note(index), INDEX_CAP))
        )
    waiting = _native_waiting(paths)
    if waiting:
        parts.append(
            f"Claude Code's own auto memory holds {len(waiting)} topic file(s) not in "
            f"{PREFIX} (read only; {cli_hint('recall QUERY')} lists the ones that match, "
            f"{cli_hint('import --native')} files them): " + ", ".join(waiting[:10])
        )
    from memhooks.cli.user_store import user_overview

    user = user_overview(paths, INDEX_CAP)
    if user:
        parts.append(user)
    emit(
        {
            "master": master,
            "index": index,
            "root": paths.base,
            "native": waiting,
            "user_index": user or None,
        },
        "\n\n".join(parts),
        as_json=as_json,
    )
    return Exit.OK


def _search(paths: MemoryPaths, query: str, limit: int, floor: float, *, as_json: bool) -> int:

    _catch_up(paths)
    hits, problem = _query(paths, query, limit, floor)
    if problem:  # an index another memhooks version wrote, or damaged: derived, made again
        _catch_up(paths, remake=True)
        hits, problem = _query(paths, query, limit, floor)
    if problem:
        raise UserError(f"the search index cannot be read ({problem}): run {cli_hint('rebuild')}")
    from memhooks.cli import checkpoint_search, turn_search
    from memhooks.cli.user_store import user_hits

    checkpoints = checkpoint_search.search(paths, query, limit)
    turns, turns_found = turn_search.counted(paths, query, limit)
    native = _native(paths, query, limit)
    user_prefix, user_found = user_hits(paths, query, limit, floor)
    data = {
        "query": query,
        "native": native,
        "results": [_result(PREFIX, h) for h in hits],
        "checkpoints": checkpoints,
        "turns": turns,
        "turns_found": turns_found,
        "user_results": [_result(user_prefix, h, "user") for h in user_found],
    }
    if not hits and not checkpoints and not turns and not native and not user_found:
        text = (
            f'No memory in {PREFIX} matches "{query}". Try other words, or read '
            f"{PREFIX}MEMORY.md (run {cli_hint('recall')} with no query)."
        )
    else:
        lines = [
            f'Memories in {PREFIX} (this project) matching "{query}", best first (read only '
            "the files you need):"
        ]
        found = [_line(PREFIX, h) for h in hits]
        text = (
            "\n".join(lines) + "\n" + frame(f"{PREFIX} (search index)", "\n".join(found))
            if hits
            else f'No memory in {PREFIX} matches "{query}".'
        )
        if checkpoints:
            listed = [
                one_line(f"- {c['path']} — {c['title']}  [matched: {', '.join(c['matched'])}]", 600)
                for c in checkpoints
            ]
            text += (
                "\nSession checkpoints (state saved before a compaction, not memories) that "
                "match:\n" + frame(f"{PREFIX}checkpoints/sessions/", "\n".join(listed))
            )
        text += _turns_text(turns, turns_found)
        if user_found:
            text += (
                f'\nMemories in the user tier ({user_prefix}, every project) matching "{query}":\n'
                + frame(
                    f"{user_prefix} (search index)",
                    "\n".join(_line(user_prefix, h, ", user tier") for h in user_found),
                )
            )
        text += _native_text(native)
    emit(data, text, as_json=as_json)
    return Exit.OK


def _turns_text(turns: list[dict[str, Any]], found: int) -> str:
    """The turns listed, each with its session, date and number, then the words as kept; how
    many more matched when not all are listed."""
    if not turns:
        return ""
    more = (
        f" (the {len(turns)} of {found:,} that match best; --limit lists more)"
        if found > len(turns)
        else ""
    )
    listed = []
    for t in turns:
        when = f", {t['date']}" if t["date"] else ""
        head = f"- session {str(t['session'])[:8]}{when}, turn {t['turn']}"
        listed.append(one_line(f"{head}  [matched: {', '.join(t['matched'])}]", 300))
        listed += ["  " + one_line(f"{who}: {t[key]}", 600) for who, key in WHO if t[key]]
    return (
        "\nTurns of this machine's kept sessions (their evidence, newest session first; the "
        f"next session's restore may not show them) that match{more}:\n"
        + frame("the kept sessions, evidence (machine-local)", "\n".join(listed))
    )


WHO = (("user", "user"), ("Claude", "claude"))


def _native(paths: MemoryPaths, query: str, limit: int) -> list[dict[str, object]]:
    """Claude Code's own auto memory files that match and are not imported (read only)."""
    from memhooks.transfer.native import native_folder, native_matches

    folder = native_folder(Path(paths.base).parent.parent)
    return native_matches(paths, folder, query, limit) if folder.is_dir() else []


def _native_waiting(paths: MemoryPaths) -> list[str]:
    """The names of the native topic files not imported yet."""
    from memhooks.transfer.native import native_folder, not_imported

    folder = native_folder(Path(paths.base).parent.parent)
    return [f.name for f in not_imported(paths, folder)] if folder.is_dir() else []


def _native_text(native: list[dict[str, object]]) -> str:
    if not native:
        return ""
    listed = [
        one_line(
            f"- {n['native_path']} — {n['title']}"
            + (f": {n['description']}" if n["description"] else "")
            + f"  [native {n['type']}, not imported]",
            600,
        )
        for n in native
    ]
    return (
        "\nClaude Code's own auto memory (native files, read only, not in "
        f"{PREFIX}; {cli_hint('import --native')} files them) that match:\n"
        + frame("Claude Code auto memory", "\n".join(listed))
    )


def _result(prefix: str, hit: Hit, tier: str = "project") -> dict[str, object]:
    return {
        "path": prefix + hit.path,
        "title": hit.title,
        "description": hit.description,
        "category": hit.category,
        "score": round(hit.score, 2),
        "tier": tier,
    }


def _line(prefix: str, hit: Hit, note: str = "") -> str:
    """`- path — title: description  [category, score]`, one line whatever the file holds."""
    return one_line(
        f"- {prefix}{hit.path} — {hit.title}"
        + (f": {hit.description}" if hit.description else "")
        + f"  [{hit.category}, score {hit.score:.1f}{note}]",
        600,
    )


def _query(paths: MemoryPaths, query: str, limit: int, floor: float) -> tuple[list[Hit], str]:
    """The hits, and why the index could not be read ("" when it could)."""
    from memhooks.recall.search_index import SearchIndex

    if not Path(paths.search_db).exists():  # the first save creates it; until then nothing matches
        return [], ""
    with SearchIndex(paths.search_db) as index:
        hits = index.query(query, limit=limit, min_score=floor)
        return list(hits), index.last_error or ""


#: Seconds recall waits for the store lock before it searches the index as it is.
CATCH_UP_WAIT = 2.0


def _catch_up(paths: MemoryPaths, *, remake: bool = False) -> None:
    """Index what the hooks wrote since the last command: the Stop hook appends this
    session's journal to sessions/<id>.md without indexing it, and recall must find it.
    Only when something changed (a few stats otherwise); a busy or read-only store is
    searched as it is."""
    from memhooks.recall.citations import with_hashes
    from memhooks.recall.search_index import SearchIndex
    from memhooks.store import LockTimeoutError, Store, StoreError, load_settings

    # As the hooks read config.json (a typo ignored): a search must not fail on a setting
    # it does not use.
    config = load_settings(paths.config)
    store = Store(paths, config, search=SearchIndex, cite=with_hashes, lock_timeout=CATCH_UP_WAIT)
    try:
        if remake:
            store.refresh()  # the writer remakes an index of another version, then heals it
        else:
            store.catch_up()
    except (LockTimeoutError, StoreError, OSError) as exc:
        import sys

        sys.stderr.write(f"memhooks: searching the index as it is ({exc})\n")


def _explain(paths: MemoryPaths, query: str, *, as_json: bool) -> int:
    from memhooks.cli import explain
    from memhooks.cli.common import settings
    from memhooks.hooks.user_prompt import NOT_POINTED_AT, is_request
    from memhooks.recall.search_index import DEFAULT_TABLE, SearchIndex

    if not Path(paths.search_db).exists():
        raise UserError("no search index yet: save a memory or run `memhooks rebuild`")
    config = settings(paths)  # what the hook reads: the same decision, not the defaults'
    table = None if config.semantic == "off" else DEFAULT_TABLE
    with SearchIndex(paths.search_db, table=table) as index:
        data = explain.explain(
            index,
            query,
            exclude=NOT_POINTED_AT,
            limit=config.max_inject,
            min_score=config.min_score,
        )
    if "error" in data:
        raise UserError(
            f"the search index cannot be read ({data['error']}): run `memhooks rebuild`"
        )
    if not is_request(query):  # the hook asks no index for these
        data["speaks"] = False
        for row in data["candidates"]:
            row["decision"] = "not pointed at: a slash command or notification is no request"
    emit(data, explain.render(data), as_json=as_json)
    return Exit.OK


def _cap(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text.rstrip("\n")
    return text[:limit].rstrip() + f"\n[… cut at {limit:,} characters; read the file for the rest]"
