"""What every hook knows: the payload, normalised into one plain value, and where the tree is."""

from __future__ import annotations

from memhooks import TYPE_CHECKING
from memhooks.store import MemoryPaths, project_root

if TYPE_CHECKING:
    from typing import Any

_TEXT_FIELDS = (
    "session_id",
    "transcript_path",
    "cwd",
    "source",
    "prompt",
    "trigger",
    "custom_instructions",
    "reason",
    "last_assistant_message",
    "agent_id",
    "agent_type",
    "agent_transcript_path",
    "tool_name",
    "tool_use_id",
    "compact_summary",
)


def _writable(text: str) -> str:
    """JSON may escape a lone surrogate (`\\ud800`); it decodes, but no file can hold it."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "replace").decode("utf-8")
    return text


class HookInput:
    """The payload's fields, each a string of the right type or empty; slotted, not a dataclass,
    because dataclasses cost the hooks ~10 ms of imports."""

    __slots__ = ("event", "stop_hook_active", "tool_input", *_TEXT_FIELDS)

    def __init__(self, event: str, **fields: str | bool | dict[str, Any]) -> None:
        self.event = event
        self.stop_hook_active = fields.get("stop_hook_active") is True
        tool_input = fields.get("tool_input")
        self.tool_input: dict[str, Any] = tool_input if isinstance(tool_input, dict) else {}
        for name in _TEXT_FIELDS:
            value = fields.get(name, "")
            setattr(self, name, value if isinstance(value, str) else "")

    # Declared for type checkers; set in __init__.
    session_id: str
    transcript_path: str
    cwd: str
    source: str
    prompt: str
    trigger: str
    custom_instructions: str
    reason: str
    last_assistant_message: str
    agent_id: str
    agent_type: str
    agent_transcript_path: str
    tool_name: str
    tool_use_id: str
    compact_summary: str

    @classmethod
    def from_payload(cls, event: str, payload: dict[str, Any]) -> HookInput:
        fields: dict[str, str | bool | dict[str, Any]] = {
            name: _writable(payload[name])
            for name in _TEXT_FIELDS
            if isinstance(payload.get(name), str)
        }
        fields["stop_hook_active"] = payload.get("stop_hook_active") is True
        if isinstance(payload.get("tool_input"), dict):
            fields["tool_input"] = payload["tool_input"]
        tool_input = payload.get("tool_input")
        if event == "PreToolUse" and isinstance(tool_input, dict):
            # A sub-agent's task: the Agent tool's prompt is what its pointers answer.
            task = tool_input.get("prompt")
            fields["prompt"] = _writable(task) if isinstance(task, str) else ""
        return cls(event, **fields)

    def memory_paths(self) -> MemoryPaths:
        return MemoryPaths.for_project(project_root(self.cwd or None))
