"""Where this machine keeps a checkout's own state: outside the checkout, under the user's
state folder, in a folder named by an identifier no repository can ship. Standard library
only: every hook builds its paths from it.

A repository can commit anything inside the checkout, `git add -f` included, and a `git pull`
or a `git worktree add` brings it in. So nothing the hooks read back and trust as their own
record (a session's evidence, `_session.json`, the catalog, the search index, the prompts,
the offsets, the log) lives there: it lives in `$XDG_STATE_HOME/memhooks/checkouts/<id>/`
(by default `~/.local/state/memhooks/checkouts/<id>/`), and a file planted in the checkout
is simply never read.

`<id>` is 32 random hex digits made by `memhooks start` (or by a worktree's first session,
`store.worktree.join_worktree`), written into the checkout's git dir (`.git/memhooks-id`,
or `.git/worktrees/<name>/memhooks-id` for a linked worktree: never committed, never
pulled, one per worktree, and a new clone has none) and into this machine's consent record
(`store.consent`), which holds only when the two agree. Outside git it is kept in
`.claude/memhooks-id`. A copy of a checkout (`cp -a`) carries the id but not the record of
its path, so `start` there makes a new one; the folder names its checkout (`checkout`) so a
command never writes into another checkout's state.
"""

from __future__ import annotations

import os
import stat

from memhooks.store.worktree import git_dirs

STATE_ENV = "XDG_STATE_HOME"
ID_NAME = "memhooks-id"
ID_LENGTH = 32
_HEX = frozenset("0123456789abcdef")
#: The local folder of a checkout without an id: nothing is kept for it (the gate is shut).
NO_ID = "none"
#: The file in a local folder that names its checkout's real path.
OWNER = "checkout"


def state_dir() -> str:
    """The user's own state folder for memhooks (outside every repository)."""
    base = os.environ.get(STATE_ENV) or os.path.join(os.path.expanduser("~"), ".local", "state")
    return os.path.join(base, "memhooks")


def checkout_of(memory_base: str) -> str:
    """The checkout a memory tree (`<checkout>/.claude/memory`) belongs to."""
    return os.path.dirname(os.path.dirname(os.path.abspath(memory_base)))


def id_file(checkout: str) -> str:
    """Where a checkout keeps its id: its own git dir, else `.claude/` (outside git)."""
    found = git_dirs(checkout)
    if found is not None:
        return os.path.join(found[0], ID_NAME)
    return os.path.join(checkout, ".claude", ID_NAME)


def read_id(target: str) -> str | None:
    """The id in `target` (an id file), or None: missing, not a regular file, not an id.
    Opened without blocking (a FIFO is never waited on) and never through a symlink."""
    from memhooks.store.read_once import keep_bytes, kept_bytes

    data = kept_bytes(target)  # read already while this hook runs
    if data is None:
        flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0)
        try:
            fd = os.open(target, flags)
        except OSError:
            return None
        try:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode):
                return None
            data = os.read(fd, ID_LENGTH + 2)
        except OSError:
            return None
        finally:
            os.close(fd)
        keep_bytes(target, info, data)
    return read_id_text(data.decode("ascii", "replace").strip())


def read_id_text(text: str) -> str | None:
    return text if len(text) == ID_LENGTH and _HEX.issuperset(text) else None


def checkout_id(checkout: str) -> str | None:
    """The checkout's id. In a git checkout only its git dir's counts: a `.claude/memhooks-id`
    there may have come with the clone (an author who started before `git init` commits
    it), so a checkout that became a git repository after `start` is asked again."""
    return read_id(id_file(checkout))


def local_dir(checkout_id_or_none: str | None) -> str:
    """The machine-local folder of the checkout whose id this is."""
    return os.path.join(state_dir(), "checkouts", checkout_id_or_none or NO_ID)


