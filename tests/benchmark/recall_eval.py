"""Recall quality of the search index on a tuning set, next to plain BM25.

Usage: .venv/bin/python tests/benchmark/recall_eval.py [--json] [--set PATH] [--cross]

--cross: the gate's two constants (ranking.CALIBRATION_RATIO, ranking.MIN_FLOOR) re-tuned on
tests/fixtures/recall and scored on recall2, and the reverse, plus the young stores of
recall2/young with the shipped constants.

Reads tests/fixtures/recall (memories, queries.json, unrelated.json), builds the real
SearchIndex in a temp dir and scores it the way the set's README says: hit rate and mean
pointers over related prompts, silence over unrelated ones, Recall@1/3/5 and MRR over the full
ranking. Plain BM25 (rank_bm25's BM25Okapi, reimplemented so no extra dependency is needed)
is the baseline, with no floor and with its best floor from BASELINES.md (10).

Split halves: the floor and the gap are re-tuned on half of the related and unrelated prompts
and scored on the other half, both ways round, for several random splits. The other constants
were chosen on the full set, so this checks the floor's stability rather than proving them
unbiased; see ranking.py for how those were picked.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import re
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "src"))

from memhooks.recall import ranking
from memhooks.recall.search_index import SearchIndex
from memhooks.recall.search_read import search_stats
from memhooks.store import SearchDoc

FIRST_SET = REPO / "tests" / "fixtures" / "recall"
SECOND_SET = REPO / "tests" / "fixtures" / "recall2"
MAX_INJECT = 5
BM25_FLOORS = (0.0, 10.0)
SPLIT_SEEDS = tuple(range(10))
FLOOR_GRID = tuple(x / 4 for x in range(4, 21))  # 1.0 .. 5.0 idf units
BM25_FLOOR_GRID = tuple(float(x) for x in range(21))  # raw BM25 scores
GAP_GRID = (0.0, 0.3, 0.4, 0.5, 0.6)


@dataclass(frozen=True)
class RecallSet:
    docs: list[SearchDoc]
    queries: list[tuple[str, frozenset[str]]]
    unrelated: list[str]


def first_sentence(body: str) -> str:
    """What the store uses as a description when the frontmatter has none."""
    for line in body.splitlines():
        stripped = line.strip()
        if not stripped or stripped.startswith(("#", "---", "|", "```", "<!--", "**")):
            continue
        stripped = re.sub(r"^[-*+]\s+|^\d+\.\s+", "", stripped)
        return re.split(r"(?<=[.!?])\s", stripped, maxsplit=1)[0][:160]
    return ""


def _list(value: object) -> list[object]:
    return list(value) if isinstance(value, list | tuple) else []


def load(recall_dir: Path) -> RecallSet:
    import frontmatter

    root = recall_dir / "tree" / ".claude" / "memory"
    docs = []
    for path in sorted(root.rglob("*.md")):
        post = frontmatter.load(path)
        meta = post.metadata
        docs.append(
            SearchDoc(
                path=path.relative_to(root).as_posix(),
                category=str(meta.get("category", "")),
                title=str(meta.get("title", "")),
                description=str(meta.get("description") or first_sentence(post.content)),
                tags=tuple(str(t) for t in _list(meta.get("tags"))),
                body=post.content,
                updated=str(meta.get("updated") or meta.get("created") or ""),
            )
        )
    queries = [
        (q["prompt"], frozenset(q["targets"]))
        for q in json.loads((recall_dir / "queries.json").read_text(encoding="utf-8"))
    ]
    unrelated = json.loads((recall_dir / "unrelated.json").read_text(encoding="utf-8"))
    return RecallSet(docs, queries, unrelated)


Ranked = list[tuple[str, float]]


class Bm25Okapi:
    """rank_bm25.BM25Okapi with its defaults, over title + tags + body, as baselines.py does."""

    k1, b, epsilon = 1.5, 0.75, 0.25

    def __init__(self, docs: list[SearchDoc]) -> None:
        self.paths = [d.path for d in docs]
        corpus = [self.tok(f"{d.title} {' '.join(d.tags)} {d.body}") for d in docs]
        self.tfs = [Counter(c) for c in corpus]
        self.lens = [len(c) for c in corpus]
        self.avg = sum(self.lens) / len(corpus)
        df = Counter(t for c in corpus for t in set(c))
        n = len(corpus)
        idf = {t: math.log(n - f + 0.5) - math.log(f + 0.5) for t, f in df.items()}
        floor = self.epsilon * sum(idf.values()) / len(idf)
        self.idf = {t: v if v >= 0 else floor for t, v in idf.items()}

    @staticmethod
    def tok(text: str) -> list[str]:
        return re.findall(r"[a-z0-9]+", text.lower())

    def rank(self, prompt: str) -> Ranked:
        scores = []
        for path, tf, length in zip(self.paths, self.tfs, self.lens, strict=True):
            norm = self.k1 * (1 - self.b + self.b * length / self.avg)
            score = sum(
                self.idf.get(t, 0.0) * tf[t] * (self.k1 + 1) / (tf[t] + norm)
                for t in self.tok(prompt)
            )
            scores.append((path, score))
        return sorted(scores, key=lambda item: (-item[1], item[0]))


def inject(ranked: Ranked, floor: float, gap: float, limit: int = MAX_INJECT) -> list[str]:
    """What a floor-and-gap retriever injects from a full ranking (ranking.select itself)."""
    scores = {i: score for i, (_, score) in enumerate(ranked)}
    return [ranked[i][0] for i, _ in ranking.select(scores, limit=limit, floor=floor, gap=gap)]


@dataclass(frozen=True)
class Scores:
    hit: float
    silence: float
    pointers: float
    recall: tuple[float, float, float]
    mrr: float

    def row(self) -> dict[str, float]:
        r1, r3, r5 = self.recall
        return {
            "hit": self.hit,
            "silence": self.silence,
            "pointers": self.pointers,
            "R@1": r1,
            "R@3": r3,
            "R@5": r5,
            "MRR": self.mrr,
        }


def score(
    related: list[tuple[Ranked, frozenset[str]]],
    unrelated: list[Ranked],
    floor: float,
    gap: float,
) -> Scores:
    hits = pointers = 0
    recall = [0.0, 0.0, 0.0]
    mrr = 0.0
    for ranked, targets in related:
        chosen = inject(ranked, floor, gap)
        pointers += len(chosen)
        hits += bool(targets & set(chosen))
        order = [path for path, s in ranked if s > 0]
        for i, k in enumerate((1, 3, 5)):
            recall[i] += len(targets & set(order[:k])) / len(targets)
        first = next((i for i, p in enumerate(order) if p in targets), None)
        mrr += 0.0 if first is None else 1.0 / (first + 1)
    n = len(related)
    silent = sum(1 for ranked in unrelated if not inject(ranked, floor, gap))
    return Scores(
        hits / n,
        silent / len(unrelated),
        pointers / n,
        (recall[0] / n, recall[1] / n, recall[2] / n),
        mrr / n,
    )


@dataclass(frozen=True)
class Ours:
    """Full rankings from the real index (no floor, no gap) so floors can be swept offline,
    the store's calibration, and what the per-prompt hook really injects for each prompt."""

    related: list[tuple[Ranked, frozenset[str]]]
    unrelated: list[Ranked]
    calibration: float
    gated_related: list[list[str]]
    gated_unrelated: list[list[str]]


