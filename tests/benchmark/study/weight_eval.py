"""Step 11: token weighting in the static table (model2vec's Zipf idea: BERT's vocabulary is
roughly frequency-ordered from id 1996 on), measured with the study's rule and CV."""
import itertools, numpy as np
import static_eval as se
from static_eval import *
from memhooks.recall.background import PROMPTS
def run(weight, label):
    def enc_w(texts, center=False):
        return se.enc(texts, center, weight)
    orig = se.enc
    se.enc = lambda texts, center=False, weight_=None: orig(texts, center, weight)
    S = {n: build(E[n], DOCS[n], "static", False) for n in ["recall", "recall2"]}
    Y = [build(y, DOCS[i], "static", False) for i, y in enumerate(E["young"])]
    se.enc = orig
    grid = list(itertools.product([2.0, 2.2, 2.4], [1.5, 2.0, 2.5, 3.0], [0.25, 0.5, 1.0]))
    out = [label]
    for tr, te in [("recall", "recall2"), ("recall2", "recall")]:
        P = max(grid, key=lambda P: (lambda h, s, p: (min(h, s), h + s))(*evs(S[tr], make(*P))))
        f = make(*P); b = evs(S[te], f)
        out.append(f"{tr}->{te} {P} test {b[0]:.2f}/{b[1]:.2f}")
    f = make(2.2, 1.5, 0.5)
    out.append(f"shipped recall {np.round(evs(S['recall'], f)[:2], 3)} recall2 {np.round(evs(S['recall2'], f)[:2], 3)} young {np.round(yev(Y, f), 2)}")
    print(" | ".join(map(str, out)), flush=True)
run(None, "uniform")
run(lambda i: np.log(max(i - 1995, 1) + 1) if i >= 1996 else 0.5, "log-rank")
run(lambda i: np.log(max(i - 1995, 1) + 1) if i >= 1996 else 0.0, "log-rank, no chars")
run(lambda i: 1.0 if i >= 2100 else 0.2, "step: first ~100 words 0.2")
