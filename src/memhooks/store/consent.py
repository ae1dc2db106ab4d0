"""Whether the person on this machine turned memory on for a checkout (consent). Standard
library only: every hook asks.
"""

from __future__ import annotations

import json
import os

from memhooks import TYPE_CHECKING
from memhooks.store.files import write_atomic
from memhooks.store.local import (
    ID_NAME,
    checkout_id,
    checkout_of,
    common_dir_id,
    ensure_id,
    read_id,
    read_id_text,
    state_dir,
)
from memhooks.store.worktree import git_dirs
from memhooks.text.clock import iso

if TYPE_CHECKING:
    from typing import Any


# Whether the person on this machine turned memory on for a checkout. Standard library only: every
# hook asks it.
#
# A repository can commit anything under `.claude/memory/`, `config.json` included; none of that is
# the user's word. The user's word is `memhooks start` (`/memory start`) or `memhooks stop`, run on
# this machine, and it is kept outside every repository: one small file per checkout under the
# user's state folder, `$XDG_STATE_HOME/memhooks/consent/` (by default
# `~/.local/state/memhooks/consent/`). Not the plugin data folder: Claude's own Bash calls of the
# CLI are not given it, its name differs between a marketplace install and `--plugin-dir`, and an
# uninstall may remove it.
#
# A record names the checkout by its real path (a symlink to it is the same checkout) and by its
# id (`store.local`: random, made by `start`, kept in the checkout's git dir), and holds only when
# the checkout's id file says the same. A new clone at the same path has no id (its `.git` is new),
# so it is asked again whatever inode the file system hands it; a moved checkout is asked again.
#
# A decision also covers the repository's other checkouts on this machine (its worktrees, `git
# worktree add`): it is kept a second time for the repository, named by the real path of its git
# common dir (store.worktree, read by hand, never by running git) and the id kept there. A checkout
# with no decision of its own follows its repository's latest one.


CONSENT_ON, CONSENT_OFF = "on", "off"


RECORD_CAP = 4096


#: The one line SessionStart shows the user where a repository ships memory and nobody on
#: this machine decided yet (a `systemMessage`: for the user, never the model's context).
NOTICE = (
    "memhooks: this repository ships memory in .claude/memory/, and memory is not on for "
    "this checkout on this machine, so nothing from it is used. Review it with `/memory "
    "view` (or read the files); turn it on with `/memory start`, or silence this with "
    "`/memory stop`."
)


def consent_file(path: str) -> str:
    """A path as one file name: escaped, not hashed (hashlib costs a hook imports), and cut
    to its last 200 characters. Two long paths may share a name: callers keep the full path
    in the file and check it."""
    name = "".join(c if c.isalnum() or c in "-_." else f"%{ord(c):02X}" for c in path)
    return name[-200:]


def record_file(real: str) -> str:
    return os.path.join(state_dir(), "consent", consent_file(real) + ".json")


def repository_file(common: str) -> str:
    return os.path.join(state_dir(), "consent", "repo-" + consent_file(common) + ".json")


def read_record(target: str, real: str) -> dict[str, Any] | None:
    """The record in `target` when it is one and names `real`; it may lack an id (one an
    older memhooks wrote: `install.local_state` moves such a checkout)."""
    try:
        with open(target, encoding="utf-8") as handle:
            record = json.loads(handle.read(RECORD_CAP))
    except (OSError, ValueError):
        return None
    if not isinstance(record, dict) or record.get("path") != real:
        return None
    return record if record.get("state") in (CONSENT_ON, CONSENT_OFF) else None


def _vouched(target: str, real: str, found: str | None) -> dict[str, Any] | None:
    record = read_record(target, real)
    if record is None or found is None or record.get("id") != found:
        return None
    return record


def consent_decision(memory_base: str) -> dict[str, Any] | None:
    """This machine's decision for the checkout of `memory_base` ({"state": "on"|"off",
    "since": ..., "id": ...}), or None when nobody here decided, or decided for another
    folder. A checkout without its own decision takes its repository's (marked
    `"repository": true`): one given in another worktree of the same repository."""
    checkout = checkout_of(memory_base)
    real = os.path.realpath(checkout)
    dirs = git_dirs(real)
    own_id = checkout_id(real)
    own = _vouched(record_file(real), real, own_id)
    if own is not None or dirs is None:
        return own
    shared = _vouched(repository_file(dirs[1]), dirs[1], read_id(os.path.join(dirs[1], ID_NAME)))
    return None if shared is None else {**shared, "repository": True}


def is_on(memory_base: str) -> bool:
    """The hooks' gate: the user turned memory on for this very checkout, on this machine."""
    record = consent_decision(memory_base)
    return record is not None and record["state"] == CONSENT_ON


def record_consent(memory_base: str, state: str) -> str:
    """Keep the user's decision (`start`: on, `stop`: off) for this checkout, with its id
    (made when it has none); returns the id. The repository's other worktrees follow it."""
    checkout = checkout_of(memory_base)
    if not os.path.isdir(checkout):
        raise FileNotFoundError(f"no such checkout: {checkout}")
    real = os.path.realpath(checkout)
    own_id = ensure_id(real)
    since = iso()
    _write_record(record_file(real), real, own_id, state, since)
    dirs = git_dirs(real)
    if dirs is not None:
        common_id = common_dir_id(dirs[1])  # the main checkout's, which its repository goes by
        _write_record(repository_file(dirs[1]), dirs[1], common_id, state, since)
    return own_id


def _write_record(target: str, real: str, found: str, state: str, since: str) -> None:
    os.makedirs(os.path.dirname(target), mode=0o700, exist_ok=True)
    body = {
        "path": real,
        "id": found,
        "identity": folder_identity(real),
        "state": state,
        "since": since,
    }
    write_atomic(target, json.dumps(body) + "\n")


def carry_over(records: list[tuple[str, str, dict[str, Any]]], found: str) -> None:
    """Rewrite the records an older memhooks wrote ((file, named path, record)) with the
    checkout's new id (the repository's: its common dir's), as `start` would have."""
    for target, named, record in records:
        is_repo = target != record_file(named)
        own = common_dir_id(named) if is_repo else found
        _write_record(target, named, own, str(record["state"]), str(record.get("since") or iso()))


def folder_identity(path: str) -> list[int] | None:
    try:
        info = os.stat(path)
    except OSError:
        return None
    return [info.st_dev, info.st_ino]


def recorded_id(memory_base: str) -> str | None:
    """Outside git, where `rm -rf .claude` takes the id file with it: the id this machine's
    record keeps for the checkout at this path and of this identity (device and inode), for
    reporting and recovering a deleted tree only; never the hooks' gate."""
    checkout = os.path.realpath(checkout_of(memory_base))
    if git_dirs(checkout) is not None:
        return None
    record = read_record(record_file(checkout), checkout)
    if record is None or record.get("identity") != folder_identity(checkout):
        return None
    found = record.get("id")
    return found if isinstance(found, str) and read_id_text(found) else None