HOOK_EXCLUDE = ("session_summary",)


def ours_full(recall_set: RecallSet, table: str | None = None) -> Ours:
    """`table`: the token table of semantic signals (None: the lexical gate alone)."""
    with (
        tempfile.TemporaryDirectory() as tmp,
        SearchIndex(Path(tmp) / "s.sqlite3", table=table) as index,
    ):
        index.rebuild(recall_set.docs)
        n = index.count()
        conn = index._read_connection()
        assert conn is not None
        calibration = search_stats(conn)[2]

        def rank(prompt: str) -> Ranked:
            return [(h.path, h.score) for h in index.query(prompt, limit=n, min_score=0)]

        def gated(prompt: str) -> list[str]:
            return [h.path for h in index.query(prompt, limit=MAX_INJECT, exclude=HOOK_EXCLUDE)]

        return Ours(
            [(rank(prompt), targets) for prompt, targets in recall_set.queries],
            [rank(prompt) for prompt in recall_set.unrelated],
            calibration,
            [gated(prompt) for prompt, _ in recall_set.queries],
            [gated(prompt) for prompt in recall_set.unrelated],
        )


def ours(recall_set: RecallSet) -> tuple[list[tuple[Ranked, frozenset[str]]], list[Ranked]]:
    full = ours_full(recall_set)
    return full.related, full.unrelated


def gated_row(full: Ours) -> dict[str, float]:
    """The hook's real answers: hit, silence, pointers; ranking figures from the full order."""
    row = score(full.related, full.unrelated, 0.0, 0.0).row()
    targets = [t for _, t in full.related]
    row["hit"] = sum(bool(t & set(g)) for t, g in zip(targets, full.gated_related, strict=True))
    row["hit"] /= len(targets)
    row["silence"] = sum(not g for g in full.gated_unrelated) / len(full.gated_unrelated)
    row["pointers"] = sum(len(g) for g in full.gated_related) / len(targets)
    return row


RATIO_GRID = (1.0, 1.25, 1.5, 1.75, 2.0, 2.25, 2.5, 3.0)
MIN_FLOOR_GRID = (2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5.0, 6.0)


