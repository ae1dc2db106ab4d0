"""Whether the person on this machine turned memory on for a checkout. Standard library only:
every hook asks it.

A repository can commit anything under `.claude/memory/`, `_session.json` with
`"active": true` and `config.json` included; none of that is the user's word. The user's
word is `memhooks start` (`/memory start`) or `memhooks stop`, run on this machine, and it is
kept outside every repository: one small file per checkout under the user's state folder,
`$XDG_STATE_HOME/memhooks/consent/` (by default `~/.local/state/memhooks/consent/`). Not the
plugin data folder: Claude's own Bash calls of the CLI are not given it, its name differs
between a marketplace install and `--plugin-dir`, and an uninstall may remove it.

A record names the checkout by its real path (a symlink to it is the same checkout) and by
the folder's identity (device and inode): another folder put at the same path later, a fresh
clone say, is not the folder the user turned memory on for. A moved checkout is asked again.

A decision also covers the repository's other checkouts on this machine (its worktrees,
`git worktree add`): it is kept a second time for the repository, named by the real path and
identity of its git common dir (store.worktree, read by hand, never by running git). A
checkout with no decision of its own follows its repository's latest one; a fresh clone at
the same path is another repository (another common dir) and is asked again.
"""

from __future__ import annotations

import json
import os

from memhooks import TYPE_CHECKING
from memhooks.store.atomic import write_atomic
from memhooks.store.worktree import repository
from memhooks.text.clock import iso

if TYPE_CHECKING:
    from typing import Any

STATE_ENV = "XDG_STATE_HOME"
RECORD_CAP = 4096
ON, OFF = "on", "off"

#: The one line SessionStart shows the user where a repository ships memory and nobody on
#: this machine decided yet (a `systemMessage`: for the user, never the model's context).
NOTICE = (
    "memhooks: this repository ships memory in .claude/memory/, and memory is not on for "
    "this checkout on this machine, so nothing from it is used. Review it with `/memory "
    "view` (or read the files); turn it on with `/memory start`, or silence this with "
    "`/memory stop`."
)


def state_dir() -> str:
    """The user's own state folder for memhooks (outside every repository)."""
    base = os.environ.get(STATE_ENV) or os.path.join(os.path.expanduser("~"), ".local", "state")
    return os.path.join(base, "memhooks")


def file_name(path: str) -> str:
    """A path as one file name: escaped, not hashed (hashlib costs a hook imports), and cut
    to its last 200 characters. Two long paths may share a name: callers keep the full path
    in the file and check it."""
    name = "".join(c if c.isalnum() or c in "-_." else f"%{ord(c):02X}" for c in path)
    return name[-200:]


def checkout_of(memory_base: str) -> str:
    """The checkout a memory tree (`<checkout>/.claude/memory`) belongs to."""
    return os.path.dirname(os.path.dirname(os.path.abspath(memory_base)))


def _identity(checkout: str) -> tuple[str, list[int]] | None:
    real = os.path.realpath(checkout)
    try:
        info = os.stat(real)
    except OSError:
        return None
    return real, [info.st_dev, info.st_ino]


def _record_file(real: str) -> str:
    return os.path.join(state_dir(), "consent", file_name(real) + ".json")


def _repository_file(common: str) -> str:
    return os.path.join(state_dir(), "consent", "repo-" + file_name(common) + ".json")


def _read_record(target: str, real: str, identity: list[int]) -> dict[str, Any] | None:
    try:
        with open(target, encoding="utf-8") as handle:
            record = json.loads(handle.read(RECORD_CAP))
    except (OSError, ValueError):
        return None
    if not isinstance(record, dict) or record.get("path") != real:
        return None
    if record.get("identity") != identity or record.get("state") not in (ON, OFF):
        return None
    return record


def decision(memory_base: str) -> dict[str, Any] | None:
    """This machine's decision for the checkout of `memory_base` ({"state": "on"|"off",
    "since": ...}), or None when nobody here decided, or decided for another folder. A
    checkout without its own decision takes its repository's (marked `"repository": true`):
    one given in another worktree of the same repository."""
    checkout = checkout_of(memory_base)
    found = _identity(checkout)
    if found is None:
        return None
    own = _read_record(_record_file(found[0]), *found)
    if own is not None:
        return own
    repo = repository(found[0])
    if repo is None:
        return None
    shared = _read_record(_repository_file(repo[0]), *repo)
    return None if shared is None else {**shared, "repository": True}


def is_on(memory_base: str) -> bool:
    """The hooks' gate: the user turned memory on for this very checkout, on this machine."""
    record = decision(memory_base)
    return record is not None and record["state"] == ON


def record(memory_base: str, state: str) -> None:
    """Keep the user's decision (`start`: on, `stop`: off) for this checkout."""
    found = _identity(checkout_of(memory_base))
    if found is None:
        raise FileNotFoundError(f"no such checkout: {checkout_of(memory_base)}")
    real, identity = found
    target = _record_file(real)
    os.makedirs(os.path.dirname(target), mode=0o700, exist_ok=True)
    since = iso()
    body = {"path": real, "identity": identity, "state": state, "since": since}
    write_atomic(target, json.dumps(body) + "\n")
    repo = repository(real)
    if repo is not None:  # the repository's other worktrees follow this decision
        shared = {"path": repo[0], "identity": repo[1], "state": state, "since": since}
        write_atomic(_repository_file(repo[0]), json.dumps(shared) + "\n")
