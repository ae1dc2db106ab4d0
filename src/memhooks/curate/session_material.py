"""All a session left behind, in reading order, for a summary written in its own context.

The summarize agent (seed 002, option B) reads this in numbered chunks: the conversation
from the host's JSONL transcript (prompts, Claude's text, tool calls, failures, the host's
compaction summaries), then its automatic journal (where PostCompact keeps the host's
summaries too), then this session's checkpoints. Read-only; every line is capped
and secrets are redacted before anything is printed.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from memhooks.continuity.transcript import iter_records
from memhooks.continuity.transcript_records import Record, TextBlock, ToolResult, ToolUse
from memhooks.store import MemoryPaths, read_text
from memhooks.text import clip

LINE_CAP = 2_000
RESULT_CAP = 400
PROJECT_DIRS_SCANNED = 500
_SLUG = re.compile(r"[^A-Za-z0-9]")
_INPUT_KEYS = (
    "command",
    "file_path",
    "notebook_path",
    "pattern",
    "path",
    "description",
    "prompt",
    "subject",
    "status",
)


def config_dir() -> Path:
    explicit = os.environ.get("CLAUDE_CONFIG_DIR")
    return Path(explicit) if explicit else Path.home() / ".claude"


def locate_transcript(session_id: str, project: Path, state: dict[str, Any]) -> Path | None:
    """The host's transcript of a session: the path a hook recorded for it, else where the
    host keeps it (`<config>/projects/<project path, non-alphanumerics as '-'>/<id>.jsonl`),
    else any project folder holding `<id>.jsonl`."""
    for record in state.get("sessions") or []:
        if isinstance(record, dict) and record.get("id") == session_id:
            for key in ("transcript_path", "transcript"):
                value = record.get(key)
                if isinstance(value, str) and value.endswith(".jsonl") and Path(value).is_file():
                    return Path(value)
    projects = config_dir() / "projects"
    name = f"{session_id}.jsonl"
    for candidate in {project, project.resolve()}:
        path = projects / _SLUG.sub("-", str(candidate)) / name
        if path.is_file():
            return path
    try:
        folders = sorted(p for p in projects.iterdir() if p.is_dir())[:PROJECT_DIRS_SCANNED]
    except OSError:
        return None
    return next((f / name for f in folders if (f / name).is_file()), None)


def _tool_line(block: ToolUse) -> str:
    todos = block.input.get("todos")
    if isinstance(todos, list):  # TodoWrite: the plan is worth more than the call
        items = [
            f"[{t.get('status', '?')}] {clip(str(t.get('content', '')).strip(), 200)}"
            for t in todos
            if isinstance(t, dict)
        ]
        return f"TOOL {block.name}: " + "; ".join(items)
    shown = [
        f"{key}={clip(str(block.input[key]).strip(), 300)!r}"
        for key in _INPUT_KEYS
        if isinstance(block.input.get(key), str)
    ]
    return f"TOOL {block.name}: " + (", ".join(shown) or "(no path or command)")


def record_lines(record: Record) -> list[str]:
    """The lines a record contributes to the reading; [] for what a summary never needs."""
    stamp = record.timestamp[:19].replace("T", " ")
    if record.is_sidechain or record.is_meta:
        return []
    if record.type == "system":
        if record.subtype == "compact_boundary":
            return [f"--- {stamp} the conversation was compacted ({record.trigger or '?'}) ---"]
        return []
    if record.is_compact_summary and record.text:
        return [f"HOST COMPACTION SUMMARY ({stamp}):", clip(record.text.strip(), 12_000)]
    lines: list[str] = []
    if record.type == "user" and record.text and not record.text.startswith("<local-command"):
        lines.append(f"USER ({stamp}): {clip(record.text.strip(), LINE_CAP)}")
    return lines + _block_lines(record, stamp)


def _block_lines(record: Record, stamp: str) -> list[str]:
    lines: list[str] = []
    for block in record.blocks:
        if isinstance(block, TextBlock) and block.text.strip():
            who = "CLAUDE" if record.type == "assistant" else "USER"
            lines.append(f"{who} ({stamp}): {clip(block.text.strip(), LINE_CAP)}")
        elif isinstance(block, ToolUse):
            lines.append(_tool_line(block))
        elif isinstance(block, ToolResult) and not block.skipped:
            label = "RESULT (error)" if block.is_error else "RESULT"
            cap = LINE_CAP if block.is_error else RESULT_CAP
            if block.text.strip():
                lines.append(f"{label}: {clip(block.text.strip(), cap)}")
    return lines


def _journal(paths: MemoryPaths, session_id: str) -> str:
    from memhooks.store import JOURNAL_HEADING

    text = read_text(Path(paths.sessions) / f"{session_id}.md", 2_000_000)
    at = text.find(JOURNAL_HEADING)
    return text[at:].strip() if at >= 0 else ""


def reading(
    paths: MemoryPaths, session_id: str, transcript: Path | None, patterns: tuple[str, ...]
) -> list[str]:
    """Every line of the session's material, in order, redacted."""
    from memhooks.text.redact import redact

    lines: list[str] = []
    if transcript is not None:
        lines.append(f"=== Conversation, from the host's transcript {transcript} ===")
        for record in iter_records(transcript):
            lines.extend(record_lines(record))
    else:
        lines.append("=== No transcript found for this session (pass --transcript-file) ===")
    journal = _journal(paths, session_id)
    if journal:
        # The Stop hook's record, and the host's compaction summaries PostCompact keeps there.
        lines.append(f"=== Automatic journal (sessions/{session_id}.md) ===")
        lines.extend(journal.splitlines())
    marker = f"`{session_id}`"
    checkpoints = (
        sorted(Path(paths.checkpoints).glob("*.md")) if Path(paths.checkpoints).is_dir() else []
    )
    for path in checkpoints:
        if path.name == "latest.md":
            continue
        text = read_text(path, 60_000)
        if marker in text:
            lines.append(f"=== Checkpoint {paths.relative(path)} ===")
            lines.extend(text.splitlines())
    return redact("\n".join(lines), patterns).split("\n")
