"""The branch and the uncommitted files, for the checkpoint: what compaction loses and a
resumed Claude would otherwise have to ask git again. Bounded in time, never fatal.

One `git status --porcelain --branch` with a short timeout. The project's own git config must
not run anything: `core.fsmonitor` (a command a cloned repo can set) is turned off, and git
takes no optional locks, so a checkpoint never blocks the user's own git.
"""

from __future__ import annotations

import os
import subprocess

TIMEOUT = 0.8
MAX_FILES = 50
_STATUS_COLUMNS = 3  # "XY " before each path
_SAFE_CONFIG = ("-c", "core.fsmonitor=false", "-c", "core.untrackedCache=false")


def git_state(cwd: str, timeout: float = TIMEOUT) -> tuple[str, list[str]]:
    """(branch, uncommitted paths); ('', []) when there is no repository, no git, or no time."""
    if not cwd or not os.path.isdir(cwd):
        return "", []
    env = {**os.environ, "GIT_OPTIONAL_LOCKS": "0", "GIT_TERMINAL_PROMPT": "0", "LC_ALL": "C"}
    try:
        done = subprocess.run(
            ["git", *_SAFE_CONFIG, "-C", cwd, "status", "--porcelain=v1", "--branch"],
            capture_output=True,
            stdin=subprocess.DEVNULL,
            timeout=timeout,
            env=env,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return "", []
    if done.returncode != 0:
        return "", []
    return parse_status(done.stdout.decode("utf-8", "replace"))


def parse_status(output: str) -> tuple[str, list[str]]:
    """`git status --porcelain=v1 --branch` output to (branch, paths)."""
    branch = ""
    paths: list[str] = []
    for line in output.splitlines():
        if line.startswith("## "):
            head = line[3:].split("...", 1)[0].strip()
            head = head.removeprefix("No commits yet on ")
            branch = "" if head.startswith("HEAD (no branch)") else head
        elif len(line) > _STATUS_COLUMNS and len(paths) < MAX_FILES:
            path = line[3:].split(" -> ")[-1].strip().strip('"')
            paths.append(f"{path} ({line[:2].strip() or '?'})")
    return branch, paths
