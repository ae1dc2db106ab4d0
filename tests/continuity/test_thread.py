"""The thread of recent sessions: who gets the room, in what order, marked how."""

from __future__ import annotations

from typing import Any

from memhooks.continuity import thread, thread_parts
from memhooks.continuity.evidence import Evidence, new_state
from memhooks.continuity.transcript_records import ToolResult, ToolUse
from memhooks.store import (
    EVIDENCE_DISK_CAP as DISK_CAP,
)
from memhooks.store import (
    EVIDENCE_MAX_KEPT as MAX_KEPT,
)
from memhooks.store import (
    EVIDENCE_MIN_KEPT as MIN_KEPT,
)
from memhooks.store import (
    evidence_kept as kept,
)
from memhooks.text.clock import epoch

NOW = epoch("2026-11-29T12:00:00Z") or 0.0


def _session(words: str, turns: int = 6, *, day: str = "2026-11-27") -> dict[str, Any]:
    """A session with `turns` turns of real work: prompts, replies, a check that ran."""
    evidence = Evidence(new_state("s"))
    for n in range(1, turns + 1):
        evidence.prompt(f"{words} step {n}: " + "please keep the public API as it is. " * 4)
        evidence.said(f"Looking at step {n}. " + "The parser reads the header first. " * 8)
        evidence.said(f"Done with step {n}: {words} works now. Shall I go on with step {n + 1}?")
        evidence.state["turns"][-1]["at"] = f"{day}T09:{n:02d}:00Z"
    evidence.ran("pytest -q", ok=True, output="3 passed", turn=turns)
    evidence.state["updated"] = f"{day}T10:00:00Z"
    return evidence.state


def _trivial(day: str = "2026-11-28") -> dict[str, Any]:
    evidence = Evidence(new_state("t"))
    evidence.prompt("Good morning")
    evidence.said("Good morning! What would you like to work on today?")
    evidence.prompt("ok")
    evidence.state["updated"] = f"{day}T08:00:00Z"
    return evidence.state


def _asked(evidence: Evidence, prompt: str, answers: str) -> None:
    """A prompt, then Claude's question tool answered by the user (`answers`: "question"="pick")."""
    evidence.prompt(prompt)
    evidence.tool_use(ToolUse("q1", "AskUserQuestion", {}))
    text = f"User has answered your questions: {answers}. You can now continue."
    evidence.tool_result(ToolResult("q1", is_error=False, text=text))


def _entry(state: dict[str, Any], role: str, text: str, name: str) -> dict[str, Any]:
    return {"id": name * 8, **thread_parts.meta(state), "role": role, "text": text, "ended": ""}


# ---------------------------------------------------------------- one session's part


def test_a_greeting_is_trivial_and_work_is_not() -> None:
    assert thread_parts.trivial(_trivial())
    assert not thread_parts.trivial(_session("json output", turns=2))
    talk = _trivial()
    talk["turns"][0]["ran"] = [{"cmd": "ls", "ok": True, "error": ""}]
    assert not thread_parts.trivial(talk)  # a tool ran: not trivial


def test_an_earlier_session_keeps_its_goal_last_words_and_question_in_a_small_share() -> None:
    state = _session("json output", turns=12)
    text = thread_parts.earlier_part(state, 1_400)
    assert len(text) <= 1_400
    assert "[1] user: json output step 1" in text  # the goal
    assert "[12] user: json output step 12" in text  # the last words
    assert "Shall I go on with step 13?" in text  # Claude's conclusion and question
    assert "more turns not shown" in text
    # Its headings say whose they are: a later session supersedes them.
    headings = [line for line in text.splitlines() if line.startswith("## ")]
    assert headings
    assert all("earlier" in line for line in headings)
    # Whatever its share, the longer headings never push out its last turn's question.
    for budget in range(1_200, 2_400, 100):
        assert "Shall I go on with step 13?" in thread_parts.earlier_part(state, budget)


