"""An earlier session's part: whose words it keeps when its room is small, and how the room
is shared between the earlier sessions."""

from __future__ import annotations

from typing import Any

from memhooks.continuity import thread, thread_parts
from memhooks.continuity.earlier_words import answer, user_words
from memhooks.continuity.evidence import Evidence, new_state


def _turn(n: int, prompt: str, first: str = "", last: str = "") -> dict[str, Any]:
    """A turn as the evidence keeps it: Claude's first and last texts (a tool ran between)."""
    return {"n": n, "prompt": prompt, "first": first, "mid": [], "last": last, "ran": []}


# ---------------------------------------------------------------- Claude's answer


def test_the_answer_leads_with_how_claude_took_the_user_s_ruling() -> None:
    """The user overrules Claude ("no, the nightly job reads it"); Claude's first words say
    what it will do instead, then a tool runs and its final words report something else. The
    decision it stated first is shown, whole with what its lead-in introduces, and a later,
    shorter decision does not take its place."""
    turn = _turn(
        4,
        "no, the nightly job reads that file, it must stay",
        "Understood, that rules the rename out. Let's keep the old name instead: "
        "a symlink points the new tool at it. I'll check who else opens it.",
        "The search found two readers of the file: the nightly job and the backup script.",
    )
    text = answer(turn, 260)
    assert "Let's keep the old name instead: a symlink points the new tool at it." in text
    assert text.index("Let's keep") < text.index("The search found")
    # With little room the first decision is clipped, never swapped for "I'll check …".
    short = answer(turn, 150)
    assert "Let's keep the old name" in short
    assert "I'll check who else opens it" not in short


def test_a_decision_claude_took_back_is_shown_with_its_reversal_or_not_at_all() -> None:
    """Claude states a plan, then says no to it in words that state no decision themselves:
    shown alone, the plan read as what was done."""
    turn = _turn(
        5,
        "tidy the invoice module",
        "I'll move the tax tables into a new package. Hmm, the payroll job imports them from "
        "here, so that won't happen today. Reading the module first.",
        "The module is tidier: three helpers merged, no public name changed.",
    )
    text = answer(turn, 260)
    assert "I'll move the tax tables into a new package. Hmm, the payroll job" in text
    assert "so that won't happen today." in text
    short = answer(turn, 150)  # no room for both: neither
    assert "tax tables" not in short
    assert short.startswith("The module is tidier")


def test_the_answer_without_a_decision_on_the_way_opens_with_its_final_words() -> None:
    turn = _turn(2, "go on", "Running the suite first.", "All 40 tests pass on the new branch.")
    assert answer(turn, 260).startswith("All 40 tests pass")


# ---------------------------------------------------------------- the user's words


def test_a_short_paste_gives_way_to_the_user_s_own_words() -> None:
    """Output pasted without being cut as a log (a few lines) comes before the user's own
    line; cut to its room, the prompt keeps what the user typed, a constraint at its end
    included, and marks where the output was."""
    output = "\n".join(f"    ok {n:>3}  widget_{n}_test  0.0{n}s  [cached]" for n in range(1, 9))
    prompt = (
        f"all green now:\n{output}\nSUMMARY 8/8 OK\n"
        "next the export button. and keep your hands off vendor/, a script rewrites it"
    )
    text = user_words(prompt, 200)
    assert "keep your hands off vendor/, a script rewrites it" in text
    assert "widget_3_test" not in text
    assert "…" in text
    # A prompt of prose alone, or of output alone, is cut as before.
    assert user_words("a" * 50, 200) == "a" * 50


# ---------------------------------------------------------------- the part's turns


def _worked(evidence: Evidence, prompt: str, result: str) -> None:
    """A turn in which Claude ran a check between its first and its last words."""
    evidence.prompt(prompt)
    evidence.said("Looking into it.")
    evidence.ran("make check", ok=True, output="ok", turn=evidence.state["turns"][-1]["n"])
    evidence.said(result)


def _steps(evidence: Evidence, numbers: range, asked: str, done: str) -> None:
    for n in numbers:
        evidence.prompt(f"step {n}: {asked} " * 3)
        evidence.said(f"Done with step {n}. " + done * 6)


def _aside_first() -> dict[str, Any]:
    """A session that opens with a question answered from what Claude knew, then the work
    with a constraint in passing, then more work."""
    evidence = Evidence(new_state("s"))
    evidence.prompt("quick one, how do I make my editor stop folding imports?")
    evidence.said("Turn off import folding in the editor settings. " * 6)
    _worked(
        evidence,
        "OK. Split the billing module in two while you are in there. "
        "Do not rename anything in billing/public, partners link to it.",
        "Split into billing/core and billing/io. " * 5,
    )
    _steps(evidence, range(3, 6), "carry on with the invoices.", "The totals come from core. ")
    return evidence.state


