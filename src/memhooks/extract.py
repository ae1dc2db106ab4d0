# Copyright (c) 2025 memhooks developers. Licensed under the MIT License.
"""The working state of a session, read from its transcript records. Pure, stdlib only.

``extract_facts`` walks the records once and returns a frozen ``SessionFacts``: the
latest user requests, the todo list, files written and edited, failed Bash commands,
stated decisions and blockers, and the latest assistant replies. It covers the whole
transcript, compactions included: a checkpoint must reflect all the work, and a
compaction's own summary record is not a user request.

Every string it returns has been through ``redact``.
"""

from __future__ import annotations

import re

from memhooks.cues import FAILURE_WORDS, INTENDED_FAILURE, sentences
from memhooks.lazy_re import LazyPattern
from memhooks.lifecycle import LiveState, LiveTracker
from memhooks.redact import redact
from memhooks.transcript import Record, TextBlock, ToolResult, ToolUse, Value

TYPE_CHECKING = False  # not typing.TYPE_CHECKING: importing typing costs the hooks ms
if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

MAX_PROMPTS = 5
MAX_REPLIES = 3
#: lists keep their most recent entries; the renderer cuts further and says so
MAX_ITEMS = 100

TODO_STATUSES = ("pending", "in_progress", "completed")
WRITE_TOOLS = frozenset({"Write"})
EDIT_TOOLS = frozenset({"Edit", "MultiEdit", "NotebookEdit"})

#: Slash-command echoes (either tag may come first), local command output, background-task
#: notifications and `!` shell input: none of them is a request from the user.
_NOT_A_PROMPT = (
    "<command-name>",
    "<command-message>",
    "<local-command-",
    "<task-notification>",
    "<bash-",
)
_SYSTEM_REMINDER = LazyPattern(r"<system-reminder>.*?</system-reminder>", re.DOTALL)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z\"'(\[`*])")
_DECISION_MARKER = re.compile(
    r"^\W*(?:decision|decided)\W*:\s*|(?<![A-Za-z])(?-i:Decision)\W*:\s*", re.IGNORECASE
)
_DECISION_PHRASE = re.compile(
    r"\b(?:we(?:'ve| have)? decided|I(?:'ve| have)? decided|(?:I|we)(?:'ll| will) go with"
    r"|let's go with|we're going with|I'm going with)\b",
    re.IGNORECASE,
)
_BLOCKER_MARKER = re.compile(r"^\W*(?:blocker|blocked)\W*:\s*", re.IGNORECASE)
_USER_BLOCKED = re.compile(r"\bblocked (?:on|by)\b", re.IGNORECASE)
_SELF_BLOCKED = re.compile(
    r"\b(?:I'm|I am|we're|we are|still|currently)\s+blocked\b(?:\s+(?:on|by))?", re.IGNORECASE
)
_TASK_ID = LazyPattern(r"Task #(\d+)")
_EXIT_CODE = LazyPattern(r"^Exit code (\d+)$")
_EXCEPTION_LINE = LazyPattern(r"^[\w.]*(?:Error|Exception|Exit)\b[^:]{0,40}:")
_ERROR_WORDS = LazyPattern(
    r"\b(?:error|fail(?:ed|ure|s)?|fatal|not found|no such|denied|cannot|can't|unable"
    r"|invalid|refused|panic|abort(?:ed)?)\b",
    re.IGNORECASE,
)
_ERROR_LINE_LIMIT = 240
_FACT_WORDS = ("decision", "decided", "go with", "going with", "blocke")


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

    def replace(self, **changes: object) -> FailedCommand:
        values = {name: getattr(self, name) for name in self.__slots__}
        values.update(changes)
        return FailedCommand(**values)


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


def prompt_text(record: Record) -> str | None:
    """The text of a genuine user request, or None (tool results, meta, summaries, echoes)."""
    if (
        record.type != "user"
        or record.is_meta
        or record.is_compact_summary
        or record.is_visible_in_transcript_only
        or record.is_sidechain
        or record.has_tool_use_result
    ):
        return None
    if record.text is not None:
        text = record.text
    else:
        if any(not isinstance(block, TextBlock) for block in record.blocks):
            return None
        text = "\n".join(block.text for block in record.blocks if isinstance(block, TextBlock))
    return clean_prompt(text)


