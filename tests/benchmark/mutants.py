"""The curated mutants of mutation_run.py: caps and limits, orders, containment checks,
comparisons, slices, re-checks under the lock. One textual change each.

`TABLE`: for each module (under src/memhooks/), the test files that should notice its mutants
(run with -x), and its rows (id, old, new, why). `old` occurs exactly once in its module.
`new` is the text put in its place, or a rule: "oldest", a slice that keeps the last items
keeps the first (`[-N:]` -> `[:N]`); "x100" (or "x1000"), the first constant in `old`
multiplied, a cap made as good as none."""

from __future__ import annotations

import re
from typing import NamedTuple


class Mutant(NamedTuple):
    id: str
    path: str  # under src/memhooks/
    old: str
    new: str
    tests: tuple[str, ...]
    why: str


RESTORE = (
    "tests/continuity/test_restore_limits.py",
    "tests/continuity/test_evidence.py",
    "tests/continuity/test_journal_entry.py",
)
BRIEFING = ("tests/continuity/test_restore_limits.py", "tests/continuity/test_briefing.py")
STORE = ("tests/store/test_store_limits.py", "tests/store/test_session.py")
PATHS = ("tests/store/test_store_limits.py", "tests/store/test_paths.py")
STOP = ("tests/hooks/test_stop_rules.py", "tests/hooks/test_hooks.py")
TEXT = ("tests/text/test_frame_limits.py", "tests/text/test_clip.py", "tests/text/test_frame.py")
HOOKS = ("tests/hooks/test_hook_limits.py", "tests/hooks/test_hooks.py")
TREE = ("tests/store/test_store_limits.py", "tests/store/test_tree.py")
PAGES = ("tests/store/test_store_limits.py", "tests/store/test_pages.py")
FILES = ("tests/store/test_store_limits.py", "tests/store/test_files.py")
THREAD = (
    "tests/hooks/test_thread_limits.py",
    "tests/continuity/test_thread.py",
    "tests/hooks/test_thread_hooks.py",
)
CACHES = ("tests/store/test_store_limits.py", "tests/recall/test_pointers.py")

#: The survivors issue 34 names (the first mutation run's).
ISSUE_34 = (
    "prompt-cap", "checks-oldest-first", "sessions-uncapped", "offsets-oldest",
    "inside-no-separator", "nudge-floor", "offsets-recheck", "pointers-over-budget",
)  # fmt: skip

