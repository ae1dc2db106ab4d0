"""What git says a session changed: Bash edits count, and a file reverted is not "changed".

A session's first hook (SessionStart, startup or clear) keeps a `baseline`: the HEAD commit
and the uncommitted paths, each with its size and mtime then. When the restore is written
(PreCompact; the next session's SessionStart, which runs git once for both), `changes`
compares: the files that differ from the start commit now (`git diff --name-status <start>`
when HEAD moved, else `git status`), less those already uncommitted at the start that have
not been touched since, the commits made since, and what is uncommitted now. Files Claude's
tools changed that git shows unchanged are left out (reverted, or created and removed);
those git cannot see (ignored, outside the repository) are kept as the tools recorded them.

The git calls go through memhooks.continuity.git_run (nothing of the repo's choosing runs).
A baseline is read back from a file, so it is used only when it is well formed: its head a
full object name, its paths and stats of the types written (`start_of`); anything else
means no usable baseline.
"""

from __future__ import annotations

import os

from memhooks import TYPE_CHECKING
from memhooks.continuity.git_run import Git, object_name, repo_root
from memhooks.text.clock import iso
from memhooks.text.redact import redact

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Sequence
    from typing import Any

MAX_PATHS = 300
MAX_COMMITS = 50
_DIFF = ("--no-renames", "--no-ext-diff", "--no-textconv", "--ignore-submodules=all")
_STATUS = (
    "status",
    "--porcelain=v2",
    "-z",
    "--branch",
    "--no-renames",
    "--no-ahead-behind",
    "--untracked-files=normal",
    "--ignore-submodules=all",
)
#: Fields before the path in a porcelain v2 entry, by its kind.
_PATH_FIELD = {"1": 8, "2": 9, "u": 10}


def _how(xy: str) -> str:
    if "D" in xy:
        return "deleted"
    return "new" if "A" in xy or "?" in xy else "edited"


def parse_status(output: str) -> dict[str, Any]:
    """`git status --porcelain=v2 -z --branch` to {"head", "branch", "dirty": {path: how}}."""
    head = branch = ""
    dirty: dict[str, str] = {}
    fields = iter(output.split("\0"))
    for field in fields:
        kind = field[:1]
        if field.startswith("# branch.oid "):
            oid = field.split()[-1]
            head = "" if oid == "(initial)" else oid
        elif field.startswith("# branch.head "):
            name = field[len("# branch.head ") :]
            branch = "" if name == "(detached)" else name
        elif kind in _PATH_FIELD:
            parts = field.split(" ", _PATH_FIELD[kind])
            if len(parts) > _PATH_FIELD[kind]:
                dirty[parts[-1]] = "conflict" if kind == "u" else _how(parts[1])
            if kind == "2":
                next(fields, None)  # the original path of a rename
        elif kind == "?" and field[2:]:
            dirty[field[2:]] = "new"
        if len(dirty) >= MAX_PATHS:
            break
    return {"head": head, "branch": branch, "dirty": dirty}


def parse_name_status(output: str) -> dict[str, str]:
    """`git diff --name-status -z` to {path: how}."""
    fields = output.split("\0")
    found = {}
    for status, path in zip(fields[::2], fields[1::2], strict=False):
        if path:
            found[path] = _how(status)
    return dict(list(found.items())[:MAX_PATHS])


def snapshot(cwd: str) -> tuple[Git, dict[str, Any]] | None:
    """git and the repository's state now, or None (not a repository, no git, no time)."""
    root = repo_root(cwd)
    if not root:
        return None
    git = Git(root)
    out = git.run(*_STATUS)
    if out is None:
        return None
    return git, {**parse_status(out), "root": root}


def _stat(root: str, path: str) -> list[int]:
    try:
        info = os.lstat(os.path.join(root, path))
    except OSError:
        return [-1, 0]
    return [info.st_size, info.st_mtime_ns]


def baseline(now: dict[str, Any]) -> dict[str, Any]:
    """What a session's start keeps: the root, HEAD, and each uncommitted path's stat."""
    root = now["root"]
    dirty = {path: [how, *_stat(root, path)] for path, how in now["dirty"].items()}
    return {"root": root, "head": now["head"], "branch": now["branch"], "dirty": dirty}


def _since_start(git: Git, start: dict[str, Any], now: dict[str, Any]) -> dict[str, str] | None:
    """Paths that differ from the start commit now, less those dirty at the start and not
    touched since; None when git did not answer."""
    if start["head"] == now["head"]:
        changed = dict(now["dirty"])
    else:
        out = git.run(
            "diff", "--name-status", "-z", *_DIFF, operands=(start["head"] or "HEAD", "--")
        )
        if out is None:
            return None
        untracked = {p: how for p, how in now["dirty"].items() if how == "new"}
        changed = {**parse_name_status(out), **untracked}
    for path, (_, *stat) in start["dirty"].items():
        if path in changed and _stat(start["root"], path) == stat:
            del changed[path]
    return changed