def clean_prompt(text: str) -> str | None:
    """A prompt without injected reminders; None when it is a command echo or notification."""
    if "<system-reminder>" in text:
        text = _SYSTEM_REMINDER.sub("", text)
    text = text.strip()
    if not text or text.startswith(_NOT_A_PROMPT):
        return None
    return text


def assistant_text(record: Record) -> str:
    if record.type != "assistant":
        return ""
    return "\n".join(block.text for block in record.blocks if isinstance(block, TextBlock)).strip()


def _sentences(text: str) -> list[str]:
    return [
        sentence.strip()
        for line in text.splitlines()
        for sentence in _SENTENCE_END.split(line)
        if sentence.strip()
    ]


def _strip_emphasis(text: str) -> str:
    return text.strip().strip("*_").strip()


def _mentions(text: str, words: tuple[str, ...]) -> bool:
    # A cheap test before the per-line regexes, which dominate on long sessions.
    lowered = text.lower()
    return any(word in lowered for word in words)


def find_decisions(text: str) -> list[str]:
    """``Decision: …`` lines (the text after the marker) and sentences like "we decided …"."""
    if not _mentions(text, ("decision", "decided", "go with", "going with")):
        return []
    found: list[str] = []
    for line in text.splitlines():
        marker = _DECISION_MARKER.search(line)
        if marker is not None:
            decision = _strip_emphasis(line[marker.end() :])
            if decision:
                found.append(decision)
            continue
        found.extend(
            _strip_emphasis(sentence)
            for sentence in _SENTENCE_END.split(line)
            if _DECISION_PHRASE.search(sentence)
        )
    return found


def find_blockers(text: str, *, from_user: bool) -> list[str]:
    """``Blocker: …`` lines, and sentences saying that work is blocked.

    A user's "blocked on/by" always counts. The assistant's only in the first person or
    with "still"/"currently": it also says "marked as blocked on X" when it merely
    records the user's blocker in a todo.
    """
    if not _mentions(text, ("blocke",)):
        return []
    found: list[str] = []
    for line in text.splitlines():
        marker = _BLOCKER_MARKER.match(line)
        if marker is not None:
            blocker = _strip_emphasis(line[marker.end() :])
            if blocker:
                found.append(blocker)
            continue
        pattern = _USER_BLOCKED if from_user else _SELF_BLOCKED
        found.extend(
            sentence.strip() for sentence in _SENTENCE_END.split(line) if pattern.search(sentence)
        )
    return found


def first_error_line(output: str) -> tuple[str, int | None]:
    """The line of a failed command's output that says what went wrong, and the exit code.

    Preference: a TAP ``not ok`` line, then the last exception line (``FooError: …``,
    the one a traceback ends with), then the first line with an error word, then the
    first line. A line ending in ``:`` takes the next line along.
    """
    lines = [line.strip() for line in output.splitlines() if line.strip()]
    exit_code = None
    if lines and (code := _EXIT_CODE.match(lines[0])):
        exit_code = int(code.group(1))
        lines = lines[1:]
    if not lines:
        return "", exit_code
    index = next((i for i, line in enumerate(lines) if line.startswith("not ok ")), None)
    if index is None:
        matches = [i for i, line in enumerate(lines) if _EXCEPTION_LINE.match(line)]
        index = matches[-1] if matches else None
    if index is None:
        index = next((i for i, line in enumerate(lines) if _ERROR_WORDS.search(line)), 0)
    line = lines[index]
    if line.endswith(":") and index + 1 < len(lines):
        line = f"{line} {lines[index + 1]}"
    return _clip(line, _ERROR_LINE_LIMIT), exit_code


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def relative_path(path: str, cwd: str) -> str:
    if cwd and path.startswith(cwd.rstrip("/") + "/"):
        return path[len(cwd.rstrip("/")) + 1 :]
    return path


def _status(value: object) -> str:
    return value if isinstance(value, str) and value in TODO_STATUSES else "pending"


def _todos_from_input(value: object) -> tuple[Todo, ...] | None:
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


class _Tasks:
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


