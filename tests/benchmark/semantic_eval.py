"""Semantic signals on both tuning sets and the young stores, next to the lexical gate and BM25.

Usage: .venv/bin/python tests/benchmark/semantic_eval.py [--json] [--table PATH]

Every figure is the per-prompt hook's real answer: the pointers text UserPromptSubmit
renders (briefing.prompt_reminder within the 1,500-character budget), and a related prompt
is a hit only when a target's path is in that text. --table defaults to the committed
fixture table (tests/fixtures/semantic/tokens-subset.sqlite3: the real table's rows for these
corpora). Cross-validation: the three semantic constants (ranking.SEMANTIC_RATIO,
SEMANTIC_MIN_Z, SEMANTIC_WEIGHT) re-tuned on one corpus and scored on the other, both ways.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import recall_eval

from memhooks.continuity import briefing
from memhooks.recall import ranking, search_read
from memhooks.recall.pointer import Pointer
from memhooks.recall.search_index import SearchIndex

TABLE = REPO / "tests" / "fixtures" / "semantic" / "tokens-subset.sqlite3"
FIRST, SECOND = recall_eval.FIRST_SET, recall_eval.SECOND_SET
YOUNG = SECOND / "young" / "young_stores.json"
BUDGET = 1_500
EXCLUDE = ("session_summary",)
RATIOS = (1.8, 2.0, 2.2, 2.4, 2.6)
MIN_ZS = (1.5, 2.0, 2.5, 3.0, 4.0)
WEIGHTS = (0.25, 0.5, 1.0)

#: Per prompt: the lexical candidates (path, score, z or None) and the store's calibration.
Candidates = list[tuple[str, float, float | None]]


def rendered(hits: list[search_read.Hit]) -> str:
    pointers = [Pointer(h.path, h.title, h.description) for h in hits]
    return briefing.prompt_reminder(status=None, pointers=pointers, budget=BUDGET)


def answers(docs: list[recall_eval.SearchDoc], prompts: list[str], table: str | None) -> dict:
    """The hook's rendered text per prompt, and the candidates for offline re-tuning."""
    with (
        tempfile.TemporaryDirectory() as tmp,
        SearchIndex(Path(tmp) / "s.sqlite3", table=table) as index,
    ):
        index.rebuild(docs)
        texts = [rendered(index.query(p, limit=5, exclude=EXCLUDE)) for p in prompts]
        conn = index._read_connection()
        assert conn is not None
        stats = search_read.search_stats(conn)
        cands = [candidates(index, conn, stats, p) for p in prompts]
    return {"texts": texts, "candidates": cands, "calibration": stats[2]}


def candidates(index: SearchIndex, conn: object, stats: tuple, prompt: str) -> Candidates:
    from memhooks.recall.tokenize import query_terms

    terms = query_terms(prompt)[: search_read.MAX_LOOKUP_TERMS]
    scores = search_read.rank(conn, terms, stats) if terms else {}
    if scores:
        search_read.drop_categories(conn, scores, EXCLUDE)
    best = ranking.top_candidates(scores, ranking.SEMANTIC_CANDIDATES)
    make = index._prompt_vector(prompt)
    vector = make() if make is not None else None
    z = search_read.semantic_z(conn, vector, best) if vector is not None else {}
    paths = dict(conn.execute("SELECT id, path FROM docs").fetchall())
    return [(paths[d], scores[d], z.get(d)) for d in best]


def offline(cands: Candidates, calibration: float, params: tuple[float, float, float]) -> list:
    """What the gate picks with these constants (ranking.select_semantic itself)."""
    ratio, min_z, weight = params
    floor = max(ranking.MIN_FLOOR, ratio * calibration)
    scores = {i: s for i, (_, s, _) in enumerate(cands)}
    z = {i: v for i, (_, _, v) in enumerate(cands) if v is not None}
    picked = ranking.select_semantic(scores, z, limit=5, floor=floor, min_z=min_z, weight=weight)
    return [cands[i][0] for i, _ in picked]


def scored(related: dict, unrelated: dict, targets: list[frozenset[str]]) -> dict[str, float]:
    hits = sum(
        any(t in text for t in ts) for text, ts in zip(related["texts"], targets, strict=True)
    )
    silent = sum(not text for text in unrelated["texts"])
    chars = [len(t) for t in related["texts"] + unrelated["texts"]]
    pointers = [t.count("\n- .claude/memory/") for t in related["texts"]]
    return {
        "pointers": sum(pointers) / len(targets),
        "hit": hits / len(targets),
        "silence": silent / len(unrelated["texts"]),
        "max_chars": max(chars),
        "mean_chars": sum(chars) / len(chars),
    }