def test_a_first_prompt_asked_aside_is_no_goal_and_gives_its_room_to_the_work() -> None:
    """Shown as the goal, the question aside took the room of the constraint after it."""
    state = _aside_first()
    for budget in (700, 800):
        text = thread_parts.earlier_part(state, budget)
        assert len(text) <= budget
        assert "Do not rename anything in billing/public" in text
        assert "stop folding imports" not in text


def test_a_first_prompt_that_set_claude_to_work_stays_the_goal() -> None:
    evidence = Evidence(new_state("s"))
    _worked(
        evidence,
        "Why does the importer drop rows? Please find it and fix it.",
        "Found it: a blank line ends the batch early. " * 4,
    )
    _steps(evidence, range(2, 7), "go on, keep the CSV format.", "Every batch is read now. ")
    text = thread_parts.earlier_part(evidence.state, 1_100)
    assert "[1] user: Why does the importer drop rows?" in text


def test_a_first_request_phrased_as_a_question_that_claude_asked_back_on_stays_the_goal() -> None:
    """A request asked as a question, Claude asking back before any tool ran: that is the
    work being agreed, not a question aside; as one, it and the answer were both shed."""
    evidence = Evidence(new_state("s"))
    evidence.prompt("Would you make the exporter write one file per customer, named by id?")
    evidence.said("Sure. Should an existing file be overwritten or kept with a suffix?")
    _worked(evidence, "Overwrite it.", "The exporter now writes out/<id>.csv. " * 5)
    _steps(evidence, range(3, 6), "go on with the docs.", "The docs say so now. ")
    for budget in (700, 800):
        text = thread_parts.earlier_part(evidence.state, budget)
        assert len(text) <= budget
        assert "one file per customer" in text


def test_an_earlier_session_s_last_turn_keeps_claude_s_question_when_cut_short() -> None:
    """A long request last, Claude's proposal with its question after it, in a part whose
    goal takes most of the room: at the shortest cut the user's words give way before
    Claude's question does (the next session's first prompt may be the answer to it)."""
    evidence = Evidence(new_state("s"))
    evidence.prompt("Make the report module faster. " + "Big exports take minutes. " * 16)
    evidence.said("Profiling it. " + "The report module spends its time in the sort. " * 8)
    _steps(evidence, range(2, 5), "tidy the report module.", "The report module is tidier. ")
    evidence.prompt("Next thing: " + "we want plugins that load from a folder. " * 8)
    evidence.said(
        "Here is how I would do it. "
        + "Each plugin gets a folder of its own with a manifest. " * 8
        + "Shall I load them lazily instead?"
    )
    text = thread_parts.earlier_part(evidence.state, 700)
    assert "Shall I load them lazily instead?" in text


# ---------------------------------------------------------------- the room


def test_the_earlier_sessions_share_the_room_by_what_their_user_stated() -> None:
    last, even = thread.allot(8_000, 8_000, [3_000, 3_000])
    _, weighed = thread.allot(8_000, 8_000, [3_000, 3_000], [3, 1])
    assert weighed[0] > weighed[1]  # the session whose user stated more
    assert sum(weighed) <= sum(even) + thread.STEP
    assert all(b >= thread.EARLIER_MIN for b in weighed)
    assert thread.allot(8_000, 8_000, [3_000, 3_000], [5, 5]) == (last, even)
    # a share the weights would leave under the minimum is raised to it
    _, tiny = thread.allot(8_000, 8_000, [3_000, 3_000], [1_000, 1])
    assert tiny[1] == thread.EARLIER_MIN
    assert tiny[0] + tiny[1] <= 8_000 - int(8_000 * thread.LAST_SHARE)


def test_a_session_weighs_by_how_often_its_user_stated_something() -> None:
    """A question or a go-ahead states nothing; a short ruling weighs as much as a long
    statement of the work."""
    asked = [_turn(1, "how does the cache expire? and who reads it?"), _turn(2, "go on")]
    ruled = [_turn(1, "Keep the cache on disk, and never share one cache between two tenants.")]
    spec = [_turn(1, "The cache holds rendered pages for every tenant of the site. " * 12)]
    assert thread_parts.statements(ruled) == thread_parts.statements(spec)
    assert thread_parts.statements(ruled) == thread_parts.statements(asked) + 1