def test_an_earlier_session_shows_its_approach_and_keeps_the_user_s_last_words() -> None:
    """In a small share: Claude's answer to the goal (the approach a short "sounds good, go"
    agreed to) before the other turns' conclusions; the user's last words whole before
    Claude's; its open question not claimed unanswered (a later session may answer it)."""
    evidence = Evidence(new_state("s"))
    evidence.prompt("Make the queue survive restarts. " + "It loses edits when killed. " * 3)
    evidence.said("Plan: I'll keep the queue as a JSON file in Application Support.")
    evidence.prompt("sounds good, go")
    for n in range(3, 9):
        evidence.prompt(f"step {n}: " + "please keep the public API as it is. " * 3)
        evidence.said(f"Done with step {n}. " + "The parser reads the header first. " * 8)
    last = "and leave API/Generated alone, CI regenerates it. " * 3
    evidence.prompt("ok. " + last)
    evidence.said("Noted. " + "The banner counts pending edits. " * 20 + "Which copy do we use?")
    text = thread_parts.earlier_part(evidence.state, 1_600)
    assert len(text) <= 1_600
    assert "keep the queue as a JSON file in Application Support" in text
    assert "[9] user: ok. " + last.strip() in text
    assert "Which copy do we use?" in text  # its last turn shows what it asked
    assert "no prompt has answered" not in text


def test_an_earlier_suggestion_is_shown_with_the_answer_that_declined_it() -> None:
    """A short suggestion of the user's reads as a decision when shown alone: an earlier
    session shows it with the head of Claude's final words of that turn (after its tool
    calls), which declined it; and the option the user picked in Claude's question tool."""
    evidence = Evidence(new_state("s"))
    evidence.prompt("Port the importer to the new queue. " + "It must keep the CSV format. " * 4)
    evidence.said("Plan: I'll read the importer first, then move it over.")
    evidence.prompt("maybe store the counts as floats")
    evidence.said("Let me check how the counts are summed first.")
    evidence.said(
        "I'd keep them as integers: summing floats drifts after a few million rows. "
        + "The totals match the ledger to the cent. " * 3
    )
    _asked(
        evidence,
        "deploy it to the staging box with a volume for the cache",
        '"Staging has no volumes on its plan. What then?"="Rebuild the cache at every boot"',
    )
    evidence.said("Done: the cache is rebuilt when the service starts.")
    for n in range(4, 8):
        evidence.prompt(f"now column {n}, " + "the parser reads it as text. " * 4)
        evidence.said(f"Step {n} is in. " + "The importer reads the header first. " * 8)
    text = thread_parts.earlier_part(evidence.state, 2_200)
    assert len(text) <= 2_200
    assert "[2] user: maybe store the counts as floats" in text
    assert "[2] Claude: I'd keep them as integers" in text
    assert "Let me check" not in text  # what it set out to do, not what came of it
    assert '="Rebuild the cache at every boot"' in text
    assert text.index("[3] user: deploy it") < text.index('="Rebuild the cache')


def test_an_earlier_long_prompt_cut_short_keeps_what_the_user_ruled() -> None:
    """A long prompt of an earlier session cut to a line keeps the sentence that rules
    ("leave X alone"), not its chatty head: Claude's answer beside it ("X untouched") does
    not say it was a rule."""
    evidence = Evidence(new_state("s"))
    evidence.prompt("Move the billing jobs to the new scheduler. " + "Keep the CSV export. " * 4)
    evidence.said("Plan: I'll move the jobs one by one.")
    evidence.prompt(
        "Ha, that was quick. So, one thing that has annoyed me for years: every job sits in "
        "the root package and nobody can find anything, the IDE search is useless and the "
        "new hires keep asking where things go. Put them in per-domain packages. "
        "Leave the invoices.api package alone, the partners' docs point at it. Oh, and the "
        "new hires asked about the coffee machine again, no idea why they ask me of all "
        "people, but anyway, thanks a lot for the quick turnaround on the last one."
    )
    evidence.said("Moved. The invoices.api package is untouched. All 40 tests pass.")
    for n in range(3, 9):
        evidence.prompt(f"now job {n}, " + "it still reads the old table. " * 4)
        evidence.said(f"Job {n} is in. " + "The scheduler reads the cron line first. " * 8)
    text = thread_parts.earlier_part(evidence.state, 1_900)
    assert len(text) <= 1_900
    assert "Leave the invoices.api package alone" in text


