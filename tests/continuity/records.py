"""Transcript records as the tests of the evidence and the restore build them."""

from __future__ import annotations

from memhooks.continuity.transcript_records import Record, TextBlock, ToolResult, ToolUse


def prompt(text: str) -> Record:
    return Record(type="user", text=text)


def said(text: str) -> Record:
    return Record(type="assistant", blocks=(TextBlock(text),))


def bash(call_id: str, command: str, *, ok: bool, output: str = "") -> list[Record]:
    return [
        Record(type="assistant", blocks=(ToolUse(call_id, "Bash", {"command": command}),)),
        Record(type="user", blocks=(ToolResult(call_id, is_error=not ok, text=output),)),
    ]


def edit(call_id: str, path: str, tool: str = "Edit", *, existed: bool = False) -> list[Record]:
    """A file tool's call and its result in the host's words: a Write makes the file unless
    it `existed`."""
    made = tool == "Write" and not existed
    text = f"File created successfully at: {path}" if made else f"The file {path} has been updated."
    return [
        Record(type="assistant", cwd="/p", blocks=(ToolUse(call_id, tool, {"file_path": path}),)),
        Record(type="user", blocks=(ToolResult(call_id, is_error=False, text=text),)),
    ]
