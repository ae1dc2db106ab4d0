# Copyright (c) 2025 memhooks developers. Licensed under the MIT License.
"""Read Claude Code's JSONL transcript, fast and incrementally. Standard library only.

Only ``user``, ``assistant`` and ``system`` records are returned. A transcript can
reach tens of MB, most of it bookkeeping (``api-request-shape``, ``api-request-blob``,
attachments) or bulky tool results, so each line is triaged with byte checks before
``json.loads``:

- a line that opens with ``{"type":"…"`` names its type at once (bookkeeping records
  all do); one that does not is parsed only if it holds a ``"type":"user"``,
  ``"assistant"`` or ``"system"`` marker;
- a tool-result line that is not an error becomes a stub carrying only the
  ``tool_use_id``: what a successful Read or Bash printed is never needed, and
  pairing a call with its result is (a small one that may hold a TaskCreate id, or a
  Write's word that it created its file, is parsed).

Lines that are not whole (no newline yet), not JSON, not UTF-8 or of the wrong shape
are skipped silently; a hook must never fail on a transcript.

A text (a prompt, a reply) is kept up to TEXT_LIMIT characters: whatever reads a record
redacts its text, at up to a second per MB, so one huge reply must not eat a hook's time. A
``deadline`` (a ``time.monotonic()`` value) stops reading cleanly between two lines: the
offset returned, or ``ReadProgress.end``, is where reading can resume.
"""

from __future__ import annotations

import json
import os
import re
import time

from memhooks import TYPE_CHECKING
from memhooks.continuity.transcript_records import (
    WRITE_CREATED,
    Record,
    TextBlock,
    ToolResult,
    ToolUse,
)
from memhooks.text.redact import cut_at_line

if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import BinaryIO

    from memhooks.continuity.transcript_records import Block

RECORD_TYPES = frozenset({"user", "assistant", "system"})

_CHUNK = 1 << 20
#: A longer line is skipped, never held: real records with big tool results take a few MB.
MAX_LINE_BYTES = 32 << 20
#: a result line this small that mentions "Task #" may hold the id TaskCreate assigned
_PARSE_LIMIT = 64 * 1024
_TASK_NUMBER = b"Task #"
_CREATED = WRITE_CREATED.encode()
_AGENT_RESULT = b'"agentType"'
#: the user's answer to Claude's AskUserQuestion (the user's own words: evidence.told)
_USER_ANSWER = re.compile(rb"answered your questions:|questions have been answered:")
#: a tool result's text is only ever searched for an error line or a task id
_RESULT_TEXT_LIMIT = 8 * 1024
#: tool inputs keep their file paths and commands, not the file contents they carry
_INPUT_TEXT_LIMIT = 4 * 1024
#: a prompt's or a reply's text: what a restore quotes of one is a few thousand characters
TEXT_LIMIT = 256 * 1024

_LEADING_TYPE = re.compile(rb'\{\s*"type"\s*:\s*"([^"\\]{1,64})"')
_WANTED_MARKER = re.compile(rb'"type"\s*:\s*"(?:user|assistant|system)"')
_USER_MARKER = re.compile(rb'"type"\s*:\s*"user"')
_TOOL_RESULT_MARKER = re.compile(rb'"type"\s*:\s*"tool_result"')
_ERROR_MARKER = re.compile(rb'"is_error"\s*:\s*true')
_TOOL_USE_ID = re.compile(rb'"tool_use_id"\s*:\s*"([^"\\]{1,200})"')
_SIDECHAIN_MARKER = re.compile(rb'"isSidechain"\s*:\s*true')


def _str(value: object) -> str:
    return value if isinstance(value, str) else ""


def _cut(text: str, limit: int) -> str:
    """Cut without leaving a partial line: half a secret would escape redaction later."""
    return cut_at_line(text, limit)


def _result_text(content: object) -> str:
    if isinstance(content, str):
        return content if len(content) <= _RESULT_TEXT_LIMIT else _cut(content, _RESULT_TEXT_LIMIT)
    if isinstance(content, list):
        parts = [
            item["text"]
            for item in content
            if isinstance(item, dict) and isinstance(item.get("text"), str)
        ]
        return _cut("\n".join(parts), _RESULT_TEXT_LIMIT)
    return ""


