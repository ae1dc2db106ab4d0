"""What every hook knows: the payload, normalised into a frozen value, and where the tree is."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from memhooks.paths import MemoryPaths, project_root


def _text(payload: dict[str, Any], key: str) -> str:
    value = payload.get(key)
    return value if isinstance(value, str) else ""


@dataclass(frozen=True)
class HookInput:
    event: str
    session_id: str
    transcript_path: str
    cwd: str
    source: str = ""
    prompt: str = ""
    trigger: str = ""
    custom_instructions: str = ""
    reason: str = ""
    stop_hook_active: bool = False
    last_assistant_message: str = ""
    agent_id: str = ""
    agent_type: str = ""
    agent_transcript_path: str = ""

    @classmethod
    def from_payload(cls, event: str, payload: dict[str, Any]) -> HookInput:
        return cls(
            event=event,
            session_id=_text(payload, "session_id"),
            transcript_path=_text(payload, "transcript_path"),
            cwd=_text(payload, "cwd"),
            source=_text(payload, "source"),
            prompt=_text(payload, "prompt"),
            trigger=_text(payload, "trigger"),
            custom_instructions=_text(payload, "custom_instructions"),
            reason=_text(payload, "reason"),
            stop_hook_active=payload.get("stop_hook_active") is True,
            last_assistant_message=_text(payload, "last_assistant_message"),
            agent_id=_text(payload, "agent_id"),
            agent_type=_text(payload, "agent_type"),
            agent_transcript_path=_text(payload, "agent_transcript_path"),
        )

    def memory_paths(self) -> MemoryPaths:
        return MemoryPaths.for_project(project_root(self.cwd or None))