def test_an_earlier_error_report_comes_with_its_answer_and_old_failures_stay_behind() -> None:
    """A pasted error shown alone reads as still open: an earlier session shows it with the
    head of Claude's answer. A check that failed at the start of a long earlier session and
    never ran again is a way it gave up, not where it ended: not among its proofs."""
    evidence = Evidence(new_state("s"))
    evidence.prompt("Render the weekly report as a PDF for the board.")
    evidence.ran("python3 probe_fonts.py", ok=False, output="ImportError: no fontkit", turn=1)
    evidence.said("The font probe needs fontkit; I'll read the fonts another way.")
    for n in range(2, 14):
        evidence.prompt(f"page {n}: the table shows the totals by region in euros.")
        evidence.said(f"Page {n} is laid out. " + "The header repeats on every page. " * 6)
    evidence.prompt(
        "it breaks when I open it:\n"
        + "\n".join(f"  frame {k} in render_table" for k in range(12))
        + "\nZeroDivisionError: division by zero in column_width"
    )
    evidence.said("Checking the widths.")
    evidence.said("An empty region made the width 0: it now falls back to the label's width.")
    evidence.prompt("thanks, that was it")
    evidence.said("Good. Shall I add the chart page next?")
    text = thread_parts.earlier_part(evidence.state, 2_000)
    assert "ZeroDivisionError" in text
    assert "[14] Claude: An empty region made the width 0" in text
    assert "probe_fonts" not in text  # failed at turn 1 of 15, never again
    late = Evidence(new_state("t"))
    late.prompt("Render the weekly report as a PDF for the board.")
    late.ran("python3 render.py", ok=False, output="KeyError: 'region'", turn=1)
    assert "render.py" in thread_parts.earlier_part(late.state, 2_000)  # its last turn


def test_summaries_are_framed_as_summaries_never_as_proofs() -> None:
    state = _session("json output", turns=4)
    evidence = Evidence(state)
    evidence.summary("The user wants NDJSON; the table stays as it is.")
    host = thread_parts.earlier_part(evidence.state, 2_500)
    assert "Claude Code's own summary said" in host
    assert "not the record's proof" in host
    assert "The user wants NDJSON" in host
    # A `/memory summarize` summary written after the compaction is the newer one.
    evidence.state["summarized"] = {"text": "Context: NDJSON shipped.", "after_turn": 4}
    own = thread_parts.last_part(evidence.state, 4_000)
    assert "/memory summarize` after turn 4 said (a model's summary" in own
    assert "NDJSON shipped" in own
    assert "The user wants NDJSON" not in own


def test_a_summary_says_how_many_turns_came_after_it() -> None:
    """A summary many turns old reads as old: its heading counts the turns that supersede it
    (a long session shows few of them, and a reader took its stale claims as current)."""
    state = _session("json output", turns=2)
    evidence = Evidence(state)
    evidence.summary("The user wants NDJSON.")
    for n in range(3, 9):
        evidence.state["turns"].append({**evidence.state["turns"][-1], "n": n})
    text = thread_parts.last_part(evidence.state, 4_000)
    assert "after turn 2 (a model's summary, not the record's proof; the 6 turns after it" in text


# ---------------------------------------------------------------- the room


def test_the_last_session_gets_what_it_needs_and_the_rest_goes_earlier() -> None:
    last, earlier = thread.allot(8_000, 2_000, [3_000, 3_000, 3_000])
    assert last == 2_000
    assert all(b >= thread.EARLIER_MIN for b in earlier)
    assert last + sum(earlier) <= 8_000
    assert last + sum(earlier) >= 8_000 - thread.STEP * 3  # the room is used