def _slim_input(value: object) -> dict[str, object]:
    if not isinstance(value, dict):
        return {}
    return {
        str(key): _cut(item, _INPUT_TEXT_LIMIT) if isinstance(item, str) else item
        for key, item in value.items()
    }


def _block(item: object) -> Block | None:
    if not isinstance(item, dict):
        return None
    kind = item.get("type")
    if kind == "text" and isinstance(item.get("text"), str):
        return TextBlock(_cut(item["text"], TEXT_LIMIT))
    if kind == "tool_use":
        return ToolUse(_str(item.get("id")), _str(item.get("name")), _slim_input(item.get("input")))
    if kind == "tool_result":
        return ToolResult(
            _str(item.get("tool_use_id")),
            is_error=item.get("is_error") is True,
            text=_result_text(item.get("content")),
        )
    return None


def _content(obj: dict[str, object]) -> tuple[str | None, tuple[Block, ...]]:
    message = obj.get("message")
    content = message.get("content") if isinstance(message, dict) else obj.get("content")
    if isinstance(content, str):
        return _cut(content, TEXT_LIMIT), ()
    if isinstance(content, list):
        blocks = (_block(item) for item in content)
        return None, tuple(block for block in blocks if block is not None)
    return None, ()


def record_from_json(obj: object, offset: int = -1) -> Record | None:
    """A ``Record`` from one decoded line, or None when it is not a conversation record."""
    if not isinstance(obj, dict) or obj.get("type") not in RECORD_TYPES:
        return None
    text, blocks = _content(obj)
    metadata = obj.get("compactMetadata")
    return Record(
        type=str(obj["type"]),
        offset=offset,
        uuid=_str(obj.get("uuid")),
        timestamp=_str(obj.get("timestamp")),
        cwd=_str(obj.get("cwd")),
        subtype=_str(obj.get("subtype")),
        trigger=_str(metadata.get("trigger")) if isinstance(metadata, dict) else "",
        text=text,
        blocks=blocks,
        is_meta=obj.get("isMeta") is True,
        is_compact_summary=obj.get("isCompactSummary") is True,
        is_visible_in_transcript_only=obj.get("isVisibleInTranscriptOnly") is True,
        is_sidechain=obj.get("isSidechain") is True,
        has_tool_use_result="toolUseResult" in obj,
    )


def _is_wanted(line: bytes) -> bool:
    leading = _LEADING_TYPE.match(line)
    if leading is not None:
        return leading.group(1).decode("ascii", "replace") in RECORD_TYPES
    return _WANTED_MARKER.search(line) is not None


def _result_stub(line: bytes, offset: int) -> Record | None:
    """A successful tool result: keep the pairing, skip the body.

    Only an error's text, a created task's number or a Write's word that it created its
    file is ever read from a result.
    """
    if len(line) <= _PARSE_LIMIT and (_TASK_NUMBER in line or _CREATED in line):
        return None
    if _AGENT_RESULT in line:
        return None  # a sub-agent's report is kept (its findings go into the checkpoint)
    if _USER_ANSWER.search(line) is not None:
        return None  # the user's answer to Claude's question is kept
    if _TOOL_RESULT_MARKER.search(line) is None or _ERROR_MARKER.search(line) is not None:
        return None
    if _USER_MARKER.search(line) is None:
        return None
    ids = [match.group(1).decode("utf-8", "replace") for match in _TOOL_USE_ID.finditer(line)]
    return Record(
        type="user",
        offset=offset,
        blocks=tuple(ToolResult(tool_use_id, is_error=False, skipped=True) for tool_use_id in ids),
        is_sidechain=_SIDECHAIN_MARKER.search(line) is not None,
        has_tool_use_result=True,
    )


def parse_line(line: bytes, offset: int = -1) -> Record | None:
    """One transcript line to a ``Record``; None for bookkeeping and anything malformed."""
    if not _is_wanted(line):
        return None
    stub = _result_stub(line, offset)
    if stub is not None:
        return stub
    try:
        obj = json.loads(line)
    except (ValueError, RecursionError):
        return None
    return record_from_json(obj, offset)


