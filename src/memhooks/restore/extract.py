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

from memhooks.restore.cues import FAILURE_WORDS, INTENDED_FAILURE
from memhooks.restore.facts import FailedCommand, LiveFacts, SessionFacts, Todo
from memhooks.restore.lifecycle import LiveTracker
from memhooks.restore.live_items import LiveState
from memhooks.restore.prompts import assistant_text, clean_prompt, prompt_text
from memhooks.restore.session_text import sentences
from memhooks.restore.statements import (
    FACT_WORDS,
    find_blockers,
    find_decisions,
    first_error_line,
    mentions,
)
from memhooks.restore.todos import TaskReplay, todos_from_input
from memhooks.restore.transcript_records import Record, ToolResult, ToolUse
from memhooks.text import clip
from memhooks.text.redact import redact

TYPE_CHECKING = False  # not typing.TYPE_CHECKING: importing typing costs the hooks ms
if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

MAX_PROMPTS = 5
MAX_REPLIES = 3
#: lists keep their most recent entries; the renderer cuts further and says so
MAX_ITEMS = 100
WRITE_TOOLS = frozenset({"Write"})
EDIT_TOOLS = frozenset({"Edit", "MultiEdit", "NotebookEdit"})


def relative_path(path: str, cwd: str) -> str:
    if cwd and path.startswith(cwd.rstrip("/") + "/"):
        return path[len(cwd.rstrip("/")) + 1 :]
    return path


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
        self.tasks = TaskReplay()
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
        if mentions(prompt, FACT_WORDS):
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
        if self.live is not None or mentions(text, FACT_WORDS):
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
            todos = todos_from_input(block.input.get("todos"))
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
        self.failures[command] = failed.replace(intended=intended, note=clip(note, _NOTE_LIMIT))

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