def gate_scores(full: Ours, ratio: float, min_floor: float) -> Scores:
    floor = max(min_floor, ratio * full.calibration)
    return score(full.related, full.unrelated, floor, ranking.GAP_RATIO)


def tune_gate(full: Ours) -> tuple[float, float]:
    """Ratio and minimum floor maximizing min(hit, silence), then their sum, then fewer pointers."""

    def key(p: tuple[float, float]) -> tuple[float, float, float]:
        s = gate_scores(full, *p)
        return (min(s.hit, s.silence), s.hit + s.silence, -s.pointers)

    return max(((r, f) for r in RATIO_GRID for f in MIN_FLOOR_GRID), key=key)


def young_docs(store: dict[str, object]) -> list[SearchDoc]:
    import frontmatter

    docs = []
    memories = store["memories"]
    assert isinstance(memories, list)
    for memory in memories:
        post = frontmatter.loads(memory["text"])
        meta = post.metadata
        docs.append(
            SearchDoc(
                path=memory["path"],
                category=str(meta.get("category", "")),
                title=str(meta.get("title", "")),
                description=str(meta.get("description") or first_sentence(post.content)),
                tags=tuple(str(t) for t in _list(meta.get("tags"))),
                body=post.content,
                updated=str(meta.get("created") or ""),
            )
        )
    return docs


def young_stores(path: Path, table: str | None = None) -> dict[str, object]:
    """Every young store through the real index and gate: hits and silences, with misses named."""
    hits = related = silent = unrelated = 0
    misses: list[str] = []
    for store in json.loads(path.read_text(encoding="utf-8")):
        docs = young_docs(store)
        with (
            tempfile.TemporaryDirectory() as tmp,
            SearchIndex(Path(tmp) / "s.sqlite3", table=table) as index,
        ):
            index.rebuild(docs)
            for query in store["queries"]:
                got = {h.path for h in index.query(query["prompt"], limit=MAX_INJECT)}
                related += 1
                if got & set(query["targets"]):
                    hits += 1
                else:
                    misses.append(f"{store['store']}: missed {query['prompt'][:60]!r}")
            for prompt in store["unrelated"]:
                unrelated += 1
                if index.query(prompt, limit=MAX_INJECT):
                    misses.append(f"{store['store']}: spoke on {prompt[:60]!r}")
                else:
                    silent += 1
    return {
        "hit": hits / related,
        "silence": silent / unrelated,
        "related": related,
        "unrelated": unrelated,
        "misses": misses,
    }


def cross(first: Path, second: Path) -> dict[str, object]:
    """Tune the gate on one corpus, score it on the other, both ways; and the young stores."""
    sets = {first.name: ours_full(load(first)), second.name: ours_full(load(second))}
    out: dict[str, object] = {}
    for train, test in ((first.name, second.name), (second.name, first.name)):
        ratio, min_floor = tune_gate(sets[train])
        out[f"{train} -> {test}"] = {
            "ratio": ratio,
            "min_floor": min_floor,
            "train": gate_scores(sets[train], ratio, min_floor).row(),
            "test": gate_scores(sets[test], ratio, min_floor).row(),
        }
    out["shipped"] = {name: gated_row(full) for name, full in sets.items()}
    young = second / "young" / "young_stores.json"
    if young.is_file():
        out["young"] = young_stores(young)
    return out


def tune(
    related: list[tuple[Ranked, frozenset[str]]],
    unrelated: list[Ranked],
    floors: tuple[float, ...],
) -> tuple[float, float]:
    """The floor and gap maximizing min(hit, silence), then fewer pointers, then a lower floor."""

    def key(fg: tuple[float, float]) -> tuple[float, float, float]:
        s = score(related, unrelated, *fg)
        return (min(s.hit, s.silence), s.hit + s.silence, -s.pointers)

    return max(((f, g) for f in floors for g in GAP_GRID), key=key)