def test_a_long_last_session_gets_its_share_and_short_earlier_ones_all_they_need() -> None:
    last, earlier = thread.allot(8_000, 8_000, [900, 800])
    assert earlier == [900, 800]
    assert last == 8_000 - 1_700  # what the earlier ones leave goes to the last
    last, earlier = thread.allot(8_000, 8_000, [5_000, 5_000])
    assert last >= int(8_000 * thread.LAST_SHARE)  # its share, and what the steps leave
    assert 8_000 - 2 * thread.STEP <= last + sum(earlier) <= 8_000


def test_the_oldest_sessions_are_left_out_when_the_room_runs_out() -> None:
    last, earlier = thread.allot(6_000, 6_000, [3_000] * 10)
    shown = [b for b in earlier if b]
    assert earlier[: len(shown)] == shown  # newest first: the oldest go
    assert 0 < len(shown) < 10
    assert all(b >= thread.EARLIER_MIN for b in shown)
    assert last + sum(shown) <= 6_000


def test_no_earlier_session_leaves_the_whole_room_to_the_last() -> None:
    assert thread.allot(7_000, 9_999, []) == (7_000, [])
    assert thread.allot(7_000, 3_000, []) == (3_000, [])


# ---------------------------------------------------------------- at the next start


def test_the_thread_is_oldest_first_with_dates_ages_and_roles() -> None:
    first, real, greeting = _session("json output"), _session("totals"), _trivial()
    parts = [
        _entry(first, "earlier", thread_parts.earlier_part(first, 1_500), "a"),
        _entry(real, "last", thread_parts.last_part(real, 4_000), "b"),
        _entry(greeting, "after", thread_parts.trivial_part(greeting), "c"),
    ]
    text = thread.compose(parts, 2, NOW, 9_000)
    assert len(text) <= 9_000
    assert text.index("2 earlier sessions not shown") < text.index("# Session 1 of 3")
    assert text.index("# Session 1 of 3") < text.index("# Session 2 of 3, the last one")
    assert text.index("# Session 2 of 3") < text.index("# Session 3 of 3, a short one after it")
    assert "last written 2026-11-27 10:00 UTC, 2 days ago" in text
    assert "last written 2026-11-28 08:00 UTC, 28 h ago" in text
    # The trivial session after it hides nothing of the real one.
    assert "Shall I go on with step 7?" in text
    assert "[1] user: Good morning" in text
    assert thread.title(parts, NOW).startswith("The recent work on this project")


def test_one_session_reads_as_before() -> None:
    state = _session("json output")
    part = _entry(state, "last", thread_parts.last_part(state, 5_000), "a")
    assert thread.compose([part], 0, NOW, 9_000) == part["text"]
    assert thread.title([part], NOW).startswith(
        "Where the last session on this project stood (session aaaaaaaa, last written 2 days"
    )


def test_a_smaller_room_drops_the_oldest_sessions_then_the_last_ones_older_lines() -> None:
    states = [_session(f"task {k}", turns=10) for k in range(3)]
    parts = [
        _entry(states[0], "earlier", thread_parts.earlier_part(states[0], 2_000), "a"),
        _entry(states[1], "earlier", thread_parts.earlier_part(states[1], 2_000), "b"),
        _entry(states[2], "last", thread_parts.last_part(states[2], 5_000), "c"),
    ]
    full = thread.compose(parts, 0, NOW, 20_000)
    text = thread.compose(parts, 0, NOW, len(full) - 500)
    assert len(text) <= len(full) - 500
    assert "1 earlier session not shown" in text
    assert "task 0 step 1" not in text
    assert "task 1 step 1" in text
    tight = thread.compose(parts, 0, NOW, 3_000)
    assert len(tight) <= 3_000
    assert "task 2 step 10" in tight  # the newest words stay
    assert "more lines not shown" in tight


def test_a_trimmed_part_keeps_the_count_of_turns_left_out() -> None:
    """The record's own "[… N more turns not shown]" stays when the thread trims the part:
    a reader is told how much of the session is missing, not only the lines trimmed."""
    said = [f"[{n}] user: words of turn {n} " + "x" * 60 for n in range(40, 60)]
    text = "\n".join(
        ["## What was said", "[1] user: the goal", "[… 38 more turns not shown]", *said]
    )
    trimmed = thread._trimmed(text, len(text) - 400)
    assert "[… 38 more turns not shown]" in trimmed
    assert "more lines not shown]" in trimmed
    assert "[59] user:" in trimmed


