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
is ignored.

For a whole dump folder (`week_eval.py --dump DIR`, `handover_eval.py --dump DIR`: one folder
per scenario, each material a `<material>.txt`, the session named by its `scenario.json` or by
the folder's name):

    python3 tests/benchmark/reader_eval.py prompts DIR   # writes reader_<material>.txt
    # run a reader on each, save its reply as answers_<material>[-<n>].json beside it
    python3 tests/benchmark/reader_eval.py judges DIR    # writes judge_<material>[-<n>].txt
    # run the judge on each, save its reply as grades_<material>[-<n>].json beside it
    python3 tests/benchmark/reader_eval.py table DIR [--json]
    # (--questions DIR: the <session>.json files, when not in tests/fixtures/reader_questions)

`table` counts right / wrong / unknown per scenario and material, with the material's
characters. Stdlib only.
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


# ---------------------------------------------------------------- a dump folder


def scenario_session(folder: Path) -> str:
    """The original session whose questions apply (a week's 4th session knows what the end of
    its last real session knew)."""
    about = folder / "scenario.json"
    if about.is_file():
        return str(json.loads(about.read_text(encoding="utf-8"))["session"])
    return folder.name


def materials(folder: Path) -> list[Path]:
    made = ("reader_", "judge_", "answers_", "grades_")
    return sorted(p for p in folder.glob("*.txt") if not p.name.startswith(made))


def scenarios(dump: Path, where: Path = QUESTIONS) -> list[tuple[Path, list[dict[str, str]]]]:
    """The dump's scenario folders that have materials, each with its questions (from `where`;
    one line on stderr for a scenario that has none there)."""
    found = []
    for folder in sorted(p for p in dump.iterdir() if p.is_dir() and materials(p)):
        path = where / f"{scenario_session(folder)}.json"
        if path.is_file():
            found.append((folder, load_questions(str(path))))
        else:
            sys.stderr.write(f"{folder.name}: no questions in {path}\n")
    return found


def write_prompts(dump: Path, where: Path = QUESTIONS) -> list[Path]:
    written = []
    for folder, questions in scenarios(dump, where):
        for material in materials(folder):
            out = folder / f"reader_{material.stem}.txt"
            out.write_text(
                reader_prompt(questions, material.read_text(encoding="utf-8")), encoding="utf-8"
            )
            written.append(out)
    return written


def write_judges(dump: Path, where: Path = QUESTIONS) -> list[Path]:
    written = []
    for folder, questions in scenarios(dump, where):
        for answers in sorted(folder.glob("answers_*.json")):
            given = parse_object(answers.read_text(encoding="utf-8"))
            out = folder / f"judge_{answers.stem.removeprefix('answers_')}.txt"
            out.write_text(judge_prompt(questions, given), encoding="utf-8")
            written.append(out)
    return written


def dump_table(dump: Path, where: Path = QUESTIONS) -> list[dict[str, Any]]:
    """Per scenario and material: the characters and the grades' counts (None: not graded)."""
    rows = []
    for folder, questions in scenarios(dump, where):
        row: dict[str, Any] = {"scenario": folder.name, "session": scenario_session(folder)}
        for material in materials(folder):
            name = material.stem
            graded = [
                p
                for p in sorted(folder.glob(f"grades_{name}*.json"))
                if p.stem == f"grades_{name}" or p.stem.startswith(f"grades_{name}-")
            ]
            gradings = [parse_object(p.read_text(encoding="utf-8")) for p in graded]
            counts = tally(questions, gradings)["total"] if gradings else None
            row[name] = {
                "chars": len(material.read_text(encoding="utf-8")),
                "gradings": len(gradings),
                "counts": counts,
            }
        rows.append(row)
    return rows


def render_dump_table(rows: list[dict[str, Any]]) -> str:
    names = sorted({k for row in rows for k in row if k not in ("scenario", "session")})
    names.sort(key=lambda n: (n != "ours", n != "next_session", n == "tail", n))
    head = " | ".join(f"{n}: right / wrong / unknown (chars)" for n in names)
    lines = [f"| scenario | {head} |", "| --- |" + " --- |" * len(names)]
    totals = {n: dict.fromkeys(GRADES, 0) for n in names}
    for row in rows:
        cells = []
        for name in names:
            found = row.get(name)
            if found is None:
                cells.append("")
                continue
            counts = found["counts"]
            if counts is None:
                cells.append(f"not graded ({found['chars']})")
                continue
            for grade in GRADES:
                totals[name][grade] += counts[grade]
            each = " / ".join(str(counts[g]) for g in GRADES)
            many = f", {found['gradings']} gradings" if found["gradings"] > 1 else ""
            cells.append(f"{each} ({found['chars']}{many})")
        lines.append(f"| {row['scenario']} | " + " | ".join(cells) + " |")
    lines.append(
        "| **total** | "
        + " | ".join(" / ".join(str(totals[n][g]) for g in GRADES) for n in names)
        + " |"
    )
    return "\n".join(lines) + "\n"


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
    for verb, what in (
        ("prompts", "write every reader prompt of a dump folder beside its material"),
        ("judges", "write every judge prompt of a dump folder beside its answers"),
        ("table", "one table of a dump folder's grades, per scenario and material"),
    ):
        each = commands.add_parser(verb, help=what)
        each.add_argument("dump", type=Path)
        each.add_argument(
            "--questions", type=Path, default=QUESTIONS, help="where <session>.json files are"
        )
        if verb == "table":
            each.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)

    if args.command in ("prompts", "judges"):
        write = write_prompts if args.command == "prompts" else write_judges
        written = write(args.dump, args.questions)
        sys.stdout.write(f"{len(written)} prompt(s) written under {args.dump}\n")
        return 0
    if args.command == "table":
        rows = dump_table(args.dump, args.questions)
        text = json.dumps(rows, indent=2) + "\n" if args.json else render_dump_table(rows)
        sys.stdout.write(text)
        return 0
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
