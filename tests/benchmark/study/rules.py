"""Offline study, step 4: AND / OR rules over (calibrated lexical, per-memory-null semantic), cross-validated."""
import pickle, itertools, numpy as np
exec(open("fuse.py").read().split("S = {n")[0])
S = {n: prep(E[n]) for n in ["recall", "recall2"]}
Y = [prep(y) for y in E["young"]]
LEX, Z, CN = 0, 4, 3

def make(kind, a, b, w):
    def fired(cand, F):
        lex, z = F[:, LEX], F[:, Z] * 10
        if kind == "lex":
            ok = lex >= a; key = lex
        elif kind == "and":   # lexical evidence AND semantic evidence on the same memory
            ok = (lex >= a) & (z >= b); key = lex / a + w * z / b
        elif kind == "or":    # either signal alone, clearly
            ok = (lex >= a) | (z >= b); key = lex / a + w * z / b
        elif kind == "and-rank":  # lexical gate decides; semantic reranks the passing set
            ok = lex >= a
            if ok.any() and z.max() >= b: ok = ok | ((z >= b) & (lex > 0))
            key = lex / a + w * z / b
        idx = [j for j in np.argsort(-key) if ok[j]]
        if not idx: return []
        top = key[idx[0]]
        return [cand[j] for j in idx[:5] if key[j] >= 0.5 * top]
    return fired

def ev(D, fired):
    hit = np.mean([bool(T & set(fired(*r))) for r, T in zip(D["rel"], D["T"])])
    sil = np.mean([not fired(*r) for r in D["unr"]])
    return hit, sil

def yev(fired):
    h = [bool(T & set(fired(*r))) for D in Y for r, T in zip(D["rel"], D["T"])]
    s = [not fired(*r) for D in Y for r in D["unr"]]
    return np.mean(h), np.mean(s)

grids = {
    "lex": [(a, 0, 0) for a in np.arange(0.5, 2.01, 0.05)],
    "and": list(itertools.product(np.arange(0.3, 1.51, 0.1), np.arange(2, 9.1, 0.5), [0, 0.5, 1])),
    "or": list(itertools.product(np.arange(0.8, 2.51, 0.1), np.arange(5, 12.1, 0.5), [0, 0.5, 1])),
    "and-rank": list(itertools.product(np.arange(0.6, 1.61, 0.1), np.arange(4, 10.1, 0.5), [0.5, 1])),
}
key = lambda hs: (min(hs), sum(hs))
for kind, grid in grids.items():
    for tr, te in [("recall", "recall2"), ("recall2", "recall")]:
        P = max(grid, key=lambda P: key(ev(S[tr], make(kind, *P))))
        f = make(kind, *P)
        a, b, y = ev(S[tr], f), ev(S[te], f), yev(f)
        print(f"{kind:8s} tune {tr:7s} P={tuple(round(x,2) for x in P)} train {a[0]:.2f}/{a[1]:.2f}  test {b[0]:.2f}/{b[1]:.2f}  young {y[0]:.2f}/{y[1]:.2f}")
    P = max(grid, key=lambda P: min(*ev(S["recall"], make(kind, *P)), *ev(S["recall2"], make(kind, *P))))
    f = make(kind, *P)
    print(f"{kind:8s} best-on-both P={tuple(round(x,2) for x in P)} recall {ev(S['recall'], f)} recall2 {ev(S['recall2'], f)} young {yev(f)}")
