"""`memhooks stop`: archive the session summary, mark memory inactive, keep every file."""

from __future__ import annotations

import argparse
from typing import Any

from memhooks.cli.common import add_json, open_tree
from memhooks.cli.output import emit
from memhooks.errors import Exit, UserError
from memhooks.store.session_state import StateUnreadableError, change_state, repair_state
from memhooks.text.clock import iso

CONFIRMATION = "Memory mode stopped. Files preserved in .claude/memory/"


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "stop",
        help="turn memory off (files are kept)",
        description="Record the session in MEMORY-archive.md's session "
        "table, mark memory inactive and stop the hooks. Nothing is deleted.",
    )
    add_json(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    paths, store = open_tree(args)
    now = iso()

    def deactivate(state: dict[str, Any]) -> bool:
        repair_state(state)
        was_active = state.get("active") is True
        if was_active:
            stats = state.get("stats") if isinstance(state.get("stats"), dict) else {}
            archived = state.setdefault("archived_sessions", [])
            if isinstance(archived, list):
                archived.insert(
                    0,
                    {
                        "started": state.get("started") or "",
                        "ended": now,
                        "entries_archived": (stats or {}).get("indexArchived", 0),
                    },
                )
        state["active"] = False
        state["stopped"] = now
        state["lastActivity"] = now
        return was_active

    with store.locked():
        try:
            was_active = change_state(paths.session, deactivate, create=True) is True
        except StateUnreadableError as exc:
            raise UserError(str(exc), Exit.REFUSED) from None
    store.refresh()
    data = {
        "active": False,
        "was_active": was_active,
        "root": str(paths.root),
        "message": CONFIRMATION,
    }
    emit(
        data,
        CONFIRMATION if was_active else "Memory mode was not active. " + CONFIRMATION,
        as_json=args.json,
    )
    return Exit.OK