def _remember(ordered: dict[str, None], item: str) -> None:
    """Keep ``item`` as the most recent entry of an insertion-ordered set, bounded."""
    ordered.pop(item, None)
    ordered[item] = None
    if len(ordered) > MAX_ITEMS:
        del ordered[next(iter(ordered))]


MAX_FINDINGS = 3
_FINDING_LIMIT = 1200
_NOTE_LIMIT = 320
_AGENT_TOOLS = frozenset({"Agent", "Task"})
_HAND_BACK = "The report follows:"


def _finding(text: str) -> str:
    """A sub-agent's report without the host's hand-back preamble."""
    at = text.find(_HAND_BACK)
    return text[at + len(_HAND_BACK) :].strip() if at >= 0 else text.strip()


class _Collector:
    def __init__(self, redact_patterns: Sequence[str] = (), *, track_live: bool = False) -> None:
        #: texts are redacted before a line or a sentence is taken from them: a cut
        #: through a secret (or away from its name) would let the rest through
        self.patterns = redact_patterns
        self.live: LiveTracker | None = LiveTracker() if track_live else None
        self.goal = ""
        #: Claude's text of this turn since the last command ran: says whether a failure is meant
        self.recent_text = ""
        #: the failed command whose comment Claude has not made yet
        self.awaiting_note = ""
        self.agent_calls: set[str] = set()
        self.findings: list[str] = []
        self.cwd = ""
        self.prompts: list[str] = []
        self.seen_prompts: set[str] = set()
        self.replies: list[str] = []
        self.reply_open = False
        self.todo_writes: dict[str, tuple[Todo, ...]] = {}
        self.tasks = _Tasks()
        #: which todo tool spoke last: "todo" (TodoWrite) or "task" (TaskCreate/TaskUpdate)
        self.todo_source = ""
        self.file_calls: dict[str, tuple[str, str]] = {}
        self.written: dict[str, None] = {}
        self.edited: dict[str, None] = {}
        self.bash_calls: dict[str, str] = {}
        self.intended_calls: set[str] = set()
        self.failures: dict[str, FailedCommand] = {}
        self.decisions: dict[str, None] = {}
        self.blockers: dict[str, None] = {}
        self.seen_uuids: set[str] = set()
        self.compactions = 0

    def add(self, record: Record) -> None:
        if record.uuid:
            if record.uuid in self.seen_uuids:
                return
            self.seen_uuids.add(record.uuid)
        self.cwd = record.cwd or self.cwd
        if record.type == "system":
            self.compactions += record.subtype == "compact_boundary"
            return
        prompt = prompt_text(record)
        if prompt is not None:
            self.new_prompt(prompt)
            return
        for block in record.blocks:
            if isinstance(block, ToolUse):
                self.tool_use(block)
            elif isinstance(block, ToolResult):
                self.tool_result(block)
        if record.is_sidechain:
            return
        text = assistant_text(record)
        if text:
            self.reply(text)

    def new_prompt(self, prompt: str) -> None:
        """A prompt read from the transcript: every one counts as a turn, repeats too."""
        if self.live is not None:
            self.live.prompt(prompt)
        self.add_prompt(prompt)

    def add_prompt(self, prompt: str) -> None:
        self.goal = self.goal or prompt
        self.recent_text = ""
        self.awaiting_note = ""
        if prompt in self.seen_prompts:
            return
        self.seen_prompts.add(prompt)
        self.prompts = [*self.prompts[-(MAX_PROMPTS - 1) :], prompt]
        self.reply_open = False
        if _mentions(prompt, _FACT_WORDS):
            prompt = redact(prompt, self.patterns)
        for blocker in find_blockers(prompt, from_user=True):
            _remember(self.blockers, blocker)
        for decision in find_decisions(prompt):
            _remember(self.decisions, decision)

    def reply(self, text: str) -> None:
        if self.reply_open:
            self.replies[-1] = text
        else:
            self.replies = [*self.replies[-MAX_REPLIES:], text]
            self.reply_open = True
        if self.live is not None or _mentions(text, _FACT_WORDS):
            text = redact(text, self.patterns)
        if self.live is not None:
            self.recent_text = text
            if self.awaiting_note:
                self.note_failure(self.awaiting_note, text)
                self.awaiting_note = ""
            self.live.reply(text)
            return
        for decision in find_decisions(text):
            _remember(self.decisions, decision)
        for blocker in find_blockers(text, from_user=False):
            _remember(self.blockers, blocker)

    def tool_use(self, block: ToolUse) -> None:
        if block.name == "TodoWrite":
            todos = _todos_from_input(block.input.get("todos"))
            if todos is not None:
                self.todo_writes[block.id] = todos
                self.todo_source = "todo"
        elif block.name in {"TaskCreate", "TaskUpdate"}:
            (self.tasks.create if block.name == "TaskCreate" else self.tasks.update)(block)
            self.todo_source = "task"
        elif block.name in WRITE_TOOLS or block.name in EDIT_TOOLS:
            path = block.input.get("file_path") or block.input.get("notebook_path")
            if isinstance(path, str) and path:
                self.file_calls[block.id] = (block.name, path)
        elif block.name == "Bash":
            command = block.input.get("command")
            if isinstance(command, str) and command.strip():
                self.bash_calls[block.id] = command.strip()
                if self.live is not None and self.meant_to_fail(block):
                    self.intended_calls.add(block.id)
        elif block.name in _AGENT_TOOLS:
            self.agent_calls.add(block.id)

    def tool_result(self, block: ToolResult) -> None:
        if block.is_error:
            self.todo_writes.pop(block.tool_use_id, None)
        self.tasks.result(block)
        file_call = self.file_calls.pop(block.tool_use_id, None)
        if file_call is not None and not block.is_error:
            self.touch(*file_call)
        command = self.bash_calls.pop(block.tool_use_id, None)
        if command is not None:
            intended = block.tool_use_id in self.intended_calls
            self.intended_calls.discard(block.tool_use_id)
            self.bash_result(command, block, intended=intended)
            self.recent_text = ""
        if block.tool_use_id in self.agent_calls:
            self.agent_calls.discard(block.tool_use_id)
            finding = _finding(block.text)
            if finding and not block.is_error:
                self.findings = [*self.findings[-(MAX_FINDINGS - 1) :], finding[:_FINDING_LIMIT]]

    def touch(self, tool: str, path: str) -> None:
        _remember(self.written if tool in WRITE_TOOLS else self.edited, path)

    def bash_result(self, command: str, block: ToolResult, *, intended: bool = False) -> None:
        if not block.is_error:
            failed = self.failures.get(command)
            if failed is not None:
                self.failures[command] = failed.replace(later_succeeded=True)
            return
        error, exit_code = first_error_line(redact(block.text, self.patterns))
        self.failures.pop(command, None)
        self.failures[command] = FailedCommand(command, error, exit_code, intended=intended)
        self.awaiting_note = command
        if len(self.failures) > MAX_ITEMS:
            del self.failures[next(iter(self.failures))]

    def meant_to_fail(self, block: ToolUse) -> bool:
        """The call's description or Claude's words before it say it should fail."""
        description = block.input.get("description")
        if isinstance(description, str) and INTENDED_FAILURE.search(description):
            return True
        return INTENDED_FAILURE.search(self.recent_text) is not None

    def note_failure(self, command: str, text: str) -> None:
        """Claude's comment on a failure: the sentences naming it; "as expected" marks it meant."""
        failed = self.failures.get(command)
        if failed is None:
            return
        said = [s for s in sentences(text, from_user=False) if FAILURE_WORDS.search(s)]
        intended = failed.intended or bool(said and INTENDED_FAILURE.search(said[0]))
        note = " ".join(said[:2])
        self.failures[command] = failed.replace(intended=intended, note=_clip(note, _NOTE_LIMIT))

    def finish(self) -> None:
        # Calls whose results are not in the file yet (it is written with a lag) count.
        for tool, path in self.file_calls.values():
            self.touch(tool, path)
        self.file_calls.clear()

    def todos(self) -> tuple[Todo, ...]:
        if self.todo_source == "task":
            return self.tasks.todos()
        if self.todo_writes:
            return list(self.todo_writes.values())[-1]
        return ()


