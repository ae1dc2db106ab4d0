"""Step 10: mean pointers vs the gap ratio under the shipped semantic rule (product candidates)."""
import sys
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "tests" / "benchmark"))
import semantic_eval as se
from memhooks.recall import ranking
sets = {p.name: se.corpus(p, str(se.TABLE)) for p in (se.FIRST, se.SECOND)}
def pick(c, cal, gap, limit=5):
    floor = max(ranking.MIN_FLOOR, ranking.SEMANTIC_RATIO * cal)
    if not c or max(s for _, s, _ in c) < floor: return []
    keys = sorted(((p, s / floor + ranking.SEMANTIC_WEIGHT * (z or 0) / ranking.SEMANTIC_MIN_Z) for p, s, z in c
                   if s >= floor or (z is not None and z >= ranking.SEMANTIC_MIN_Z)), key=lambda k: -k[1])
    return [p for p, k in keys[:limit] if k >= gap * keys[0][1]]
for gap in (0.5, 0.6, 0.7, 0.8):
    for limit in (5, 3):
        row = []
        for n, D in sets.items():
            cal = D["related"]["calibration"]
            picks = [pick(c, cal, gap, limit) for c in D["related"]["candidates"]]
            hit = sum(bool(set(p) & t) for p, t in zip(picks, D["targets"])) / len(picks)
            row.append(f"{n} hit {hit:.3f} ptr {sum(map(len, picks)) / len(picks):.2f}")
        print(f"gap {gap} limit {limit}:", " | ".join(row))
