"""Step 10 (third stop): how far can cheap signals go? The in-sample ceiling of the gate.

Usage (numpy and scikit-learn in the interpreter; the full token table from
`python -m memhooks.cli.semantic_build OUT`):

    python tests/benchmark/study/ceiling.py /path/to/tokens-minilm-l6-v2-v1.sqlite3

The done-when of issue 14 asks for hit >= 0.85 at silence >= 0.90 on both tuning sets. A
related prompt is a hit when the gate speaks and a target is among the first three
candidates; an unrelated prompt is silent when the gate does not speak. For every signal the
product can compute on the per-prompt path (the model itself never runs there), this script
reports, per set:

- AUC: the best target's value on related prompts against the best value on unrelated ones;
- ceiling: the best hit reachable at silence >= 0.90 by any threshold, chosen on the very set
  it is scored on (in-sample, so an upper bound of what any tuned rule could carry over).

Signals: BM25F (the index's own scores, per-term), the static table's per-memory null z (as
shipped), evidence counts, coverage, one-term dominance, distinctiveness among memories,
sentence-level vectors, a centred table, a per-memory null made of on-topic template
requests, down-weighting of generic programming words (document frequency over the Python
standard library's modules), title-versus-body evidence, and a logistic fusion of eleven of
them (in-sample). Results are in the third stop's note on issue 14.
"""

from __future__ import annotations

import re
import sys
import sysconfig
import tempfile
from collections import Counter
from pathlib import Path

import numpy as np
from sklearn.linear_model import LogisticRegression

REPO = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(REPO / "src"))
sys.path.insert(0, str(REPO / "tests" / "benchmark"))

import recall_eval  # noqa: E402

from memhooks.recall import ranking, search_read, semantic, wordpiece  # noqa: E402
from memhooks.recall.background import PROMPTS  # noqa: E402
from memhooks.recall.search_index import SearchIndex  # noqa: E402
from memhooks.recall.tokenize import query_terms  # noqa: E402

SETS = ("recall", "recall2")
TEMPLATES = (
    "how do I debug {x}",
    "why does {x} fail with an error",
    "rename the variable in {x}",
    "write a unit test for {x}",
    "update {x} to the latest version",
    "what's the quickest way to inspect {x} locally",
    "fix the typo in {x}",
    "add logging to {x}",
    "explain how {x} works",
    "{x} is slow, how do I profile it",
    "{x} shows the wrong date format",
    "how do I install {x}",
)
CONTENT_SECTIONS = {"decision", "rule", "preference", "steps", "description"}


class Table:
    """The static table in numpy, pooled the way semantic.encode pools (optionally centred)."""

    def __init__(self, path: str) -> None:
        conn = semantic.open_table(path, bounded=False)
        assert conn is not None, path
        rows = conn.execute("SELECT piece, scale, vec FROM pieces").fetchall()
        self.index = {piece: i for i, (piece, _, _) in enumerate(rows)}
        self.rows = np.array(
            [np.frombuffer(blob, dtype=np.int8) * scale for _, scale, blob in rows], np.float32
        )
        self.mean = self.rows.mean(0)

    def encode(self, text: str, centred: bool = False, max_words: int = 64) -> np.ndarray:
        counts: Counter[str] = Counter()
        for word in wordpiece.basic_words(text[:8000]):
            if word in counts or len(counts) < max_words:
                counts[word] += 1
        weights: Counter[str] = Counter()
        for word, times in counts.items():
            pieces = (
                [word] if word in self.index else wordpiece.pieces(word, self.index.__contains__)
            )
            for piece in pieces:
                if piece in self.index:
                    weights[piece] += times
        if not weights:
            return np.zeros(self.rows.shape[1], np.float32)
        w = np.array(list(weights.values()), np.float32)
        v = (self.rows[[self.index[p] for p in weights]] * w[:, None]).sum(0)
        if centred:
            v = v - w.sum() * self.mean
        return v / (np.linalg.norm(v) + 1e-9)


def sentences(doc: recall_eval.SearchDoc) -> list[str]:
    out = [doc.title]
    for line in doc.body.splitlines():
        line = re.sub(r"^[-*+]\s+|^\d+\.\s+", "", line.strip())
        if line and not line.startswith("#"):
            out += [s for s in re.split(r"(?<=[.!?;:])\s+", line) if len(s.split()) >= 3]
    return out


