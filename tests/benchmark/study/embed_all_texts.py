def sections(body):
    out = []; cur = []
    for line in body.splitlines():
        if line.startswith("## "):
            if cur: out.append(" ".join(cur))
            cur = [line[3:].strip() + ":"]
        elif line.startswith("# "):
            continue
        elif line.strip():
            cur.append(line.strip())
    if cur: out.append(" ".join(cur))
    return out

def doc_texts(d):
    full = f"{d.title}. {' '.join(d.tags)}. {d.description} {d.body}"
    chunks = [d.title, f"{d.title}. {d.description}"] + [f"{d.title}. {s}" for s in sections(d.body)]
    return full, chunks
