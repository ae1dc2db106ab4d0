"""Step 7: prompt vectors from the static table (what the hook can compute), against full-model ones."""
import pickle, sys, numpy as np
from pathlib import Path
sys.path.insert(0, str(Path(__file__).parent))
import wordpiece, json, zipfile
from minilm import MiniLM
E = pickle.load(open("/tmp/s2sem/feat.pkl", "rb"))
ST = np.load("/tmp/s2sem/static.npy")
with zipfile.ZipFile("/tmp/h14/mm/all_minilm_l6_v2/model.zip") as zf:
    names = {Path(n).name: n for n in zf.namelist()}
    VOCAB = json.loads(zf.read(names["tokenizer.json"]))["model"]["vocab"]
MU = ST.mean(0)
def enc(texts, center=True, weight=None):
    out = []
    for t in texts:
        ids = [VOCAB.get(p, VOCAB["[UNK]"]) for p in wordpiece.tokenize(t, VOCAB.__contains__)] or [VOCAB["[UNK]"]]
        X = ST[ids] - (MU if center else 0)
        w = np.ones(len(ids)) if weight is None else np.array([weight(i) for i in ids])
        v = (X * w[:, None]).sum(0)
        out.append(v / (np.linalg.norm(v) + 1e-9))
    return np.array(out)
REPO = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(REPO / "src")); sys.path.insert(0, str(REPO / "tests" / "benchmark"))
import recall_eval as ev
from memhooks.recall.background import PROMPTS
from embed_all_texts import doc_texts
import itertools
DOCS = {n: ev.load(REPO / "tests" / "fixtures" / n).docs for n in ["recall", "recall2"]}
for i, y in enumerate(E["young"]): DOCS[i] = y["docs"]
NCAND = 30

def build(e, docs, mode, center):
    """mode: 'full' (model prompts, model memories), 'static-full' (table prompts, model memories), 'static' (table both)."""
    if mode == "full":
        Pr, Pu, Pb, D = e["rel"], e["unr"], E["bg"], e["full"]
    else:
        Pr, Pu, Pb = enc(e["rel_text"], center), enc(e["unr_text"], center), enc(list(PROMPTS), center)
        D = e["full"] if mode == "static-full" else enc([doc_texts(d)[0] for d in docs], center)
    B = Pb @ D.T; mu, sd = B.mean(0), B.std(0) + 1e-6
    floor_cal = e["cal"]
    def rows(P, L):
        Z = (P @ D.T - mu) / sd
        out = []
        for i in range(len(P)):
            l = L[i]; cand = [m for m in np.argsort(-l)[:NCAND] if l[m] > 0]
            out.append((np.array(cand, dtype=int), l[cand], Z[i, cand]))
        return out
    return dict(rel=rows(Pr, e["lex_rel"]), unr=rows(Pu, e["lex_unr"]),
                T=[{e["paths"].index(t) for t in ts} for ts in e["targets"]], cal=floor_cal)

def make(ratio, b, w, minf=4.0, semantic=True):
    def fired(cand, lex, z, cal):
        if len(cand) == 0: return []
        floor = max(minf, ratio * cal)
        ok = lex >= floor
        if not ok.any(): return []
        key = lex / floor + (w * z / b if semantic else 0)
        if semantic: ok = ok | (z >= b)
        idx = [j for j in np.argsort(-key) if ok[j]]
        top = key[idx[0]]
        return [cand[j] for j in idx[:5] if key[j] >= 0.5 * top]
    return fired
def evs(D, f):
    return (np.mean([bool(T & set(f(*r, D["cal"]))) for r, T in zip(D["rel"], D["T"])]),
            np.mean([not f(*r, D["cal"]) for r in D["unr"]]),
            np.mean([len(f(*r, D["cal"])) for r in D["rel"]]))
def yev(Y, f):
    return (np.mean([bool(T & set(f(*r, D["cal"]))) for D in Y for r, T in zip(D["rel"], D["T"])]),
            np.mean([not f(*r, D["cal"]) for D in Y for r in D["unr"]]))

if __name__ == "__main__":
    for mode, center in [("full", False), ("static-full", True), ("static", False), ("static", True)]:
        S = {n: build(E[n], DOCS[n], mode, center) for n in ["recall", "recall2"]}
        Y = [build(y, DOCS[i], mode, center) for i, y in enumerate(E["young"])]
        grid = list(itertools.product(np.arange(1.8, 2.61, 0.1), np.arange(2, 8.1, 0.5), [0.25, 0.5, 1]))
        print("==", mode, "center" if center else "")
        for tr, te in [("recall", "recall2"), ("recall2", "recall")]:
            P = max(grid, key=lambda P: (lambda h, s, p: (min(h, s), h + s))(*evs(S[tr], make(*P))))
            f = make(*P); a, b, y = evs(S[tr], f), evs(S[te], f), yev(Y, f)
            print(f"  tune {tr:7s} P={tuple(round(float(x),2) for x in P)} train {a[0]:.2f}/{a[1]:.2f}  test {b[0]:.2f}/{b[1]:.2f} ptr {b[2]:.1f}  young {y[0]:.2f}/{y[1]:.2f}")
        P = max(grid, key=lambda P: (min(*evs(S["recall"], make(*P))[:2], *evs(S["recall2"], make(*P))[:2]), sum(evs(S["recall"], make(*P))[:2]) + sum(evs(S["recall2"], make(*P))[:2])))
        f = make(*P)
        print(f"  both P={tuple(round(float(x),2) for x in P)} recall {np.round(evs(S['recall'], f),2)} recall2 {np.round(evs(S['recall2'], f),2)} young {np.round(yev(Y, f),2)}")