def section_terms(doc: recall_eval.SearchDoc) -> tuple[set[str], set[str]]:
    """(terms of the title and tags, terms of the decision/rule/preference/steps sections)."""
    sections: dict[str, list[str]] = {}
    current = ""
    for line in doc.body.splitlines():
        heading = re.match(r"##\s+(.*)", line)
        if heading:
            current = heading.group(1).strip().lower()
        elif not line.startswith("# "):
            sections.setdefault(current, []).append(line)
    content = {
        t for k, v in sections.items() if k in CONTENT_SECTIONS for t in query_terms(" ".join(v))
    }
    return set(query_terms(f"{doc.title} {' '.join(doc.tags)}")), content


def stdlib_share() -> dict[str, float]:
    """Share of the standard library's modules that use each term: generic programming words."""
    df: Counter[str] = Counter()
    files = [
        p
        for p in Path(sysconfig.get_paths()["stdlib"]).rglob("*.py")
        if "site-packages" not in p.parts
    ]
    for path in files:
        df.update(set(query_terms(path.read_text(encoding="utf-8", errors="replace")[:200_000])))
    return {t: n / len(files) for t, n in df.items()}


def null(vec: np.ndarray, others: np.ndarray) -> tuple[float, float]:
    sims = others @ vec
    return float(sims.mean()), max(float(sims.std()), 1e-3)


