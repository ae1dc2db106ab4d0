"""Claude Code's own auto memory: find the project's native folder, read its topic files,
and plan their import into the store. Nothing here ever writes into the native folder.

The host keeps it in `<config>/projects/<project>/memory/` (`<config>`: $CLAUDE_CONFIG_DIR,
else `~/.claude`; or the user's `autoMemoryDirectory` setting), where `<project>` is the
repository's main checkout (all worktrees share it; the project folder outside git) with
every character but ASCII letters and digits turned into `-`. A name longer than 200
characters is cut there and the host adds a hash, which is found by its prefix. `MEMORY.md`
is the host's index (the host loads it); every other `*.md` is a topic file, with
frontmatter `name`, `description` and `type` (at the top, or under `metadata:`).

Types map to categories: user and feedback -> preference (how the person wants the work
done), project -> decision (what was settled about the work), reference -> runbook (where
to look and how: the store's operational knowledge). A file of another type or none is
skipped and said.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import stat
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memhooks.store import BY_NAME, DESCRIPTION_MAX, TITLE_MAX, MemoryPaths, NewMemory, git_dirs
from memhooks.transfer.plan import Planned

TYPE_TO_CATEGORY = {
    "user": "preference",
    "feedback": "preference",
    "project": "decision",
    "reference": "runbook",
}
INDEX_NAME = "MEMORY.md"
FILE_CAP = 256_000
MAX_FILES = 500
NAME_CAP = 200
SOURCE = "claude-code-auto-memory"
TAG = "auto-memory"


def sanitized(path: str) -> str:
    """A path as the host names its project folders: each non-alphanumeric character -> '-'."""
    return re.sub(r"[^a-zA-Z0-9]", "-", path)


def canonical_root(project: Path) -> str:
    """The folder the host keys auto memory by: the main checkout of the repository (one
    for all its worktrees), else the project folder itself."""
    from memhooks.continuity.git_run import repo_root

    real = os.path.realpath(project)  # as the host sees its working folder
    root = repo_root(real) or real
    found = git_dirs(root)
    if found is None:
        return root
    common = Path(found[1])
    return str(common.parent) if common.name == ".git" else root


def config_home() -> Path:
    given = os.environ.get("CLAUDE_CONFIG_DIR")
    return Path(given) if given else Path.home() / ".claude"


def _setting_folder(home: Path) -> Path | None:
    """The user's `autoMemoryDirectory` (user settings only: a project cannot move it)."""
    try:
        with (home / "settings.json").open(encoding="utf-8") as handle:
            settings = json.loads(handle.read(FILE_CAP))
    except (OSError, ValueError):
        return None
    value = settings.get("autoMemoryDirectory") if isinstance(settings, dict) else None
    return Path(value).expanduser() if isinstance(value, str) and value.strip() else None


def native_folder(project: Path) -> Path:
    """The project's native auto memory folder (it may not exist)."""
    home = config_home()
    chosen = _setting_folder(home)
    if chosen:
        return chosen
    name = sanitized(canonical_root(project))
    projects = home / "projects"
    if len(name) > NAME_CAP:
        prefix = name[:NAME_CAP] + "-"
        try:
            matches = [p for p in projects.iterdir() if p.name.startswith(prefix)]
        except OSError:
            matches = []
        name = matches[0].name if len(matches) == 1 else name[:NAME_CAP]
    return projects / name / "memory"


@dataclass
class NativeFile:
    """One topic file of the native folder, read (never written)."""

    name: str  # its file name in the native folder
    path: Path
    digest: str  # sha256 of its bytes
    type: str
    title: str
    description: str
    body: str
    problem: str = ""  # why it cannot be imported ("" when it can)


def topic_files(folder: Path) -> list[NativeFile]:
    """The topic files of a native folder, sorted by name: regular `*.md` files, no links,
    no index, none hidden; each parsed or marked with its problem."""
    try:
        paths = sorted(folder.iterdir())
    except OSError:
        return []
    found: list[NativeFile] = []
    for path in paths:
        name = path.name
        if not name.endswith(".md") or name.startswith(".") or name == INDEX_NAME:
            continue
        try:
            info = path.lstat()
        except OSError:
            continue
        if not stat.S_ISREG(info.st_mode) or info.st_size > FILE_CAP:
            continue
        found.append(_read(name, path))
        if len(found) >= MAX_FILES:
            break
    return found


def _read(name: str, path: Path) -> NativeFile:
    from memhooks.store import UnparsableMemoryError, parse_bytes

    data = path.read_bytes()
    digest = "sha256:" + hashlib.sha256(data).hexdigest()
    try:
        raw = parse_bytes(data)
    except UnparsableMemoryError as exc:
        return NativeFile(name, path, digest, "", name, "", "", problem=f"unreadable: {exc}")
    meta = raw.meta
    nested = meta.get("metadata")
    kind = str(meta.get("type") or (nested.get("type") if isinstance(nested, dict) else "") or "")
    kind = kind.strip().lower()
    title = _title(str(meta.get("name") or "").strip(), name)
    description = " ".join(str(meta.get("description") or "").split())
    problem = "" if kind in TYPE_TO_CATEGORY else f"type {kind or '(none)'!r} is not mapped"
    return NativeFile(name, path, digest, kind, title, description, raw.body, problem)


