"""The prose of a session cut up for the cue phrases (restore.session_text), and the cues' split."""

from __future__ import annotations

import re

from memhooks.restore import cues, decision_cues
from memhooks.restore.session_text import Cue, paragraphs, sentences, tokens, words


def test_sentences_split_a_users_lower_case_start_but_not_claudes() -> None:
    text = "fine. btw we're in a freeze\n- Don't touch deploy/"
    assert sentences(text, from_user=True) == [
        "fine.",
        "btw we're in a freeze",
        "Don't touch deploy/",
    ]
    assert sentences("Done. then more", from_user=False) == ["Done. then more"]
    assert sentences("**Next:** ship it. OK.", from_user=False) == ["Next:** ship it.", "OK."]


def test_words_are_content_words_with_camel_case_split_and_plurals_dropped() -> None:
    assert words("The parseCursors are in the bus") == {"parse", "cursor", "bus"}
    assert tokens("Don't re-run it") == frozenset({"don't", "re", "run", "it"})
    assert paragraphs("a\n\n  \nb\nc\n") == ["a", "b\nc"]


def test_a_cue_never_runs_its_pattern_on_a_sentence_without_its_words() -> None:
    cue = Cue(r"blocked on (\w+)", re.IGNORECASE, keys=("blocked",))
    assert cue.search("we are blocked on review") is not None
    assert cue.search("we are Blocked on review", frozenset()) is None  # the words given: none
    assert cue.search("nothing here") is None


def test_the_cue_tables_read_real_phrasings() -> None:
    assert cues.BLOCKED.search("I'm blocked on the API key") is not None
    assert cues.says_resolved("Sentry access is sorted")
    assert not cues.says_resolved("it isn't approved yet")
    assert decision_cues.DECISION_STRONG.search("We'll go with NDJSON over CSV") is not None
    assert decision_cues.SELF_REVERSAL.search("Scratch that, use JSON") is not None
