# Copyright (c) 2025 memhooks developers. Licensed under the MIT License.
"""The records of a transcript as this package keeps them: frozen, slotted values (no
dataclasses: the Stop hook imports this). Standard library only."""

from __future__ import annotations

from memhooks import TYPE_CHECKING
from memhooks.text.value import Value, set_field

if TYPE_CHECKING:
    from typing import TypeAlias


_set = set_field


class TextBlock(Value):
    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        _set(self, "text", text)

    text: str


class ToolUse(Value):
    __slots__ = ("id", "input", "name")

    def __init__(self, id: str, name: str, input: dict[str, object]) -> None:  # noqa: A002
        _set(self, "id", id)
        _set(self, "name", name)
        _set(self, "input", input)

    id: str
    name: str
    input: dict[str, object]


#: The host's result of a Write that made its file ("The file … has been updated" otherwise).
WRITE_CREATED = "File created successfully at: "


class ToolResult(Value):
    """``text`` is the result's text cut to a few KB; empty when ``skipped``, which means
    the line was big and not an error, so its body was not parsed."""

    __slots__ = ("is_error", "skipped", "text", "tool_use_id")

    def __init__(
        self, tool_use_id: str, *, is_error: bool, text: str = "", skipped: bool = False
    ) -> None:
        _set(self, "tool_use_id", tool_use_id)
        _set(self, "is_error", is_error)
        _set(self, "text", text)
        _set(self, "skipped", skipped)

    tool_use_id: str
    is_error: bool
    text: str
    skipped: bool


if TYPE_CHECKING:
    Block: TypeAlias = "TextBlock | ToolUse | ToolResult"

_RECORD_FIELDS = (
    "type",
    "offset",
    "uuid",
    "timestamp",
    "cwd",
    "subtype",
    "trigger",
    "text",
    "blocks",
    "is_meta",
    "is_compact_summary",
    "is_visible_in_transcript_only",
    "is_sidechain",
    "has_tool_use_result",
)


class Record(Value):
    """One conversation record, reduced to what memory needs.

    ``subtype`` is set on ``system`` records (``stop_hook_summary``, ``compact_boundary``),
    ``trigger`` on a ``compact_boundary`` (``manual`` or ``auto``), and ``text`` when
    ``message.content`` is a plain string (prompts, command echoes, summaries).
    """

    __slots__ = _RECORD_FIELDS

    def __init__(
        self,
        type: str,  # noqa: A002
        *,
        offset: int = -1,
        uuid: str = "",
        timestamp: str = "",
        cwd: str = "",
        subtype: str = "",
        trigger: str = "",
        text: str | None = None,
        blocks: tuple[Block, ...] = (),
        is_meta: bool = False,
        is_compact_summary: bool = False,
        is_visible_in_transcript_only: bool = False,
        is_sidechain: bool = False,
        has_tool_use_result: bool = False,
    ) -> None:
        for name, value in zip(
            _RECORD_FIELDS,
            (
                type,
                offset,
                uuid,
                timestamp,
                cwd,
                subtype,
                trigger,
                text,
                blocks,
                is_meta,
                is_compact_summary,
                is_visible_in_transcript_only,
                is_sidechain,
                has_tool_use_result,
            ),
            strict=True,
        ):
            _set(self, name, value)

    type: str
    offset: int
    uuid: str
    timestamp: str
    cwd: str
    subtype: str
    trigger: str
    text: str | None
    blocks: tuple[Block, ...]
    is_meta: bool
    is_compact_summary: bool
    is_visible_in_transcript_only: bool
    is_sidechain: bool
    has_tool_use_result: bool