def _title(given: str, file_name: str) -> str:
    """The native `name` as a title: a slug (`use-bun_not-npm`) reads as words."""
    text = given or file_name.removesuffix(".md")
    if " " not in text:
        text = re.sub(r"[-_]+", " ", text).strip() or text
    return " ".join(text.split())[:TITLE_MAX]


@dataclass
class NativePlan(Planned):
    """What an import does with one native file: a bundle file's plan, whose path is the
    native file's name, with the file's native type."""

    type: str = ""

    @property
    def name(self) -> str:
        return self.path

    def as_dict(self) -> dict[str, Any]:
        data = super().as_dict()
        return {"native_path": data.pop("path"), "type": self.type, **data}


def imported(paths: MemoryPaths) -> dict[str, tuple[str, str]]:
    """native file name -> (memory path, native hash) of every memory imported from one."""
    from memhooks.store import UnparsableMemoryError, memory_files, parse_bytes

    found: dict[str, tuple[str, str]] = {}
    for target in memory_files(paths):
        try:
            meta = parse_bytes(target.read_bytes()).meta
        except (OSError, UnparsableMemoryError):
            continue
        name = meta.get("native_path")
        if isinstance(name, str) and name:
            found.setdefault(name, (paths.relative(target), str(meta.get("native_hash") or "")))
    return found


def plan_native(
    paths: MemoryPaths,
    files: Sequence[NativeFile],
    *,
    patterns: Sequence[str],
    enabled: Iterable[str],
    keep_both: Iterable[str] = (),
    now: str,
) -> list[NativePlan]:
    """Decide for each native file: import it, or skip it (imported already, changed since,
    near a memory here, unmapped type, category disabled)."""
    from memhooks.errors import UserError
    from memhooks.recall.lookup import similar
    from memhooks.store import Draft, validate_draft
    from memhooks.text.redact import redact, redact_field

    done = imported(paths)
    allowed = set(enabled)
    forced = set(keep_both)
    planned: list[NativePlan] = []
    for native in files:
        category = TYPE_TO_CATEGORY.get(native.type, "")
        item = NativePlan(native.name, category, native.title, "import", type=native.type)
        planned.append(item)
        if native.problem:
            item.action, item.detail = "skipped", native.problem
            continue
        if native.name in done:
            target, digest = done[native.name]
            item.target = target
            if digest == native.digest:
                item.action, item.detail = "present", "imported already"
            else:
                item.action = "changed"
                item.detail = "the native file changed since it was imported; compare by hand"
            continue
        if category not in allowed:
            item.action = "disabled"
            item.detail = f"the {category} category is disabled in config.json"
            continue
        meta: dict[str, Any] = {"title": native.title, "tags": [TAG, native.type]}
        if native.description:
            meta["description"] = native.description[:DESCRIPTION_MAX]
        redacted_meta = {k: redact_field(k, v, patterns) for k, v in meta.items()}
        body = redact(native.body, patterns)
        item.redacted = sum(1 for k in meta if redacted_meta[k] != meta[k]) + (body != native.body)
        item.title = str(redacted_meta["title"])
        if native.name not in forced:
            close = similar(paths, f"{item.title} {native.description}", category)
            if close:
                item.action, item.target = "similar", str(close[0]["path"])
                item.detail = f"looks like {close[0]['path']} — {close[0]['title']}"
                continue
        provenance = {
            "imported_from": SOURCE,
            "imported_path": native.name,
            "imported_at": now,
            "native_path": native.name,
            "native_hash": native.digest,
        }
        try:
            validated = validate_draft(Draft(category, {**redacted_meta, **provenance}, body))
        except UserError as exc:  # one odd file is said, never fails the others
            item.action, item.detail = "skipped", str(exc)
            continue
        item.target = BY_NAME[category].folder + "/"  # the store names the file
        item.memory = NewMemory(category, validated, body)
    return planned


def marks(paths: MemoryPaths, folder: Path) -> dict[str, str]:
    """memory path -> absolute native file, for every memory imported from this folder."""
    return {target: str(folder / name) for name, (target, _) in imported(paths).items()}


def not_imported(paths: MemoryPaths, folder: Path) -> list[NativeFile]:
    """The native topic files no memory here was imported from (read only)."""
    done = imported(paths)
    return [f for f in topic_files(folder) if f.name not in done and not f.problem]


def native_matches(
    paths: MemoryPaths, folder: Path, query: str, limit: int
) -> list[dict[str, Any]]:
    """Native topic files not imported yet that share the query's terms, most shared first:
    what `recall` lists, marked as native (the host's own memory, not in the store)."""
    from memhooks.recall.tokenize import query_terms, tokens

    wanted = set(query_terms(query))
    if not wanted:
        return []
    scored = []
    for native in not_imported(paths, folder):
        have = set(tokens(f"{native.title} {native.description} {native.body}"))
        shared = len(wanted & have)
        if shared:
            scored.append((-shared, native.name, native))
    return [
        {
            "native_path": str(native.path),
            "name": native.name,
            "title": native.title,
            "description": native.description,
            "type": native.type,
            "category": TYPE_TO_CATEGORY[native.type],
            "shared_terms": -neg,
        }
        for neg, _, native in sorted(scored)[:limit]
    ]
