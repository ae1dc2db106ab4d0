"""A session's evidence, gathered record by record. Pure, stdlib only.

What was said, in order and with where it came from (each turn: the user's prompt, Claude's
texts of the turn, the todo list when the turn wrote it, the outcome of each check that ran),
and what the record proves: the files Claude's tools changed (less those a later `rm` took
away), the last outcome of each check target (closed by a later run that covers it),
Claude's question that no prompt has answered yet, and the compactions (with the host's
summary when the transcript holds it).

The state is a plain JSON-able dict, so the Stop hook can keep it between turns (in the
restore folder, `MemoryPaths.restore`) and add only each turn's new records to it; PreCompact
builds the same state from the whole transcript. Everything kept is redacted first.
"""

from __future__ import annotations

from memhooks import TYPE_CHECKING
from memhooks.continuity import checks, settle, told, turn_files
from memhooks.continuity.excerpt import flat, head_tail, select, trim_paste
from memhooks.continuity.host_summary import summary_text
from memhooks.continuity.prompts import assistant_text, clean_prompt, interruption, prompt_text
from memhooks.continuity.transcript_records import WRITE_CREATED, Record, ToolResult, ToolUse
from memhooks.text import clip
from memhooks.text.redact import redact

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence
    from typing import Any

#: `summary_text` lives in `host_summary`; the hooks and the CLI take it from here.
__all__ = ["Evidence", "extra_prompts", "new_state", "relative", "summary_text", "usable"]

VERSION = 1
#: What one turn keeps at most: the restore cuts further, newest turns fullest.
PROMPT_CAP = 6_000
TEXT_CAP = 4_000
#: Turns kept: the first (the goal) and the latest.
MAX_TURNS = 400
MAX_MID = 3
#: Turns kept whole; an older turn (but the first, the goal) keeps what a restore can still
#: show of one so old, so the state Stop loads and saves every turn stays bounded (~1 KB a
#: turn) however long the session runs, and well under checkpoints.EVIDENCE_READ_CAP.
FULL_TURNS = 40
OLD_PROMPT, OLD_FIRST, OLD_LAST = 1_000, 600, 1_300
MAX_RUNS = 20
OLD_RUNS = 6
MAX_CHECKS = 60
MAX_FILES = 200
MAX_PENDING = 200
FINDING_CAP = 600
REDACTED_KEPT = 2_000
#: The redacted texts of this process, per set of custom patterns: shared by every Evidence,
#: so the Stop hook's journal entry (its own Evidence of the same records) redacts nothing
#: the session's evidence just did.
_REDACTED: dict[tuple[str, ...], dict[str, str]] = {}
FILE_TOOLS = frozenset({"Write", "Edit", "MultiEdit", "NotebookEdit"})
#: Tool calls whose result is kept by what it is: a sub-agent's report, the user's answer.
RESULT_KINDS = {"Agent": "agent", "Task": "agent", "AskUserQuestion": "ask"}
TODO_STATUSES = ("pending", "in_progress", "completed")
_HAND_BACK = "The report follows:"
INTERRUPTED = {"interrupted": True}


def new_state(session_id: str = "") -> dict[str, Any]:
    return {
        "version": VERSION,
        "session_id": session_id,
        "cwd": "",
        "turns": [],
        "files": {},
        "checks": {},
        "todos": [],
        "tasks": {},
        "pending": {},
        "compactions": [],
        "summary": None,
        "updated": "",
        "seq": 0,
    }


def _new_turn(n: int, at: str, prompt: str) -> dict[str, Any]:
    """`first` and `last`: Claude's first and last text of the turn; `mid`: the texts
    between them (the oldest folded by selection past MAX_MID); `ran`: the outcome of each
    command (or sub-agent) of the turn; `todos`, on the turn that wrote the todo list."""
    return {"n": n, "at": at, "prompt": prompt, "first": "", "mid": [], "last": "", "ran": []}


