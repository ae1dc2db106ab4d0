"""Running git in a project that may be hostile: no program of the repo's choosing, bounded time.

A project directory can come with its own `.git/config` (an unpacked archive, a copied
checkout), and plain `git status` runs programs that config names:

- `filter.<driver>.clean` / `.process`: status and diff hash files whose stat changed through
  the clean filter of the driver `.gitattributes` (or `.git/info/attributes`) names. The
  drivers the config defines are read first (`git config`, which runs nothing) and each is
  emptied for the real call (an empty command is no filter; `required` is turned off so git
  does not fail instead). The overrides go through `GIT_CONFIG_COUNT`, not `-c`, so a
  driver named `a=b` cannot escape them.
- `core.fsmonitor` (a hook command), `core.hooksPath`, `log.showSignature` (runs
  `gpg.program`), `diff.external` and textconv drivers, submodules (each with its own
  config), a pager, and any transport a lazy fetch of a partial clone would start
  (`protocol.allow=never`) are all switched off.

The `git` program itself is looked up only in absolute PATH folders outside the repository
(a PATH with `.` or a project's `node_modules/.bin` must not run a `git` the project ships).
Git takes no optional locks (it never rewrites the user's index) and never prompts. Every
call shares one deadline; a call past it, a missing git, or a failure gives None.

Git gets none of the caller's `GIT_*` variables: a project's `.claude/settings.json` can put
`GIT_CONFIG_PARAMETERS` (which outranks the overrides above), `GIT_DIR`, `GIT_EXEC_PATH` or
`GIT_EXTERNAL_DIFF` into a hook's environment. And no value reaches git as an option: a
call is `run(*options, operands=...)`, its options are this package's own constants (each
after the subcommand starts with `-`), and its operands (revisions, paths) come after
`--end-of-options` (git 2.24 and later; an older git fails the call, which gives None). A
revision read back from a file is used only when it is a full object name (`object_name`).
"""

from __future__ import annotations

import os
import time

from memhooks import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Sequence

TIMEOUT = 2.0
OUTPUT_CAP = 2_000_000
#: Settings that would run a program, start a daemon or reach the network.
SAFE_CONFIG = (
    ("core.fsmonitor", "false"),
    ("core.untrackedCache", "false"),
    ("core.hooksPath", os.devnull),
    ("core.pager", "cat"),
    ("diff.external", ""),
    ("diff.ignoreSubmodules", "all"),
    ("status.submoduleSummary", "false"),
    ("submodule.recurse", "false"),
    ("log.showSignature", "false"),
    ("protocol.allow", "never"),
    ("core.quotePath", "false"),  # paths as they are, for the callers without -z
)
#: The lengths of a full object name, SHA-1 and SHA-256, in hex digits.
_OBJECT_NAME_LENGTHS = (40, 64)
_FILTER_KEYS = ("clean", "smudge", "process")
_MAX_DRIVERS = 50


def repo_root(cwd: str) -> str:
    """The folder holding `.git` at or above `cwd`, or '' (then git is not started at all)."""
    if not cwd or not os.path.isabs(cwd):
        return ""
    here = os.path.normpath(cwd)
    while True:
        if os.path.lexists(os.path.join(here, ".git")):
            return here
        parent = os.path.dirname(here)
        if parent == here:
            return ""
        here = parent


def object_name(value: object) -> str:
    """`value` when it is a full object name (40 or 64 lowercase hex digits), else ''."""
    if not isinstance(value, str) or len(value) not in _OBJECT_NAME_LENGTHS:
        return ""
    return "" if value.strip("0123456789abcdef") else value


def git_program(root: str, search: str | None = None) -> str:
    """The first executable `git` in an absolute PATH folder outside `root`, or ''."""
    inside = os.path.join(os.path.realpath(root), "")
    for folder in (os.environ.get("PATH", "") if search is None else search).split(os.pathsep):
        if not os.path.isabs(folder) or os.path.join(os.path.realpath(folder), "").startswith(
            inside
        ):
            continue
        candidate = os.path.join(folder, "git")
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    return ""


def _env(overrides: Sequence[tuple[str, str]]) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.upper().startswith("GIT_")}
    env.update(
        {
            "GIT_OPTIONAL_LOCKS": "0",
            "GIT_TERMINAL_PROMPT": "0",
            "GIT_PAGER": "cat",
            "GIT_NO_LAZY_FETCH": "1",
            "LC_ALL": "C",
        }
    )
    env["GIT_CONFIG_COUNT"] = str(len(overrides))
    for i, (key, value) in enumerate(overrides):
        env[f"GIT_CONFIG_KEY_{i}"] = key
        env[f"GIT_CONFIG_VALUE_{i}"] = value
    return env


def filter_drivers(config_names: str) -> list[str]:
    """The driver names of `git config -z --name-only --get-regexp '^filter\\.'` output."""
    names = []
    for key in config_names.split("\0"):
        if key.startswith("filter.") and key.count(".") >= 2:  # noqa: PLR2004
            name = key[len("filter.") : key.rfind(".")]
            if name not in names:
                names.append(name)
    return names[:_MAX_DRIVERS]


class Git:
    """git in one repository, every call within one deadline."""

    def __init__(self, root: str, timeout: float = TIMEOUT) -> None:
        self.root = root
        self.program = git_program(repo_root(root) or root)
        self.deadline = time.monotonic() + timeout
        self._env: dict[str, str] | None = None

    def _call(self, args: Sequence[str], env: dict[str, str], stdin: bytes) -> str | None:
        left = self.deadline - time.monotonic()
        if left <= 0 or not self.program:
            return None
        import subprocess  # only where there is a repository: ~2 ms a hook otherwise

        try:
            done = subprocess.run(
                [self.program, "--no-pager", "-C", self.root, *args],
                input=stdin,
                capture_output=True,
                timeout=left,
                env=env,
                check=False,
            )
        except (OSError, subprocess.SubprocessError):
            return None
        if done.returncode not in (0, 1):  # 1: `config` or `check-ignore` found nothing
            return None
        return done.stdout[:OUTPUT_CAP].decode("utf-8", "replace")

    def _safe_env(self) -> dict[str, str] | None:
        if self._env is None:
            listed = self._call(
                ["config", "-z", "--name-only", "--get-regexp", "--end-of-options", r"^filter\."],
                _env(SAFE_CONFIG),
                b"",
            )
            if listed is None:
                return None
            names = filter_drivers(listed)
            emptied = [(f"filter.{name}.{key}", "") for name in names for key in _FILTER_KEYS]
            optional = [(f"filter.{name}.required", "false") for name in names]
            self._env = _env([*SAFE_CONFIG, *emptied, *optional])
        return self._env

    def run(self, *options: str, operands: Sequence[str] = (), stdin: bytes = b"") -> str | None:
        """git's output for `options` (the subcommand, then `-` options: constants, never
        data) and `operands` (after `--end-of-options`), or None (no git, no time, an error).
        """
        if any(not option.startswith("-") for option in options[1:]):
            raise ValueError(f"not an option: {options!r}: data goes in operands")
        env = self._safe_env()
        args = [*options, "--end-of-options", *operands]
        return None if env is None else self._call(args, env, stdin)
