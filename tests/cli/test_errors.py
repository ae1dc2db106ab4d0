"""One error base, one exit-code table, and the docs that quote it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from memhooks.cli.main import EPILOG, main
from memhooks.errors import CODES, MEANINGS, Exit, MemhooksError, UserError
from memhooks.store import (
    ConflictError,
    LockTimeoutError,
    NotFoundError,
    ResurrectionError,
    StateUnreadableError,
    StoreError,
    UnsafePathError,
)

COMMANDS_DOC = Path(__file__).resolve().parents[2] / "docs" / "commands.md"


def _codes_in(text: str) -> list[tuple[int, str]]:
    """`N meaning` pairs of an "Exit codes: ..." sentence, in order, without the asides."""
    sentence = " ".join(text.split("Exit codes:", 1)[1].split())
    sentence = re.sub(r"\([^)]*\)", "", sentence.split(".\n")[0])
    pairs = re.findall(r"(\d+) ([A-Za-z][^,]*?)\s*(?:,|\.\s|$)", sentence)
    found: list[tuple[int, str]] = []
    for number, meaning in pairs:
        if found and int(number) <= found[-1][0]:
            break
        found.append((int(number), meaning.strip()))
    return found


def test_every_exit_code_has_one_meaning() -> None:
    assert set(MEANINGS) == set(CODES)


@pytest.mark.parametrize("where", ["docs/commands.md", "--help"])
def test_docs_list_exactly_the_exit_codes_with_their_meanings(where: str) -> None:
    text = COMMANDS_DOC.read_text(encoding="utf-8") if where != "--help" else EPILOG
    listed = _codes_in(text)
    assert [n for n, _ in listed] == list(CODES)
    for number, meaning in listed:
        assert meaning.startswith(MEANINGS[number]), (number, meaning)


@pytest.mark.parametrize(
    ("error", "code"),
    [
        (ConflictError("x"), Exit.CONFLICT),
        (NotFoundError("x"), Exit.NOT_FOUND),
        (ResurrectionError("x"), Exit.REFUSED),
        (StoreError("x"), Exit.REFUSED),
        (UnsafePathError("x"), Exit.REFUSED),
        (StateUnreadableError("x"), Exit.REFUSED),
        (LockTimeoutError("x"), Exit.LOCKED),
        (UserError("x"), Exit.INVALID_INPUT),
        (UserError("x", Exit.NOT_STARTED), Exit.NOT_STARTED),
    ],
)
def test_each_error_carries_its_exit_code(error: MemhooksError, code: int) -> None:
    assert isinstance(error, MemhooksError)
    assert error.code == code


def test_main_maps_any_memhooks_error_to_its_code(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("MEMHOOKS_PROJECT_DIR", str(tmp_path))
    assert main(["recall", "anything"]) == Exit.NOT_STARTED
    err = capsys.readouterr().err
    assert err.startswith("memhooks: no memory here")
    assert err.count("\n") == 1
