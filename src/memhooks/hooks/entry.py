"""`memhooks hook <Event>`: read the payload, run the event's handler, print once, fail open.

Whatever goes wrong, the hook exits 0 with empty stdout and one line on stderr and in
`.cache/memhooks.log`: a memory plugin must never break the user's session.
"""

from __future__ import annotations

# The C half of `signal`, loaded at every interpreter's start: `signal` itself would cost a
# hook ~0.8 ms making its enums.
import _signal  # type: ignore[import-not-found]
import json
import os
import sys

from memhooks import TYPE_CHECKING
from memhooks.hooks.event import HookInput
from memhooks.hooks.stdin import read_payload
from memhooks.store import (
    CONSENT_ON,
    LEGACY_SESSION,
    NOTICE,
    consent_decision,
    is_active,
    is_on,
    keep_reads,
    load_settings,
    log_line,
    tree_problem,
)

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, Protocol

    from memhooks.store import MemoryPaths, Settings

    class Hook(Protocol):
        """A hook module: `handle` runs its event and returns the output to print, if any."""

        def handle(
            self, hook: HookInput, paths: MemoryPaths, settings: Settings
        ) -> dict[str, Any] | None: ...

    class ToolHook(Hook, Protocol):
        """A tool hook's `wants` decides from the payload alone whether the call is its
        business, before any file is read."""

        def wants(self, hook: HookInput, paths: MemoryPaths) -> bool: ...


# One loader per event: each imports its module only when its event runs (a hook process
# loads one), and, unlike a table of module names, "find usages" and mypy follow it (mypy
# checks each module against the Hook protocol). Ten function definitions cost nothing.


def _session_start() -> Hook:
    from memhooks.hooks import session_start

    return session_start


def _user_prompt() -> Hook:
    from memhooks.hooks import user_prompt

    return user_prompt


def _pre_compact() -> Hook:
    from memhooks.hooks import pre_compact

    return pre_compact


def _stop() -> Hook:
    from memhooks.hooks import stop

    return stop


def _subagent_stop() -> Hook:
    from memhooks.hooks import subagent_stop

    return subagent_stop


def _session_end() -> Hook:
    from memhooks.hooks import session_end

    return session_end


def _pre_tool_use() -> ToolHook:
    from memhooks.hooks import pre_tool_use

    return pre_tool_use


def _post_tool_use() -> ToolHook:
    from memhooks.hooks import post_tool_use

    return post_tool_use


def _post_compact() -> Hook:
    from memhooks.hooks import post_compact

    return post_compact


def _subagent_pointers() -> Hook:
    from memhooks.hooks import subagent_pointers

    return subagent_pointers


#: The tool hooks run on every tool call and most calls are none of their business.
TOOL_HOOKS: dict[str, Callable[[], ToolHook]] = {
    "PreToolUse": _pre_tool_use,
    "PostToolUse": _post_tool_use,
}
HANDLERS: dict[str, Callable[[], Hook]] = {
    "SessionStart": _session_start,
    "UserPromptSubmit": _user_prompt,
    "PreCompact": _pre_compact,
    "Stop": _stop,
    "SubagentStop": _subagent_stop,
    "SessionEnd": _session_end,
    **TOOL_HOOKS,
    "PostCompact": _post_compact,
    "SubagentStart": _subagent_pointers,
}
STDIN_TIMEOUT = {"SessionEnd": 0.5}
#: Seconds each hook may take before it ends itself, failing open: under the host's timeout
#: (hooks.json), which kills only the shell around the hook. Whatever hangs (a FIFO, a
#: child, a lock) then ends with the hook; a child git is killed as the hook unwinds.
DEADLINE = {"SessionStart": 12.0, "PreCompact": 50.0, "SessionEnd": 1.5, "PostToolUse": 25.0}
DEFAULT_DEADLINE = 8.0
#: The signals that end a hook early: its deadline's alarm, and a kill that is not -9.
_ENDING = ("SIGALRM", "SIGTERM", "SIGHUP")
#: Where a deleted tree (`rm -rf .claude`) is reported, once, when this machine kept copies.
LOST_TREE_EVENTS = ("PostToolUse", "SessionStart")


def run(event: str) -> int:
    """The hook for `event`, within its deadline: exit 0 whatever happens."""
    previous = _arm_deadline(DEADLINE.get(event, DEFAULT_DEADLINE))
    keep_reads(on=True)  # each file read once (store.files)
    try:
        return _run(event)
    except HookDeadlineError as exc:  # past the handler in _run (while it logged, say)
        _disarm(previous)
        previous = {}
        _failed_open(None, event, exc)
        return 0
    finally:
        keep_reads(on=False)
        _disarm(previous)