def _shorten(turn: dict[str, Any]) -> None:
    """An old turn cut to what the restore shows of old turns at most (handover.LEVELS): the
    user's words by their head and tail, Claude's by the sentences a reader needs most."""
    turn["prompt"] = head_tail(turn["prompt"], OLD_PROMPT, head_share=0.6)
    said = "\n".join([*turn["mid"], turn["last"]])
    turn["first"] = select(turn["first"], OLD_FIRST)
    turn["mid"] = []
    turn["last"] = select(said.strip(), OLD_LAST)
    turn["ran"] = turn_files.kept_runs(turn["ran"], OLD_RUNS)


def _fold(mid: list[str]) -> list[str]:
    """At most MAX_MID texts: the oldest two made one, by selection (a decision Claude
    stated between two tool calls stays, whatever came after it)."""
    if len(mid) <= MAX_MID:
        return mid
    return [select(f"{mid[0]}\n{mid[1]}", TEXT_CAP), *mid[2:]]


def usable(state: object) -> bool:
    """A state this version wrote (anything else is started again)."""
    return (
        isinstance(state, dict)
        and state.get("version") == VERSION
        and isinstance(state.get("turns"), list)
    )


def relative(path: str, cwd: str) -> str:
    root = cwd.rstrip("/") + "/"
    return path[len(root) :] if cwd and path.startswith(root) else path


