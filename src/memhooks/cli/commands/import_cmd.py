"""`memhooks import FILE`: bring the memories of an export bundle into this project.

Everything is checked before anything is written: the bundle (see `memhooks.transfer.bundle`), the
manifest, and each file with the model `memhooks save` validates with. A refusal is one line
and leaves the tree as it was. Then, under the store lock, the new memories are written and
the derived files updated once.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from memhooks.cli.common import add_json, open_tree
from memhooks.cli.output import emit
from memhooks.errors import Exit, UserError
from memhooks.install.invocation import cli_hint
from memhooks.store import TREE_PREFIX as PREFIX

VERBS = {
    "import": "import",
    "present": "skip: already present",
    "disabled": "skip: category disabled",
    "similar": "FLAG: near-duplicate, not copied",
    "name-taken": "FLAG: name taken, not copied",
}


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "import",
        help="bring the memories of an export bundle into this project",
        description="Check a bundle made by `memhooks export` and file its memories in "
        ".claude/memory/. The bundle is refused whole, with nothing written, if it holds "
        "anything a bundle should not (absolute names, '..', symlinks, hard links, devices, "
        "oversize or too many members, a decompression bomb), if its manifest is bad or a file "
        "does not match its sha256, or if a memory fails its category's model. Memories "
        "already present (same frontmatter and body) are skipped; near-duplicates of a memory "
        "here, and files whose name a different memory has, are flagged and not copied. Each "
        "imported memory records imported_from, imported_path and imported_at in its "
        "frontmatter; secrets are redacted again. Exit 6 when something was flagged.",
        epilog="Example: memhooks import team-conventions.tar.gz --dry-run, then without "
        "--dry-run. Add --keep-both PATH to import a flagged memory as a separate one. "
        "memhooks import --native --dry-run shows what Claude Code's own auto memory holds "
        "for this project; a second import --native writes nothing.",
    )
    parser.add_argument("file", type=Path, nargs="?", help="the bundle (.tar.gz) to import")
    parser.add_argument(
        "--native",
        action="store_true",
        help="instead of a bundle, import this project's Claude Code auto memory topic files "
        "(~/.claude/projects/<project>/memory/*.md; types user and feedback -> preference, "
        "project -> decision, reference -> runbook), each once, with its native path and "
        "hash kept in frontmatter; the native folder is only read",
    )
    parser.add_argument(
        "--native-dir",
        metavar="DIR",
        help="with --native: the auto memory folder to read (default: the one Claude Code "
        "uses for this project)",
    )
    parser.add_argument(
        "--dry-run", action="store_true", help="show what would happen; write nothing"
    )
    parser.add_argument(
        "--keep-both",
        action="append",
        default=[],
        metavar="PATH",
        help="import this flagged bundle memory anyway, as a separate memory (repeatable; "
        "the path as the report prints it; with --native, the native file name)",
    )
    add_json(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """A bundle, or with --native the project's Claude Code auto memory."""
    if args.native:
        if args.file is not None:
            raise UserError("give a bundle or --native, not both", Exit.USAGE)
        from memhooks.cli.commands.import_native import run_native

        return run_native(args)
    if args.file is None:
        raise UserError("name the bundle to import (or use --native)", Exit.USAGE)
    if args.native_dir:
        raise UserError("--native-dir goes with --native", Exit.USAGE)
    return run_bundle(args)


