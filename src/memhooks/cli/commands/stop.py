"""`memhooks stop`: archive the session summary, mark memory inactive, keep every file, and
record that the user turned memory off for this checkout on this machine (store.consent)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from memhooks.cli.common import add_json, local_paths, memory_paths, open_store, require_tree
from memhooks.cli.output import emit
from memhooks.errors import Exit, UserError
from memhooks.store import (
    CONSENT_OFF,
    StateUnreadableError,
    change_state,
    record_consent,
    repair_state,
)
from memhooks.text.clock import iso

CONFIRMATION = "Memory mode stopped. Files preserved in .claude/memory/"
ALREADY_OFF = "Memory mode was already off. Files preserved in .claude/memory/"
SILENCED = "Memory stays off for this checkout on this machine. Files preserved in .claude/memory/"


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "stop",
        help="turn memory off for this checkout on this machine (files are kept)",
        description="Record the session in MEMORY-archive.md's session "
        "table, mark memory inactive and stop the hooks. Nothing is deleted. Where a cloned "
        "repository ships memory, this also silences the note that offers to turn it on.",
    )
    add_json(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    paths = memory_paths(args)
    if Path(paths.base).is_dir():
        # First, and whatever follows: the user's word for this checkout, kept outside it.
        record_consent(paths.base, CONSENT_OFF)
        paths = local_paths(paths)
        if not Path(paths.session).exists():  # a clone's memory, never started here: now silenced
            data = {"active": False, "was_active": False, "root": paths.base}
            emit({**data, "message": SILENCED}, SILENCED, as_json=args.json)
            return Exit.OK
    require_tree(paths)
    store = open_store(paths)
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
        "root": paths.base,
        "message": CONFIRMATION,
    }
    emit(
        data,
        CONFIRMATION if was_active else ALREADY_OFF,
        as_json=args.json,
    )
    return Exit.OK
