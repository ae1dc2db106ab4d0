"""Step 8: the table reduced (PCA to k dims) and quantized to int8, and what fires in young stores."""
import numpy as np, itertools
import static_eval as se
from static_eval import *
ST0 = se.ST.copy()
def quant(X):
    s = np.abs(X).max(1, keepdims=True) / 127
    return np.round(X / s).astype(np.int8).astype(np.float32) * s
for dims, q in [(384, False), (384, True), (256, True), (128, True), (64, True)]:
    X = ST0 - ST0.mean(0)
    if dims < 384:
        U, Sv, Vt = np.linalg.svd(X[::3], full_matrices=False)
        X = X @ Vt[:dims].T
    se.ST = quant(X) if q else X
    se.MU = np.zeros(X.shape[1], dtype=np.float32)
    S = {n: build(E[n], DOCS[n], "static", False) for n in ["recall", "recall2"]}
    Y = [build(y, DOCS[i], "static", False) for i, y in enumerate(E["young"])]
    f = make(2.2, 2.0, 0.5)
    print(dims, q, "recall", np.round(evs(S["recall"], f), 2), "recall2", np.round(evs(S["recall2"], f), 2), "young", np.round(yev(Y, f), 2))
    if dims == 384 and q:
        for i, D in enumerate(Y):
            for r, t in zip(D["unr"], E["young"][i]["unr_text"]):
                fl = max(4.0, 2.2 * D["cal"])
                print("   young unrel", [(round(float(l), 1), round(float(z), 1)) for l, z in zip(r[1], r[2])], "floor", fl, t[:60])
            for r, t, T in zip(D["rel"], E["young"][i]["rel_text"], D["T"]):
                print("   young rel  ", [(round(float(l), 1), round(float(z), 1), int(c) in T) for c, l, z in zip(*r)], t[:60])
