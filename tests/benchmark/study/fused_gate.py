"""Step 9 (product candidates): does a fused lexical+semantic *gate* beat the lexical gate + semantic re-rank?"""
import itertools, sys
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "tests" / "benchmark"))
import semantic_eval as se
from memhooks.recall import ranking
sets = {p.name: se.corpus(p, str(se.TABLE)) for p in (se.FIRST, se.SECOND)}
import json
ys = []
for store in json.loads(se.YOUNG.read_text()):
    docs = se.recall_eval.young_docs(store)
    ys.append({"related": se.answers(docs, [q["prompt"] for q in store["queries"]], str(se.TABLE)),
               "unrelated": se.answers(docs, store["unrelated"], str(se.TABLE)),
               "targets": [frozenset(q["targets"]) for q in store["queries"]]})
def pick(cands, cal, P):
    ratio, min_z, w, T, zgate = P
    floor = max(ranking.MIN_FLOOR, ratio * cal)
    if not cands: return []
    keys = [(p, s / floor + w * (z or 0.0) / min_z, s, z) for p, s, z in cands]
    best = max(keys, key=lambda k: k[1])
    if max(s for _, s, _ in cands) < floor or best[1] < T: return []
    if zgate is not None and max((z or -9) for _, _, z in cands) < zgate: return []
    ok = [k for k in keys if k[2] >= floor or (k[3] is not None and k[3] >= min_z)]
    ok.sort(key=lambda k: -k[1])
    return [k[0] for k in ok[:5] if k[1] >= 0.5 * ok[0][1]] if ok else []
def sc(D, P):
    cal = D["related"]["calibration"]
    h = sum(bool(set(pick(c, cal, P)) & t) for c, t in zip(D["related"]["candidates"], D["targets"])) / len(D["targets"])
    s = sum(not pick(c, cal, P) for c in D["unrelated"]["candidates"]) / len(D["unrelated"]["candidates"])
    return h, s
def ysc(P):
    h = [bool(set(pick(c, D["related"]["calibration"], P)) & t) for D in ys for c, t in zip(D["related"]["candidates"], D["targets"])]
    s = [not pick(c, D["unrelated"]["calibration"], P) for D in ys for c in D["unrelated"]["candidates"]]
    return sum(h) / len(h), sum(s) / len(s)
grid = list(itertools.product([1.6, 1.8, 2.0, 2.2, 2.4], [1.5, 2.0, 3.0], [0.25, 0.5, 1.0], [0, 1.2, 1.4, 1.6, 1.8, 2.0, 2.2], [None, 1.0, 2.0, 3.0]))
key = lambda hs: (min(hs), sum(hs))
for tr, te in [("recall", "recall2"), ("recall2", "recall")]:
    P = max(grid, key=lambda P: key(sc(sets[tr], P)))
    print(tr, "->", te, P, "train", sc(sets[tr], P), "test", sc(sets[te], P), "young", ysc(P))
top = sorted(grid, key=lambda P: -min(*sc(sets["recall"], P), *sc(sets["recall2"], P)))[:5]
for P in top: print("both", P, sc(sets["recall"], P), sc(sets["recall2"], P), ysc(P))
