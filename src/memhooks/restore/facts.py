# Copyright (c) 2025 memhooks developers. Licensed under the MIT License.
"""The values a transcript reading yields: todos, failed commands, live and session facts.

Frozen, slotted classes (no dataclasses: the Stop hook imports this). Pure, stdlib only.
"""

from __future__ import annotations

from memhooks.text.value import Value

TYPE_CHECKING = False  # not typing.TYPE_CHECKING: importing typing costs the hooks ms

MAX_PROMPTS = 5
MAX_REPLIES = 3
#: lists keep their most recent entries; the renderer cuts further and says so
MAX_ITEMS = 100

_set = object.__setattr__


class Todo(Value):
    """One todo item; ``status`` is ``pending``, ``in_progress`` or ``completed``."""

    __slots__ = ("content", "detail", "status")

    def __init__(self, content: str, status: str, detail: str = "") -> None:
        _set(self, "content", content)
        _set(self, "status", status)
        _set(self, "detail", detail)

    content: str
    status: str
    detail: str


class FailedCommand(Value):
    """A Bash call whose result was an error: ``error`` is the output line that says what
    went wrong; ``later_succeeded`` that the same command ran fine afterwards."""

    __slots__ = ("command", "error", "exit_code", "intended", "later_succeeded", "note")

    def __init__(
        self,
        command: str,
        error: str,
        exit_code: int | None = None,
        *,
        later_succeeded: bool = False,
        intended: bool = False,
        note: str = "",
    ) -> None:
        _set(self, "command", command)
        _set(self, "error", error)
        _set(self, "exit_code", exit_code)
        _set(self, "later_succeeded", later_succeeded)
        _set(self, "intended", intended)
        _set(self, "note", note)

    command: str
    error: str
    exit_code: int | None
    later_succeeded: bool
    #: Claude said it would fail on purpose ("expected to fail: checks the guard")
    intended: bool
    #: what Claude said about it right after (the sentences that name the failure)
    note: str


_LIVE_FIELDS = (
    "next_steps",
    "plan",
    "in_progress",
    "waiting",
    "proposal",
    "open_notes",
    "constraints",
    "resolved_blockers",
    "superseded_decisions",
    "reported_failures",
    "fixed_reports",
    "lifted_constraints",
)


class LiveFacts(Value):
    """Now / next and the settled items, from ``lifecycle.LiveTracker``; strings redacted."""

    __slots__ = _LIVE_FIELDS

    def __init__(self, **fields: object) -> None:
        for name in _LIVE_FIELDS:
            default: object = "" if name == "proposal" else ()
            _set(self, name, fields.get(name, default))

    next_steps: tuple[str, ...]
    plan: tuple[str, ...]
    in_progress: tuple[str, ...]
    #: what Claude asked in its final reply that no prompt has answered yet
    waiting: tuple[str, ...]
    #: the proposal the latest prompt said yes to
    proposal: str
    #: "Open: …" lines of Claude's final status
    open_notes: tuple[str, ...]
    constraints: tuple[str, ...]
    resolved_blockers: tuple[str, ...]
    superseded_decisions: tuple[str, ...]
    #: failures the user reported (a CI job, a pasted log), still open / said to pass since
    reported_failures: tuple[str, ...]
    fixed_reports: tuple[str, ...]
    #: constraints that held only until a blocker went away ("so don't wire it up yet")
    lifted_constraints: tuple[str, ...]


_FACT_FIELDS = (
    "prompts",
    "custom_instructions",
    "todos",
    "files_written",
    "files_edited",
    "failed_commands",
    "decisions",
    "blockers",
    "last_assistant_message",
    "earlier_replies",
    "compactions",
    "goal",
    "live",
    "subagent_findings",
)


class SessionFacts(Value):
    """The working state of a session, immutable.

    ``prompts`` are the latest genuine user requests, oldest first; ``custom_instructions``
    what the user passed to ``/compact``; ``earlier_replies`` the final replies of the
    turns before the latest one, newest first.
    """

    __slots__ = _FACT_FIELDS

    def __init__(
        self,
        *,
        prompts: tuple[str, ...] = (),
        custom_instructions: str = "",
        todos: tuple[Todo, ...] = (),
        files_written: tuple[str, ...] = (),
        files_edited: tuple[str, ...] = (),
        failed_commands: tuple[FailedCommand, ...] = (),
        decisions: tuple[str, ...] = (),
        blockers: tuple[str, ...] = (),
        last_assistant_message: str = "",
        earlier_replies: tuple[str, ...] = (),
        compactions: int = 0,
        goal: str = "",
        live: LiveFacts | None = None,
        subagent_findings: tuple[str, ...] = (),
    ) -> None:
        values = (
            prompts,
            custom_instructions,
            todos,
            files_written,
            files_edited,
            failed_commands,
            decisions,
            blockers,
            last_assistant_message,
            earlier_replies,
            compactions,
            goal,
            live if live is not None else LiveFacts(),
            subagent_findings,
        )
        for name, value in zip(_FACT_FIELDS, values, strict=True):
            _set(self, name, value)

    prompts: tuple[str, ...]
    custom_instructions: str
    todos: tuple[Todo, ...]
    files_written: tuple[str, ...]
    files_edited: tuple[str, ...]
    failed_commands: tuple[FailedCommand, ...]
    decisions: tuple[str, ...]
    blockers: tuple[str, ...]
    last_assistant_message: str
    earlier_replies: tuple[str, ...]
    compactions: int
    #: the session's first request, whole: where the goal is stated
    goal: str
    #: what only the live tracking finds (empty unless ``extract_facts(track_live=True)``)
    live: LiveFacts
    #: what Agent-tool sub-agents reported, newest last
    subagent_findings: tuple[str, ...]

    @property
    def task(self) -> str:
        return self.prompts[-1] if self.prompts else ""

    @property
    def is_empty(self) -> bool:
        return not (
            self.prompts
            or self.custom_instructions
            or self.todos
            or self.files_written
            or self.files_edited
            or self.failed_commands
            or self.decisions
            or self.blockers
            or self.last_assistant_message
        )