def split_half(
    related: list[tuple[Ranked, frozenset[str]]],
    unrelated: list[Ranked],
    floors: tuple[float, ...],
) -> dict[str, float]:
    held: list[Scores] = []
    for seed in SPLIT_SEEDS:
        rng = random.Random(seed)  # noqa: S311 - reproducible splits, not secrets
        rel, unr = related[:], unrelated[:]
        rng.shuffle(rel)
        rng.shuffle(unr)
        halves = [
            (rel[: len(rel) // 2], unr[: len(unr) // 2]),
            (rel[len(rel) // 2 :], unr[len(unr) // 2 :]),
        ]
        for train, test in (halves, halves[::-1]):
            floor, gap = tune(*train, floors)
            held.append(score(*test, floor, gap))
    return {
        "hit": sum(s.hit for s in held) / len(held),
        "silence": sum(s.silence for s in held) / len(held),
        "pointers": sum(s.pointers for s in held) / len(held),
        "worst_hit": min(s.hit for s in held),
        "worst_silence": min(s.silence for s in held),
        "runs": len(held),
    }


def evaluate(recall_dir: Path) -> dict[str, object]:
    recall_set = load(recall_dir)
    full = ours_full(recall_set)
    related, unrelated = full.related, full.unrelated
    bm25 = Bm25Okapi(recall_set.docs)
    b_related = [(bm25.rank(p), t) for p, t in recall_set.queries]
    b_unrelated = [bm25.rank(p) for p in recall_set.unrelated]
    rows: dict[str, dict[str, float]] = {
        f"memhooks (gate: max({ranking.MIN_FLOOR:g}, {ranking.CALIBRATION_RATIO:g} x "
        f"calibration {full.calibration:.2f}), gap {ranking.GAP_RATIO})": gated_row(full),
        f"memhooks (old fixed floor {ranking.DEFAULT_FLOOR}, gap {ranking.GAP_RATIO})": score(
            related, unrelated, ranking.DEFAULT_FLOOR, ranking.GAP_RATIO
        ).row(),
        "memhooks (no floor)": score(related, unrelated, 0.0, 0.0).row(),
    }
    for floor in BM25_FLOORS:
        rows[f"plain BM25 (floor {floor:g})"] = score(b_related, b_unrelated, floor, 0.0).row()
    return {
        "rows": rows,
        "split_half": {
            "memhooks": split_half(related, unrelated, FLOOR_GRID),
            "plain BM25": split_half(b_related, b_unrelated, BM25_FLOOR_GRID),
        },
        "docs": len(recall_set.docs),
        "queries": len(related),
        "unrelated": len(unrelated),
    }


def render(result: dict[str, object]) -> str:
    rows = result["rows"]
    assert isinstance(rows, dict)
    lines = [
        f"{result['docs']} memories, {result['queries']} related prompts, "
        f"{result['unrelated']} unrelated; at most {MAX_INJECT} pointers",
        "",
        "| retriever | hit | silence | mean pointers | R@1 | R@3 | R@5 | MRR |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for name, r in rows.items():
        lines.append(
            f"| {name} | {r['hit']:.3f} | {r['silence']:.3f} | {r['pointers']:.2f} | "
            f"{r['R@1']:.3f} | {r['R@3']:.3f} | {r['R@5']:.3f} | {r['MRR']:.3f} |"
        )
    split = result["split_half"]
    assert isinstance(split, dict)
    lines += [
        "",
        "Split halves (floor and gap tuned on one half, scored on the other; mean of "
        f"{next(iter(split.values()))['runs']} runs):",
        "",
        "| retriever | hit | silence | mean pointers | worst hit | worst silence |",
        "|---|---|---|---|---|---|",
    ]
    for name, s in split.items():
        lines.append(
            f"| {name} | {s['hit']:.3f} | {s['silence']:.3f} | {s['pointers']:.2f} | "
            f"{s['worst_hit']:.3f} | {s['worst_silence']:.3f} |"
        )
    return "\n".join(lines)


def render_cross(result: dict[str, object]) -> str:
    lines = [
        "| tuned on -> scored on | ratio | min floor | train hit | train silence "
        "| test hit | test silence | test pointers |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for name, r in result.items():
        if "->" not in name or not isinstance(r, dict):
            continue
        lines.append(
            f"| {name} | {r['ratio']:g} | {r['min_floor']:g} | {r['train']['hit']:.3f} | "
            f"{r['train']['silence']:.3f} | {r['test']['hit']:.3f} | {r['test']['silence']:.3f} "
            f"| {r['test']['pointers']:.2f} |"
        )
    shipped = result["shipped"]
    assert isinstance(shipped, dict)
    lines += ["", "Shipped constants, the hook's real answers:", ""]
    lines += [
        f"- {name}: hit {r['hit']:.3f}, silence {r['silence']:.3f}, pointers {r['pointers']:.2f}"
        for name, r in shipped.items()
    ]
    young = result.get("young")
    if isinstance(young, dict):
        lines += [
            "",
            f"Young stores: hit {young['hit']:.3f} of {young['related']}, "
            f"silence {young['silence']:.3f} of {young['unrelated']}",
            *(f"  {m}" for m in young["misses"]),
        ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument("--set", type=Path, default=FIRST_SET, help="the recall set")
    parser.add_argument(
        "--cross", action="store_true", help="cross-validate recall <-> recall2, young stores"
    )
    args = parser.parse_args(argv)
    if args.cross:
        result = cross(FIRST_SET, SECOND_SET)
        print(json.dumps(result, indent=2) if args.json else render_cross(result))
        return 0
    if not (args.set / "queries.json").is_file():
        print(f"recall set not found at {args.set}", file=sys.stderr)
        return 2
    result = evaluate(args.set)
    print(json.dumps(result, indent=2) if args.json else render(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
