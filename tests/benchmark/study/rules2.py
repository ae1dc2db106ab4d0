"""Step 5: the lexical gate's ratio (above MIN_FLOOR 4) raised; semantic (per-memory null z) reranks and adds."""
import itertools, numpy as np
exec(open("fuse.py").read().split("S = {n")[0])
S = {n: prep(E[n]) for n in ["recall", "recall2"]}
Y = [prep(y) for y in E["young"]]
def make(ratio, b, w, minf=4.0, semantic=True):
    def fired(cand, F, cal):
        floor = max(minf, ratio * cal)
        lex, z = F[:, 7], F[:, 4] * 10
        ok = lex >= floor
        if not ok.any(): return []
        key = lex / floor + (w * z / b if semantic else 0)
        if semantic: ok = ok | ((z >= b) & (lex > 0))
        idx = [j for j in np.argsort(-key) if ok[j]]
        top = key[idx[0]]
        return [cand[j] for j in idx[:5] if key[j] >= 0.5 * top]
    return fired
def ev(D, f):
    return (np.mean([bool(T & set(f(*r, D["cal"]))) for r, T in zip(D["rel"], D["T"])]),
            np.mean([not f(*r, D["cal"]) for r in D["unr"]]),
            np.mean([len(f(*r, D["cal"])) for r in D["rel"]]))
def yev(f):
    return (np.mean([bool(T & set(f(*r, D["cal"]))) for D in Y for r, T in zip(D["rel"], D["T"])]),
            np.mean([not f(*r, D["cal"]) for D in Y for r in D["unr"]]))
for sem in [False, True]:
    grid = list(itertools.product(np.arange(1.6, 3.01, 0.1), np.arange(3, 8.1, 0.5) if sem else [1], [0.25, 0.5, 1] if sem else [0]))
    for tr, te in [("recall", "recall2"), ("recall2", "recall")]:
        P = max(grid, key=lambda P: (lambda h, s, p: (min(h, s), h + s))(*ev(S[tr], make(*P, semantic=sem))))
        f = make(*P, semantic=sem)
        a, b, y = ev(S[tr], f), ev(S[te], f), yev(f)
        print(f"sem={sem} tune {tr:7s} P={tuple(round(float(x),2) for x in P)} train {a[0]:.2f}/{a[1]:.2f}  test {b[0]:.2f}/{b[1]:.2f} ptr {b[2]:.1f}  young {y[0]:.2f}/{y[1]:.2f}")
    top = sorted(grid, key=lambda P: -min(*ev(S["recall"], make(*P, semantic=sem))[:2], *ev(S["recall2"], make(*P, semantic=sem))[:2]))[:4]
    for P in top:
        f = make(*P, semantic=sem)
        print(f"   both P={tuple(round(float(x),2) for x in P)} recall {np.round(ev(S['recall'], f),2)} recall2 {np.round(ev(S['recall2'], f),2)} young {np.round(yev(f),2)}")
