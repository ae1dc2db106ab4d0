"""The one family that fits text into a line or a length (`memhooks.text`)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from memhooks.text import ELLIPSIS, clip, clip_at_word, clip_counted, one_line


def test_one_line_folds_line_breaks_and_keeps_a_lines_own_spaces() -> None:
    assert one_line("  a\n\tb  \r\n c ") == "a b c"
    assert one_line("") == ""
    assert one_line("x\u2028y\x0bz") == "x y z"
    assert one_line("`'hello  world'` counts 2") == "`'hello  world'` counts 2"  # the bug itself


def test_clip_keeps_short_text_and_ends_a_cut_in_its_mark() -> None:
    assert clip("short", 5) == "short"
    assert clip("a few words", 7) == "a few…"  # the space at the cut trimmed
    assert clip("a\nb c d e f", 6, fold=True) == "a b c…"
    cut = clip("x" * 50, 30, mark="\n\n… (cut)")
    assert len(cut) == 30
    assert cut.endswith("\n\n… (cut)")


def test_clip_counted_says_how_much_it_left_out() -> None:
    assert clip_counted("  kept  ", 10) == "kept"
    cut = clip_counted("y" * 100, 50)
    assert cut == "y" * 28 + " … [50 more chars cut]"
    assert clip_counted("a\n\nb " * 30, 40, fold=True).startswith("a b a b")


@given(st.text(), st.integers(min_value=1, max_value=300), st.booleans())
def test_a_clip_never_exceeds_its_limit(text: str, limit: int, fold: bool) -> None:
    cut = clip(text, limit, fold=fold)
    assert len(cut) <= limit
    if fold:
        assert "\n" not in cut
    if cut != (one_line(text) if fold else text):
        assert cut.endswith(ELLIPSIS)
    assert len(clip_counted(text, limit + 40)) <= limit + 40


def test_clip_at_word_never_leaves_half_a_word() -> None:
    assert clip_at_word("short", 10) == "short"
    assert clip_at_word("Use Postgres 16, for the queue", 16) == "Use Postgres…"
    assert clip_at_word("Use Postgres — for the queue", 15, trim=" ,;:.-—") == "Use Postgres…"
    assert clip_at_word("unbrokenwordhere", 8) == "unbroken…"
