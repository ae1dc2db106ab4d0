"""A recorded session cut into a week of sessions, as the host would have written them.

A session folder's transcript (`transcript_at_precompact.jsonl`, else `transcript.jsonl`) is
read as the host's own lines and cut at prompt boundaries into N sessions. Each cut session
gets its own id, its own transcript file, a start some days after the one before (the
records' relative times kept, stretched up to tenfold: a scripted minute reads as ten), and the
project's real path in place of the recorded one. A `Step` is what the replay does at one
point of a session: write records, or run a hook (UserPromptSubmit before a prompt, Stop
where the host ran it, a compaction where the original compacted). Standard library only.
"""

from __future__ import annotations

import datetime as dt
import itertools
import json
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

RECORDED_CWD = "/home/user/project"
#: Scripted sessions are minutes long, a real one an hour or more: a session's times are
#: stretched up to tenfold, never to more than three hours.
STRETCH = 10
LONGEST = dt.timedelta(hours=3)
DAY = dt.timedelta(days=1)


@dataclass
class Step:
    """Records to append, then (optionally) one hook to run with `fields`."""

    lines: list[dict[str, Any]] = field(default_factory=list)
    event: str = ""
    fields: dict[str, Any] = field(default_factory=dict)


def transcript_of(folder: Path) -> Path:
    """The transcript a folder's ground truth describes (what PreCompact saw, when recorded)."""
    snapshot = folder / "transcript_at_precompact.jsonl"
    return snapshot if snapshot.is_file() else folder / "transcript.jsonl"


def read_records(path: Path) -> list[dict[str, Any]]:
    records = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            try:
                records.append(json.loads(line))
            except ValueError:
                continue
    return records


def prompt_text(record: dict[str, Any]) -> str | None:
    """The prompt a user record carries, or None (tool results, commands, meta, summaries)."""
    if record.get("type") != "user" or record.get("isMeta") or record.get("isCompactSummary"):
        return None
    if record.get("isSidechain"):
        return None
    content = (record.get("message") or {}).get("content")
    if isinstance(content, str):
        return None if content.startswith("<") else content
    if isinstance(content, list):
        kinds = {part.get("type") for part in content if isinstance(part, dict)}
        if "text" in kinds and "tool_result" not in kinds:
            return "\n".join(
                str(part.get("text", ""))
                for part in content
                if isinstance(part, dict) and part.get("type") == "text"
            )
    return None


def assistant_text(record: dict[str, Any]) -> str:
    content = (record.get("message") or {}).get("content")
    if record.get("type") != "assistant" or not isinstance(content, list):
        return ""
    return "\n".join(
        str(part.get("text", ""))
        for part in content
        if isinstance(part, dict) and part.get("type") == "text" and part.get("text")
    )


def turn_starts(records: list[dict[str, Any]]) -> list[int]:
    """Where each turn starts: its prompt, with the queue records the host wrote before it."""
    starts = []
    for at, record in enumerate(records):
        if prompt_text(record) is None:
            continue
        start = at
        while start > 0 and records[start - 1].get("type") == "queue-operation":
            start -= 1
        starts.append(start)
    return starts


def cut(records: list[dict[str, Any]], sessions: int) -> list[list[dict[str, Any]]]:
    """The records in `sessions` parts of about as many prompts each (bookkeeping before the
    first prompt goes with the first part)."""
    starts = turn_starts(records)
    if not starts:
        return [records]
    parts = max(1, min(sessions, len(starts)))
    bounds = [starts[round(i * len(starts) / parts)] for i in range(1, parts)]
    edges = [0, *bounds, len(records)]
    return [records[a:b] for a, b in itertools.pairwise(edges)]


def _ts(value: object) -> dt.datetime | None:
    if not isinstance(value, str) or not value:
        return None
    try:
        return dt.datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None


def _stamp(when: dt.datetime) -> str:
    return when.astimezone(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.") + (
        f"{when.microsecond // 1000:03d}Z"
    )


class Rewrite:
    """One cut session's identity: its id, its project path, when it started."""

    def __init__(self, session_id: str, project: Path, start: dt.datetime) -> None:
        self.session_id = session_id
        self.project = str(project)
        self.start = start

    def records(self, part: list[dict[str, Any]]) -> list[dict[str, Any]]:
        times = [t for t in (_ts(r.get("timestamp")) for r in part) if t is not None]
        first = min(times) if times else self.start
        span = (max(times) - first) if times else dt.timedelta(0)
        stretch = max(1.0, min(STRETCH, LONGEST / span)) if span else 1.0
        out = []
        chained = False
        for record in part:
            text = json.dumps(record, ensure_ascii=False, separators=(",", ":"))
            new = json.loads(text.replace(RECORDED_CWD, self.project))
            if "sessionId" in new:
                new["sessionId"] = self.session_id
            when = _ts(new.get("timestamp"))
            if when is not None:
                new["timestamp"] = _stamp(self.start + (when - first) * stretch)
            if new.get("type") in ("user", "assistant") and not chained:
                new["parentUuid"] = None  # a new session starts a new chain
                chained = True
            out.append(new)
        return out