def make_id(checkout: str, new: str | None = None) -> str:
    """A new id for `checkout` (or `new`, one a record kept), written into its id file
    (replacing any), and its local folder made, naming the checkout."""
    from memhooks.store.files import write_atomic

    new = new or os.urandom(ID_LENGTH // 2).hex()
    target = id_file(checkout)
    os.makedirs(os.path.dirname(target), exist_ok=True)
    write_atomic(target, new + "\n")
    claim(checkout, new)
    return new


def claim(checkout: str, found: str) -> None:
    """Make the local folder of `found` and name `checkout` in it."""
    from memhooks.store.files import write_atomic

    folder = local_dir(found)
    os.makedirs(folder, mode=0o700, exist_ok=True)
    write_atomic(os.path.join(folder, OWNER), os.path.realpath(checkout) + "\n")


def owner_of(found: str) -> str | None:
    """The real path of the checkout the local folder of `found` names; None when not made."""
    try:
        with open(os.path.join(local_dir(found), OWNER), encoding="utf-8") as handle:
            return handle.read(8192).strip()
    except (OSError, ValueError):
        return None


def ensure_id(checkout: str) -> str:
    """The checkout's id, made when it has none or shares one with another checkout that
    still holds it (a copy, `cp -a`): what a command run here by the user uses, `start`
    included. A moved checkout keeps its id and its state. Never called by a hook."""
    found = checkout_id(checkout)
    if found is None:
        return make_id(checkout)
    owner = owner_of(found)
    real = os.path.realpath(checkout)
    if owner != real:
        if owner and os.path.isdir(owner) and checkout_id(owner) == found:
            return make_id(checkout)  # a copy: the original keeps the folder
        claim(checkout, found)
    return found


def common_dir_id(common: str) -> str:
    """The id kept in a repository's common dir (its main checkout's), made when missing."""
    from memhooks.store.files import write_atomic

    target = os.path.join(common, ID_NAME)
    found = read_id(target)
    if found is None:
        found = os.urandom(ID_LENGTH // 2).hex()
        write_atomic(target, found + "\n")
    return found


#: What an older memhooks kept in the tree (relative to it), and where it goes now.
LEGACY_SESSION, LEGACY_CACHE = "_session.json", ".cache"


def move_out(base: str, checkout: str, skip: set[str]) -> str:
    """Give `checkout` an id and move its tree's legacy machine-local files (`.cache/` and
    `_session.json`, less the tree-relative names in `skip`) into its local folder, the
    crash-recovery copies with them; returns the id (`install.local_state` decides)."""
    from memhooks.store.paths import MemoryPaths
    from memhooks.store.watch import mirror_dir

    old_mirror = mirror_dir(MemoryPaths(base, local=os.path.abspath(base)))
    found = make_id(checkout)
    moved = MemoryPaths(base)
    cache = os.path.join(base, LEGACY_CACHE)
    for folder, subfolders, files in os.walk(cache):
        subfolders[:] = [s for s in subfolders if not os.path.islink(os.path.join(folder, s))]
        for name in files:
            source = os.path.join(folder, name)
            relative = os.path.relpath(source, cache).replace(os.sep, "/")
            if not os.path.islink(source) and f"{LEGACY_CACHE}/{relative}" not in skip:
                _move_file(source, os.path.join(moved.cache, *relative.split("/")))
    if LEGACY_SESSION not in skip:
        _move_file(os.path.join(base, LEGACY_SESSION), moved.session)
    if os.path.isdir(old_mirror) and not os.path.exists(mirror_dir(moved)):
        os.makedirs(os.path.dirname(mirror_dir(moved)), exist_ok=True)
        os.replace(old_mirror, mirror_dir(moved))
    return found


def _move_file(source: str, target: str) -> None:
    from memhooks.store.files import read_bytes, write_atomic

    os.makedirs(os.path.dirname(target), mode=0o700, exist_ok=True)
    try:
        os.replace(source, target)
    except OSError:  # another file system: the bytes, then the file goes
        write_atomic(target, read_bytes(source, 1 << 30, whole=True), durable=False)
        os.unlink(source)
