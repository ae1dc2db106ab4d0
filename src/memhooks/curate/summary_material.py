"""What Claude reads before it writes a session summary or master.md. Read-only.

`summarize --material` and `synthesize --material` print what is gathered here; nothing in
this module writes a file. Every piece is capped, and the whole within a character budget,
so that the output stays readable in one go.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from memhooks.continuity.git_run import Git, repo_root
from memhooks.store import JOURNAL_HEADING, MemoryPaths, read_memory
from memhooks.text.clock import iso, parse_iso
from memhooks.text.frame import frame, neutralise, one_line, overhead

DEFAULT_BUDGET = 40_000
SUMMARY_BUDGET = 30_000
PIECE_CAP = 8_000
TEXT_CAP = 1_000_000  # bytes read of one file: far more than any piece keeps
GIT_TIMEOUT_S = 10.0
GIT_MAX_COMMITS = 200
DOC_FOLDERS = ("docs", "_docs")
DOC_FILES_MAX = 200
PREFIX = ".claude/memory/"
UNCUT = 50_000_000  # a budget and piece cap nothing reaches: the chunked reading's


@dataclass(frozen=True)
class Piece:
    heading: str
    text: str
    source: str = ""  # where the text was read: then it is data, framed when rendered


@dataclass
class Pack:
    """Pieces in order of priority, each capped, the whole within `budget` characters."""

    budget: int
    pieces: list[Piece] = field(default_factory=list)
    omitted: list[str] = field(default_factory=list)
    used: int = 0

    def add(
        self,
        heading: str,
        text: str,
        *,
        source: str = "",
        cap: int = PIECE_CAP,
        keep_tail: bool = False,
    ) -> bool:
        """Add a piece; `source` marks it as data read from there (framed, neutralised)."""
        heading = one_line(heading, 200)
        text = (neutralise(text) if source else text).strip("\n")
        if not text.strip():
            return False
        framing = overhead(source) if source else 0
        room = min(cap, self.budget - self.used - len(heading) - 8 - framing)
        if room < min(400, len(text)):
            self.omitted.append(heading)
            return False
        if len(text) > room:
            note = f"[… {len(text) - room + 40:,} characters cut …]"
            text = (
                (note + "\n" + text[-(room - 40) :])
                if keep_tail
                else (text[: room - 40] + "\n" + note)
            )
        self.pieces.append(Piece(heading, text, source))
        self.used += len(heading) + len(text) + 8 + framing
        return True

    def render(self) -> str:
        """Our `=== heading ===` lines, each over its text; text read from a file is framed
        as data, so nothing in a memory can pass for a header or end its frame."""
        parts = [
            f"=== {p.heading} ===\n\n{frame(p.source, p.text) if p.source else p.text}"
            for p in self.pieces
        ]
        if self.omitted:
            parts.append(
                "=== Left out (over the budget; read them if you need them) ===\n\n"
                + "\n".join(f"- {h}" for h in self.omitted)
            )
        return "\n\n".join(parts)


def read_if_present(path: Path) -> str | None:
    """A file's text (capped; no symlink, FIFO or device), None when it cannot be read:
    the commands tell a missing file from an empty one (`store.files.read_text` gives "")."""
    from memhooks.store import read_bytes

    try:
        return read_bytes(path, TEXT_CAP).decode("utf-8", errors="replace")
    except OSError:
        return None


def latest_session_id(state: dict[str, Any]) -> str | None:
    """The session seen most recently in `_session.json` (its last activity, then list order)."""
    sessions = state.get("sessions")
    if not isinstance(sessions, list):
        return None
    best: tuple[str, int] | None = None
    chosen: str | None = None
    for position, record in enumerate(sessions):
        if not isinstance(record, dict) or not isinstance(record.get("id"), str):
            continue
        moment = str(record.get("last_activity") or record.get("started") or "")
        key = (moment, position)
        if best is None or key >= best:
            best, chosen = key, record["id"]
    return chosen


# ------------------------------------------------------------------ synthesis


def since_last_synthesis(paths: MemoryPaths, master_text: str | None) -> dt.datetime | None:
    """master.md's footer date, else its mtime; None when there is no master.md."""
    if master_text is None:
        return None
    from memhooks.curate.summary_format import last_synthesized

    written = parse_iso(last_synthesized(master_text) or "")
    if written is not None:
        return written
    try:
        return dt.datetime.fromtimestamp(Path(paths.master).stat().st_mtime, tz=dt.timezone.utc)
    except OSError:
        return None


def _changed_at(path: Path, meta: dict[str, Any]) -> dt.datetime:
    stamped = parse_iso(str(meta.get("updated") or meta.get("created") or ""))
    try:
        mtime = dt.datetime.fromtimestamp(path.stat().st_mtime, tz=dt.timezone.utc)
    except OSError:
        mtime = dt.datetime.min.replace(tzinfo=dt.timezone.utc)
    # A git checkout resets mtimes to now; the frontmatter date survives it.
    return stamped or mtime


@dataclass(frozen=True)
class MemoryDoc:
    path: str
    meta: dict[str, Any]
    body: str
    changed: dt.datetime


