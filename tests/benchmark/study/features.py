"""Offline study, step 2: lexical score matrices from the real index, joined with the vectors.

Writes /tmp/s2sem/feat.pkl: per set, lex[prompt, memory] (idf units, ungated), the store's
calibration, and the background prompts' lexical scores per memory.
"""

import pickle
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(REPO / "src"))
sys.path.insert(0, str(REPO / "tests" / "benchmark"))
import numpy as np
import recall_eval as ev

from memhooks.recall.background import PROMPTS
from memhooks.recall.search_index import SearchIndex
from memhooks.recall.search_read import search_stats

E = pickle.load(open("/tmp/s2sem/emb.pkl", "rb"))


def lexmat(docs, prompts):
    paths = [d.path for d in docs]
    with tempfile.TemporaryDirectory() as tmp, SearchIndex(Path(tmp) / "s.sqlite3") as index:
        index.rebuild(docs)
        conn = index._read_connection()
        cal = search_stats(conn)[2]

        def row(p):
            r = np.zeros(len(docs))
            for h in index.query(p, limit=len(docs), min_score=0):
                r[paths.index(h.path)] = h.score
            return r

        return cal, [np.array([row(p) for p in ps]) for ps in prompts]


def add(e, docs):
    cal, (rel, unr, bg) = lexmat(docs, [e["rel_text"], e["unr_text"], list(PROMPTS)])
    e.update(cal=cal, lex_rel=rel, lex_unr=unr, lex_bg=bg)


for name in ["recall", "recall2"]:
    rs = ev.load(REPO / "tests" / "fixtures" / name)
    assert [d.path for d in rs.docs] == E[name]["paths"]
    add(E[name], rs.docs)
for y in E["young"]:
    add(y, y["docs"])
pickle.dump(E, open("/tmp/s2sem/feat.pkl", "wb"))
print(
    {n: round(E[n]["cal"], 2) for n in ["recall", "recall2"]},
    [round(y["cal"], 2) for y in E["young"]],
)