def test_the_room_is_used_when_earlier_sessions_have_content() -> None:
    """Built as the hooks build it: what the content allows fills the room."""
    states = [_session(f"task {k}", turns=14) for k in range(4)]
    room = 8_000
    entries = [_entry(s, "earlier", "", "abcd"[i]) for i, s in enumerate(states)]
    entries[-1]["role"] = "last"
    heads = [thread.header_room(e, NOW) for e in entries]
    avail = room - heads[-1] - len(thread.hidden_line(99))
    needs = [
        len(thread_parts.earlier_part(s, thread.EARLIER_TOP)) + head
        for s, head in zip(states[:-1], heads, strict=False)
    ][::-1]
    last, budgets = thread.allot(avail, avail, needs)
    parts = [
        {**e, "text": thread_parts.earlier_part(s, b - head)}
        for e, s, b, head in zip(entries, states[:-1], budgets[::-1], heads, strict=False)
    ]
    parts.append({**entries[-1], "text": thread_parts.last_part(states[-1], last)})
    text = thread.compose(parts, 0, NOW, room)
    assert room * 0.9 <= len(text) <= room


def test_git_s_view_replaces_the_tools_files_in_the_last_part() -> None:
    text = "## What the record proves (tool calls and their results)\n- Files: a\n- todo"
    assert thread_parts.replace_files(text, ["- Files: a"], ["- git: a, b"]).splitlines()[1] == (
        "- git: a, b"
    )
    plain = "## What was said\n[1] user: hi"
    assert thread_parts.replace_files(plain, [], ["- git: a"]).startswith(
        "## What the record proves (tool calls and their results)\n- git: a\n\n## What was said"
    )


# ---------------------------------------------------------------- on disk


def test_short_sessions_are_kept_past_twenty_and_the_disk_cap_holds() -> None:
    assert kept([5_000] * 150) == 150  # short sessions: all kept
    assert kept([5_000] * 500) == MAX_KEPT
    huge = [DISK_CAP // 4] * 30
    assert kept(huge) == MIN_KEPT  # the newest few whatever their size
    mixed = [1_000_000] * 40
    assert kept(mixed) == DISK_CAP // 1_000_000


def test_an_earlier_ruling_given_in_claude_s_question_tool_outranks_a_bare_yes() -> None:
    """A long goal first shown at its full head crowded out the turn where the user ruled in
    Claude's question tool, and bare "yes" prompts (no answer of Claude's shown) took the room
    left: in a small share the goal comes shorter first, the ruling beside it, and a "yes"
    alone is not shown at all."""
    evidence = Evidence(new_state("s"))
    evidence.prompt(
        "Build the greenhouse sensor dashboard for the allotment club. "
        + "Each bed reports soil moisture every ten minutes over the radio link. " * 6
        + "Keep the charts readable on the old tablets in the shed. " * 4
    )
    evidence.said("Plan: a small Flask app that stores readings in one table and draws charts.")
    _asked(
        evidence,
        "I'd host it on the club's Raspberry Pi with a USB stick for the readings.",
        '"The Pi\'s USB port is taken by the radio dongle. Where should readings live?"'
        '="On the SD card, pruned after a year"',
    )
    evidence.said("Done: readings go to the SD card and a nightly job prunes the old ones.")
    for n in range(3, 9):
        evidence.prompt("yes")
        evidence.tool_use(ToolUse(f"t{n}", "Bash", {"command": "make chart"}))
    evidence.prompt("now the legend colours, " + "the moisture bands read as one colour. " * 3)
    evidence.said("The legend uses three colours now. Shall I add the frost warning next?")
    for budget in range(1_000, 2_000, 50):
        text = thread_parts.earlier_part(evidence.state, budget)
        assert len(text) <= budget
        assert '="On the SD card, pruned after a year"' in text, budget
        assert "[1] user: Build the greenhouse sensor dashboard" in text, budget
        assert "user: yes" not in text, budget  # agreeing to what is not shown
