"""The frame's limits, as behaviour: a cut body ends at a line, a source and a one-line
value are capped."""

from __future__ import annotations

from memhooks.text.controls import visible
from memhooks.text.frame import clean_source, frame, one_line


def test_a_cut_body_ends_at_a_whole_line() -> None:
    body = "\n".join(f"line {n:03d} of the restore" for n in range(200))
    for budget in range(300, 2_000, 37):
        text = frame("restore", body, budget, what="the restore")
        assert len(text) <= budget
        shown = [line for line in text.splitlines()[1:-2] if line]
        assert shown, budget
        assert all(line.endswith(" of the restore") for line in shown), (budget, shown[-1])


def test_a_source_and_a_one_line_value_are_capped() -> None:
    assert len(clean_source("a" * 1_000)) == 300
    assert 'source="' + "a" * 300 + '"' in frame("a" * 1_000, "body")
    assert len(one_line("word " * 200)) == 300
    assert len(one_line("word " * 200, 40)) == 40


def test_a_bare_carriage_return_is_shown_not_obeyed() -> None:
    assert visible("paid\rrefunded") == "paid\\x0drefunded"
    assert visible("line\r\nnext") == "line\nnext"
