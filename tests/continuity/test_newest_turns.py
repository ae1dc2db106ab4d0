"""What a long session's restore keeps of its newest turns, of the user's words around a paste
and of the answers the user gave through a tool, and which of Claude's sentences it selects."""

from __future__ import annotations

from typing import Any

from records import prompt as _prompt
from records import said as _said

from memhooks.continuity import host_summary
from memhooks.continuity.evidence import Evidence
from memhooks.continuity.excerpt import select, words_first
from memhooks.continuity.handover import TOLD_LABEL, next_session, turn_lines
from memhooks.continuity.transcript_records import Record


def _long_session(middle: list[Record], turns: int = 70) -> list[Record]:
    records: list[Record] = [_prompt("build the nightly price importer"), _said("Starting.")]
    for n in range(turns):
        records += [
            _prompt(f"set the timeout of feed {n} to {n + 5} seconds, the supplier asked for it"),
            _said(f"Feed {n} now waits {n + 5} seconds."),
        ]
    return records + middle


def test_the_newest_turns_keep_their_detail_when_older_ones_are_left_out() -> None:
    """A long session's one-line breadth of older turns does not eat the room of the turns
    the next session continues from: a caveat deep in the reply before the last stays."""
    reply = " ".join(f"Checked feed {n} against the staging mirror." for n in range(12))
    reply += " The staging mirror still serves last week's prices, so do not trust its totals."
    reply += " " + " ".join(f"Feed {n} is fine." for n in range(12, 24))
    records = _long_session([_prompt("compare the feeds with staging"), _said(reply)])
    records += [_prompt("ok, and the report?"), _said("The report is written.")]
    text = next_session(Evidence().add_all(records).state, budget=4_000)
    assert "not shown]" in text  # the older turns did not all fit
    assert "still serves last week's prices, so do not trust its totals" in text


def test_a_paste_keeps_the_users_own_words_before_the_logs_questions() -> None:
    """The user's lines around a pasted log come first; a question the log prints is not the
    user's, and the log's error line follows as room allows."""
    log = "\n".join(
        f"importer-1  | 2026-01-0{n % 9 + 1} 04:1{n % 10}:00 fetched page {n}" for n in range(30)
    )
    text = (
        "fine, I will rename the column in the sheet myself tonight\n"
        "the nightly import broke again after that:\n"
        f"{log}\n"
        "importer-1  | Did you forget to run the pending migration?\n"
        "importer-1  | 2026-01-09 04:19:59 ValueError: column 'sku' is missing\n"
    )
    state = Evidence().add_all([_prompt(text), _said("Looking.")]).state
    line = words_first(state["turns"][0]["prompt"], 200)
    assert line.startswith("fine, I will rename the column in the sheet myself tonight")
    assert "Did you forget" not in line
    assert "ValueError: column 'sku' is missing" in line


def test_an_answer_given_through_a_tool_is_shown_as_the_users_words() -> None:
    """A choice the user made when Claude asked with options, or the reason for refusing a
    tool call, is the user's word on that turn: its answer kept, Claude's question cut."""
    asked = "Which queue should the retries go to? It decides how long a customer waits and "
    asked += "whether the nightly batch is slowed down by them"
    turn = {
        "n": 4,
        "prompt": "go on with the retries",
        "first": "",
        "mid": [],
        "last": "Done.",
        "ran": [],
        "told": [f'"{asked}"="The slow queue (Recommended)"', "keep the retries under five"],
    }
    told = next(line for line in turn_lines(turn, 0) if TOLD_LABEL in line)
    assert '="The slow queue (Recommended)"' in told
    assert "keep the retries under five" in told
    assert asked not in told  # Claude's question is cut to its start


def test_the_options_are_the_list_next_to_the_question_not_a_list_of_findings() -> None:
    """A reply that lists its findings, then notes a caveat, then asks: the caveat outranks
    the findings (the choices it offers sit next to its question)."""
    reply = (
        "I went through the release checklist.\n"
        "- the parser handles tabs now\n"
        "- the lexer rewrite is merged\n"
        "- the benchmarks are green\n"
        "### Caveat\n"
        "The changelog still names the old command line flag.\n"
        "Worth cleaning up before the tag.\n"
        "Shall I tag the release now?"
    )
    short = select(reply, 140)
    assert "The changelog still names the old command line flag." in short
    assert "the parser handles tabs now" not in short


def test_what_a_lead_in_flags_is_kept_with_it() -> None:
    """ "One thing to flag:" introduces the caveat: the sentence after it is kept too."""
    reply = (
        "Deployed the shop to the demo host. All pages answer. The checkout works end to end. "
        "One thing to flag: the demo account now holds a test order of 40 euros. "
        "The nightly reset clears it. Anything else before the review?"
    )
    short = select(reply, 170)
    assert "the demo account now holds a test order of 40 euros." in short


def test_a_request_put_as_a_question_is_shown_before_questions_for_information() -> None:
    """ "Can you check X?" states what the user wants: when not every turn fits, it is
    shown before the prompts that only ask."""
    records: list[Record] = [_prompt("write the invoice exporter"), _said("Writing it.")]
    records += [
        _prompt("could you check the exporter against the tax office's sample files?"),
        _said("Checked."),
    ]
    for n in range(80):
        records += [_prompt(f"what does column {n} hold?"), _said(f"Column {n} holds a date.")]
    text = next_session(Evidence().add_all(records).state, budget=3_000)
    assert "could you check the exporter against the tax office's sample files?" in text