def corpus(name: str, table: Table, tpath: str, generic: dict[str, float]) -> list[dict]:
    """One row per prompt: every signal for every memory, the targets and the label."""
    rs = recall_eval.load(REPO / "tests" / "fixtures" / name)
    prompts = [(p, t) for p, t in rs.queries] + [(p, frozenset()) for p in rs.unrelated]
    bg = {c: np.array([table.encode(p, c) for p in PROMPTS]) for c in (False, True)}
    docs = rs.docs
    n = len(docs)
    text = [semantic.doc_text(d.title, d.tags, d.description, d.body) for d in docs]
    dv = {c: np.array([table.encode(t, c, 128) for t in text]) for c in (False, True)}
    dnull = {c: np.array([null(v, bg[c]) for v in dv[c]]) for c in (False, True)}
    sent = [np.array([table.encode(s) for s in sentences(d)]) for d in docs]
    snull = (
        [(s @ bg[False].T).mean(1) for s in sent],
        [(s @ bg[False].T).std(1) + 1e-3 for s in sent],
    )
    topic = []
    for d, v in zip(docs, dv[False], strict=True):
        words = [w for w in re.findall(r"[A-Za-z][A-Za-z0-9-]+", d.title) if len(w) > 3]
        subjects = list(dict.fromkeys([*d.tags, *words]))[:8]
        syn = np.array([table.encode(t.format(x=s)) for s in subjects for t in TEMPLATES])
        topic.append(null(v, np.vstack([syn, bg[False]])))
    topic_null = np.array(topic)
    fields = [section_terms(d) for d in docs]
    sentence_terms = [[set(query_terms(x)) for x in sentences(d)] for d in docs]
    out = []
    with (
        tempfile.TemporaryDirectory() as tmp,
        SearchIndex(Path(tmp) / "s.sqlite3", table=tpath) as index,
    ):
        index.rebuild(docs)
        conn = index._read_connection()
        stats = search_read.search_stats(conn)
        ids = dict(conn.execute("SELECT path, id FROM docs").fetchall())
        dfs = dict(conn.execute("SELECT term, df FROM terms").fetchall())
        floor = ranking.semantic_floor(stats[2])
        avg = stats[1] / stats[0]
        for prompt, targets in prompts:
            terms = query_terms(prompt[:8000])[: search_read.MAX_LOOKUP_TERMS]
            full, common = ranking.plan_query(terms, dfs, stats[0])
            per_term: dict[int, dict[str, float]] = {}
            for t in full + common:
                rows = conn.execute(
                    search_read.SELECT_POSTINGS + " WHERE term = ?", (t,)
                ).fetchall()
                s: dict[int, float] = {}
                ranking.accumulate(
                    s, rows, ranking.query_weight(t), ranking.idf(dfs[t], stats[0]), avg
                )
                for doc, v in s.items():
                    per_term.setdefault(doc, {})[t] = v
            contrib = [per_term.get(ids[d.path], {}) for d in docs]
            row = {"related": bool(targets), "target": np.array([d.path in targets for d in docs])}
            row["lex"] = np.array([sum(c.values()) for c in contrib]) / floor
            for c in (False, True):
                pv = table.encode(prompt, c)
                cos = dv[c] @ pv
                row["z_centred" if c else "z"] = (cos - dnull[c][:, 0]) / dnull[c][:, 1]
                if not c:
                    row["cos"] = cos
                    row["z_topic"] = (cos - topic_null[:, 0]) / topic_null[:, 1]
                    row["z_sentence"] = np.array(
                        [((s @ pv - m) / sd).max() for s, m, sd in zip(sent, *snull, strict=True)]
                    )
                    bc = bg[False] @ pv
                    row["z_prompt"] = (cos - bc.mean()) / (bc.std() + 1e-9)
                    row["distinct"] = (cos - cos.mean()) / (cos.std() + 1e-9)
            row["matched"] = np.array([len(c) for c in contrib], float)
            row["strong"] = np.array([sum(v > 1.0 for v in c.values()) for c in contrib], float)
            row["one_term"] = -np.array(
                [max(c.values()) / sum(c.values()) if c else 1.0 for c in contrib]
            )
            known = (
                sum(ranking.idf(dfs[t], stats[0]) * ranking.query_weight(t) for t in full + common)
                + 1e-9
            )
            row["coverage"] = np.array(
                [
                    sum(ranking.idf(dfs[t], stats[0]) * ranking.query_weight(t) for t in c) / known
                    for c in contrib
                ]
            )
            row["title_only"] = (
                np.array(
                    [
                        sum(v for t, v in c.items() if t in f[0])
                        for c, f in zip(contrib, fields, strict=True)
                    ]
                )
                / floor
            )
            row["decision_section"] = (
                np.array(
                    [
                        sum(v for t, v in c.items() if t in f[1])
                        for c, f in zip(contrib, fields, strict=True)
                    ]
                )
                / floor
            )
            row["generic_down"] = (
                np.array(
                    [
                        sum(
                            v * (1 - 0.5 * min(1.0, generic.get(t, 0.0) / 0.2))
                            for t, v in c.items()
                        )
                        for c in contrib
                    ]
                )
                / floor
            )
            row["pairs"] = (
                np.array(
                    [
                        sum(
                            min(c[a], c[b])
                            for i, a in enumerate(c)
                            for b in list(c)[i + 1 :]
                            if any(a in st and b in st for st in sts)
                        )
                        for c, sts in zip(contrib, sentence_terms, strict=True)
                    ]
                )
                / floor
            )
            row["key"] = (
                row["lex"]
                + ranking.SEMANTIC_WEIGHT * np.maximum(row["z"], 0.0) / ranking.SEMANTIC_MIN_Z
            )
            out.append(row)
    return out


def auc(pos: list[float], neg: list[float]) -> float:
    p, q = np.array(pos)[:, None], np.array(neg)[None, :]
    return float((p > q).mean() + 0.5 * (p == q).mean())


def ceiling(gate: list[float], rows: list[dict]) -> float:
    """Best hit at silence >= 0.90: gate on the prompt's value, hit if a target is in the top 3."""
    top3 = [bool(r["target"][np.argsort(-r["key"])[:3]].any()) for r in rows]
    related = sum(r["related"] for r in rows)
    unrelated = len(rows) - related
    best = 0.0
    for th in sorted(set(gate)):
        silent = sum(1 for g, r in zip(gate, rows, strict=True) if not r["related"] and g < th)
        if silent / unrelated >= 0.9:
            hits = sum(
                1
                for g, r, t in zip(gate, rows, top3, strict=True)
                if r["related"] and g >= th and t
            )
            best = max(best, hits / related)
    return best


