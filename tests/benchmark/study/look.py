import pickle, numpy as np
exec(open("fuse.py").read().split("S = {n")[0])
for name in ["recall2", "recall"]:
    e = E[name]; floor = max(4.0, 2.0 * e["cal"])
    C = cosm(e["unr"], e); B = cosm(BG, e); mu, sd = B.mean(0), B.std(0)
    Z = (C - mu) / sd
    print("=====", name, "unrelated: best lex/floor, best z, text")
    for i, p in enumerate(e["unr_text"]):
        l = e["lex_unr"][i]; m = int(np.argmax(l)); mz = int(np.argmax(Z[i]))
        if l[m] >= floor or Z[i, mz] > 5:
            print(f"  lex {l[m]/floor:.2f} z {Z[i,mz]:.1f} | {p[:90]!r}\n      -> {e['paths'][m][:60]}  /z-> {e['paths'][mz][:60]}")