TABLE: dict[tuple[str, tuple[str, ...]], tuple[tuple[str, str, str, str], ...]] = {
    ("continuity/evidence.py", RESTORE): (
        ("prompt-cap", "PROMPT_CAP = 6_000",
         "PROMPT_CAP = 60_000", "a turn's prompt cap 6,000 -> 60,000"),
        ("turns-cap", "        if len(turns) > MAX_TURNS:\n", "x100", "no cap on turns kept"),
        ("turns-drop-first", "del turns[1]  # the first turn",
         "del turns[0]  # the first turn", "the goal (first turn) dropped when turns overflow"),
        ("mid-oldest", 'return [select(f"{mid[0]}\\n{mid[1]}", TEXT_CAP), *mid[2:]]',
         "return mid[:MAX_MID]", "middle words keep the oldest"),
        ("runs-oldest", "del ran[:-MAX_RUNS]",
         "del ran[MAX_RUNS:]", "a turn's runs keep the oldest"),
        ("old-runs-oldest", 'turn["ran"][-OLD_RUNS:]',
         "oldest", "a shortened turn keeps its oldest runs"),
        ("checks-cap", "while len(entries) > MAX_CHECKS:", "x100", "no cap on checks kept"),
        ("files-cap", "while len(files) > MAX_FILES:", "x100", "no cap on files kept"),
        ("pending-cap", "while len(pending) > MAX_PENDING:", "x100", "no cap on pending calls"),
        ("known-prompt-window", 'self.state["turns"][-5:])',
         "oldest", "a known prompt looked for among the oldest turns"),
        ("full-turns", "if len(turns) > FULL_TURNS + 1:",
         "if len(turns) > FULL_TURNS + 100:", "old turns never shortened"),
        ("cap-ellipsis",
         'return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"',
         'return text if len(text) <= limit else text[:limit].rstrip() + "…"',
         "_cap one character over its limit"),
        ("redacted-kept", "if len(self._clean) >= REDACTED_KEPT:",
         "x1000", "redaction memo unbounded"),
    ),
    ("continuity/handover.py", RESTORE): (
        ("runs-shown-oldest", 'turn.get("ran", [])[-RUNS_SHOWN:]',
         "oldest", "a turn shows its oldest runs"),
        ("restore-keeps-goal", "enumerate(lines[1:], 1) if n % 1 == 0), 0)",
         "enumerate(lines) if n % 1 == 0), 0)", "after a compaction the goal is dropped first"),
    ),
    ("continuity/record_fit.py", RESTORE): (
        ("restore-budget", "if used - lines_size(rendered[i]) + lines_size(lines) <= limit:",
         "if used - lines_size(rendered[i]) + lines_size(lines) <= limit * 2:",
         "the restore grows past its budget"),
    ),
    ("continuity/proofs.py", RESTORE): (
        ("checks-oldest-first", "values())[::-1]\n",
         "values())\n", "check results oldest first instead of newest first"),
        ("files-shown-oldest", "for path, how in items[-FILES_SHOWN:]",
         "oldest", "the oldest changed files shown"),
        ("files-more-count", 'return shown + (f" (+{more} more)" if more > 0 else "")',
         "return shown", "no '+N more' for files left out"),
        ("commits-shown", "for line in commits[:COMMITS_SHOWN])",
         "for line in commits)", "every commit listed"),
        ("asked-last-three", 'return turn["n"], " ".join(asked[-3:])',
         "oldest", "the open question's first sentences"),
    ),
    ("continuity/host_summary.py", RESTORE): (
        ("summary-cap", "if len(text) > HOST_SUMMARY_CAP:", "x100", "the host summary kept uncut"),
    ),
    ("continuity/thread.py", THREAD): (
        ("age-minutes", "    if minutes < 90:  # noqa: PLR2004",
         "    if minutes < 9000:  # noqa: PLR2004", "a day-old session said in minutes"),
    ),
    ("continuity/briefing.py", BRIEFING): (
        ("pointers-over-budget", "if len(text) + 1 + len(line) > budget:",
         "if len(text) > budget:", "pointers past their budget"),
        ("reminder-room", 'room = budget - len(intro) - 1 - overhead(MEMORY_DIR + "/")',
         "room = budget - len(intro) - 1", "the prompt reminder forgets its frame"),
        ("host-cap-briefing",
         "    budget = min(budget, HOST_CAP)\n    index = index_pointers(index)",
         "    index = index_pointers(index)", "SessionStart past the host's cap"),
    ),
    ("continuity/journal_entry.py", RESTORE): (
        ("journal-files-newest", "for path in files[-_MAX_FILES:])",
         "oldest", "the journal lists the oldest files"),
        ("journal-failed-newest", "for run in failed[-_MAX_ITEMS:]",
         "oldest", "the journal lists the oldest failures"),
        ("journal-more", 'if len(files) > _MAX_FILES else ""',
         'if len(files) > _MAX_FILES + 1 else ""', "'+N more' missing when one file is left out"),
    ),
    ("continuity/checks.py", RESTORE): (
        ("error-line-last", "or found), len(lines) - 1)",
         "or found), 0)", "a failure's first line, not its last"),
        ("error-limit", 'return line if len(line) <= ERROR_LIMIT else line[:ERROR_LIMIT] + "…"',
         "return line", "an error line uncut"),
        ("check-target-last-segment", "_own_target(segments[-1])",
         "_own_target(segments[0])", "a check's target from its first shell segment"),
    ),
    ("continuity/excerpt.py", RESTORE): (
        ("paste-threshold", "if len(text) <= PASTE_CHARS or len(lines) <= PASTE_LINES:",
         "if len(text) <= PASTE_CHARS and len(lines) <= PASTE_LINES:",
         "a paste trimmed when only one of its sizes is large"),
        ("head-tail-tail", "while j >= i and used + len(parts[j]) + 1 <= room:",
         "while j >= i and used + len(parts[j]) + 1 <= room and False:", "head_tail keeps no tail"),
        ("head-tail-fits", "(parts)\n    if len(whole) <= limit:",
         "(parts)\n    if len(whole) <= limit * 2:",
         "head_tail returns text twice its limit"),
        ("paste-error-lines", "and len(seen) < ERROR_LINES:",
         "and len(seen) <= ERROR_LINES:", "a paste keeps one error line more"),
    ),
    ("store/session.py", STORE): (
        ("sessions-uncapped", "    del sessions[:-MAX_SESSIONS_KEPT]\n",
         "", "no cap on the session records kept"),
        ("offsets-oldest", "list(offsets.items())[-MAX_OFFSETS:]",
         "oldest", "offsets keep the oldest sessions"),
        ("reminder-oldest", "list(shown.items())[-REMINDER_SESSIONS:]",
         "oldest", "reminder.json keeps the oldest"),
        ("offset-moved-last", "    offsets.pop(session_id, None)\n",
         "", "a session writing again is not moved last"),
        ("offsets-negative", "isinstance(v, int) and v >= 0}",
         "isinstance(v, int)}", "a negative offset is trusted"),
    ),
    ("store/paths.py", PATHS): (
        ("inside-no-separator", "real.startswith(real_base.rstrip(os.sep) + os.sep)",
         "real.startswith(real_base)",
         "containment without the separator: a sibling proj2 is inside proj"),
        ("inside-equal", "return real == real_base or real.startswith",
         "return real.startswith", "the base itself is not inside"),
        ("inside-link", "    if os.path.islink(target):\n        return False\n",
         "", "a symlinked target counts as inside"),
        ("session-id-length", "0 < len(session_id) <= MAX_SESSION_ID",
         "0 < len(session_id)", "a session id of any length is a file stem"),
    ),
    ("store/caches.py", CACHES): (
        ("prompts-kept-oldest", "kept[-PROMPTS_KEPT:]",
         "oldest", "the kept prompts are the oldest"),
        ("verdicts-oldest", "list(verdicts.items())[-VERDICTS_KEPT:]",
         "oldest", "citation verdicts keep the oldest"),
        ("handoff-expiry", 'and now - e["at"] < HANDOFF_SECONDS',
         "x1000", "a sub-agent handoff never expires"),
        ("handoff-order", 'entries.sort(key=lambda e: float(e["at"]))',
         'entries.sort(key=lambda e: -float(e["at"]))', "handoffs queued newest first"),
        ("handoff-kept-oldest", "entries[-HANDOFF_KEPT:]",
         "oldest", "handoff queue keeps the oldest"),
        ("ledger-oldest", "list(data.items())[-LEDGER_SESSIONS:]",
         "oldest", "the injection ledger keeps the oldest"),
        ("ledger-zero", "if not session_id or chars <= 0:",
         "if not session_id or chars < 0:", "an empty injection counted"),
    ),
    ("store/files.py", FILES): (
        ("read-text-limit", "return text if limit < 0 else text[:limit]",
         "return text", "read_text ignores its limit"),
        ("log-line-cap", 'inert(f"memhooks: {message}".replace("\\n", " "))[:2000]',
         'inert(f"memhooks: {message}")', "a log line keeps its newlines and length"),
    ),
    ("store/pages.py", PAGES): (
        ("index-fit", "if count <= caps.max_lines and size <= caps.max_bytes:",
         "if count <= caps.max_lines or size <= caps.max_bytes:",
         "MEMORY.md may pass one of its caps"),
        ("index-line-clip", "    return clip(line, LINE_MAX_CHARS)",
         "    return line", "a MEMORY.md line uncut"),
    ),
    ("store/tree.py", TREE): (
        ("markers-kept", "if len(found) > MARKERS_KEPT * 2:",
         "if len(found) > MARKERS_KEPT * 2000:", "filed markers never pruned"),
        ("marker-name-cap", "agent_id)[:100]", "agent_id)", "a marker name uncapped"),
    ),
    ("store/context.py", ("tests/store/test_store_limits.py",)): (
        ("blockers-three", "for b in blocker_lines[:3]),",
         "for b in blocker_lines),", "every blocker in the status"),
    ),
    ("hooks/stop.py", STOP): (
        ("nudge-floor", "max(settings.nudge_interval_minutes, NUDGE_FLOOR_MINUTES)",
         "settings.nudge_interval_minutes", "the 15-minute nudge floor removed"),
        ("offsets-recheck",
         "    if offsets.get(session_id, journal_at) != journal_at:\n",
         "    if False:\n", "the offsets' re-check under the lock removed"),
        ("nudge-stale", "if last_write is None or now - last_write < settings.stale_minutes * 60:",
         "if last_write is None:", "a nudge while memory is fresh"),
        ("nudge-stop-active", 'if settings.nudge == "save" and not hook.stop_hook_active:',
         'if settings.nudge == "save":', "a save nudge blocks even when stop_hook_active"),
        ("nudge-stamp",
         '        state["lastNudge"] = stamp(now)\n        return {"systemMessage": message}',
         '        return {"systemMessage": message}', "a reminder does not record itself"),
    ),
    ("hooks/stdin.py", HOOKS): (
        ("stdin-cap", "while size < MAX_PAYLOAD_BYTES:", "x100", "stdin read past its cap"),
    ),
    ("hooks/subagent_stop.py", HOOKS): (
        ("details-cap", "        if len(result) <= DETAILS_CAP\n",
         "        if True\n", "a sub-agent's result filed uncut"),
        ("subagent-min", "or len(result) < MIN_RESULT_CHARS",
         "or len(result) < 0", "a trivial result filed"),
    ),
    ("hooks/thread_build.py", THREAD): (
        ("candidates", "others_newest_first(paths, exclude)[:MAX_SESSIONS]",
         "others_newest_first(paths, exclude)[-MAX_SESSIONS:]",
         "the oldest sessions are the thread's"),
    ),
    ("hooks/user_prompt.py", HOOKS): (
        ("max-inject-off", "if settings.max_inject <= 0 or not",
         "if settings.max_inject < 0 or not", "max_inject 0 still injects"),
        ("prompt-kept-chars",
         "redact_prefix(hook.prompt, PROMPT_CHARS_KEPT, settings.redact_patterns)",
         "x100", "a kept prompt uncut"),
    ),
    ("text/__init__.py", TEXT): (
        ("clip-limit",
         "    if len(text) <= limit:\n        return text\n"
         "    return text[: max(0, limit - len(mark))]",
         "    if len(text) <= limit:\n        return text\n    return text[: max(0, limit)]",
         "clip one mark over its limit"),
        ("clip-at-word", '    if " " in cut:\n        cut = cut[: cut.rfind(" ")]\n',
         "", "clip_at_word cuts inside a word"),
    ),
    ("text/frame.py", TEXT): (
        ("frame-budget", '    if room < 0:\n        return ""\n',
         "", "a frame that cannot fit is still returned"),
        ("frame-cut-line", '    if "\\n" in cut:\n        cut = cut[: cut.rfind("\\n")]\n',
         "", "a framed body cut mid-line"),
        ("frame-source-cap", "    return source[:300]",
         "    return source", "a frame's source line uncapped"),
        ("frame-one-line", "return neutralise(_single_line(text))[:limit]",
         "return neutralise(_single_line(text))", "a framed one-liner uncapped"),
    ),
    ("text/controls.py", ("tests/text/test_frame_limits.py", "tests/system/test_escapes.py")): (
        ("visible-cr", '.replace("\\r", "\\\\x0d")', "", "a bare carriage return passes through"),
    ),
}  # fmt: skip


def mutated(old: str, new: str) -> str:
    """The text `new` names: itself, or what its rule makes of `old`."""
    if new == "oldest":
        made = re.sub(r"\[-(\w+):\]", r"[:\1]", old, count=1)
    elif re.fullmatch(r"x\d+", new):
        made = re.sub(r"\b([A-Z][A-Z0-9_]+)\b", rf"\1 * {new[1:]}", old, count=1)
    else:
        return new
    if made == old:
        raise ValueError(f"the rule {new!r} changes nothing in {old!r}")
    return made


MUTANTS: tuple[Mutant, ...] = tuple(
    Mutant(id_, path, old, mutated(old, new), tests, why)
    for (path, tests), rows in TABLE.items()
    for id_, old, new, why in rows
)
