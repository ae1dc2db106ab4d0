"""reader_eval's prompt, grade and tally round-trip on one fixture, with no model involved."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).parents[1] / "benchmark"
QUESTIONS = Path(__file__).parents[1] / "fixtures" / "reader_questions"
SESSION = "t3-bash-backup-rotation"


def load_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("reader_eval", BENCH / "reader_eval.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


reader_eval = load_module()


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert reader_eval.main(list(argv)) == 0
    return capsys.readouterr().out


def test_round_trip(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    questions = json.loads((QUESTIONS / f"{SESSION}.json").read_text(encoding="utf-8"))
    material = tmp_path / "briefing.md"
    material.write_text("The weekly dumps on db2 were deleted.", encoding="utf-8")

    prompt = run(capsys, "prompt", SESSION, str(material))
    assert "The weekly dumps on db2 were deleted." in prompt
    for q in questions:
        assert f"{q['id']}: {q['question']}" in prompt
        assert q["answer"] not in prompt
        assert q["wrong_if"] not in prompt

    answers = tmp_path / "answers.txt"
    answers.write_text(
        'Here you go:\n```json\n{"q01": "find why the weeklies vanished", "q02": "unknown"}\n```',
        encoding="utf-8",
    )
    judge = run(capsys, "grade", SESSION, str(answers))
    assert "reader's answer: find why the weeklies vanished" in judge
    for q in questions:
        assert q["answer"] in judge
        assert q["wrong_if"] in judge
    assert judge.count("reader's answer: unknown") == len(questions) - 1

    first, second = tmp_path / "grades1.json", tmp_path / "grades2.json"
    first.write_text(json.dumps({"q01": "right", "q02": "unknown", "q07": "wrong"}))
    second.write_text(json.dumps({q["id"]: "Right" for q in questions}))
    counts = json.loads(run(capsys, "tally", SESSION, str(first), str(second), "--json"))
    assert counts["gradings"] == 2
    assert counts["total"] == {"right": 1 + len(questions), "wrong": 1, "unknown": 12}
    kind_of = {q["id"]: q["kind"] for q in questions}
    assert counts["by_kind"][kind_of["q07"]]["wrong"] == 1
    assert counts["by_kind"]["goal"] == {"right": 2, "wrong": 0, "unknown": 0}

    table = run(capsys, "tally", SESSION, str(first))
    assert table.splitlines()[-2].split() == ["total", "1", "1", "12"]


def test_a_grade_outside_the_three_is_an_error(tmp_path: Path) -> None:
    grades = tmp_path / "grades.json"
    grades.write_text(json.dumps({"q01": "partly"}))
    with pytest.raises(ValueError, match="partly"):
        reader_eval.main(["tally", SESSION, str(grades)])


def test_every_question_file_is_well_formed() -> None:
    kinds = {"goal", "now", "next", "waiting", "blocker", "decision", "constraint"}
    kinds |= {"failure", "trap"}
    for path in sorted(QUESTIONS.glob("*.json")):
        questions = json.loads(path.read_text(encoding="utf-8"))
        ids = [q["id"] for q in questions]
        assert len(set(ids)) == len(ids), path.name
        for q in questions:
            assert set(q) == {"id", "question", "answer", "kind", "wrong_if"}, path.name
            assert q["kind"] in kinds, (path.name, q["id"])
        assert (6 if path.name.startswith("a") else 10) <= len(questions) <= 14, path.name
        if not path.name.startswith("a"):
            assert sum(q["kind"] == "trap" for q in questions) >= 3, path.name


def test_a_dump_folder_round_trip(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    questions = json.loads((QUESTIONS / f"{SESSION}.json").read_text(encoding="utf-8"))
    week = tmp_path / f"{SESSION}+trivial"
    week.mkdir()
    (week / "scenario.json").write_text(json.dumps({"session": SESSION}), encoding="utf-8")
    (week / "ours.txt").write_text("The weekly dumps on db2 were deleted.", encoding="utf-8")
    (week / "tail.txt").write_text("Earlier: ok", encoding="utf-8")
    assert "2 prompt(s)" in run(capsys, "prompts", str(tmp_path))
    prompt = (week / "reader_ours.txt").read_text(encoding="utf-8")
    assert "The weekly dumps on db2 were deleted." in prompt
    assert all(f"{q['id']}: {q['question']}" in prompt for q in questions)

    (week / "answers_ours.json").write_text('{"q01": "find the weeklies"}', encoding="utf-8")
    assert "1 prompt(s)" in run(capsys, "judges", str(tmp_path))
    assert "reader's answer: find the weeklies" in (week / "judge_ours.txt").read_text()

    (week / "grades_ours.json").write_text(json.dumps({"q01": "right", "q02": "wrong"}))
    (week / "grades_ours-2.json").write_text(json.dumps({"q01": "right"}))
    (row,) = json.loads(run(capsys, "table", str(tmp_path), "--json"))
    assert row["session"] == SESSION
    assert row["ours"]["gradings"] == 2
    assert row["ours"]["counts"] == {"right": 2, "wrong": 1, "unknown": 2 * len(questions) - 3}
    assert row["tail"] == {"chars": len("Earlier: ok"), "gradings": 0, "counts": None}
    table = run(capsys, "table", str(tmp_path))
    assert f"| {SESSION}+trivial | 2 / 1 / {2 * len(questions) - 3} (37, 2 gradings) |" in table
    assert "not graded (11)" in table