def _run(event: str) -> int:
    paths: MemoryPaths | None = None
    try:
        if event not in HANDLERS:
            log_line(None, f"unknown hook event {event!r}; known: {', '.join(HANDLERS)}")
            return 0
        payload, problem = read_payload(STDIN_TIMEOUT.get(event, 2.0))
        hook = HookInput.from_payload(event, payload)
        paths = hook.memory_paths()
        tool = TOOL_HOOKS[event]() if event in TOOL_HOOKS else None
        if tool is not None and not tool.wants(hook, paths):
            return 0
        refused = tree_problem(paths.base)
        if refused:  # stderr only: the log is behind the link, where nothing is written
            log_line(None, f"{event}: {refused}")
            return 0
        active, paths = _gate(event, hook, paths)
        if not active:
            # Memory never started here, or stopped: nothing to do, nothing created; or the
            # whole tree was deleted, which is said once.
            _report_lost_tree(event, paths)
            return 0
        settings = load_settings(paths.config)
        if event == "SessionStart":
            _bootstrap_dependencies(semantic=settings.semantic != "off")
        if problem:
            log_line(paths.log, f"{event}: {problem}; skipped")
            return 0
        for issue in settings.problems:
            log_line(paths.log, f"{event}: config.json {issue}")
        _drop_slow_patterns(paths, settings)
        output = (tool or HANDLERS[event]()).handle(hook, paths, settings)
        if output:
            # ASCII JSON: a Windows pipe is cp1252, and the host decodes the escapes anyway.
            sys.stdout.write(json.dumps(output) + "\n")
            _count_injected(paths, hook, event, output)
    except BaseException as exc:  # fail open, always, even on KeyboardInterrupt
        _failed_open(paths, event, exc)
    return 0


class HookDeadlineError(BaseException):
    """The hook ran out of time or was told to end: it fails open (a BaseException, so that
    no `except Exception` on the way swallows it)."""


def _end(signum: int, _frame: object) -> None:
    raise HookDeadlineError(f"ended by signal {signum} (deadline or kill)")


def _arm_deadline(seconds: float) -> dict[int, Any]:
    """Raise HookDeadlineError in this process after `seconds`, or on SIGTERM/SIGHUP; the
    handlers it replaced, to put back. Nothing on a platform without SIGALRM (Windows), nor
    off the main thread (a test's), where signals cannot be handled."""
    if not hasattr(_signal, "setitimer"):
        return {}
    previous: dict[int, Any] = {}
    try:
        for name in _ENDING:
            number = getattr(_signal, name)
            previous[number] = _signal.signal(number, _end)
    except ValueError:  # not the main thread
        return {}
    _signal.setitimer(_signal.ITIMER_REAL, seconds)
    return previous


def _disarm(previous: dict[int, Any]) -> None:
    if not previous:
        return
    _signal.setitimer(_signal.ITIMER_REAL, 0)
    for number, handler in previous.items():
        _signal.signal(number, handler)


def _failed_open(paths: MemoryPaths | None, event: str, exc: BaseException) -> None:
    log_line(
        paths.log if paths else None,
        f"{event} hook failed open: {type(exc).__name__}: {exc}",
    )
    pattern = getattr(exc, "pattern", None)  # a CustomPatternTimeoutError: not again
    if paths is not None and isinstance(pattern, str):
        from memhooks.store import mark_slow

        mark_slow(paths.patterns, pattern)


def _drop_slow_patterns(paths: MemoryPaths, settings: Settings) -> None:
    """Leave out the custom redaction patterns too slow to run (timed once, then cached: the
    log is told once, `status` and `doctor` every time)."""
    if not settings.redact_patterns:
        return
    from memhooks.store import usable_patterns

    settings.redact_patterns = usable_patterns(paths.patterns, settings.redact_patterns, paths.log)[
        0
    ]


def _report_lost_tree(event: str, paths: MemoryPaths) -> None:
    if event not in LOST_TREE_EVENTS or os.path.lexists(paths.base):
        return  # stopped, or never started here: not lost
    from memhooks.guard.tree_settle import lost_tree
    from memhooks.install.invocation import cli_command
    from memhooks.store import MemoryPaths, local_dir, recorded_id

    kept = recorded_id(paths.base)  # outside git the id file went with the tree
    if kept:
        paths = MemoryPaths(paths.base, local=local_dir(kept))

    text = lost_tree(paths, cli_command())
    if text:
        output: dict[str, Any] = {
            "systemMessage": text,
            "hookSpecificOutput": {"hookEventName": event, "additionalContext": text},
        }
        sys.stdout.write(json.dumps(output) + "\n")


