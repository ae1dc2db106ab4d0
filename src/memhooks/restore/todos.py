# Copyright (c) 2025 memhooks developers. Licensed under the MIT License.
"""The todo list, replayed from TodoWrite calls and the Task tools. Pure, stdlib only."""

from __future__ import annotations

from memhooks.restore.facts import Todo
from memhooks.restore.transcript_records import ToolResult, ToolUse
from memhooks.text.lazy_re import LazyPattern

TODO_STATUSES = ("pending", "in_progress", "completed")
_TASK_ID = LazyPattern(r"Task #(\d+)")


def _status(value: object) -> str:
    return value if isinstance(value, str) and value in TODO_STATUSES else "pending"


def todos_from_input(value: object) -> tuple[Todo, ...] | None:
    if not isinstance(value, list):
        return None
    return tuple(
        Todo(item["content"], _status(item.get("status")))
        for item in value
        if isinstance(item, dict) and isinstance(item.get("content"), str)
    )


class _Task:
    # Plain classes for the private, mutable state too: the Stop hook imports this
    # module, and dataclasses would cost it about 10 ms of imports.
    __slots__ = ("detail", "status", "subject")

    def __init__(self, subject: str, status: str = "pending", detail: str = "") -> None:
        self.subject = subject
        self.status = status
        self.detail = detail

    def copy(self) -> _Task:
        return _Task(self.subject, self.status, self.detail)


def _task_id(value: object) -> str | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, (str, int)):
        text = str(value).strip().lstrip("#")
        return text or None
    return None


class TaskReplay:
    """TaskCreate / TaskUpdate, replayed; a call whose result is an error is undone."""

    def __init__(self) -> None:
        self.items: dict[str, _Task] = {}
        self.next_id = 1
        #: tool_use id -> (task id, state before the call; None: the call created it)
        self.undo: dict[str, tuple[str, _Task | None]] = {}

    def create(self, tool_use: ToolUse) -> None:
        subject = tool_use.input.get("subject") or tool_use.input.get("content")
        if not isinstance(subject, str) or not subject.strip():
            return
        detail = tool_use.input.get("description")
        task_id = str(self.next_id)
        self.next_id += 1
        self.items[task_id] = _Task(
            subject.strip(),
            _status(tool_use.input.get("status")),
            detail.strip() if isinstance(detail, str) else "",
        )
        self.undo[tool_use.id] = (task_id, None)

    def update(self, tool_use: ToolUse) -> None:
        task_id = _task_id(tool_use.input.get("taskId", tool_use.input.get("id")))
        if task_id is None:
            return
        before = self.items.get(task_id)
        self.undo[tool_use.id] = (task_id, None if before is None else before.copy())
        status = tool_use.input.get("status")
        if status == "deleted":
            self.items.pop(task_id, None)
            return
        task = self.items.setdefault(task_id, _Task(f"Task #{task_id}"))
        if isinstance(status, str) and status in TODO_STATUSES:
            task.status = status
        subject = tool_use.input.get("subject")
        if isinstance(subject, str) and subject.strip():
            task.subject = subject.strip()
        detail = tool_use.input.get("description")
        if isinstance(detail, str) and detail.strip():
            task.detail = detail.strip()

    def result(self, result: ToolResult) -> None:
        entry = self.undo.pop(result.tool_use_id, None)
        if entry is None:
            return
        task_id, before = entry
        if result.is_error:
            if before is None:
                self.items.pop(task_id, None)
            else:
                self.items[task_id] = before
            return
        assigned = _TASK_ID.search(result.text)
        if assigned is not None and assigned.group(1) != task_id and before is None:
            # The host numbers tasks itself; follow its id so later updates find the task.
            task = self.items.pop(task_id, None)
            if task is not None:
                self.items[assigned.group(1)] = task
            self.next_id = max(self.next_id, int(assigned.group(1)) + 1)

    def todos(self) -> tuple[Todo, ...]:
        return tuple(Todo(task.subject, task.status, task.detail) for task in self.items.values())
