import pickle, numpy as np
E = pickle.load(open("/tmp/s2sem/feat.pkl", "rb"))
bg = E["bg"]
def chunkmax(P, e):
    C = P @ e["chunks"].T
    out = np.full((len(P), len(e["paths"])), -1.0)
    for j, o in enumerate(e["owner"]): out[:, o] = np.maximum(out[:, o], C[:, j])
    return out
def sims(e, kind):
    f = (lambda P: P @ e["full"].T) if kind == "full" else (lambda P: chunkmax(P, e))
    if kind == "mix": f = lambda P: 0.5 * (P @ e["full"].T) + 0.5 * chunkmax(P, e)
    return f(e["rel"]), f(e["unr"]), f(bg)
def tidx(e):
    return [[e["paths"].index(t) for t in ts] for ts in e["targets"]]
for name in ["recall", "recall2"]:
    e = E[name]; T = tidx(e)
    for kind in ["full", "chunk", "mix"]:
        R, U, B = sims(e, kind)
        ranks = [min(int((r > r[t]).sum()) for t in ts) for r, ts in zip(R, T)]
        # null per memory
        mu, sd, mx = B.mean(0), B.std(0), B.max(0)
        q90 = np.quantile(B, 0.9, axis=0)
        for nm, norm in [("raw", lambda S: S), ("-max", lambda S: S - mx), ("z", lambda S: (S - mu) / sd), ("-q90", lambda S: S - q90)]:
            Rn, Un = norm(R), norm(U)
            tg = np.array([max(Rn[i, t] for t in ts) for i, ts in enumerate(T)])
            nrank = np.array([min(int((Rn[i] > Rn[i, t]).sum()) for t in ts) for i, ts in enumerate(T)])
            um = Un.max(1)
            # best threshold separating: hit if target >= thr (and ranked top5); silent if max < thr
            best = max(((np.mean((tg >= th) & (nrank < 5)), np.mean(um < th), th) for th in np.unique(np.r_[tg, um])), key=lambda x: (min(x[0], x[1]), x[0] + x[1]))
            print(f"{name:8s} {kind:5s} {nm:5s} top1 {np.mean(nrank<1):.2f} top5 {np.mean(nrank<5):.2f}  tgt med {np.median(tg):.2f}  unr max med {np.median(um):.2f} max {um.max():.2f}  best sep hit {best[0]:.2f} sil {best[1]:.2f} @ {best[2]:.3f}")
    # genericness
    g = lambda P: np.sort(P @ bg.T, 1)[:, -3:].mean(1)
    print(name, "generic rel", np.round(np.quantile(g(e["rel"]), [0.1, 0.5, 0.9]), 2), "unr", np.round(np.quantile(g(e["unr"]), [0.1, 0.5, 0.9]), 2))
