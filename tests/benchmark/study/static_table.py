"""Step 6: the static token-vector table (model2vec idea): one forward pass per vocabulary token."""
import sys, time, numpy as np
from pathlib import Path
sys.path.insert(0, str(Path(__file__).parent))
from minilm import MiniLM
M = MiniLM(Path("/tmp/h14/mm/all_minilm_l6_v2/model.zip"))
t = time.time()
V = len(M.vocab); cls, sep = M.vocab["[CLS]"], M.vocab["[SEP]"]
S = np.zeros((V, 384), dtype=np.float32)
for s in range(0, V, 1024):
    ch = list(range(s, min(V, s + 1024)))
    S[ch] = M.forward([[cls, i, sep] for i in ch])
np.save("/tmp/s2sem/static.npy", S)
print("static build", time.time() - t)
