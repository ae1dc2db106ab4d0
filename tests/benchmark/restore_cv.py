"""Cross-validation of the restore rules' numeric settings across the fixture sets.

Usage: .venv/bin/python tests/benchmark/restore_cv.py [--json]

The cue lists (cues.py) are phrase lists, not fitted numbers; the lifecycle has a few
numbers that were tuned (lifecycle.py): RARE_LINK (how rare the shared words of two sentences
must be to tie them), REJECT_LINK, MIN_DOCUMENTS, SHORT_BLOCKER, and how many turns a
"next I'll …" (_NEXT_TURNS) or a plan (_PLAN_TURNS) stays current. For each pair of sets this
picks the best grid point on one set and reports its score on the other:

- transcripts2 (3 messy sessions, facts2) and transcripts3 (2 sessions built as a held-out
  check, facts2): score = gated live recall, minus one for each stale fragment shown as
  current;
- transcripts (3 tidy sessions, facts.json only): score = share of the old facts in the
  briefing.

Many grid points tie at the best score of a set; for each pair the table gives how many, and
the worst and the mean score on the other set over all of them (no tie-break towards the
shipped values), then which values of each setting are optimal on each set.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "src"))
sys.path.insert(0, str(REPO / "tests" / "benchmark"))

import restore_eval

from memhooks.restore import lifecycle
from memhooks.restore.transcript import iter_records

GRID = {
    "RARE_LINK": (1.0, 1.5, 2.0, 3.0, 4.0),
    "REJECT_LINK": (0.5, 1.0, 2.0),
    "MIN_DOCUMENTS": (1, 20, 40),
    "SHORT_BLOCKER": (0, 80, 160),
    "_NEXT_TURNS": (1, 2, 3),
}
SHIPPED = {name: getattr(lifecycle, name) for name in GRID}
_RECORDS: dict[str, list[object]] = {}


def _cached_records(path: object) -> list[object]:
    """Each transcript parsed once: the grid replays only the extraction."""
    key = str(path)
    if key not in _RECORDS:
        _RECORDS[key] = list(iter_records(path))  # type: ignore[arg-type]
    return _RECORDS[key]


restore_eval.__dict__["iter_records"] = _cached_records
SETS = ("transcripts2", "transcripts3", "transcripts")


def folders(name: str) -> list[Path]:
    return sorted(p for p in (restore_eval.FIXTURES / name).glob("*/") if p.is_dir())


def score_set(name: str, scorer: object) -> float:
    total = 0.0
    for folder in folders(name):
        row = restore_eval.evaluate(folder, scorer)  # type: ignore[arg-type]
        if "total" in row:
            total += int(row["found"]) / int(row["total"]) - len(row["stale"])  # type: ignore[arg-type, call-overload]
        else:
            facts = json.loads((folder / "facts.json").read_text(encoding="utf-8"))
            wanted = 1 + len(facts["todos"]) + len(facts["decisions"]) + len(facts["blockers"])
            wanted += len(facts["failed_commands"]) + len(facts["files_written"])
            wanted += len(facts["files_edited"])
            total += 1 - len(row["old_facts_missing_in_briefing"]) / wanted  # type: ignore[arg-type]
    return total / max(len(folders(name)), 1)


def apply(point: dict[str, float]) -> None:
    for name, value in point.items():
        setattr(lifecycle, name, value)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true", help="one JSON document")
    args = parser.parse_args()
    scorer = restore_eval.load_scorer()
    names = list(GRID)
    points = [dict(zip(names, values, strict=True)) for values in itertools.product(*GRID.values())]
    scores: dict[str, list[float]] = {name: [] for name in SETS}
    for point in points:
        apply(point)
        for name in SETS:
            scores[name].append(score_set(name, scorer))
    apply(SHIPPED)

    def distance(point: dict[str, float]) -> int:
        return sum(point[n] != SHIPPED[n] for n in names)

    shipped_index = points.index(SHIPPED)
    rows = []
    for tuned_on, measured_on in itertools.permutations(SETS, 2):
        top = max(scores[tuned_on])
        optimal = [i for i in range(len(points)) if scores[tuned_on][i] == top]
        best = max(optimal, key=lambda i: -distance(points[i]))
        other = [scores[measured_on][i] for i in optimal]
        rows.append(
            {
                "tuned_on": tuned_on,
                "measured_on": measured_on,
                "optimal_points": len(optimal),
                "score_tuned_set": round(top, 3),
                "chosen": {n: points[best][n] for n in names if points[best][n] != SHIPPED[n]},
                "chosen_on_other_set": round(scores[measured_on][best], 3),
                "other_set_min_over_optimal": round(min(other), 3),
                "other_set_mean_over_optimal": round(sum(other) / len(other), 3),
            }
        )
    ranges = {
        name: {
            n: sorted(
                {points[i][n] for i in range(len(points)) if scores[name][i] == max(scores[name])}
            )
            for n in names
        }
        for name in SETS
    }
    if args.json:
        print(json.dumps({"shipped": SHIPPED, "rows": rows, "optimal_ranges": ranges}, indent=2))
        return 0
    print(f"shipped: {SHIPPED}; {len(points)} grid points")
    print(
        "| tuned on | best there | points at best | measured on | "
        "min / mean there over those points |"
    )
    print("| --- | --- | --- | --- | --- |")
    for row in rows:
        print(
            f"| {row['tuned_on']} | {row['score_tuned_set']} | {row['optimal_points']} | "
            f"{row['measured_on']} | {row['other_set_min_over_optimal']} / "
            f"{row['other_set_mean_over_optimal']} |"
        )
    for name in SETS:
        print(f"shipped values on {name}: {round(scores[name][shipped_index], 3)}")
        print(f"  values optimal on {name}: {ranges[name]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
