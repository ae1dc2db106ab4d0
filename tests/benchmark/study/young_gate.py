"""Step 12: a semantic agreement gate for young stores (< 40 memories), cross-validated on
synthetic young stores cut from each tuning corpus, then checked on recall2/young.

Related: the target plus 0-3 random other memories. Unrelated: the 1-4 memories that the
prompt matches best by words in the full corpus (the hard case the young set describes).
Rule: the lexical gate as shipped, plus: in a young store, speak only when the best
lexical candidate's semantic z is >= T.
"""

import json
import random
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(REPO / "tests" / "benchmark"))
import recall_eval as ev
import semantic_eval as se

from memhooks.recall import ranking, search_read
from memhooks.recall.search_index import SearchIndex

TABLE = str(se.TABLE)


def top_z(docs, prompt):
    """(speaks as shipped, best lexical candidate's z or None, target-in-answer paths)"""
    with tempfile.TemporaryDirectory() as tmp, SearchIndex(Path(tmp) / "s.db", table=TABLE) as ix:
        ix.rebuild(docs)
        paths = [h.path for h in ix.query(prompt)]
        conn = ix._read_connection()
        stats = search_read.search_stats(conn)
        c = se.candidates(ix, conn, stats, prompt)
    best = max(c, key=lambda x: x[1]) if c else None
    return paths, (best[2] if best else None)


def synth(name, seed=0):
    rs = ev.load(REPO / "tests" / "fixtures" / name)
    rng = random.Random(seed)
    bm = ev.Bm25Okapi(rs.docs)
    by = {d.path: d for d in rs.docs}
    rel, unr = [], []
    for prompt, targets in rs.queries:
        t = sorted(targets)[0]
        others = rng.sample([d for d in rs.docs if d.path not in targets], rng.randint(0, 3))
        rel.append((top_z([by[t], *others], prompt), t))
    for prompt in rs.unrelated:
        best = [by[p] for p, _ in bm.rank(prompt)[: rng.randint(1, 4)]]
        unr.append(top_z(best, prompt))
    return rel, unr


def score(data, T):
    rel, unr = data
    ok = lambda z: T is None or (z is not None and z >= T)
    hit = sum(t in paths and ok(z) for (paths, z), t in rel) / len(rel)
    sil = sum(not (paths and ok(z)) for paths, z in unr) / len(unr)
    return round(hit, 3), round(sil, 3)


def young_real():
    rel, unr = [], []
    for store in json.loads(se.YOUNG.read_text()):
        docs = ev.young_docs(store)
        for q in store["queries"]:
            rel.append((top_z(docs, q["prompt"]), q["targets"][0]))
        for u in store["unrelated"]:
            unr.append(top_z(docs, u))
    return rel, unr


S = {n: synth(n) for n in ("recall", "recall2")}
Y = young_real()
grid = [None, 0.0, 0.5, 1.0, 1.5, 1.9, 2.0, 2.5, 3.0]
for T in grid:
    print(
        "T",
        T,
        "recall-mini",
        score(S["recall"], T),
        "recall2-mini",
        score(S["recall2"], T),
        "young",
        score(Y, T),
    )
for tr, te in (("recall", "recall2"), ("recall2", "recall")):
    T = max(grid, key=lambda T: (min(score(S[tr], T)), sum(score(S[tr], T))))
    print(f"tune {tr}-mini -> T {T}: test {te}-mini {score(S[te], T)}, young {score(Y, T)}")
