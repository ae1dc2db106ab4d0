"""Code citations: `path:line` / `path:start-end` in a memory, hashed at save, checked later.

A citation is kept in the memory's frontmatter as `cites: ["src/app.py:10-14#1a2b3c4d5e6f"]`:
the hash of the cited lines' text (each line stripped of trailing blanks). It is committed
with the memory, so a teammate's checkout can tell as well as ours whether the text is still
there. A citation is *stale* when that text is no longer at its lines nor anywhere within
WINDOW lines of them (edited, moved far, or the file deleted).

Cited files are read from the project, which is hostile ground: a path must be relative, stay
inside the project with no symlink on the way, name a regular file (checked again on the open
descriptor, opened without blocking: a FIFO swapped in after the check must not hang a hook),
and only CAP bytes are read. A memory is committed, so its `cites:` can list any number: only
the first MAX_CITES are ever read, and `check` stops at a deadline. Standard library only (the
per-prompt hook uses `check` through `citation_check`).
"""

from __future__ import annotations

import os

from memhooks.text.lazy_re import LazyPattern

#: `path/to/file.ext:12` or `:12-20`; not part of a URL or a longer word.
CITE = LazyPattern(
    r"(?<![\w/.:@-])((?:[\w.-]+/)*[\w-][\w.-]*\.[A-Za-z][A-Za-z0-9]{0,9}):(\d{1,6})(?:-(\d{1,6}))?(?![\w:/-])"
)
STORED = LazyPattern(
    r"^(?P<path>[^#\s]+):(?P<start>\d{1,6})(?:-(?P<end>\d{1,6}))?(?:#(?P<hash>[0-9a-f]{6,64}))?$"
)
CAP = 1_000_000  # bytes read from one cited file
MAX_SPAN = 400  # lines one citation may cover
WINDOW = 30  # lines the cited text may move and still count as there
MAX_CITES = 20  # per memory
HASH_CHARS = 12


class Cite:
    __slots__ = ("end", "hash", "path", "start")

    def __init__(self, path: str, start: int, end: int, digest: str = "") -> None:
        self.path = path
        self.start = start
        self.end = end
        self.hash = digest

    @property
    def span(self) -> str:
        return f"{self.path}:{self.start}" + (f"-{self.end}" if self.end != self.start else "")

    def __str__(self) -> str:
        return self.span + (f"#{self.hash}" if self.hash else "")

    def __repr__(self) -> str:
        return f"Cite({str(self)!r})"


def parse_stored(text: str) -> Cite | None:
    match = STORED.match(text.strip())
    if match is None:
        return None
    start = int(match["start"])
    end = int(match["end"] or start)
    if start < 1 or end < start or end - start >= MAX_SPAN or not safe_relative(match["path"]):
        return None
    return Cite(match["path"], start, end, match["hash"] or "")


def in_text(text: str) -> list[Cite]:
    """Every `path:line(-end)` in a body, in order, without repeats."""
    out: dict[str, Cite] = {}
    for match in CITE.compiled.finditer(text):
        start = int(match[2])
        end = int(match[3] or start)
        if start < 1 or end < start or end - start >= MAX_SPAN or not safe_relative(match[1]):
            continue
        cite = Cite(match[1].removeprefix("./"), start, end)
        out.setdefault(cite.span, cite)
    return list(out.values())


def safe_relative(path: str) -> bool:
    if not path or path.startswith(("/", "\\", "~")) or "\\" in path or ":" in path:
        return False
    return all(part not in ("", "..") for part in path.removeprefix("./").split("/"))


def read_cited(project: str, relative: str) -> list[str] | None:
    """The file's lines, or None: outside the project, a symlink, not a regular file, unreadable."""
    from memhooks.store import read_bytes

    if not safe_relative(relative):
        return None
    current = project
    for part in relative.removeprefix("./").split("/")[:-1]:
        current = os.path.join(current, part)
        if os.path.islink(current):
            return None
    try:
        # The last step: no symlink followed, no wait on a FIFO, a regular file, CAP bytes.
        data = read_bytes(os.path.join(project, *relative.removeprefix("./").split("/")), CAP)
    except OSError:
        return None
    return data.decode("utf-8", errors="replace").splitlines()


