"""Memories a worktree holds that its repository's main branch does not have yet.

In a worktree (`git worktree add`) memory follows the branch: what a session there saves is
in that checkout's `.claude/memory/`, and it reaches the main checkout when the branch
merges. A worktree deleted unmerged loses it, so `status` and SessionEnd say which memories
are not on the main branch yet: the memory files of this checkout (the knowledge
categories, not sessions or sub-agent outputs) whose path the main branch's tree lacks.

The main branch is `origin/HEAD` when the clone has one, else a local `main` or `master`
(read from git's files by hand, as every file of the repository is read: store.read_text,
never blocking on a FIFO); its tree is listed by git through the safe runner
(continuity.git_run: no program of the repository's choosing, one deadline). Outside a linked
worktree, or when git fails or runs out of time, nothing is said (None). Standard library
only: SessionEnd asks it.
"""

from __future__ import annotations

import os
import re

from memhooks.continuity.git_run import Git
from memhooks.store import MEMORY_DIR, MemoryPaths, checkout_of, git_dirs, read_text

#: The folders whose memories are the branch's knowledge (sessions and sub-agent outputs
#: are records of work, not what a merge is for).
KNOWLEDGE_FOLDERS = ("decisions", "constraints", "runbooks", "preferences", "tech-debt", "analysis")
LIST_CAP = 2_000
PACKED_CAP = 2_000_000
_REF = re.compile(r"^refs/[A-Za-z0-9._/-]+$")


def main_branch(common: str) -> str | None:
    """The ref of the repository's main branch, read from git's own files in its common dir
    (no git process: SessionEnd's budget is small), or None when it has none to name."""
    remote = read_text(os.path.join(common, "refs", "remotes", "origin", "HEAD"), 4096).strip()
    if remote.startswith("ref: refs/remotes/origin/"):
        ref = remote[len("ref: ") :]
        return ref if _REF.match(ref) and ".." not in ref else None
    packed = read_text(os.path.join(common, "packed-refs"), PACKED_CAP).splitlines()
    for name in ("main", "master"):
        ref = f"refs/heads/{name}"
        if os.path.isfile(os.path.join(common, *ref.split("/"))) or any(
            line.endswith(" " + ref) for line in packed
        ):
            return ref
    return None


def local_memories(paths: MemoryPaths) -> list[str]:
    """This checkout's knowledge memory files, relative to `.claude/memory/`."""
    found: list[str] = []
    for folder in KNOWLEDGE_FOLDERS:
        base = os.path.join(paths.base, folder)
        if os.path.islink(base):
            continue
        try:
            with os.scandir(base) as entries:
                names = sorted(
                    e.name
                    for e in entries
                    if e.name.endswith(".md")
                    and not e.name.startswith(".")
                    and e.is_file(follow_symlinks=False)
                )
        except OSError:
            continue
        found.extend(f"{folder}/{name}" for name in names[:LIST_CAP])
    return found


def not_on_main(paths: MemoryPaths, timeout: float = 2.0) -> dict[str, object] | None:
    """{"branch": the main branch's short name, "paths": memories not on it} in a linked
    worktree; None elsewhere or when git cannot tell."""
    checkout = checkout_of(paths.base)
    found = git_dirs(checkout)
    if found is None or found[0] == found[1]:  # not a linked worktree
        return None
    ref = main_branch(found[1])
    if ref is None:
        return None
    local = local_memories(paths)
    git = Git(checkout, timeout=timeout)
    listed = git.run("ls-tree", "-r", "-z", "--name-only", operands=(ref, "--", MEMORY_DIR + "/"))
    if listed is None:
        return None
    prefix = MEMORY_DIR + "/"
    on_main = {name.removeprefix(prefix) for name in listed.split("\0") if name}
    short = ref.removeprefix("refs/heads/").removeprefix("refs/remotes/")
    return {"branch": short, "paths": [p for p in local if p not in on_main]}


def notice(found: dict[str, object] | None) -> str:
    """The one line for the user, or "" when every memory here is on the main branch."""
    missing = found.get("paths") if found else None
    if not found or not isinstance(missing, list) or not missing:
        return ""
    count = len(missing)
    return (
        f"memhooks: {count} {'memory' if count == 1 else 'memories'} in this worktree "
        f"{'is' if count == 1 else 'are'} not on {found['branch']} yet ("
        + ", ".join(missing[:3])
        + (", …" if count > 3 else "")  # noqa: PLR2004
        + "): merge the branch to keep "
        + ("it" if count == 1 else "them")
        + "; a worktree removed unmerged loses "
        + ("it." if count == 1 else "them.")
    )
