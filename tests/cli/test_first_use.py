"""A new user's first commands: messages that say what happened and what to run next."""

from __future__ import annotations

from pathlib import Path

import pytest

from memhooks.store import parse_text, render_document
from support import local_of, run_main


@pytest.mark.parametrize("key", ["content", "handler", "metadata", "text"])
def test_any_frontmatter_key_round_trips(key: str) -> None:
    meta = {"title": "Cache layer", key: "redis"}
    raw = parse_text(render_document(meta, "# Cache layer\n\nbody"))
    assert raw.meta == meta
    assert raw.body == "# Cache layer\n\nbody"


def test_a_content_field_survives_save_rebuild_and_doctor(memory: Path, capsys) -> None:
    code, _, err = run_main(
        capsys,
        "save",
        "decision",
        "--title",
        "Cache layer",
        "--field",
        "content=redis",
        "--field",
        "handler=",
    )
    assert code == 0, err
    code, out, err = run_main(capsys, "rebuild")
    assert code == 0, out + err
    assert "Found 1 decision, 0 analyses, " in out  # one decision, not "1 decisions"
    assert "Skipped" not in out
    code, out, err = run_main(capsys, "doctor")
    assert code == 0, out + err
    assert "[FIX]" not in out


def test_doctor_does_not_advise_a_rebuild_that_cannot_help(memory: Path, capsys) -> None:
    (memory / "decisions" / "broken.md").write_text("---\ntitle: [unclosed\n---\nbody\n")
    code, out, _ = run_main(capsys, "doctor")
    assert code != 0
    assert "decisions/broken.md: does not parse" in out
    assert "not indexed" not in out  # which `rebuild` was advised for, though it cannot parse it


def test_list_names_the_valid_categories(memory: Path, capsys) -> None:
    code, _, err = run_main(capsys, "list", "--category", "bogus")
    assert code == 5
    assert "use one of: decision, constraint, runbook, preference" in err


def test_a_missing_project_is_an_error(tmp_path: Path, capsys) -> None:
    code, out, err = run_main(capsys, "--project", str(tmp_path / "nonexistent"), "status")
    assert code == 7
    assert f"no such project directory: {tmp_path / 'nonexistent'}" in err
    assert out == ""


def test_hints_name_a_command_the_reader_can_run(
    tmp_path: Path, capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MEMHOOKS_PROJECT_DIR", str(tmp_path))
    code, out, _ = run_main(capsys, "status")
    assert code == 0
    launcher = Path(__file__).resolve().parents[2] / "hooks" / "memhooks.py"
    assert f'`python3 "{launcher}" start`' in out  # run from a checkout: no `memhooks` on PATH
    assert "`/memory start`" in out
    code, _, err = run_main(capsys, "list")
    assert code == 3
    assert f'`python3 "{launcher}" start`' in err


def test_start_is_all_or_nothing(tmp_path: Path, capsys, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMHOOKS_PROJECT_DIR", str(tmp_path))

    def refuse(*_args: object, **_kwargs: object) -> None:
        raise OSError(28, "No space left on device")

    with monkeypatch.context() as failing:  # undoes only the refusal, not the test's HOME
        failing.setattr("memhooks.store.session.write_state", refuse)
        code, _, err = run_main(capsys, "start")
    assert code == 10, err
    assert "No space left on device" in err
    assert not (tmp_path / ".claude" / "memory").exists()
    code, _, err = run_main(capsys, "start")
    assert code == 0, err
    assert (local_of(tmp_path / ".claude" / "memory") / "session.json").is_file()