def _redact_todo(todo: Todo, patterns: Sequence[str]) -> Todo:
    return Todo(redact(todo.content, patterns), todo.status, redact(todo.detail, patterns))


def _redact_failure(failed: FailedCommand, patterns: Sequence[str]) -> FailedCommand:
    return FailedCommand(
        redact(failed.command, patterns),
        redact(failed.error, patterns),
        failed.exit_code,
        later_succeeded=failed.later_succeeded,
        intended=failed.intended,
        note=redact(failed.note, patterns),
    )


def _live_facts(state: LiveState, patterns: Sequence[str]) -> LiveFacts:
    def clean(texts: Iterable[str]) -> tuple[str, ...]:
        return tuple(redact(text, patterns) for text in texts)

    return LiveFacts(
        next_steps=clean(state.next_steps),
        plan=clean(state.plan),
        in_progress=clean(state.in_progress),
        waiting=clean(state.waiting),
        proposal=redact(state.proposal, patterns),
        open_notes=clean(state.open_notes),
        constraints=clean(state.constraints),
        resolved_blockers=clean(state.resolved_blockers),
        superseded_decisions=clean(state.superseded_decisions),
        reported_failures=clean(state.reported_failures),
        fixed_reports=clean(state.fixed_reports),
        lifted_constraints=clean(state.lifted_constraints),
    )


