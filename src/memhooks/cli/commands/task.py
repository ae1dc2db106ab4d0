"""`memhooks task`: set the current task, next step and blockers that every hook reminds of."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from memhooks.cli.common import add_json, open_tree
from memhooks.cli.output import emit
from memhooks.errors import Exit
from memhooks.store import read_status, read_text, section, status_line, write_task
from memhooks.text import one_line
from memhooks.text.redact import redact


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "task",
        help="set the current task, next step or blockers",
        description="Update context/current-task.md and context/blockers.md, "
        "which the status line of every briefing and reminder shows. With "
        "no option, print the status line.",
    )
    parser.add_argument("task", nargs="?", help="the current task, one line")
    parser.add_argument("--next", dest="next_step", help="the next step, one line")
    parser.add_argument("--progress", help="a progress note, one line")
    parser.add_argument("--blocker", action="append", default=[], help="add a blocker")
    parser.add_argument("--clear-blockers", action="store_true", help="remove every blocker")
    add_json(parser)
    parser.set_defaults(func=run)


def _redacted_line(text: str, patterns: Sequence[str]) -> str:
    """Redacted first (a YAML block or a quoted value needs its lines), then one line."""
    return one_line(redact(text, patterns))


def run(args: argparse.Namespace) -> int:
    paths, store = open_tree(args)
    patterns = store.settings.redact_patterns
    changed = bool(
        args.task or args.next_step or args.progress or args.blocker or args.clear_blockers
    )
    if changed:
        with store.locked():
            current = read_text(paths.current_task)  # "" when absent; never via a symlink
            status = read_status(paths, full=True)  # never rewrite from the clipped display
            progress = section(current, "progress")
            if args.progress:
                progress.append(_redacted_line(args.progress, patterns))
            task = _redacted_line(args.task or status.task, patterns)
            next_step = _redacted_line(args.next_step or status.next_step, patterns)
            blockers = [] if args.clear_blockers else list(status.blockers)
            blockers += [_redacted_line(b, patterns) for b in args.blocker]
            write_task(paths, task, next_step, progress[-20:], blockers)
        store.refresh()
    status = read_status(paths)
    emit(
        {"task": status.task, "next": status.next_step, "blockers": list(status.blockers)},
        status_line(status),
        as_json=args.json,
    )
    return Exit.OK
