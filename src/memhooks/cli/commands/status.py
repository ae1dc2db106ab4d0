"""`memhooks status`: active, started, last activity, counts per category, index health."""

from __future__ import annotations

import argparse
from typing import Any

from memhooks.cli.common import add_json, memory_paths, report_config
from memhooks.cli.output import emit
from memhooks.errors import Exit, UserError
from memhooks.install.invocation import cli_hint
from memhooks.view.tree_status import collect


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "status",
        help="show whether memory is on and what it holds",
        description="Report the memory state: active or not for this checkout on this "
        "machine and why, session start, "
        "last activity, memories per category, the index's health, whether semantic "
        "signals serve (on, off, waiting, failed, disabled, or a table whose memory vectors "
        "`rebuild` has not made yet), and what each hook injected into the context this "
        "session, in characters ($CLAUDE_CODE_SESSION_ID, else the latest session).",
    )
    add_json(parser)
    parser.set_defaults(func=run)


def unreadable(data: dict[str, Any]) -> str:
    """One line for a state file that exists but cannot be read."""
    return (
        f"memory's state file cannot be read ({data['problem']}), in {data['root']}; every "
        f"memory file is kept: {cli_hint('doctor')} says what is wrong and how to repair it"
    )


def _not_there(data: dict[str, Any]) -> str:
    return (
        f"Memory is not set up in this project ({data['root']}).\n"
        f"Run `/memory start` in Claude Code (or {cli_hint('start')}) to turn it on."
    )


def render(data: dict[str, Any]) -> str:
    if not data["exists"]:
        return _not_there(data)
    lines = [
        f"Memory: {'ACTIVE' if data['active'] else 'INACTIVE'}  ({data['root']})",
        f"Why: {data['why']}",
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
        lines.append(f"Index: MEMORY.md missing; run {cli_hint('rebuild')}")
    if data["stale"]:
        lines.append(
            f"Stale: {data['stale']} memories cite code that changed; "
            f"{cli_hint('consolidate')} lists them for review"
        )
    if not data["catalog"]:
        lines.append(f"Catalog: missing; run {cli_hint('rebuild')}")
    semantic = data["semantic"]
    lines.append(
        f"Semantic signals: {semantic['detail']}"
        + (f" ({semantic['fix']})" if semantic["fix"] else "")
    )
    lines += _rebuild_lines(data)
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
    if data["conflicts"]:
        lines.append(
            f"Conflicts: {len(data['conflicts'])} file(s) hold git conflict markers (not "
            f"injected until resolved; then run {cli_hint('rebuild')}): "
            + ", ".join(data["conflicts"][:10])
        )
    if data["quarantined"]:
        lines.append(
            f"Put aside: {len(data['quarantined'])} file(s) written into the tree behind the "
            f"store's back were not valid memories; they are in {data['quarantine']} "
            "(never injected): " + ", ".join(data["quarantined"][-5:])
        )
    if data["search_journal"]:
        lines.append(
            "Search index: an interrupted write left its journal (search.sqlite3-journal); "
            f"the next search rolls it back (or run {cli_hint('rebuild')})"
        )
    lines += _user_tier_lines(data)
    lines.extend(f"Redaction: {line}" for line in data["dropped_patterns"])
    lines.extend(_worktree_lines(data.get("unmerged")))
    if data["problem"]:
        lines.append(f"Problem: {data['problem']}")
    return "\n".join(lines)


def _worktree_lines(unmerged: dict[str, Any] | None) -> list[str]:
    """In a worktree: which memories its branch has that the main branch has not yet."""
    if not unmerged:
        return []
    missing = unmerged["paths"]
    if not missing:
        return [f"Worktree: every memory here is on {unmerged['branch']}"]
    one = len(missing) == 1
    return [
        f"Worktree: {len(missing)} {'memory' if one else 'memories'} not on "
        f"{unmerged['branch']} yet (merge the branch to keep {'it' if one else 'them'}; "
        f"removing the worktree unmerged loses {'it' if one else 'them'}): "
        + ", ".join(missing[:10])
        + (f" and {len(missing) - 10} more" if len(missing) > 10 else "")  # noqa: PLR2004
    ]


def _user_tier_lines(data: dict[str, Any]) -> list[str]:
    """The user tier (memories about the person, outside the repository), when there is one."""
    user = data.get("user_tier")
    if not user:
        return []
    counts = ", ".join(f"{k} {v}" for k, v in user["counts"].items())
    where = (
        "injected at SessionStart after this project's memory"
        if data["active"]
        else "not injected here while memory is off"
    )
    return [
        f"User tier (about you, every project; not in this repository): {user['total']} "
        f"memories{f' ({counts})' if counts else ''} in {user['root']}, {where}"
    ]


def _rebuild_lines(data: dict[str, Any]) -> list[str]:
    """The background rebuild, only while it runs or when it failed: never a claim that one
    is under way when its process is gone."""
    rebuild = data["rebuild"]
    if rebuild["job"] == "running":
        return [
            f"Background rebuild: running (process {rebuild['detail']}), started by SessionStart"
        ]
    if rebuild["job"] == "failed":
        return [
            f"Background rebuild: FAILED: {rebuild['detail']} (its output: "
            f"{data['rebuild_log']}); run {cli_hint('rebuild')}"
        ]
    return []


def run(args: argparse.Namespace) -> int:
    from memhooks.cli.user_store import user_summary

    paths = memory_paths(args)
    report_config(paths)
    data = collect(paths)
    data["user_tier"] = user_summary(paths)
    if data["problem"] and not args.json:  # the state file is there but cannot be read
        raise UserError(unreadable(data), Exit.REFUSED)
    emit(data, render(data), as_json=args.json)
    return Exit.REFUSED if data["problem"] else Exit.OK
