"""SubagentStop: file a sub-agent's result under `subagent/` (seed 000's protocol, done for it)."""

from __future__ import annotations

import re
from functools import partial

from memhooks import TYPE_CHECKING
from memhooks.continuity.prompts import first_request
from memhooks.recall.citations import with_hashes
from memhooks.recall.search_index import SearchIndex
from memhooks.store import DuplicateError, HookWriter, is_marked, mark_filed, marker_path
from memhooks.text.clock import iso
from memhooks.text.controls import visible
from memhooks.text.redact import redact

if TYPE_CHECKING:
    from typing import Any

    from memhooks.hooks.event import HookInput
    from memhooks.store import MemoryPaths, Settings

MIN_RESULT_CHARS = 80
DETAILS_CAP = 8_000
#: The sub-agent's task is its transcript's first request, looked for in this many bytes.
HEAD_BYTES = 65_536
#: A skipped write loses the sub-agent's result for good, and the host gives this event
#: 600 s: wait for parallel sessions' writers rather than skip after the hooks' usual 0.5 s.
LOCK_TIMEOUT = 5.0


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
    task = first_request(hook.agent_transcript_path, HEAD_BYTES)
    task = " ".join(redact(task, patterns).split())[:300]
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
        "title": visible(" ".join(title.split()))[:120],  # the task's text is anyone's
        "description": summary_of(result)[:200],
        "tags": ["subagent", hook.agent_type.lower()[:40]],
        "agent": hook.agent_type,
        "agent_id": hook.agent_id or None,
        "task": task or None,
        "session_id": hook.session_id or None,
    }
    marker = marker_path(paths, hook.agent_id)
    writer = HookWriter(
        paths, settings, search=SearchIndex, cite=with_hashes, lock_timeout=LOCK_TIMEOUT
    )
    # Checked and marked under the store lock, and marked only after the memory is written:
    # a delivery killed while it waited leaves no marker, so the re-delivery files it.
    try:
        writer.create(
            "subagent",
            meta,
            body,
            agent=hook.agent_type,
            unless=partial(is_marked, marker) if marker else None,
            then=partial(mark_filed, marker) if marker else None,
        )
    except DuplicateError:
        return None  # this sub-agent's result was filed already: the event was re-delivered
    return None