class Evidence:
    """Adds records to a state; `state` is the result (mutated in place)."""

    def __init__(
        self, state: dict[str, Any] | None = None, redact_patterns: Sequence[str] = ()
    ) -> None:
        self.state: dict[str, Any] = state if state is not None and usable(state) else new_state()
        self.patterns = tuple(redact_patterns)
        self._clean = _REDACTED.setdefault(self.patterns, {})

    # ---------------------------------------------------------------- records

    def add_all(self, records: Iterable[Record]) -> Evidence:
        for record in records:
            self.add(record)
        return self

    def add(self, record: Record) -> None:
        state = self.state
        state["cwd"] = record.cwd or state["cwd"]
        if record.timestamp:
            state["updated"] = record.timestamp
        if record.type == "system":
            if record.subtype == "compact_boundary":
                self.compaction(record.timestamp)
            return
        if record.is_compact_summary and record.text:
            self.summary(record.text, record.timestamp)
            return
        prompt = prompt_text(record)
        if prompt is not None:
            self.prompt(prompt, record.timestamp)
        else:
            self.blocks(record)

    def blocks(self, record: Record) -> None:
        """Tool calls, their results and Claude's text of one record."""
        for block in record.blocks:
            if isinstance(block, ToolUse):
                self.tool_use(block)
            elif isinstance(block, ToolResult):
                self.tool_result(block)
        if not record.is_sidechain:
            text = assistant_text(record)
            if text:
                self.said(text)

    def redacted(self, text: str) -> str:
        """`text` redacted; remembered, as todo lists, paths and commands come back often
        (redaction was most of a whole-transcript build's time)."""
        clean = self._clean.get(text)
        if clean is None:
            if len(self._clean) >= REDACTED_KEPT:
                self._clean.clear()
            clean = self._clean[text] = redact(text, self.patterns)
        return clean

    # ---------------------------------------------------------------- turns

    def _turn(self) -> dict[str, Any]:
        turns = self.state["turns"]
        if not turns:  # text before any prompt (a resumed tail): a turn without one
            turns.append(_new_turn(1, "", ""))
        turn: dict[str, Any] = turns[-1]
        return turn

    def prompt(self, text: str, at: str = "") -> None:
        if interruption(text):  # the host's mark, once on the turn it cut short
            if self._turn()["ran"][-1:] != [INTERRUPTED]:
                self._ran(INTERRUPTED)
            return
        turns = self.state["turns"]
        text = clip(trim_paste(self.redacted(text)), PROMPT_CAP)
        n = turns[-1]["n"] + 1 if turns else 1
        turns.append(_new_turn(n, at, text))
        if len(turns) > MAX_TURNS:
            del turns[1]  # the first turn states the goal: it stays
        if len(turns) > FULL_TURNS + 1:
            _shorten(turns[-FULL_TURNS - 1])

    def known_prompt(self, text: str) -> bool:
        wanted = clip(trim_paste(self.redacted(text)), PROMPT_CAP)
        return any(turn["prompt"] == wanted for turn in self.state["turns"][-5:])

    def said(self, text: str) -> None:
        turn = self._turn()
        text = clip(self.redacted(text), TEXT_CAP)
        if not turn["first"]:
            turn["first"] = text
        elif text not in (turn["first"], turn["last"]):
            if turn["last"]:
                turn["mid"] = _fold([*turn["mid"], turn["last"]])
            turn["last"] = text

    def reply(self, text: str) -> None:
        """The Stop payload's `last_assistant_message`: the file may not have it yet."""
        text = text.strip()
        turn = self._turn()
        if text and clip(self.redacted(text), TEXT_CAP) not in (turn["first"], turn["last"]):
            self.said(text)

    # ---------------------------------------------------------------- tools

    def tool_use(self, block: ToolUse) -> None:
        data = block.input
        pending = self.state["pending"]
        turn = self._turn()["n"]
        if block.name == "TodoWrite":
            self.todo_write(data.get("todos"))
        elif block.name == "TaskCreate":
            self.task_create(data)
        elif block.name == "TaskUpdate":
            self.task_update(data)
        elif block.name in FILE_TOOLS:
            path = data.get("file_path") or data.get("notebook_path")
            if isinstance(path, str) and path:
                pending[block.id] = {"file": self.redacted(path), "tool": block.name, "turn": turn}
        elif block.name == "Bash":
            command = data.get("command")
            if isinstance(command, str) and command.strip():
                pending[block.id] = {"cmd": self.redacted(command.strip()), "turn": turn}
        elif block.name in RESULT_KINDS:
            pending[block.id] = {RESULT_KINDS[block.name]: True, "turn": turn}
        while len(pending) > MAX_PENDING:
            del pending[next(iter(pending))]

    def tool_result(self, block: ToolResult) -> None:
        call = self.state["pending"].pop(block.tool_use_id, None)
        if call is None:
            return
        asked = "ask" in call
        if block.text and (block.is_error or asked):  # the user's words
            told.note(self._turn(), self.redacted(block.text), asked=asked, failed=block.is_error)
        if "file" in call and not block.is_error:
            made = call["tool"] == "Write" and block.text.lstrip().startswith(WRITE_CREATED)
            self.file_changed(call["file"], call["turn"], made=made)
        elif "cmd" in call:
            self.ran(call["cmd"], ok=not block.is_error, output=block.text, turn=call["turn"])
        elif "agent" in call and not block.is_error and block.text:
            at = block.text.find(_HAND_BACK)
            report = block.text[at + len(_HAND_BACK) :] if at >= 0 else block.text
            self._ran({"agent": clip(flat(self.redacted(report)), FINDING_CAP)})

    def _ran(self, entry: dict[str, Any]) -> None:
        ran = self._turn()["ran"]
        ran.append({key: value for key, value in entry.items() if key != "git" or value})
        ran[:] = turn_files.kept_runs(ran, MAX_RUNS)

    def _next_seq(self) -> int:
        """Order of file changes and check runs: which came after which."""
        self.state["seq"] = int(self.state.get("seq", 0)) + 1
        return int(self.state["seq"])

    def file_changed(self, path: str, turn: int, *, made: bool) -> None:
        """A tool changed `path`: `made` when its result says it created the file (a Write
        over a file that was there is an edit)."""
        files = self.state["files"]
        path = relative(path, self.state["cwd"])
        turn_files.note(self.state["turns"], turn, path, "new" if made else "edited")
        how = "new" if made else files.get(path, {}).get("how")
        how = "edited" if how == "deleted" else how  # written again after its removal
        files.pop(path, None)
        files[path] = {"turn": turn, "how": how or "edited", "seq": self._next_seq()}
        while len(files) > MAX_FILES:
            del files[next(iter(files))]

    def ran(self, command: str, *, ok: bool, output: str, turn: int) -> None:
        """One Bash call's outcome: kept in its turn, and as its target's last outcome."""
        error = "" if ok else checks.error_line(self.redacted(output))
        # Piped into a filter, a success is the filter's: no proof that the check passed.
        unproven = ok and checks.unproven_pass(command, output)
        piped = {"piped": True} if unproven else {}
        # what it recorded in git, verbatim by selection; its success not theirs after `|| true`
        git, proven = turn_files.recorded_work(command)
        shown = piped or ({"piped": True} if ok and not proven else {})
        self._ran({"cmd": clip(command, 300), "ok": ok, "error": error, **shown, "git": git})
        if ok:  # the files it wrote and those it took away, and what their removal settles
            gone = turn_files.bash_wrote(self.state["turns"], turn, command, self.state["cwd"])
            turn_files.taken_away(self.state, turn, gone, self._next_seq)
        # a chain's housekeeping after its last check (`&& rm x`) leaves it that check's run
        found = None if checks.never_ran(output) else checks.target(command)
        if found is None:  # no check: nothing it proves or settles (`settle.settled`)
            return
        key = f"{found[0]}\x00{' '.join(sorted(found[1]))}"
        entries = self.state["checks"]
        if unproven and key in entries and not entries[key]["ok"]:
            entries[key]["unknown_rerun"] = turn  # the failure stands, re-run unproven
            return
        if not unproven:
            for other in settle.settled(entries.values(), command, ok=ok, output=output):
                other.update(ok=True, closed_by=clip(command, 300), closed_turn=turn)
        entries.pop(key, None)
        entries[key] = {
            "cmd": clip(command, 300),
            "runner": found[0],
            "args": sorted(found[1]),
            "ok": ok,
            "turn": turn,
            "error": error,
            "seq": self._next_seq(),
            **piped,
            **checks.open_parts(command, ok=ok),  # a failed `&&` chain: settled part by part
        }
        if not ok and (files := turn_files.failed_files(output)):  # what a removal may settle
            entries[key]["failed_in"] = files
        while len(entries) > MAX_CHECKS:
            del entries[next(iter(entries))]

    # ---------------------------------------------------------------- todos

    def todo_write(self, todos: object) -> None:
        if not isinstance(todos, list):
            return
        self._set_todos(
            [
                {
                    "content": self.redacted(item["content"]),
                    "status": item.get("status")
                    if item.get("status") in TODO_STATUSES
                    else "pending",
                }
                for item in todos
                if isinstance(item, dict) and isinstance(item.get("content"), str)
            ]
        )
        self.state["tasks"] = {}

    def _set_todos(self, todos: list[dict[str, Any]]) -> None:
        """The list as Claude last wrote it: in the state, and on the turn that wrote it (the
        restore shows it there, as what Claude said then, never as a proof)."""
        self.state["todos"] = todos
        for turn in self.state["turns"]:
            turn.pop("todos", None)
        self._turn()["todos"] = [dict(item) for item in todos]

    def task_create(self, data: dict[str, object]) -> None:
        subject = data.get("subject") or data.get("description")
        if isinstance(subject, str) and subject:
            tasks = self.state["tasks"]
            tasks[str(len(tasks) + 1)] = {"content": self.redacted(subject), "status": "pending"}
            self._tasks_to_todos()

    def task_update(self, data: dict[str, object]) -> None:
        task_id = str(data.get("taskId") or data.get("id") or "").lstrip("#")
        task = self.state["tasks"].get(task_id)
        status = data.get("status")
        if task is not None and status in TODO_STATUSES:
            task["status"] = status
            self._tasks_to_todos()

    def _tasks_to_todos(self) -> None:
        self._set_todos([dict(task) for task in self.state["tasks"].values()])

    # ---------------------------------------------------------------- compactions

    def compaction(self, at: str) -> None:
        turns = self.state["turns"]
        self.state["compactions"].append({"after_turn": turns[-1]["n"] if turns else 0, "at": at})
        del self.state["compactions"][:-20]

    def summary(self, text: str, at: str = "") -> None:
        """The host's own summary of a compaction (PostCompact's, or the transcript's)."""
        turns = self.state["turns"]
        self.state["summary"] = {
            "text": summary_text(self.redacted(text)),
            "at": at,
            "after_turn": turns[-1]["n"] if turns else 0,
        }


def extra_prompts(evidence: Evidence, prompts: Sequence[str]) -> None:
    """Prompts UserPromptSubmit kept that the transcript does not hold yet (PreCompact can
    run before the triggering prompt reaches the file)."""
    for raw in prompts:
        text = clean_prompt(raw)
        if text and not evidence.known_prompt(text):
            evidence.prompt(text)
