"""Path rules of the store: what a host session id may be as a file name."""

from __future__ import annotations

import pytest

from memhooks.store.paths import UnsafePathError, session_file_stem


@pytest.mark.parametrize("good", ["abc", "7f3e-11aa_b", "A" * 128])
def test_a_host_session_id_is_a_file_stem(good: str) -> None:
    assert session_file_stem(good) == good


@pytest.mark.parametrize(
    "bad", ["", "-abc", "_abc", "a/b", "../x", "a" * 129, "abc\n", "caf\u00e9", "a b", "a.b"]
)
def test_anything_else_is_refused(bad: str) -> None:
    with pytest.raises(UnsafePathError):
        session_file_stem(bad)