SIGNALS = (
    "lex",
    "key",
    "z",
    "cos",
    "z_centred",
    "z_sentence",
    "z_topic",
    "z_prompt",
    "distinct",
    "matched",
    "strong",
    "pairs",
    "one_term",
    "coverage",
    "title_only",
    "decision_section",
    "generic_down",
)
FUSED = (
    "lex",
    "z",
    "matched",
    "strong",
    "one_term",
    "coverage",
    "z_sentence",
    "z_topic",
    "distinct",
    "title_only",
    "decision_section",
)


def main(tpath: str) -> None:
    table = Table(tpath)
    generic = stdlib_share()
    data = {name: corpus(name, table, tpath, generic) for name in SETS}
    print("| signal | " + " | ".join(f"{n} AUC | {n} ceiling" for n in SETS) + " |")
    print("|---|" + "---|---|" * len(SETS))
    for sig in SIGNALS:
        cells = []
        for name in SETS:
            rows = data[name]
            pos = [float(r[sig][r["target"]].max()) for r in rows if r["related"]]
            neg = [float(r[sig].max()) for r in rows if not r["related"]]
            # the gate reads the signal at the best-ranked candidate
            gate = [
                float(r[sig][np.argmax(r["key"])]) if sig != "lex" else float(r[sig].max())
                for r in rows
            ]
            cells += [f"{auc(pos, neg):.3f}", f"{ceiling(gate, rows):.3f}"]
        print(f"| {sig} | " + " | ".join(cells) + " |")
    cells = []
    for name in SETS:
        rows = data[name]
        x = np.array([[float(r[s][np.argmax(r["key"])]) for s in FUSED] for r in rows])
        x = (x - x.mean(0)) / (x.std(0) + 1e-9)
        y = np.array(
            [r["related"] and bool(r["target"][np.argsort(-r["key"])[:3]].any()) for r in rows]
        )
        model = LogisticRegression(C=10, class_weight="balanced", max_iter=5000).fit(x, y)
        gate = list(model.decision_function(x))
        cells += ["-", f"{ceiling(gate, rows):.3f}"]
    print("| logistic fusion of 11, in-sample | " + " | ".join(cells) + " |")
    print()
    for train, test in ((SETS[0], SETS[1]), (SETS[1], SETS[0])):
        xa, ya = fused_matrix(data[train])
        xb, yb = fused_matrix(data[test])
        mu, sd = xa.mean(0), xa.std(0) + 1e-9
        model = LogisticRegression(C=1.0, class_weight="balanced", max_iter=5000).fit(
            (xa - mu) / sd, ya
        )
        ga, gb = model.decision_function((xa - mu) / sd), model.decision_function((xb - mu) / sd)
        th = threshold(list(ga), data[train])
        print(
            f"fusion tuned on {train} (threshold: silence >= 0.90 there), scored on {test}: "
            f"train {rates(list(ga), data[train], th)}, test {rates(list(gb), data[test], th)}"
        )


def fused_matrix(rows: list[dict]) -> tuple[np.ndarray, np.ndarray]:
    x = np.array([[float(r[s][np.argmax(r["key"])]) for s in FUSED] for r in rows])
    y = np.array(
        [r["related"] and bool(r["target"][np.argsort(-r["key"])[:3]].any()) for r in rows]
    )
    return x, y


def rates(gate: list[float], rows: list[dict], th: float) -> str:
    top3 = [bool(r["target"][np.argsort(-r["key"])[:3]].any()) for r in rows]
    related = sum(r["related"] for r in rows)
    hits = sum(
        1 for g, r, t in zip(gate, rows, top3, strict=True) if r["related"] and g >= th and t
    )
    silent = sum(1 for g, r in zip(gate, rows, strict=True) if not r["related"] and g < th)
    return f"hit {hits / related:.3f} / silence {silent / (len(rows) - related):.3f}"


def threshold(gate: list[float], rows: list[dict]) -> float:
    """The lowest threshold keeping silence >= 0.90 on these rows."""
    unrelated = sorted(
        (g for g, r in zip(gate, rows, strict=True) if not r["related"]), reverse=True
    )
    k = len(unrelated) - int(np.ceil(0.9 * len(unrelated)))  # unrelated prompts allowed to speak
    return unrelated[k] + 1e-9


if __name__ == "__main__":
    main(sys.argv[1])
