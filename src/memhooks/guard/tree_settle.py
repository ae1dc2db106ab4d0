"""The write guard's second layer: a change made behind the store's back, noticed by the next
hook and settled.

No parser knows every shell, so the guard (`write_guard`) refuses the plain writes and this
module catches the rest after the fact. PostToolUse runs `look` after every Bash call and
SessionStart before every briefing. The cheap part compares a few dozen stats with what the
store recorded when it last wrote (`store.watch`); only on a difference is the tree
listed and, when a memory file or a derived file changed, settled under the store lock:

- a new or changed memory file that `rebuild` would index is redacted in place and indexed;
- one that is not valid is put aside in `paths.quarantine` (machine-local, never rewritten,
  never read by a hook), and the last known version comes back if there was one. At SessionStart
  (changes made outside Claude: an editor, a `git pull`) it is reported and left in place,
  out of the index, as `rebuild` leaves it;
- a deleted memory file is reported; its last known copy is kept outside the tree and
  `memhooks rebuild --recover` puts it back;
- a derived file (`MEMORY.md`) written by hand is made again from the memory files.
"""

from __future__ import annotations

import os
import sys

from memhooks import TYPE_CHECKING
from memhooks.store import (
    LOCK_TIMEOUT,
    LOST_REPORTED,
    TREE_PREFIX,
    LockTimeoutError,
    changed_since,
    checkout_of,
    keep_trusted,
    kept_copies,
    kept_copy,
    log_line,
    mark_lost_reported,
    memory_listing,
    mirror_dir,
    quick_line,
    quick_lock,
    record_quick,
    record_tree,
    recorded_listing,
    recorded_quick,
    settle_trusted,
    watched_changed,
)

if TYPE_CHECKING:
    from memhooks.store import MemoryPaths, Settings

#: At most this many files are named in one message; the rest are counted.
NAMED = 5


def look(paths: MemoryPaths, settings: Settings, cli: str, *, from_claude: bool) -> list[str]:
    """What changed behind the store's back, settled: the messages for Claude and the user,
    [] when nothing did. `from_claude`: the change is a tool call's, so an invalid file is put
    aside and a valid one is pointed out. The cheap check needs no lock: the line it compares
    is recorded under the lock by every write step, so a match means nothing changed since;
    only a difference is looked at again under the lock (a write step may be under way)."""
    if recorded_quick(paths) == quick_line(paths):
        return []
    try:
        return _look_deeper(paths, settings, cli, from_claude=from_claude)
    except LockTimeoutError:
        return []  # another writer is at work: nothing recorded, so the next hook looks again


def _look_deeper(
    paths: MemoryPaths, settings: Settings, cli: str, *, from_claude: bool
) -> list[str]:
    with quick_lock(paths.lock, LOCK_TIMEOUT):
        # Under the lock: every write step of memhooks records what it wrote before it
        # lets go of it (store.trusted), so what still differs was written by another hand.
        recorded = recorded_quick(paths)
        if recorded == quick_line(paths):
            return []
        old = recorded_listing(paths)
        if old is None:  # never recorded on this machine: this is the baseline
            record_tree(paths)
            return []
        messages = settle_trusted(paths, changed_since(paths, recorded), from_claude=from_claude)
        if old == memory_listing(paths) and not _derived(paths, from_claude):
            keep_trusted(paths)
            record_quick(paths)
            return _told(paths, messages, cli, from_claude=from_claude)
    messages += _settle_apart(paths, settings, cli, from_claude=from_claude)
    return _told(paths, messages, cli, from_claude=from_claude)


#: Seconds a hook waits for the settle it started (the next look tries again past them).
SETTLE_SECONDS = 10.0


def _settle_apart(
    paths: MemoryPaths, settings: Settings, cli: str, *, from_claude: bool
) -> list[str]:
    """`_settle` needs the store's own rules (frontmatter, the models: pydantic), which no
    hook but PreCompact may load: a hook runs it as a process of its own, through the same
    launcher (`memhooks settle`, cli.main), and waits for what it settled. A command (or a
    test) calls it in place."""
    launcher = os.path.abspath(sys.argv[0]) if sys.argv and sys.argv[1:2] == ["hook"] else ""
    if not launcher.endswith("memhooks.py"):
        return _settle(paths, settings, cli, from_claude=from_claude)
    import json
    import subprocess

    project = checkout_of(paths.base)
    where = "claude" if from_claude else "outside"
    argv = [sys.executable, "-I", launcher, "settle", where, cli]
    try:
        done = subprocess.run(
            argv,
            cwd=os.path.dirname(os.path.dirname(launcher)),
            env={**os.environ, "MEMHOOKS_PROJECT_DIR": project},
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=SETTLE_SECONDS,
            check=False,
        )
        said = json.loads(done.stdout or b"[]")
    except (OSError, ValueError, subprocess.SubprocessError) as exc:
        log_line(paths.log, f"the settle of a change behind the store's back failed: {exc}")
        return []
    return [str(line) for line in said] if isinstance(said, list) else []


