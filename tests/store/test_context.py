"""The status line's list-marker and placeholder rules, held equal to the regular expressions
they replaced (string operations keep a compile off every prompt)."""

from __future__ import annotations

import re

from hypothesis import example, given, settings
from hypothesis import strategies as st

from memhooks.store import is_filler, unbulleted

_BULLET = re.compile(r"^[-*+]\s+(\[[ xX~]\]\s+)?|^\d+\.\s+")
_PLACEHOLDER = re.compile(r"^\(?\s*(none|none yet|n/a|-|tbd)\s*\)?\.?$", re.IGNORECASE)

_PIECES = st.sampled_from(
    [
        "-",
        "*",
        "+",
        " ",
        "\t",
        "\u3000",
        "[",
        "]",
        "x",
        "X",
        "~",
        "1",
        "12",
        "٣",
        "²",
        ".",
        "(",
        ")",
        "none",
        "NONE",
        "none yet",
        "n/a",
        "tbd",
        "TBD",
        "yet",
        "a",
        "\n",
    ]
)


@settings(max_examples=500)
@given(st.lists(st.one_of(_PIECES, st.text(max_size=3)), max_size=8).map("".join))
@example("- [x] ship it")
@example("-  [x]ship it")
@example("12. step")
@example("². step")
@example("(none yet)")
@example("N/A.")
def test_string_rules_equal_the_regexes(text: str) -> None:
    line = text.strip()
    assert unbulleted(line) == _BULLET.sub("", line)
    stripped = unbulleted(line)
    assert is_filler(stripped) == (_PLACEHOLDER.match(stripped) is not None)


def test_examples() -> None:
    assert unbulleted("- [ ] write the docs") == "write the docs"
    assert unbulleted("3. deploy") == "deploy"
    assert unbulleted("-no space") == "-no space"
    assert is_filler("(none yet)")
    assert is_filler("TBD.")
    assert not is_filler("none of the above")
