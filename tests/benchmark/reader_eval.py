"""Blind-reader evaluation of what a resumed session is given (issue 23).

A reader model sees only the material (a briefing, a host summary, or both) and answers the
continuation questions of tests/fixtures/reader_questions/<session>.json; a judge model grades
its answers against the truth. This script only writes the prompts and counts the grades; the
models are run by whoever runs the evaluation.

    python3 tests/benchmark/reader_eval.py prompt SESSION MATERIAL_FILE > reader_prompt.txt
    python3 tests/benchmark/reader_eval.py grade SESSION ANSWERS_JSON > judge_prompt.txt
    python3 tests/benchmark/reader_eval.py tally SESSION GRADES_JSON [GRADES_JSON ...] [--json]

SESSION is a session name (t3-bash-backup-rotation) or the path of a questions file. Answers
and grades are JSON objects keyed by question id; text around the object (a model's preamble)
is ignored. Stdlib only.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

QUESTIONS = Path(__file__).resolve().parents[1] / "fixtures" / "reader_questions"
GRADES = ("right", "wrong", "unknown")

READER_INTRO = """\
You are taking over a coding session from another engineer. The material below is all you
know about it: you cannot see the conversation, the repository or anything else. Answer each
question from the material alone, as you would act on it now. If the material does not tell
you, answer "unknown" rather than guess.

===== MATERIAL =====
{material}
===== END OF MATERIAL =====

Questions:
{questions}

Reply with one JSON object and nothing else, mapping each question id to your answer as a
short string, for example {{"q01": "...", "q02": "unknown"}}.
"""

JUDGE_INTRO = """\
You are grading a reader's answers about a coding session against the truth at the moment
the session stopped. For each question you get the truth, what counts as wrong, and the
reader's answer. Grade each answer:

- "right": it states the essential point of the truth (wording may differ, extra detail is
  fine as long as nothing in it is false or presented as current when it is not);
- "wrong": it matches the wrong_if description, contradicts the truth, or presents something
  that stopped being true as current;
- "unknown": the reader said it does not know, or gave no answer.

{items}

Reply with one JSON object and nothing else, mapping each question id to "right", "wrong"
or "unknown".
"""


def load_questions(session: str) -> list[dict[str, str]]:
    path = Path(session)
    if not path.is_file():
        path = QUESTIONS / f"{session}.json"
    questions: list[dict[str, str]] = json.loads(path.read_text(encoding="utf-8"))
    return questions


def parse_object(text: str) -> dict[str, Any]:
    """The JSON object in text, also when a model wrapped it in prose or a code fence."""
    start, end = text.find("{"), text.rfind("}")
    if start < 0 or end < start:
        raise ValueError("no JSON object found")
    found = json.loads(text[start : end + 1])
    if not isinstance(found, dict):
        raise TypeError("expected a JSON object")
    return found


def reader_prompt(questions: list[dict[str, str]], material: str) -> str:
    listed = "\n".join(f"{q['id']}: {q['question']}" for q in questions)
    return READER_INTRO.format(material=material.strip(), questions=listed)


def judge_prompt(questions: list[dict[str, str]], answers: dict[str, Any]) -> str:
    items = "\n\n".join(
        f"[{q['id']}] {q['question']}\n"
        f"truth: {q['answer']}\n"
        f"wrong if: {q['wrong_if']}\n"
        f"reader's answer: {answers.get(q['id'], 'unknown')}"
        for q in questions
    )
    return JUDGE_INTRO.format(items=items)


def tally(questions: list[dict[str, str]], gradings: list[dict[str, Any]]) -> dict[str, Any]:
    """Counts per kind and in total; a question a grading leaves out counts as unknown."""
    by_kind: dict[str, dict[str, int]] = {}
    total = dict.fromkeys(GRADES, 0)
    for grading in gradings:
        for q in questions:
            grade = str(grading.get(q["id"], "unknown")).strip().lower()
            if grade not in GRADES:
                raise ValueError(f"{q['id']}: grade {grade!r} is not one of {GRADES}")
            by_kind.setdefault(q["kind"], dict.fromkeys(GRADES, 0))[grade] += 1
            total[grade] += 1
    return {"gradings": len(gradings), "by_kind": by_kind, "total": total}


def render_tally(counts: dict[str, Any]) -> str:
    lines = [f"{'kind':<12}{'right':>7}{'wrong':>7}{'unknown':>9}"]
    rows = [*sorted(counts["by_kind"].items()), ("total", counts["total"])]
    lines += [f"{k:<12}{c['right']:>7}{c['wrong']:>7}{c['unknown']:>9}" for k, c in rows]
    return "\n".join(lines) + f"\n({counts['gradings']} grading(s))\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    prompt = commands.add_parser("prompt", help="the blind reader's prompt")
    prompt.add_argument("session")
    prompt.add_argument("material", type=Path)
    grade = commands.add_parser("grade", help="the judge's prompt")
    grade.add_argument("session")
    grade.add_argument("answers", type=Path)
    count = commands.add_parser("tally", help="count the judge's grades")
    count.add_argument("session")
    count.add_argument("grades", type=Path, nargs="+")
    count.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)

    questions = load_questions(args.session)
    if args.command == "prompt":
        sys.stdout.write(reader_prompt(questions, args.material.read_text(encoding="utf-8")))
    elif args.command == "grade":
        answers = parse_object(args.answers.read_text(encoding="utf-8"))
        sys.stdout.write(judge_prompt(questions, answers))
    else:
        gradings = [parse_object(p.read_text(encoding="utf-8")) for p in args.grades]
        counts = tally(questions, gradings)
        sys.stdout.write(json.dumps(counts, indent=2) + "\n" if args.json else render_tally(counts))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