def offline_scores(data: dict, params: tuple[float, float, float]) -> dict[str, float]:
    rel, unr, targets = data["related"], data["unrelated"], data["targets"]
    cal = rel["calibration"]
    picked = [offline(c, cal, params) for c in rel["candidates"]]
    hits = sum(bool(set(p) & t) for p, t in zip(picked, targets, strict=True))
    silent = sum(not offline(c, cal, params) for c in unr["candidates"])
    return {"hit": hits / len(targets), "silence": silent / len(unr["candidates"])}


def corpus(path: Path, table: str | None) -> dict:
    rs = recall_eval.load(path)
    prompts = [p for p, _ in rs.queries]
    return {
        "related": answers(rs.docs, prompts, table),
        "unrelated": answers(rs.docs, rs.unrelated, table),
        "targets": [t for _, t in rs.queries],
        "docs": rs.docs,
        "queries": rs.queries,
        "unrelated_prompts": rs.unrelated,
    }


def young(table: str | None) -> dict[str, object]:
    hits = related = silent = unrelated = 0
    misses = []
    for store in json.loads(YOUNG.read_text(encoding="utf-8")):
        docs = recall_eval.young_docs(store)
        rel = answers(docs, [q["prompt"] for q in store["queries"]], table)
        unr = answers(docs, store["unrelated"], table)
        for text, q in zip(rel["texts"], store["queries"], strict=True):
            related += 1
            if any(t in text for t in q["targets"]):
                hits += 1
            else:
                misses.append(f"{store['store']}: missed {q['prompt'][:60]!r}")
        for text, prompt in zip(unr["texts"], store["unrelated"], strict=True):
            unrelated += 1
            if text:
                misses.append(f"{store['store']}: spoke on {prompt[:60]!r}")
            else:
                silent += 1
    return {"hit": hits / related, "silence": silent / unrelated, "misses": misses}


def bm25_row(data: dict) -> dict[str, float]:
    bm25 = recall_eval.Bm25Okapi(data["docs"])
    related = [(bm25.rank(p), t) for p, t in data["queries"]]
    unrelated = [bm25.rank(p) for p in data["unrelated_prompts"]]
    s = recall_eval.score(related, unrelated, 10.0, 0.0)
    return {"hit": s.hit, "silence": s.silence}


def evaluate(table: str) -> dict[str, object]:
    sets = {p.name: corpus(p, table) for p in (FIRST, SECOND)}
    lexical = {p.name: corpus(p, None) for p in (FIRST, SECOND)}
    grid = list(itertools.product(RATIOS, MIN_ZS, WEIGHTS))
    out: dict[str, object] = {}
    for name, data in sets.items():
        out[name] = {
            "semantic": scored(data["related"], data["unrelated"], data["targets"]),
            "lexical": scored(
                lexical[name]["related"], lexical[name]["unrelated"], data["targets"]
            ),
            "bm25_floor_10": bm25_row(data),
        }
    for train, test in ((FIRST.name, SECOND.name), (SECOND.name, FIRST.name)):

        def key(p: tuple[float, float, float], data: dict = sets[train]) -> tuple[float, float]:
            s = offline_scores(data, p)
            return (min(s["hit"], s["silence"]), s["hit"] + s["silence"])

        best = max(grid, key=key)
        out[f"{train} -> {test}"] = {
            "params": best,
            "train": offline_scores(sets[train], best),
            "test": offline_scores(sets[test], best),
        }
    out["young"] = {"semantic": young(table), "lexical": young(None)}
    return out


def render(result: dict[str, object]) -> str:
    lines = [
        "| set | retriever | hit | silence | pointers | max chars |",
        "|---|---|---|---|---|---|",
    ]
    for name in (FIRST.name, SECOND.name):
        r = result[name]
        assert isinstance(r, dict)
        for kind in ("semantic", "lexical", "bm25_floor_10"):
            row = r[kind]
            chars = f"{row['max_chars']}" if "max_chars" in row else "-"
            pointers = f"{row['pointers']:.2f}" if "pointers" in row else "-"
            lines.append(
                f"| {name} | {kind} | {row['hit']:.3f} | {row['silence']:.3f} | {pointers} "
                f"| {chars} |"
            )
    lines += [
        "",
        "| tuned on -> scored on | ratio, min z, weight | train | test |",
        "|---|---|---|---|",
    ]
    for name, r in result.items():
        if "->" in name and isinstance(r, dict):
            tr, te = r["train"], r["test"]
            lines.append(
                f"| {name} | {r['params']} | {tr['hit']:.3f} / {tr['silence']:.3f} "
                f"| {te['hit']:.3f} / {te['silence']:.3f} |"
            )
    y = result["young"]
    assert isinstance(y, dict)
    for kind in ("semantic", "lexical"):
        lines.append(
            f"\nYoung stores, {kind}: hit {y[kind]['hit']:.3f}, silence {y[kind]['silence']:.3f}"
        )
        lines += [f"  {m}" for m in y[kind]["misses"]]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--table", default=str(TABLE), help="the token table to read")
    args = parser.parse_args(argv)
    result = evaluate(args.table)
    print(json.dumps(result, indent=2) if args.json else render(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