def _complete_lines(
    handle: BinaryIO, offset: int, limit: int | None = None
) -> Iterator[tuple[int, bytes]]:
    """``(offset, line)`` for each newline-terminated line; a trailing partial line is left.

    A line over MAX_LINE_BYTES is skipped whole without being held in memory (a 3 GB file
    with no newline cost PreCompact 3.1 GB); `limit` stops after that many bytes read.
    """
    head: list[bytes] = []
    held = 0  # bytes in head, or of the over-long line being skipped
    skipping = False
    position = offset
    left = limit if limit is not None else -1
    while left != 0 and (chunk := handle.read(_CHUNK if left < 0 else min(_CHUNK, left))):
        left = left - len(chunk) if left > 0 else left
        pieces = chunk.split(b"\n")
        if len(pieces) == 1:
            held += len(chunk)
            if not skipping:
                head.append(chunk)
                if held > MAX_LINE_BYTES:
                    skipping, head = True, []
            continue
        if skipping:
            position += held + len(pieces[0]) + 1
            skipping = False
        else:
            head.append(pieces[0])
            first = b"".join(head)
            if len(first) <= MAX_LINE_BYTES:
                yield position, first
            position += len(first) + 1
        for line in pieces[1:-1]:
            yield position, line
            position += len(line) + 1
        head = [pieces[-1]]
        held = len(pieces[-1])


class ReadProgress:
    """How far a read got: `end`, the offset after the last whole line read (where to
    resume), and `stopped`, True when the deadline ended it before the end of the file (or of
    its `limit`)."""

    __slots__ = ("end", "stopped")

    def __init__(self, end: int = 0) -> None:
        self.end = end
        self.stopped = False


class _Cursor:
    """Records from a byte offset, remembering where the last whole line ended."""

    def __init__(
        self,
        handle: BinaryIO,
        progress: ReadProgress,
        limit: int | None = None,
        deadline: float | None = None,
    ) -> None:
        self._handle = handle
        self.progress = progress
        self._limit = limit
        self._deadline = deadline

    def __iter__(self) -> Iterator[Record]:
        deadline = self._deadline
        for position, line in _complete_lines(self._handle, self.progress.end, self._limit):
            # Checked between lines, the time taken by whoever consumes the records included.
            if deadline is not None and time.monotonic() > deadline:
                self.progress.stopped = True
                return
            self.progress.end = position + len(line) + 1
            record = parse_line(line, position)
            if record is not None:
                yield record


def _start_offset(path: str | os.PathLike[str], offset: int) -> int | None:
    try:
        size = os.stat(path).st_size
    except OSError:
        return None
    # A file shorter than what we already read was replaced: start again.
    return 0 if offset < 0 or offset > size else offset


def read_new(
    path: str | os.PathLike[str],
    offset: int,
    limit: int | None = None,
    *,
    deadline: float | None = None,
) -> tuple[list[Record], int]:
    """Records of the whole lines after byte ``offset``, and the offset to resume from.

    A last line without its newline is not consumed. An offset past the end of the
    file means the file was replaced, so reading restarts at 0. An unreadable file
    yields nothing and keeps the offset. Past ``deadline`` it stops between two lines.
    """
    start = _start_offset(path, offset)
    if start is None:
        return [], offset
    progress = ReadProgress(start)
    try:
        with open(path, "rb") as handle:
            handle.seek(start)
            records = list(_Cursor(handle, progress, limit, deadline))
    except OSError:
        return [], offset
    return records, progress.end


def iter_records(
    path: str | os.PathLike[str],
    offset: int = 0,
    limit: int | None = None,
    *,
    deadline: float | None = None,
    progress: ReadProgress | None = None,
) -> Iterator[Record]:
    """Like ``read_new`` but streaming, for a whole big file (at most `limit` bytes of it);
    yields nothing if unreadable. An offset inside a line skips that line. ``progress``, when
    given, tells afterwards how far it got and whether ``deadline`` stopped it."""
    start = _start_offset(path, offset)
    if start is None:
        return
    progress = progress if progress is not None else ReadProgress()
    progress.end = start
    try:
        with open(path, "rb") as handle:
            handle.seek(start)
            yield from _Cursor(handle, progress, limit, deadline)
    except OSError:
        return