def session_steps(records: list[dict[str, Any]]) -> list[Step]:
    """What the host did while writing these records: UserPromptSubmit before each prompt,
    Stop where it wrote its summary of the Stop hooks (else before the next prompt, or at the
    end), and each compaction's PreCompact, SessionStart(compact) and PostCompact."""
    steps: list[Step] = [Step()]
    reply, trigger, stopped = "", "manual", True

    def then(event: str, fields: dict[str, Any]) -> None:
        steps[-1].event, steps[-1].fields = event, fields
        steps.append(Step())

    for record in records:
        prompt = prompt_text(record)
        if prompt is not None:
            if not stopped:
                then("Stop", _stop_fields(reply))
            then("UserPromptSubmit", {"prompt": prompt})
            reply, stopped = "", False
        elif record.get("subtype") == "stop_hook_summary" and not stopped:
            then("Stop", _stop_fields(reply))
            stopped = True
        elif record.get("subtype") == "compact_boundary":
            trigger = str((record.get("compactMetadata") or {}).get("trigger") or "manual")
            then("PreCompact", {"trigger": trigger})
        steps[-1].lines.append(record)
        if record.get("isCompactSummary"):
            summary = str((record.get("message") or {}).get("content") or "")
            then("SessionStart", {"source": "compact"})
            then("PostCompact", {"trigger": trigger, "compact_summary": summary})
        reply = assistant_text(record) or reply
    if not stopped:
        then("Stop", _stop_fields(reply))
    return [s for s in steps if s.lines or s.event]


def _stop_fields(reply: str) -> dict[str, Any]:
    return {"stop_hook_active": False, "last_assistant_message": reply}


def compaction_records(
    template: dict[str, Any], summary: str, trigger: str
) -> list[dict[str, Any]]:
    """A compaction as the host writes it: the boundary, then the summary as a user record."""
    boundary = {
        "parentUuid": None,
        "isSidechain": False,
        "type": "system",
        "subtype": "compact_boundary",
        "content": "Conversation compacted",
        "isMeta": False,
        "timestamp": template.get("timestamp", ""),
        "uuid": str(uuid.uuid4()),
        "level": "info",
        "compactMetadata": {"trigger": trigger, "preTokens": 0},
        **_identity(template),
    }
    text = (
        "This session is being continued from a previous conversation that ran out of "
        "context. The summary below covers the earlier portion of the conversation.\n\n" + summary
    )
    return [boundary, _user_record(template, text, boundary["uuid"], isCompactSummary=True)]


def _identity(template: dict[str, Any]) -> dict[str, Any]:
    keys = ("userType", "entrypoint", "cwd", "sessionId", "version", "gitBranch")
    return {k: template[k] for k in keys if k in template}


def _user_record(
    template: dict[str, Any], text: str, parent: str | None, **extra: Any
) -> dict[str, Any]:
    return {
        "parentUuid": parent,
        "isSidechain": False,
        "type": "user",
        "message": {"role": "user", "content": text},
        "uuid": str(uuid.uuid4()),
        "timestamp": template.get("timestamp", ""),
        **extra,
        **_identity(template),
    }


def trivial_records(template: dict[str, Any], prompt: str, reply: str) -> list[dict[str, Any]]:
    """One turn without tools, in the shape of the host's prompt and reply records."""
    user = _user_record(template, prompt, None, promptSource="sdk")
    model = str(((template.get("message") or {}).get("model")) or "claude-opus-4-5")
    assistant = {
        "parentUuid": user["uuid"],
        "isSidechain": False,
        "message": {
            "id": f"msg_{uuid.uuid4().hex[:24]}",
            "type": "message",
            "role": "assistant",
            "model": model,
            "content": [{"type": "text", "text": reply}],
            "stop_reason": "end_turn",
            "stop_sequence": None,
            "usage": {"input_tokens": 12, "output_tokens": 2},
        },
        "type": "assistant",
        "uuid": str(uuid.uuid4()),
        "timestamp": template.get("timestamp", ""),
        **_identity(template),
    }
    return [user, assistant]


def start_days(sessions: int, *, trivial: bool, now: dt.datetime) -> list[dt.datetime]:
    """Session starts two days apart at 09:30 UTC, the last one two days before `now` (the
    trivial session, when there is one, the day after it)."""
    today = now.astimezone(dt.timezone.utc).replace(hour=9, minute=30, second=0, microsecond=0)
    starts = [today - 2 * DAY * (sessions - i) for i in range(sessions)]
    return [*starts, today - DAY] if trivial else starts
