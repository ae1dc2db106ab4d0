"""Consolidation carried out: the applicable proposals (see `proposals`) applied through the
store, a log of what changed, and the cached summary SessionStart reads.

Applying goes through the store (lock, atomic write, OCC on rewrites); each applied action is
appended to `.claude/memory/consolidation.log.md` with what, why and the diff.
"""

from __future__ import annotations

import contextlib
import datetime as dt
from typing import TYPE_CHECKING

from memhooks.curate.proposals import KINDS, Action, analyse
from memhooks.text.clock import iso, parse_iso

if TYPE_CHECKING:
    from memhooks.store import MemoryPaths, Store

REFRESH_MAX = 500  # memories: above this, a save does not refresh the summary


def apply(store: Store, actions: list[Action], now: dt.datetime | None = None) -> list[Action]:
    """Carry out the applicable actions through the store; log each. Returns those done."""
    from memhooks.store import StoreError

    done: list[Action] = []
    for action in actions:
        if not action.applicable:
            continue
        try:
            if action.kind == "relative_date":
                store.update(
                    action.paths[0], {}, action.new_body, expected_hash=action.digest, now=now
                )
            else:
                verb = "duplicate of" if action.kind == "duplicate" else "superseded by"
                store.set_record_status(
                    action.paths[0], "retired", f"{verb} {action.paths[1]}", now=now
                )
        except StoreError as exc:
            action.reason += f" (not applied: {exc})"
            continue
        done.append(action)
    if done:
        write_log(store, done, now)
    return done


def write_log(store: Store, done: list[Action], now: dt.datetime | None) -> None:
    from memhooks.store import append_log

    target = store.paths.consolidation_log
    lines = [f"## {iso(now)} — memhooks consolidate --apply", ""]
    for action in done:
        lines.append(f"- **{action.kind}**: {action.proposal}")
        lines.append(f"  - why: {action.reason}")
        if action.kind in ("duplicate", "superseded"):
            lines.append(f"  - undo: `memhooks restore {action.paths[0]}`")
        else:
            lines.append(f"  - undo: `memhooks restore {action.paths[0]}`")
        if action.diff:
            lines += ["", "```diff", action.diff.rstrip("\n"), "```", ""]
    entry = "\n".join(lines).rstrip("\n") + "\n"
    with store.locked():
        append_log(target, entry)


# ------------------------------------------------------- the cached summary


def record_pending(
    paths: MemoryPaths, actions: list[Action], now: dt.datetime | None = None
) -> None:
    """`.cache/consolidation.json`: what SessionStart reads to mention pending proposals."""
    from memhooks.store import read_summary, write_summary

    previous = read_summary(paths) or {}
    kinds = {k: sum(1 for a in actions if a.kind == k) for k in KINDS}
    data = {
        "computed": iso(now),
        "pending": len(actions),
        "kinds": {k: n for k, n in kinds.items() if n},
        "mentioned": previous.get("mentioned", ""),
    }
    write_summary(paths, data)


def refresh_if_old(paths: MemoryPaths, hours: float = 24.0) -> None:
    """Recompute the summary when it is older than `hours` (after a save); never raises.

    Skipped on trees of more than REFRESH_MAX memories, where reading every file would slow
    a save down by seconds: there `memhooks consolidate` refreshes it.
    """
    from memhooks.store import load_catalog

    cat = load_catalog(paths.catalog)
    if cat is None or len(cat.entries) > REFRESH_MAX:
        return
    from memhooks.store import read_summary

    data = read_summary(paths) or {}
    computed = parse_iso(str(data.get("computed") or ""))
    from memhooks.text.clock import utc_now

    if computed is not None and utc_now() - computed < dt.timedelta(hours=hours):
        return
    with contextlib.suppress(OSError, ValueError):
        record_pending(paths, analyse(paths))