def settle_main(argv: list[str]) -> int:
    """`memhooks settle claude|outside CLI`: what a hook started; prints the messages (JSON)."""
    import json

    from memhooks.store import MemoryPaths, command_project_root, load_settings

    where, cli = [*argv, "", "memhooks"][:2]
    paths = MemoryPaths.for_project(command_project_root())
    settings = load_settings(paths.config)
    said = _settle(paths, settings, cli, from_claude=where == "claude")
    sys.stdout.write(json.dumps(said) + "\n")
    return 0


def _told(paths: MemoryPaths, messages: list[str], cli: str, *, from_claude: bool) -> list[str]:
    for message in messages:
        log_line(paths.log, message.removeprefix("memhooks: "))
    if from_claude and messages:
        messages.append(
            f"Write memories with `{cli} save <category>` (or `remember`, `retire`) and the "
            f"task with `{cli} task`: they validate, redact and index under the store lock."
        )
    return messages


def _derived(paths: MemoryPaths, from_claude: bool) -> list[str]:
    """The derived files written behind the store's back. Only after a tool call: at
    SessionStart a changed MEMORY.md is a merge's, which the conflict check reports and
    `rebuild` heals (hooks.session_start)."""
    return watched_changed(paths) if from_claude else []


def _settle(paths: MemoryPaths, settings: Settings, cli: str, *, from_claude: bool) -> list[str]:
    from memhooks.recall.citations import with_hashes
    from memhooks.recall.search_index import SearchIndex
    from memhooks.store import Store

    store = Store(paths, settings, search=SearchIndex, cite=with_hashes, lock_timeout=LOCK_TIMEOUT)
    messages: list[str] = []
    with store.locked():
        old = recorded_listing(paths) or {}
        listing = memory_listing(paths)
        for relative, stamp in sorted(listing.items()):
            if old.get(relative) != stamp:
                new = relative not in old
                messages += _settle_file(paths, settings, relative, new=new, claude=from_claude)
        gone = sorted(set(old) - set(listing))
        if gone:
            messages.append(_deleted(paths, gone, cli))
        derived = _derived(paths, from_claude)
        if derived:
            messages.append(
                f"memhooks: {', '.join(derived)} is derived from the memory files and was "
                "written behind the store's back; it was made again from them."
            )
        # Reconciles the catalog with the files (what is valid is indexed, redacted
        # already), makes MEMORY.md again and records the tree as it now stands.
        store.reindex_locked([], {})
    return messages


def _settle_file(
    paths: MemoryPaths, settings: Settings, relative: str, *, new: bool, claude: bool
) -> list[str]:
    from pathlib import Path

    from memhooks.store import UnparsableMemoryError, put_aside, put_back, read_entry, scrub

    where = TREE_PREFIX + relative
    path = os.path.join(paths.base, *relative.split("/"))
    try:
        read_entry(paths, Path(path))  # what `rebuild` would index
    except (OSError, UnparsableMemoryError, ValueError) as exc:
        why = (str(exc).splitlines() or [type(exc).__name__])[0][:200]
        if not claude:
            return [
                f"memhooks: {where} is not a valid memory ({why}); it is left out of the "
                "index until it is fixed (then `memhooks rebuild`)."
            ]
        aside = put_aside(paths, relative)
        back = not new and put_back(paths, relative)
        return [
            f"memhooks: {where} was written behind the store's back and is not a valid "
            f"memory ({why}); it was put aside in {aside}"
            + (", and its last known version is back." if back else ".")
        ]
    if scrub(path, settings.redact_patterns):
        return [f"memhooks: secrets in {where} were redacted before it was indexed."]
    if claude:
        verb = "written" if new else "changed"
        return [f"memhooks: {where} was {verb} behind the store's back; it is valid and indexed."]
    return []


def _deleted(paths: MemoryPaths, gone: list[str], cli: str) -> str:
    kept = [r for r in gone if kept_copy(paths, r)]
    named = ", ".join(TREE_PREFIX + r for r in gone[:NAMED])
    more = f" and {len(gone) - NAMED} more" if len(gone) > NAMED else ""
    text = (
        f"memhooks: {len(gone)} memory file(s) were deleted behind the store's back: {named}{more}."
    )
    if kept:
        text += (
            f" The last known copies of {len(kept)} are kept outside the project; "
            f"`{cli} rebuild --recover` puts them back."
        )
    if len(kept) < len(gone):
        text += " No copy was kept of the others (git may have one)."
    return text + f" To take a memory out of memory, use `{cli} retire <path> --reason '<why>'`."


def lost_tree(paths: MemoryPaths, cli: str) -> str:
    """The whole tree is gone, and this machine kept copies of its memories: said once."""
    if os.path.lexists(paths.base):
        return ""
    mirror = mirror_dir(paths)
    reported = os.path.join(mirror, LOST_REPORTED)
    if recorded_listing(paths) is None or os.path.exists(reported):
        return ""
    kept = kept_copies(paths)
    try:
        mark_lost_reported(paths)
    except OSError:
        return ""
    log_line(None, f"{TREE_PREFIX} was deleted; {len(kept)} memory copies are kept in {mirror}")
    return (
        f"memhooks: {TREE_PREFIX} was deleted ({len(kept)} memory file(s) in it). Their last "
        f"known copies are kept outside the project: `{cli} start` then "
        f"`{cli} rebuild --recover` puts them back."
    )