def _commits(git: Git, start: dict[str, Any], now: dict[str, Any]) -> list[str]:
    if not now["head"] or start["head"] == now["head"]:
        return []
    span = f"{start['head']}..HEAD" if start["head"] else "HEAD"
    out = git.run(
        "log", "--no-show-signature", "--format=%h %s", f"-n{MAX_COMMITS}", operands=(span, "--")
    )
    return [line for line in (out or "").splitlines() if line.strip()]


def _covered(path: str, changed: dict[str, str]) -> bool:
    return path in changed or any(d.endswith("/") and path.startswith(d) for d in changed)


def _tool_paths(tool_files: Iterable[str], cwd: str, root: str) -> tuple[dict[str, str], list[str]]:
    """Claude's tool-changed files (as the evidence keeps them, relative to `cwd`), as
    ({path relative to the root: as kept} inside the repository, [as kept] outside it)."""
    inside: dict[str, str] = {}
    outside: list[str] = []
    for path in tool_files:
        full = os.path.normpath(os.path.join(cwd, path)) if cwd else path
        rel = os.path.relpath(full, root) if os.path.isabs(full) else path
        if rel.startswith("..") or os.path.isabs(rel):
            outside.append(path)
        else:
            inside[rel] = path
    return inside, outside


def shown_now(now: dict[str, Any], cwd: str, root: str) -> Callable[[str], bool]:
    """Whether a restore may still name `path` (as the evidence keeps it) as changed, by git's
    view `now`: it differs from the session's start, git cannot see it (outside the
    repository, ignored: `tools_only`), or there is no baseline to tell."""
    changed = now.get("changed")
    unseen = set(now.get("tools_only") or ())

    def shown(path: str) -> bool:
        if changed is None or path in unseen:
            return True
        inside, _ = _tool_paths([path], cwd, root)
        return not inside or any(_covered(rel, changed) for rel in inside)

    return shown


def _ignored(git: Git, paths: Sequence[str]) -> set[str]:
    if not paths:
        return set()
    out = git.run("check-ignore", "-z", "--stdin", stdin="\0".join(paths).encode())
    return set((out or "").split("\0")) - {""}


def changes(
    git: Git,
    now: dict[str, Any],
    start: dict[str, Any] | None,
    tool_files: Iterable[str] = (),
    *,
    cwd: str = "",
    patterns: Sequence[str] = (),
) -> dict[str, Any]:
    """What a restore states as git's view (redacted): `changed` since the start (None with no
    usable baseline), `uncommitted` now, `commits` since the start, and `tools_only`, the
    tool-changed files git cannot see."""
    base = start_of(start, now["root"])
    changed = _since_start(git, base, now) if base else None
    inside, outside = _tool_paths(tool_files, cwd, now["root"])
    if changed is not None:
        rest = [p for p in inside if not _covered(p, changed)]
        present = [p for p in rest if os.path.lexists(os.path.join(now["root"], p))]
        ignored = _ignored(git, present)
        outside += [inside[p] for p in present if p in ignored]

    def clean(items: dict[str, str]) -> dict[str, str]:
        return {redact(path, patterns): how for path, how in items.items()}

    return {
        "at": iso(),
        "branch": redact(now["branch"], patterns),
        "changed": None if changed is None else clean(changed),
        "uncommitted": clean(now["dirty"]),
        "commits": [redact(line, patterns) for line in _commits(git, base, now)] if base else [],
        "tools_only": [redact(path, patterns) for path in outside],
    }


def _dirty_entry(entry: object) -> bool:
    return (
        isinstance(entry, list)
        and len(entry) == 3  # noqa: PLR2004 (how, size, mtime_ns)
        and isinstance(entry[0], str)
        and all(isinstance(n, int) and not isinstance(n, bool) for n in entry[1:])
    )


def start_of(start: object, root: str) -> dict[str, Any] | None:
    """A baseline read back from a file, when it is one of this repository and well formed:
    its head a full object name (or '' for a repository with no commit yet), each dirty
    path a string with [how, size, mtime]. None otherwise: nothing of it reaches git."""
    if not isinstance(start, dict) or start.get("root") != root:
        return None
    head, dirty = start.get("head"), start.get("dirty") or {}
    if head != "" and not object_name(head):
        return None
    if not isinstance(dirty, dict) or not all(_dirty_entry(e) for e in dirty.values()):
        return None
    return {**start, "dirty": dirty}


def kept_git(state: dict[str, Any]) -> dict[str, Any]:
    """The evidence's `git` entry ({} when it has none)."""
    kept = state.get("git")
    return kept if isinstance(kept, dict) else {}


def git_entry(
    state: dict[str, Any], found: tuple[Git, dict[str, Any]], patterns: Sequence[str] = ()
) -> dict[str, Any]:
    """An evidence's `git` entry with git's view now (`now`) of what its session changed,
    from its baseline (`start`) when it has one."""
    kept = kept_git(state)
    start = kept.get("start") if isinstance(kept.get("start"), dict) else None
    files = state.get("files") or {}
    now = changes(*found, start, files, cwd=state.get("cwd") or "", patterns=patterns)
    return {**kept, "now": now}