def memories(paths: MemoryPaths, folder: str) -> list[MemoryDoc]:
    """Active memories in one folder, oldest change first; unparsable files are skipped."""
    from memhooks.store import UnparsableMemoryError, parse_bytes

    out: list[MemoryDoc] = []
    base = Path(paths.base) / folder
    if not base.is_dir():
        return out
    for path in sorted(base.glob("*.md")):
        try:
            raw = parse_bytes(read_memory(path))
        except (OSError, UnparsableMemoryError):
            continue
        if str(raw.meta.get("record_status") or "active") != "active":
            continue
        out.append(MemoryDoc(paths.relative(path), raw.meta, raw.body, _changed_at(path, raw.meta)))
    out.sort(key=lambda d: (d.changed, d.path))
    return out


def doc_files(project: Path, since: dt.datetime | None) -> list[Path]:
    found: list[Path] = []
    real = project.resolve()
    for name in DOC_FOLDERS:
        base = project / name
        if not base.is_dir() or base.is_symlink():  # a committed `docs -> ~` is not read
            continue
        for path in sorted(base.rglob("*.md"))[:DOC_FILES_MAX]:
            if path.is_symlink() or not path.resolve().is_relative_to(real):
                continue
            try:
                mtime = dt.datetime.fromtimestamp(path.stat().st_mtime, tz=dt.timezone.utc)
            except OSError:
                continue
            if since is None or mtime > since:
                found.append(path)
    return found


def git_log(project: Path, since: dt.datetime | None) -> str | None:
    """One line per commit since `since`; None when this is not a git work tree or git fails
    (git through the safe runner: nothing of the project's choosing runs)."""
    root = repo_root(str(project))
    if not root:
        return None
    options = [f"--max-count={GIT_MAX_COMMITS}", "--date=short", "--pretty=format:%h %ad %s"]
    if since is not None:
        options.append(f"--since={iso(since)}")
    out = Git(root, timeout=GIT_TIMEOUT_S).run("log", "--no-show-signature", *options)
    return None if out is None else out.strip()


@dataclass
class SynthesisMaterial:
    previous: str | None
    since: dt.datetime | None
    pack: Pack
    sessions: int
    docs: int
    git: str | None


def synthesis_material(
    paths: MemoryPaths, project: Path, budget: int = DEFAULT_BUDGET, *, piece_cap: int = PIECE_CAP
) -> SynthesisMaterial:
    """What master.md is written from, within `budget`; `piece_cap` bounds each piece (the
    chunked reading lifts both)."""
    previous = read_if_present(Path(paths.master))
    since = since_last_synthesis(paths, previous)
    pack = Pack(budget)
    if previous is not None:
        pack.add(
            "Previous master.md (update it; keep what still holds)",
            previous,
            source=f"{PREFIX}master.md",
            cap=budget // 2,
        )

    def new(doc: MemoryDoc) -> bool:
        return since is None or doc.changed > since

    sessions = [d for d in memories(paths, "sessions") if new(d)]
    for doc in reversed(sessions):  # newest first, so the budget drops the oldest
        at = doc.body.find(JOURNAL_HEADING)
        summary = (doc.body[:at] if at >= 0 else doc.body).strip()
        # A session nobody summarised still has its journal: better than nothing.
        text = summary or doc.body[max(at, 0) :].strip()
        pack.add(
            f"Session summary: {doc.path} ({iso(doc.changed)})",
            text,
            source=PREFIX + doc.path,
            cap=piece_cap,
        )
    checkpoint = read_if_present(Path(paths.latest_checkpoint))
    if checkpoint and (since is None or _mtime(Path(paths.latest_checkpoint)) > since):
        pack.add(
            "Latest checkpoint: checkpoints/latest.md",
            checkpoint,
            source=f"{PREFIX}checkpoints/latest.md",
            cap=piece_cap // 2,
        )
    for doc in reversed([d for d in memories(paths, "decisions") if new(d)]):
        pack.add(f"Decision: {doc.path}", doc.body, source=PREFIX + doc.path, cap=piece_cap // 2)
    others = [
        d
        for folder in ("constraints", "tech-debt", "preferences", "runbooks", "subagent")
        for d in memories(paths, folder)
        if new(d)
    ]
    if others:
        lines = [
            f"- {d.path} — {d.meta.get('title') or Path(d.path).stem}"
            + (f": {d.meta['description']}" if d.meta.get("description") else "")
            for d in others
        ]
        pack.add(
            "Other memories changed since (titles only)",
            "\n".join(lines),
            source=PREFIX,
            cap=piece_cap,
        )
    docs = doc_files(project, since)
    for path in docs:
        doc_text = read_if_present(path)
        if doc_text:
            relative = path.relative_to(project).as_posix()
            pack.add(f"Doc: {relative}", doc_text, source=relative, cap=piece_cap // 2)
    log = git_log(project, since)
    if log:
        pack.add("git log since the last synthesis", log, source="git log", cap=piece_cap)
    return SynthesisMaterial(previous, since, pack, len(sessions), len(docs), log)


def _mtime(path: Path) -> dt.datetime:
    try:
        return dt.datetime.fromtimestamp(path.stat().st_mtime, tz=dt.timezone.utc)
    except OSError:
        return dt.datetime.min.replace(tzinfo=dt.timezone.utc)
