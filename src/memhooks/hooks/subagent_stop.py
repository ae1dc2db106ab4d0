"""SubagentStop: file a sub-agent's result under `subagent/` (seed 000's protocol, done for it)."""

from __future__ import annotations

import contextlib
import json
import os
import re
from pathlib import Path

from memhooks.clock import iso
from memhooks.config import Settings
from memhooks.hooks.context import HookInput
from memhooks.paths import MemoryPaths
from memhooks.redact import redact
from memhooks.store import Store

TYPE_CHECKING = False  # not typing.TYPE_CHECKING: importing typing costs the hooks ms
if TYPE_CHECKING:
    from typing import Any

MIN_RESULT_CHARS = 80
DETAILS_CAP = 8_000
HEAD_BYTES = 65_536
MARKERS_KEPT = 500
#: A skipped write loses the sub-agent's result for good, and the host gives this event
#: 600 s: wait for parallel sessions' writers rather than skip after the hooks' usual 0.5 s.
LOCK_TIMEOUT = 5.0


def agent_task(transcript: str) -> str:
    """The sub-agent's request: the first user prompt of its transcript, from its head only."""
    if not transcript:
        return ""
    try:
        with Path(transcript).open("rb") as handle:
            head = handle.read(HEAD_BYTES)
    except OSError:
        return ""
    for line in head.splitlines():
        if b'"user"' not in line:
            continue
        try:
            record = json.loads(line)
        except ValueError:
            continue
        content = record.get("message", {}).get("content") if isinstance(record, dict) else None
        if isinstance(content, list):
            content = " ".join(
                b.get("text", "")
                for b in content
                if isinstance(b, dict) and b.get("type") == "text"
            )
        if isinstance(content, str) and content.strip():
            return content.strip()
    return ""


def summary_of(result: str) -> str:
    sentences = re.split(r"(?<=[.!?])\s+", " ".join(result.split()))
    return " ".join(sentences[:3])[:600]


def render_body(
    *, title: str, agent: str, when: str, task: str, session_id: str, result: str
) -> str:
    details = (
        result
        if len(result) <= DETAILS_CAP
        else (
            result[:DETAILS_CAP] + f"\n\n[memhooks] {len(result) - DETAILS_CAP:,} characters cut."
        )
    )
    return "\n".join(
        [
            f"# {title}",
            "",
            f"**Agent**: {agent}",
            f"**Date**: {when}",
            f"**Task**: {task or '(not recorded)'}",
            f"**Parent Context**: session {session_id or '(unknown)'}",
            "",
            "## Summary",
            summary_of(result),
            "",
            "## Details",
            details.strip(),
            "",
            "## Recommendations",
            "(see Details)",
        ]
    )


def handle(hook: HookInput, paths: MemoryPaths, settings: Settings) -> dict[str, Any] | None:
    result = hook.last_assistant_message.strip()
    if (
        not hook.agent_type
        or not settings.capture_subagents
        or not settings.auto_capture("subagent")
        or not settings.category_enabled("subagent")
        or len(result) < MIN_RESULT_CHARS
    ):
        return None  # the compaction agent has no type; trivial outputs are not memories
    patterns = settings.redact_patterns
    # Redacted before it is put on one line and cut: a YAML block needs its lines.
    task = " ".join(redact(agent_task(hook.agent_transcript_path), patterns).split())[:300]
    result = redact(result, patterns)
    title = f"{hook.agent_type}: {task[:80]}" if task else f"{hook.agent_type} sub-agent result"
    when = iso()
    body = render_body(
        title=title,
        agent=hook.agent_type,
        when=when,
        task=task,
        session_id=hook.session_id,
        result=result,
    )
    meta: dict[str, Any] = {
        "title": " ".join(title.split())[:120],
        "description": summary_of(result)[:200],
        "tags": ["subagent", hook.agent_type.lower()[:40]],
        "agent": hook.agent_type,
        "agent_id": hook.agent_id or None,
        "task": task or None,
        "session_id": hook.session_id or None,
    }
    marker = marker_path(paths, hook.agent_id)
    store = Store(paths, settings, hook=True, lock_timeout=LOCK_TIMEOUT)
    from memhooks.store import DuplicateError

    # Checked and marked under the store lock, and marked only after the memory is written:
    # a delivery killed while it waited leaves no marker, so the re-delivery files it.
    try:
        store.create(
            "subagent",
            meta,
            body,
            agent=hook.agent_type,
            unless=(lambda: os.path.lexists(marker)) if marker else None,
            then=(lambda: mark(marker)) if marker else None,
        )
    except DuplicateError:
        return None  # this sub-agent's result was filed already: the event was re-delivered
    return None


def marker_path(paths: MemoryPaths, agent_id: str) -> str:
    """Where the "filed" mark of `agent_id` goes; "" when there is no usable id (then
    nothing can be deduplicated)."""
    name = re.sub(r"[^A-Za-z0-9_-]", "", agent_id)[:100]
    if not name:
        return ""
    return os.path.join(paths.file("cache"), "subagents-filed", name)


def mark(marker: str) -> None:
    from memhooks.safe_fs import makedirs

    folder = os.path.dirname(marker)
    makedirs(folder)  # refuses a symlinked .cache/ or subagents-filed/
    try:  # O_EXCL never follows a symlink
        os.close(os.open(marker, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644))
    except FileExistsError:
        return
    _prune(folder)


def _prune(folder: str) -> None:
    """Keep the newest markers: a re-delivery comes within seconds, not after 1,000 agents."""
    with os.scandir(folder) as entries:
        found = [(e.stat().st_mtime, e.path) for e in entries]
    if len(found) > MARKERS_KEPT * 2:
        for _, old in sorted(found)[: len(found) - MARKERS_KEPT]:
            with contextlib.suppress(OSError):
                os.unlink(old)