def test_a_long_summary_keeps_its_first_section_whole_when_it_fits_the_summarys_share() -> None:
    """The host's summary opens with the user's requests: cut inside that section, it is
    shown to the section's end when that fits the summary's largest share."""
    asks = "\n".join(f"   - keep rule {n} of the billing export as agreed" for n in range(24))
    summary = (
        "1. Primary Request and Intent:\n   Build the billing export. Requests:\n"
        f"{asks}\n   - never round the VAT before summing the lines\n\n"
        "2. Key Technical Concepts:\n" + "\n".join(f"   - concept {n}" for n in range(120))
    )
    records: list[Record] = [_prompt("start the billing export"), _said("Started.")]
    for n in range(30):
        records += [_prompt(f"add column {n} to the export"), _said(f"Column {n} added.")]
    state = Evidence().add_all(records).state
    state["summary"] = {"text": summary, "after_turn": 10, "at": ""}
    text = next_session(state, budget=9_000)
    assert "never round the VAT before summing the lines" in text
    assert "concept 3" not in text


def test_what_came_of_a_turn_after_its_tools_outweighs_what_it_said_before() -> None:
    """A reply that guessed before running something and corrected itself after it: the
    first words after the last tool call (the verdict) are kept, not only the guess."""
    turn = {
        "n": 4,
        "prompt": "the nightly export failed on CI again, is that our change?",
        "first": "It is not our change: the CI runner lost its disk quota. "
        + "The export itself runs fine on a laptop. " * 1
        + " ".join(f"Step {n} of the job logs nothing unusual." for n in range(8)),
        "mid": ["Let me run the export here to be sure."],
        "last": "Hm, it fails here too with the same quota error: the laptop's disk is full. "
        "So neither place can run it until space is freed.",
    }
    text = "\n".join(turn_lines(turn, 2))
    assert "it fails here too" in text


#: A summary's files section far longer than any room a restore gives a summary.
_FILES = "2. Files and Code Sections:\n" + "".join(
    f"   - importer/feed_{n}.py: parses feed {n}\n" for n in range(120)
)


def _importer(summary: str, turns: int, after: int) -> dict[str, Any]:
    """A session of `turns` turns adding feeds, with `summary` written after turn `after`."""
    records: list[Record] = [_prompt("start the price importer"), _said("Started.")]
    for n in range(turns - 1):
        records += [_prompt(f"add feed {n}"), _said(f"Feed {n} added.")]
    state = Evidence().add_all(records).state
    state["summary"] = {"text": summary, "after_turn": after, "at": ""}
    return state


def test_a_summary_too_long_for_its_room_leaves_out_its_files_before_the_users_words() -> None:
    """Whole sections, in their order: the user's part (requests, messages) first, the
    sections about files and code last, each run left out marked."""
    summary = (
        "1. Primary Request and Intent:\n   A nightly price importer.\n\n"
        + _FILES
        + "\n3. Pending Tasks:\n   - the supplier's second feed\n\n"
        '4. All user messages:\n   - "never write to the prices table directly"\n'
    )
    text = next_session(_importer(summary, 31, 31), budget=9_000)
    assert '"never write to the prices table directly"' in text
    assert "the supplier's second feed" in text
    assert "feed_3.py" not in text
    assert "A nightly price importer.\n…\n3. Pending Tasks:" in text


def test_what_a_summary_said_was_pending_is_left_out_once_turns_followed_it() -> None:
    """Turns after the summary did or changed its pending tasks and its current work: cut
    to its room, it keeps what it says the user asked and leaves those out."""
    summary = (
        "1. Primary Request and Intent:\n   A nightly price importer.\n"
        "2. Key Technical Concepts:\n"
        + "".join(f"   - feed {n} is read as UTF-8 CSV\n" for n in range(12))
        + _FILES.replace("2.", "3.", 1)
        + "4. Pending Tasks:\n   - wire up the supplier's second feed\n"
        "5. Current Work:\n   Writing the second feed's parser.\n"
    )
    text = next_session(_importer(summary, 41, 30), budget=9_000)
    assert "feed 11 is read as UTF-8 CSV" in text
    assert "second feed" not in text
    # written after the last turn: nothing followed it
    assert "wire up the supplier's second feed" in next_session(
        _importer(summary, 41, 41), budget=9_000
    )


def test_a_numbered_list_inside_a_summary_s_section_is_no_section_of_its_own() -> None:
    """Markdown headings with numbered lists under them, and numbered sections whose items
    are numbered too: an item is its section's, left out with it (it showed alone after a
    "…", the current work of a summary turns had followed, without its heading)."""
    marked = (
        "## What the user asked\n- Make the thumbnails load lazily.\n"
        "## Concepts\n" + "- the gallery renders 400 images on one page\n" * 8 + "## Current Work\n"
        "1. Adding loading=lazy to the gallery template\n2. Then the placeholder colour\n"
    )
    numbered = (
        "1. Primary Request and Intent:\n   Lazy thumbnails.\n2. Key Technical Concepts:\n"
        + "   - the gallery renders 400 images on one page\n" * 8
        + "3. Current Work:\n1. Adding loading=lazy to the gallery template\n"
        "2. Then the placeholder colour\n4. Errors and fixes:\n   - none\n"
    )
    for summary in (marked, numbered):
        text = host_summary.by_sections(summary, len(summary) - 30, later=True)
        assert "Lazy" in text or "lazily" in text
        assert "loading=lazy" not in text
        assert "placeholder colour" not in text
    assert "4. Errors and fixes:" in host_summary.by_sections(
        numbered, len(numbered) - 30, later=True
    )
