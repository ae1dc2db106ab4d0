"""One reading of a markdown title (`# Title`), for memories and session summaries alike."""

from __future__ import annotations

import pytest

from memhooks.store import first_heading


@pytest.mark.parametrize(
    ("body", "title"),
    [
        ("# Title", "Title"),
        ("# Title ##", "Title"),  # a closing run of # is not part of it
        ("#   Spaced  ", "Spaced"),
        ("# Title\r\nmore", "Title"),
        ("## sub\n# Top", "Top"),
        ("# C# is fine", "C# is fine"),
        ("#\nnot a title", None),  # a lone # never takes the next line as its title
        ("  # indented", None),
        ("#NoSpace", None),
    ],
)
def test_first_heading(body: str, title: str | None) -> None:
    assert first_heading(body) == title
