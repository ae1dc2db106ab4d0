"""What this machine decided about a checkout: whether memory is on (consent), and which custom
redaction patterns are fast enough to run. Standard library only: every hook asks.
"""

from __future__ import annotations

import json
import os

from memhooks import TYPE_CHECKING
from memhooks.store.files import log_line, read_text, write_atomic
from memhooks.store.worktree import repository
from memhooks.text.clock import iso

if TYPE_CHECKING:
    from typing import Any


# ------------------------------------------------------------------ consent
# Whether the person on this machine turned memory on for a checkout. Standard library only: every
# hook asks it.
#
# A repository can commit anything under `.claude/memory/`, `_session.json` with `"active": true`
# and `config.json` included; none of that is the user's word. The user's word is `memhooks start`
# (`/memory start`) or `memhooks stop`, run on this machine, and it is kept outside every
# repository: one small file per checkout under the user's state folder,
# `$XDG_STATE_HOME/memhooks/consent/` (by default `~/.local/state/memhooks/consent/`). Not the
# plugin data folder: Claude's own Bash calls of the CLI are not given it, its name differs
# between a marketplace install and `--plugin-dir`, and an uninstall may remove it.
#
# A record names the checkout by its real path (a symlink to it is the same checkout) and by the
# folder's identity (device and inode): another folder put at the same path later, a fresh clone
# say, is not the folder the user turned memory on for. A moved checkout is asked again.
#
# A decision also covers the repository's other checkouts on this machine (its worktrees, `git
# worktree add`): it is kept a second time for the repository, named by the real path and identity
# of its git common dir (store.worktree, read by hand, never by running git). A checkout with no
# decision of its own follows its repository's latest one; a fresh clone at the same path is
# another repository (another common dir) and is asked again.


STATE_ENV = "XDG_STATE_HOME"


RECORD_CAP = 4096


CONSENT_ON, CONSENT_OFF = "on", "off"


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


def consent_file(path: str) -> str:
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
    return os.path.join(state_dir(), "consent", consent_file(real) + ".json")


def _repository_file(common: str) -> str:
    return os.path.join(state_dir(), "consent", "repo-" + consent_file(common) + ".json")


def _read_record(target: str, real: str, identity: list[int]) -> dict[str, Any] | None:
    try:
        with open(target, encoding="utf-8") as handle:
            record = json.loads(handle.read(RECORD_CAP))
    except (OSError, ValueError):
        return None
    if not isinstance(record, dict) or record.get("path") != real:
        return None
    if record.get("identity") != identity or record.get("state") not in (CONSENT_ON, CONSENT_OFF):
        return None
    return record


def consent_decision(memory_base: str) -> dict[str, Any] | None:
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
    record = consent_decision(memory_base)
    return record is not None and record["state"] == CONSENT_ON


def record_consent(memory_base: str, state: str) -> None:
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


# ------------------------------------------------------------------ pattern_verdicts
# Which `redact.extra_patterns` are fast enough to run, measured once per pattern and kept in
# `.cache/patterns.json` ({pattern: seconds on the probe, or "slow"}). Standard library only
# (every hook calls `usable` when the config has patterns).
#
# config.json is committed, so a cloned repository chooses the patterns; one that is slow on
# ordinary text would cost every prompt its deadline and leave PreCompact without a checkpoint. So
# each pattern is timed on a fixed probe text the first time it is seen (`probe_seconds`), the
# verdict is kept, and a slow one is dropped: it no longer redacts, and the log, `status` and
# `doctor` say so. A pattern that runs past its deadline on a real text is marked slow too.


VERDICTS = ".cache/patterns.json"


VERDICTS_CAP = 200_000


SLOW = "slow"


def _file(memory_root: str) -> str:
    return os.path.join(memory_root, *VERDICTS.split("/"))


def _load(memory_root: str) -> dict[str, object]:
    try:
        data = json.loads(read_text(_file(memory_root), VERDICTS_CAP) or "{}")
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _save(memory_root: str, verdicts: dict[str, object]) -> None:
    try:  # best effort: a read-only tree measures again next time
        write_atomic(_file(memory_root), json.dumps(verdicts), durable=False)
    except OSError:
        return


def is_slow(verdict: object) -> bool:
    from memhooks.text import redact_custom

    return verdict == SLOW or (
        isinstance(verdict, int | float) and verdict > redact_custom.PROBE_SECONDS
    )


def usable_patterns(
    memory_root: str, patterns: tuple[str, ...], log: str | None = None
) -> tuple[tuple[str, ...], list[str]]:
    """(`patterns` without the slow ones, a line for each slow one). A pattern seen for the
    first time is timed now, and `log` told if it is dropped; one the shape check refuses is
    left to it (it never runs)."""
    from memhooks.text import redact_custom

    accepted = {c.pattern for c in redact_custom.compile_patterns(patterns)}
    if not accepted:
        return patterns, []
    verdicts = _load(memory_root)
    changed = False
    kept: list[str] = []
    lines: list[str] = []
    for number, pattern in enumerate(patterns):
        verdict = verdicts.get(pattern)
        if pattern in accepted and not (verdict == SLOW or isinstance(verdict, int | float)):
            seconds = redact_custom.probe_seconds(pattern)
            verdict = verdicts[pattern] = SLOW if seconds is None else round(seconds, 4)
            changed = True
            if log is not None and is_slow(verdict):
                log_line(log, f"config.json {dropped_line(number, verdict)}")
        if pattern in accepted and is_slow(verdict):
            redact_custom.drop(pattern)
            lines.append(dropped_line(number, verdict))
            continue
        kept.append(pattern)
    if changed:
        _save(memory_root, verdicts)
    return tuple(kept), lines


def dropped_line(number: int, verdict: object) -> str:
    from memhooks.text import redact_custom

    took = (
        f"took {verdict * 1000:,.0f} ms on the probe text"
        if isinstance(verdict, int | float)
        else "ran past its deadline"
    )
    return (
        f"redact.extra_patterns[{number}]: dropped, too slow ({took}; the budget is "
        f"{redact_custom.PROBE_SECONDS * 1000:.0f} ms): it redacts nothing until it is fixed "
        "in config.json"
    )


def mark_slow(memory_root: str, pattern: str) -> None:
    """`pattern` ran past its deadline on a real text: keep it out of the next runs too."""
    if not pattern:
        return
    verdicts = _load(memory_root)
    verdicts[pattern] = SLOW
    _save(memory_root, verdicts)
