"""`memhooks import --native`: file the project's Claude Code auto memory topic files in the
store (transfer.native), once. Never writes into the native folder."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from memhooks.cli.common import open_tree
from memhooks.cli.output import emit
from memhooks.errors import Exit, UserError
from memhooks.store import TREE_PREFIX as PREFIX

if TYPE_CHECKING:
    from memhooks.transfer.native import NativePlan

VERBS = {
    "import": "import",
    "present": "skip: already imported",
    "changed": "skip: changed since imported",
    "similar": "FLAG: near-duplicate, not copied",
    "skipped": "skip",
    "disabled": "skip: category disabled",
}


def run_native(args: argparse.Namespace) -> int:
    from memhooks.store import CATEGORIES, write_marks
    from memhooks.text.clock import iso
    from memhooks.transfer.native import marks, native_folder, plan_native, topic_files

    paths, store = open_tree(args)
    project = Path(paths.base).parent.parent
    folder = Path(args.native_dir) if args.native_dir else native_folder(project)
    if not folder.is_dir():
        raise UserError(f"no Claude Code auto memory folder at {folder}", Exit.NOT_FOUND)
    settings = store.settings
    plan = plan_native(
        paths,
        topic_files(folder),
        patterns=settings.redact_patterns,
        enabled=[c.name for c in CATEGORIES if settings.category_enabled(c.name)],
        keep_both=args.keep_both,
        now=iso(),
    )
    to_write = [item for item in plan if item.memory is not None]
    if not args.dry_run:
        if to_write:
            saved = store.create_many([item.memory for item in to_write if item.memory])
            for item, done in zip(to_write, saved, strict=True):
                item.target = done.entry.path
        write_marks(paths, marks(paths, folder))
    counts = {a: sum(1 for i in plan if i.action == a) for a in VERBS}
    text = _report(plan, folder, counts, dry_run=args.dry_run)
    flagged = [item.name for item in plan if item.action == "similar"]
    emit(
        {
            "dry_run": bool(args.dry_run),
            "native_folder": str(folder),
            "counts": {("imported" if k == "import" else k): v for k, v in counts.items()},
            "nothing_to_do": not to_write and not flagged,
            "items": [item.as_dict() for item in plan],
            "redacted": {item.name: item.redacted for item in plan if item.redacted},
        },
        text,
        as_json=args.json,
    )
    if flagged:
        raise UserError(
            f"{len(flagged)} native file(s) flagged as near-duplicates and not copied: "
            + ", ".join(flagged)
            + " (import one anyway with --keep-both NAME)",
            Exit.CONFLICT,
        )
    return Exit.OK


def _report(plan: list[NativePlan], folder: Path, counts: dict[str, int], *, dry_run: bool) -> str:
    lines = [
        f"{'Dry run: nothing written. ' if dry_run else ''}Claude Code auto memory in "
        f"{folder}: {len(plan)} topic file(s) (read only; nothing is written there)."
    ]
    for item in plan:
        verb = "would import" if item.action == "import" and dry_run else VERBS[item.action]
        where = f" -> {PREFIX}{item.target}" if item.action == "import" else ""
        kind = f" [{item.type} -> {item.category}]" if item.category else ""
        line = f"- {verb}: {item.name} — {item.title}{kind}{where}"
        if item.action != "import" and item.detail:
            line += f" ({item.detail}" + (
                f": {PREFIX}{item.target})" if item.target and item.action != "similar" else ")"
            )
        lines.append(line)
    redacted = sum(item.redacted for item in plan)
    if redacted:
        lines.append(f"Secrets redacted on the way in: {redacted} value(s).")
    lines.append(
        f"{counts['import']} {'would be imported' if dry_run else 'imported'}, "
        f"{counts['present']} already imported, {counts['changed']} changed since, "
        f"{counts['similar']} flagged, {counts['skipped'] + counts['disabled']} skipped."
    )
    if not counts["import"] and not counts["similar"]:
        lines.append("Nothing to do.")
    return "\n".join(lines)
