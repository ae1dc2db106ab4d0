"""`memhooks save`: file a typed memory from flags, or markdown / JSON on stdin, validated."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from memhooks.cli.common import add_json, category_name, open_tree, read_stdin_text
from memhooks.cli.output import emit
from memhooks.cli.user_store import add_tier_options, open_user_store, where
from memhooks.errors import Exit, UserError
from memhooks.store import CATEGORIES, Draft, validate_draft
from memhooks.text.redact import redact, redact_field


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    names = ", ".join(c.name for c in CATEGORIES)
    parser = sub.add_parser(
        "save",
        help="save a typed memory (from flags or stdin)",
        description=f"Save a memory of one category ({names}). The body comes from --body, "
        "--body-file, or stdin: markdown (optionally with YAML frontmatter) or a JSON object "
        '{"title", "description", "tags", "body" or "sections": {heading: text}, other fields}. '
        "Secrets are redacted before anything is written.",
        epilog="Example: memhooks save decision --title 'Use SQLite for the cache' "
        "--description 'one file, no server' --tags storage,cache "
        "--section Context='Needed a local cache' --section Decision='SQLite in .cache/'",
    )
    parser.add_argument("category", help=f"one of: {names}")
    parser.add_argument("--title")
    parser.add_argument("--description", help="the one line shown in MEMORY.md")
    parser.add_argument("--tags", help="comma-separated")
    parser.add_argument("--body", help="markdown body")
    parser.add_argument("--body-file", type=Path, help="read the body from a file ('-' = stdin)")
    parser.add_argument(
        "--section",
        action="append",
        default=[],
        metavar="HEADING=TEXT",
        help="add a '## HEADING' section (repeatable)",
    )
    parser.add_argument(
        "--field",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="another frontmatter field, e.g. status=accepted (repeatable)",
    )
    parser.add_argument("--source-path", help="for analysis: the analysed file's path")
    parser.add_argument(
        "--update", metavar="PATH", help="update this memory instead of creating one (fields merge)"
    )
    parser.add_argument(
        "--if-hash",
        metavar="HASH",
        help="with --update: refuse if the file changed since this hash "
        "(from `memhooks show --json`)",
    )
    add_tier_options(parser, cue=False)
    add_json(parser)
    parser.set_defaults(func=run)


def _pairs(items: list[str], what: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise UserError(f"{what} takes KEY=VALUE, got {item!r}", Exit.INVALID_INPUT)
        out[key.strip()] = value
    return out


def _coerce(value: str) -> object:
    lowered = value.strip().lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    try:
        return float(value) if "." in value else int(value)
    except ValueError:
        return value


def render_sections(title: str, sections: dict[str, str]) -> str:
    parts = [f"# {title}"]
    parts += [f"## {heading}\n{text.strip()}" for heading, text in sections.items() if text.strip()]
    return "\n\n".join(parts)


def draft_from_stdin(category: str, text: str) -> Draft:
    stripped = text.lstrip()
    if stripped.startswith("{"):
        try:
            data = json.loads(stripped)
        except ValueError as exc:
            raise UserError(f"stdin is not valid JSON: {exc}", Exit.INVALID_INPUT) from None
        if not isinstance(data, dict):
            raise UserError("stdin JSON must be an object", Exit.INVALID_INPUT)
        sections = data.pop("sections", None)
        body = str(data.pop("body", "") or "")
        source = data.pop("source_path", None)
        data.pop("category", None)
        if isinstance(sections, dict):
            body = render_sections(
                str(data.get("title", "")), {str(k): str(v) for k, v in sections.items()}
            )
        return Draft(category, data, body, source)
    from memhooks.store import UnparsableMemoryError, parse_text

    try:
        raw = parse_text(text)
    except UnparsableMemoryError as exc:
        raise UserError(f"stdin: {exc}", Exit.INVALID_INPUT) from None
    meta = dict(raw.meta)
    meta.pop("category", None)
    return Draft(category, meta, raw.body)


def build_draft(args: argparse.Namespace) -> Draft:  # noqa: C901, PLR0912 - one flag, one branch
    category = category_name(args.category)
    if args.body_file is not None:
        text = read_stdin_text() if str(args.body_file) == "-" else _read(args.body_file)
        draft = (
            Draft(category, body=text)
            if args.body_file.suffix != ".json"
            else (draft_from_stdin(category, text))
        )
        if text.lstrip().startswith(("{", "---")):
            draft = draft_from_stdin(category, text)
    elif args.body is not None:
        draft = Draft(category, body=args.body)
    else:
        stdin = read_stdin_text()
        draft = draft_from_stdin(category, stdin) if stdin.strip() else Draft(category)
    meta = draft.meta
    for key, value in (("title", args.title), ("description", args.description)):
        if value is not None:
            meta[key] = value
    if args.tags is not None:
        meta["tags"] = [t.strip() for t in args.tags.split(",") if t.strip()]
    meta.update({k: _coerce(v) for k, v in _pairs(args.field, "--field").items()})
    sections = _pairs(args.section, "--section")
    if sections:
        heading = f"# {meta.get('title', '')}" if not draft.body.strip() else ""
        parts = [heading, draft.body.strip()] + [
            f"## {k}\n{v.strip()}" for k, v in sections.items()
        ]
        draft.body = "\n\n".join(part for part in parts if part)
    if args.source_path:
        draft.source_path = args.source_path
        meta.setdefault("path", args.source_path)
    if not meta.get("title"):
        from memhooks.store import first_heading

        heading_title = first_heading(draft.body)
        if heading_title:
            meta["title"] = heading_title
    if not args.update and not meta.get("title"):
        raise UserError(
            "a memory needs a title: --title, a '# heading' or a JSON 'title'", Exit.INVALID_INPUT
        )
    if draft.body.strip() and not draft.body.lstrip().startswith("#") and meta.get("title"):
        draft.body = f"# {meta['title']}\n\n{draft.body.strip()}"
    return draft


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise UserError(f"cannot read {path}: {exc}", Exit.INVALID_INPUT) from None


def run(args: argparse.Namespace) -> int:
    from memhooks.store import USER, display

    paths, store = open_tree(args)
    prefix, place = ".claude/memory/", ""
    if args.tier == USER:
        store = open_user_store(paths, store.settings)
        paths, prefix, place = store.paths, display(store.paths), f" in {where(store.paths)}"
    draft = build_draft(args)
    if not store.settings.category_enabled(draft.category):
        raise UserError(
            f"the {draft.category} category is disabled in config.json "
            f"(categories.{draft.category}.enabled)",
            Exit.REFUSED,
        )
    patterns = store.settings.redact_patterns
    draft.body = redact(draft.body, patterns)
    draft.meta = {k: redact_field(k, v, patterns) for k, v in draft.meta.items()}
    if draft.source_path:
        draft.source_path = redact(draft.source_path, patterns)
    if args.update:
        meta = validate_draft(draft, partial=True)
        saved = store.update(
            args.update,
            meta,
            draft.body if draft.body.strip() else None,
            expected_hash=args.if_hash,
        )
    else:
        meta = validate_draft(draft)
        saved = store.create(draft.category, meta, draft.body, source_path=draft.source_path)
    entry = saved.entry
    from memhooks.curate.consolidate import refresh_if_old

    if args.tier != USER:
        refresh_if_old(paths)
    verb = "Saved" if saved.created else "Updated"
    text = f"{verb} {entry.category}{place}: {prefix}{entry.path} — {entry.title}"
    for path in saved.retired_by_window:
        text += f"\nRetired by the session rolling window: {path}"
    emit(
        {
            "path": entry.path,
            "created": saved.created,
            "category": entry.category,
            "title": entry.title,
            "retired": list(saved.retired_by_window),
            "tier": args.tier or "project",
        },
        text,
        as_json=args.json,
    )
    return Exit.OK