def run_bundle(args: argparse.Namespace) -> int:  # noqa: C901 - one report, several outcomes
    from memhooks.store import CATEGORIES
    from memhooks.text.clock import iso
    from memhooks.transfer.bundle import BundleError, read_bundle
    from memhooks.transfer.plan import FLAGGED, InvalidMemoryError, plan_import

    paths, store = open_tree(args)
    if not args.file.exists():
        raise UserError(f"no bundle at {args.file}", Exit.NOT_FOUND)
    try:
        bundle = read_bundle(args.file)
    except BundleError as exc:
        raise UserError(
            f"bundle refused, nothing written: {exc}",
            Exit.REFUSED if exc.unsafe else Exit.INVALID_INPUT,
        ) from None
    manifest = bundle.manifest
    settings = store.settings
    try:
        plan = plan_import(
            paths,
            bundle.files,
            source_project=manifest.source_project,
            patterns=settings.redact_patterns,
            enabled=[c.name for c in CATEGORIES if settings.category_enabled(c.name)],
            keep_both=args.keep_both,
            now=iso(),
        )
    except InvalidMemoryError as exc:
        raise UserError(f"bundle refused, nothing written: {exc}", Exit.INVALID_INPUT) from None
    unknown = sorted(
        {p.removeprefix(PREFIX) for p in args.keep_both} - {item.path for item in plan}
    )
    if unknown:
        raise UserError(f"--keep-both {unknown[0]}: the bundle holds no such memory", Exit.USAGE)
    to_write = [item for item in plan if item.memory is not None]
    if to_write and not args.dry_run:
        saved = store.create_many([item.memory for item in to_write if item.memory])
        for item, done in zip(to_write, saved, strict=True):
            item.target = done.entry.path
    flagged = [item for item in plan if item.action in FLAGGED]
    counts = {
        "imported": len(to_write),
        "present": sum(1 for i in plan if i.action == "present"),
        "flagged": len(flagged),
        "disabled": sum(1 for i in plan if i.action == "disabled"),
    }
    redacted = {item.path: item.redacted for item in plan if item.redacted}
    head = (
        f"{'Dry run: nothing written. ' if args.dry_run else ''}Bundle {args.file}: "
        f"{len(plan)} memories from project {manifest.source_project!r}, exported "
        f"{manifest.exported_at}."
    )
    lines = [head]
    for item in plan:
        verb = VERBS[item.action]
        if item.action == "import" and args.dry_run:
            verb = "would import"
        where = f" -> {PREFIX}{item.target}" if item.action == "import" else ""
        line = f"- {verb}: {item.path} — {item.title}{where}"
        if item.action != "import" and item.detail:
            line += f" ({item.detail}" + (
                f": {PREFIX}{item.target})" if item.target and item.action != "similar" else ")"
            )
        lines.append(line)
    if redacted:
        lines.append(
            f"Secrets redacted on the way in: {sum(redacted.values())} value(s) in "
            + ", ".join(sorted(redacted))
        )
    verb = "would be imported" if args.dry_run else "imported"
    lines.append(
        f"{counts['imported']} {verb}, {counts['present']} already present, "
        f"{counts['flagged']} flagged, {counts['disabled']} in disabled categories."
    )
    nothing_to_do = not to_write and not flagged
    lines.append(_outcome(counts, len(plan)))
    emit(
        {
            "dry_run": bool(args.dry_run),
            "bundle": str(args.file),
            "source_project": manifest.source_project,
            "exported_at": manifest.exported_at,
            "counts": counts,
            "nothing_to_do": nothing_to_do,
            "items": [item.as_dict() for item in plan],
            "redacted": redacted,
        },
        "\n".join(line for line in lines if line),
        as_json=args.json,
    )
    if flagged:
        raise UserError(
            f"{len(flagged)} {'memory' if len(flagged) == 1 else 'memories'} flagged and not "
            "copied (near-duplicates, or names a different memory has): "
            + ", ".join(item.path for item in flagged),
            Exit.CONFLICT,
        )
    return Exit.OK


def _outcome(counts: dict[str, int], total: int) -> str:
    """The closing line: nothing to do, or what to do with the flagged memories."""
    if counts["flagged"]:
        return (
            "Flagged memories were not copied: compare each with the memory named, then merge "
            f"by hand ({cli_hint('show PATH')}, {cli_hint('save --update PATH')}) or import it "
            "as a separate memory with --keep-both PATH."
        )
    if counts["imported"]:
        return ""
    return (
        "Nothing to do: every memory of the bundle is already here."
        if counts["present"] == total
        else "Nothing to do."
    )