def _merge_prompts(collector: _Collector, extra_prompts: Sequence[str]) -> None:
    # PreCompact can run before the triggering prompt reaches the file; the
    # UserPromptSubmit cache fills that gap. Prompts already read are not repeated.
    for extra in extra_prompts:
        prompt = clean_prompt(extra) if isinstance(extra, str) else None
        if prompt is not None and prompt not in collector.seen_prompts:
            collector.new_prompt(prompt)


def extract_facts(
    records: Iterable[Record],
    *,
    extra_prompts: Sequence[str] = (),
    custom_instructions: str | None = None,
    last_assistant_message: str | None = None,
    redact_patterns: Sequence[str] = (),
    track_live: bool = False,
) -> SessionFacts:
    """The session's working state from its records, redacted.

    ``extra_prompts`` are the latest prompts seen by UserPromptSubmit, oldest first.
    ``last_assistant_message`` is the hook payload's, fresher than the file.
    ``track_live`` (PreCompact) follows the lifecycle of blockers and decisions, so that
    ``blockers`` and ``decisions`` hold only the live ones and ``live`` the rest; without it
    (the Stop hook's journal of a few new records) every stated one is listed.
    """
    collector = _Collector(redact_patterns, track_live=track_live)
    for record in records:
        collector.add(record)
    collector.finish()
    _merge_prompts(collector, extra_prompts)
    replies = list(collector.replies)
    if last_assistant_message and last_assistant_message.strip():
        if replies and collector.reply_open:
            replies.pop()  # the payload's message supersedes this turn's partial reply
        replies.append(last_assistant_message.strip())

    def clean(texts: Iterable[str]) -> tuple[str, ...]:
        return tuple(redact(text, redact_patterns) for text in texts)

    cwd = collector.cwd
    live = LiveFacts()
    decisions, blockers = tuple(collector.decisions), tuple(collector.blockers)
    if collector.live is not None:
        state = collector.live.finish()
        live = _live_facts(state, redact_patterns)
        decisions, blockers = tuple(state.decisions), tuple(state.blockers)
    return SessionFacts(
        prompts=clean(collector.prompts),
        custom_instructions=redact((custom_instructions or "").strip(), redact_patterns),
        todos=tuple(_redact_todo(todo, redact_patterns) for todo in collector.todos()),
        files_written=clean(relative_path(path, cwd) for path in collector.written),
        files_edited=clean(relative_path(path, cwd) for path in collector.edited),
        failed_commands=tuple(
            _redact_failure(failed, redact_patterns) for failed in collector.failures.values()
        ),
        decisions=clean(decisions),
        blockers=clean(blockers),
        last_assistant_message=redact(replies[-1], redact_patterns) if replies else "",
        earlier_replies=clean(reversed(replies[:-1][-(MAX_REPLIES - 1) :])),
        compactions=collector.compactions,
        goal=redact(collector.goal, redact_patterns),
        live=live,
        subagent_findings=clean(collector.findings),
    )
