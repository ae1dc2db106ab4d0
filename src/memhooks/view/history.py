"""Each memory's history in git, for `memhooks view`: one bounded `git log` per view.

One subprocess over `.claude/memory` (not one per memory), with a short timeout, through the
safe runner (continuity.git_run: the project's config and environment run nothing, no `git`
the project ships, no optional locks). No git, no repository, a timeout or an error: no
history, silently.
Subjects and author names are the committers' text: they are data, capped, never markup.
"""

from __future__ import annotations

from pathlib import Path

from memhooks.continuity.git_run import Git

TIMEOUT = 3.0
MAX_COMMITS = 2000
PER_FILE = 20
TEXT_CAP = 200  # characters of one subject or author name
_RECORD, _FIELD = "\x1e", "\x1f"
_FIELDS = 4  # hash, date, author, subject


def git_log(memory_dir: str, timeout: float = TIMEOUT) -> str:
    """The raw `git log` of the memory folder; '' when there is none to be had."""
    if not memory_dir or not Path(memory_dir).is_dir():
        return ""
    out = Git(memory_dir, timeout=timeout).run(
        "log",
        "--no-color",
        "--no-ext-diff",
        "--no-show-signature",
        "--relative",
        f"--format={_RECORD}%H{_FIELD}%aI{_FIELD}%an{_FIELD}%s",
        "--name-only",
        f"-n{MAX_COMMITS}",
        operands=("--", "."),
    )
    return out or ""


def parse_log(output: str, per_file: int = PER_FILE) -> dict[str, list[dict[str, str]]]:
    """`git log` output to {memory path: [commit, ...]}, newest first, `per_file` at most."""
    out: dict[str, list[dict[str, str]]] = {}
    for record in output.split(_RECORD)[1:]:
        head, _, names = record.partition("\n")
        fields = head.split(_FIELD, _FIELDS - 1)
        if len(fields) != _FIELDS:
            continue
        full, date, author, subject = fields
        commit = {
            "hash": full[:10],
            "date": date[:40],
            "author": author[:TEXT_CAP],
            "subject": subject[:TEXT_CAP],
        }
        for name in names.splitlines():
            if not name:
                continue
            entries = out.setdefault(name, [])
            if len(entries) < per_file:
                entries.append(commit)
    return out


def history(memory_dir: str, timeout: float = TIMEOUT) -> dict[str, list[dict[str, str]]]:
    """Each file of the memory folder (paths relative to it) with its commits, newest first."""
    return parse_log(git_log(memory_dir, timeout))