def _gate(event: str, hook: HookInput, paths: MemoryPaths) -> tuple[bool, MemoryPaths]:
    """(memory is on here, the tree's paths). SessionStart first moves an older memhooks'
    machine-local state out of the checkout, and takes the paths again once a worktree
    joined (its id is new: it had no session record)."""
    if event != "SessionStart":
        return _memory_on(event, paths), paths
    _record_plugin()  # for Claude's own `memhooks` calls, even before a start
    paths = _moved_out(paths)
    joining = not os.path.lexists(paths.session)
    active = _memory_on(event, paths)
    if active and joining:
        paths = hook.memory_paths()
    return active, paths


def _memory_on(event: str, paths: MemoryPaths) -> bool:
    """The gate every hook passes: the tree is there, this machine's session record says
    active, and the user turned memory on for this checkout on this machine (store.consent).
    Else nothing of the tree is read and nothing is written into it: memory never started
    here, or stopped, or the tree was deleted. At most one line for the user, at
    SessionStart, where the repository ships memory that nobody here decided on."""
    if is_active(paths.session) and is_on(paths.base) and os.path.isdir(paths.base):
        return True
    if event == "SessionStart" and _joins_worktree(paths):
        return True
    if event == "SessionStart" and os.path.isdir(paths.base) and not consent_decision(paths.base):
        sys.stdout.write(json.dumps({"systemMessage": NOTICE}) + "\n")
    return False


def _moved_out(paths: MemoryPaths) -> MemoryPaths:
    """The tree's paths, its machine-local state moved out of the checkout first when an older
    memhooks left it there (`install.local_state`; one `lstat` once it is done)."""
    if not os.path.lexists(os.path.join(paths.base, LEGACY_SESSION)):
        return paths
    from memhooks.install.local_state import migrate

    return migrate(paths) or paths


def _joins_worktree(paths: MemoryPaths) -> bool:
    """A new worktree of a repository whose memory the user turned on in another checkout:
    its tree came with the branch, its id and session record (machine-local) did not. The
    first SessionStart makes them, and memory is on here as in the other checkouts."""
    if os.path.lexists(paths.session) or not os.path.isdir(paths.base):
        return False
    found = consent_decision(paths.base)
    if not found or found["state"] != CONSENT_ON or not found.get("repository"):
        return False
    from memhooks.store import join_worktree
    from memhooks.text.clock import iso

    return join_worktree(paths.base, iso())


def _count_injected(
    paths: MemoryPaths, hook: HookInput, event: str, output: dict[str, Any]
) -> None:
    """Add what went into the model's context to this session's ledger (`memhooks status`):
    added context, and the reasons Claude reads (a write guard's refusal, a Stop that asks
    for a save). A compaction's or a resume's restore is counted apart from a start."""
    specific = output.get("hookSpecificOutput")
    if isinstance(specific, dict):
        text = specific.get("additionalContext") or specific.get("permissionDecisionReason")
    else:
        text = output.get("reason") if output.get("decision") == "block" else None
    if not isinstance(text, str) or not text:
        return
    label = event
    if event == "SessionStart" and hook.source in ("compact", "resume", "clear"):
        label = f"SessionStart ({hook.source})"
    try:
        from memhooks.store import record_injected

        if not record_injected(paths.injected, hook.session_id, label, len(text)):
            # By decision (store/injection_ledger.py): the count is dropped, not waited for.
            log_line(paths.log, f"{event}: ledger busy, {len(text)} characters not counted")
    except OSError:
        # Best effort, like the count itself: a read-only or full tree has already been
        # reported once by this hook, and a lost count costs nothing else.
        return


def _record_plugin() -> None:
    """Claude's own Bash calls of the plugin's `memhooks` get no CLAUDE_PLUGIN_DATA: they
    find the folder the hooks were given (deps.record_data_dir), and a `doctor --link`
    script finds the plugin's current root (install.link). Two small reads when unchanged."""
    data = os.environ.get("CLAUDE_PLUGIN_DATA")
    if not data:
        return
    try:
        from memhooks.install.deps import record_data_dir
        from memhooks.install.link import record_plugin_root

        record_data_dir(data)
        record_plugin_root(data)
    except Exception as exc:
        log_line(None, f"could not record the plugin's data folder: {exc}")


def _bootstrap_dependencies(*, semantic: bool) -> None:
    """At SessionStart, only where memory is active (`start` installs them itself elsewhere):
    a project that never started memory costs nothing, not even a background process."""
    try:
        from memhooks.install.deps import ensure_in_background

        ensure_in_background(semantic=semantic)
    except Exception as exc:
        log_line(None, f"dependency check failed: {exc}")