def span_hash(lines: list[str], start: int, end: int) -> str:
    import hashlib

    text = "\n".join(line.rstrip() for line in lines[start - 1 : end])
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:HASH_CHARS]


def hashed(project: str, cite: Cite) -> Cite | None:
    """The citation with the hash of its text now; None when the file or the lines are not there."""
    lines = read_cited(project, cite.path)
    if lines is None or cite.end > len(lines):
        return None
    return Cite(cite.path, cite.start, cite.end, span_hash(lines, cite.start, cite.end))


def still_there(lines: list[str] | None, cite: Cite) -> bool:
    """The cited text is at its lines, or within WINDOW lines of them (same length)."""
    if not cite.hash:
        return True  # never hashed: nothing to compare with
    if lines is None:
        return False
    length = cite.end - cite.start
    low = max(1, cite.start - WINDOW)
    high = min(len(lines) - length, cite.start + WINDOW)
    order = sorted(range(low, high + 1), key=lambda s: abs(s - cite.start))
    return any(span_hash(lines, s, s + length) == cite.hash for s in order)


def with_hashes(project: str, meta: dict[str, object], body: str) -> dict[str, object]:
    """`meta` with `cites` = its own citations plus the body's, each hashed once.

    A citation already hashed keeps its hash (re-saving a memory must not bless changed
    code); a new one is hashed now, and dropped if its file or lines do not exist.
    """
    given = meta.get("cites")
    wanted: dict[str, Cite] = {}
    for item in given if isinstance(given, list) else []:
        cite = parse_stored(str(item))
        if cite is not None:
            wanted.setdefault(cite.span, cite)
    for cite in in_text(body):
        wanted.setdefault(cite.span, cite)
    if not wanted:
        return meta
    out: list[str] = []
    for cite in list(wanted.values())[:MAX_CITES]:
        done = cite if cite.hash else hashed(project, cite)
        if done is not None:
            out.append(str(done))
    result = dict(meta)
    if out:
        result["cites"] = out
    else:
        result.pop("cites", None)
    return result


def stale_files(project: str, cites: list[Cite]) -> list[str]:
    """The cited files whose cited text is gone, each once, in order."""
    return check(project, cites)[0]


def check(
    project: str,
    cites: list[Cite],
    *,
    start: int = 0,
    stale: list[str] | None = None,
    deadline: float | None = None,
) -> tuple[list[str], int]:
    """(`stale` plus the stale files among cites[start:], how many cites are checked now).

    Past `deadline` (a `time.monotonic()` value) it stops after the cite in hand, so a call
    always gets one further: one cite costs at most WINDOW * 2 + 1 hashes of a CAP-byte file.
    """
    import time

    cache: dict[str, list[str] | None] = {}
    found = list(stale or [])
    done = start
    for cite in cites[start:]:
        if cite.hash:
            if cite.path not in cache:
                cache[cite.path] = read_cited(project, cite.path)
            if not still_there(cache[cite.path], cite) and cite.path not in found:
                found.append(cite.path)
        done += 1
        if deadline is not None and time.monotonic() > deadline:
            break
    return found, done


def parse_all(items: list[object]) -> list[Cite]:
    """The first MAX_CITES valid citations of a stored list: a committed memory may list
    hundreds, and only MAX_CITES are ever saved by us."""
    found: list[Cite] = []
    for item in items:
        cite = parse_stored(str(item))
        if cite is not None:
            found.append(cite)
            if len(found) == MAX_CITES:
                break
    return found


def from_meta(meta: dict[str, object]) -> list[Cite]:
    given = meta.get("cites")
    return parse_all(given) if isinstance(given, list) else []
