"""Whether a tool call writes into `.claude/memory/`, and what to tell Claude instead.

Seed 003's rule: every write goes through the store (validated, redacted, named by its
scheme, indexed under the lock). Claude's own Write, Edit, MultiEdit, NotebookEdit and
plain shell writes into the tree are refused with the CLI command that does the same thing
through the store, so Claude can retry at once. Standard library only, and a pure function
of the tool input: the PreToolUse hook calls it on every such tool call.
"""

from __future__ import annotations

import os
import sys

from memhooks import TYPE_CHECKING
from memhooks.store import BY_FOLDER

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import Any

#: The tools the guard looks at (the `matcher` of its hooks.json entry names the same).
FILE_TOOLS = {"Write": "file_path", "Edit": "file_path", "MultiEdit": "file_path"}
NOTEBOOK_TOOLS = {"NotebookEdit": "notebook_path"}
GUARDED_TOOLS = (*FILE_TOOLS, *NOTEBOOK_TOOLS, "Bash")

DERIVED = ("MEMORY.md", "MEMORY-archive.md", ".gitignore")
STATE_FOLDERS = ("context", "progress")
HEREDOC_END = "MEMHOOKS_EOF"
REMOVALS = ("rm", "rmdir", "unlink", "shred", "mv", "find", "script")
#: Writes that cannot take a folder: one aimed at a folder the tree lies in changes nothing.
PLAIN_WRITES = (">", "tee", "touch", "truncate", "sed", "perl", "sort", "dd")
#: The word that marks a command too long to check as naming the user tier's folder.
USER_MARKER = "memhooks-user"
#: The same for this machine's memhooks folders (the state folder, the recovery copies).
MACHINE_MARKER = "memhooks"
#: The verb of a command too long to check that names `.claude`.
UNCHECKED = "unchecked"
REMEMBER_CATEGORIES = ("decision", "constraint", "runbook", "preference", "tech_debt")
_FOLDED = sys.platform in ("darwin", "win32")  # case-insensitive file systems by default


class Target:
    """One path a tool call writes inside the tree: `relative` is '' for the tree itself."""

    __slots__ = ("path", "relative", "verb")

    def __init__(self, verb: str, path: str, relative: str) -> None:
        self.verb = verb
        self.path = path
        self.relative = relative

    def __repr__(self) -> str:
        return f"Target({self.verb!r}, {self.relative!r})"

    @property
    def category_folder(self) -> str:
        """The category folder of a memory file directly in it, else ''."""
        folder, _, name = self.relative.partition("/")
        if folder in BY_FOLDER and name.endswith(".md") and "/" not in name:
            return folder
        return ""


class Verdict:
    """`deny` with the reason Claude sees, or `allow` (direct edits are on) for one file."""

    __slots__ = ("action", "reason", "target")

    def __init__(self, action: str, reason: str = "", target: Target | None = None) -> None:
        self.action = action
        self.reason = reason
        self.target = target

    def __repr__(self) -> str:
        return f"Verdict({self.action!r}, {self.target!r})"


def _fold(path: str) -> str:
    path = os.path.normcase(path)
    return path.lower() if _FOLDED else path


def relative_in_tree(path: str, memory_base: str) -> str | None:
    """`path` (absolute, normalised) relative to the tree, with '/' separators; None when it
    lies outside. Checked as written and again with symlinks resolved, so a link into the
    tree (or a tree reached through a linked project folder) is seen."""
    for candidate, base in (
        (path, os.path.normpath(memory_base)),
        (os.path.realpath(path), os.path.realpath(memory_base)),
    ):
        folded, folded_base = _fold(candidate), _fold(base)
        if folded == folded_base:
            return ""
        prefix = folded_base.rstrip(os.sep) + os.sep
        if folded.startswith(prefix):
            return candidate[len(prefix) :].replace(os.sep, "/")
    return None


_PARSED: dict[tuple[str, str], list[tuple[str, str]]] = {}


def targets(
    tool_name: str,
    tool_input: Mapping[str, Any],
    cwd: str,
    memory_base: str,
    marker: str = ".claude",
) -> list[Target]:
    """Every path inside the tree this tool call would write; [] for everything else. A
    command too long to check that holds `marker` (a word of the tree's path) is refused."""
    found: list[tuple[str, str]] = []
    key = FILE_TOOLS.get(tool_name) or NOTEBOOK_TOOLS.get(tool_name)
    if key:
        raw = tool_input.get(key)
        if isinstance(raw, str) and raw:
            found.append((tool_name, os.path.normpath(os.path.join(cwd, raw))))
    elif tool_name == "Bash":
        command = tool_input.get("command")
        if isinstance(command, str) and command:
            from memhooks.text.shell_writes import too_long, write_targets

            if too_long(command) and marker in command:
                return [Target(UNCHECKED, memory_base, "")]
            if _PARSED.get((command, cwd)) is None:  # one parse for every folder checked
                _PARSED.clear()
                _PARSED[command, cwd] = write_targets(command, cwd)
            found = _PARSED[command, cwd]
    out: list[Target] = []
    for verb, path in found:
        relative = relative_in_tree(path, memory_base)
        if relative is None and verb not in PLAIN_WRITES and _encloses(path, memory_base):
            relative = ""  # `rm -rf .claude`, `mv . /tmp/x`: the whole tree goes with it
        if relative is not None:
            out.append(Target(verb, path, relative))
    return out


def _encloses(path: str, memory_base: str) -> bool:
    """`path` is a folder the tree lies in (`.claude`, the project, `/`)."""
    return relative_in_tree(memory_base, path) is not None


def decide(
    tool_name: str,
    tool_input: Mapping[str, Any],
    *,
    cwd: str,
    memory_base: str,
    cli: str,
    allow_direct: bool = False,
    current_hash: Callable[[str], str | None] = lambda _path: None,
    user_base: str = "",
) -> Verdict | None:
    """None leaves the call alone; otherwise deny (with the way through the store) or, when
    direct edits are allowed and the call edits one memory file with a file tool, allow.
    A write into the user tier's tree (`user_base`) is always denied."""
    found = targets(tool_name, tool_input, cwd, memory_base)
    if not found:
        return _user_verdict(
            tool_name, tool_input, cwd=cwd, user_base=user_base, cli=cli, current_hash=current_hash
        ) or _machine_verdict(tool_name, tool_input, cwd=cwd, cli=cli)
    if allow_direct and tool_name in FILE_TOOLS and len(found) == 1 and found[0].category_folder:
        return Verdict("allow", target=found[0])
    first = found[0]
    reason = (
        f"memhooks: `.claude/memory/{first.relative}` is written only through the memhooks "
        "CLI (validated, secrets redacted, named by its scheme and indexed under the store "
        "lock); direct writes into `.claude/memory/` are refused. "
        + instead(first, cli, current_hash(first.path))
    )
    return Verdict("deny", reason, first)


def _user_verdict(
    tool_name: str,
    tool_input: Mapping[str, Any],
    *,
    cwd: str,
    user_base: str,
    cli: str,
    current_hash: Callable[[str], str | None],
) -> Verdict | None:
    """Deny a write into the user tier (memories about the person, every project): the same
    store, reached with `--user`; no direct edit is ever allowed there."""
    found = targets(tool_name, tool_input, cwd, user_base, USER_MARKER) if user_base else []
    if not found:
        return None
    from memhooks.store import MemoryPaths, display

    first = found[0]
    where = display(MemoryPaths(user_base, local=user_base)) + first.relative
    reason = (
        f"memhooks: `{where}` is in the user tier (memories about the user, read in every "
        "project), written only through the memhooks CLI (validated, secrets "
        "redacted, named by its scheme and indexed under the store lock); direct writes into "
        "it are refused. " + instead_user(first, cli, current_hash(first.path))
    )
    return Verdict("deny", reason, first)


def machine_bases() -> tuple[str, str]:
    """This machine's own memhooks folders: the state folder and the crash-recovery copies."""
    from memhooks.store import state_dir, user_cache

    return state_dir(), os.path.join(user_cache(), "trees")


def names_machine_folder(tool_name: str, tool_input: Mapping[str, Any], cwd: str) -> bool:
    """The call would write into one of `machine_bases()`."""
    return any(targets(tool_name, tool_input, cwd, b, MACHINE_MARKER) for b in machine_bases())


def _machine_verdict(
    tool_name: str, tool_input: Mapping[str, Any], *, cwd: str, cli: str
) -> Verdict | None:
    """Deny a write into this machine's own memhooks folders: the state folder (consent, each
    checkout's session record and evidence, `store.local`) and the crash-recovery copies.
    Only memhooks writes there; a later hook trusts what it finds."""
    for base in machine_bases():
        found = targets(tool_name, tool_input, cwd, base, MACHINE_MARKER)
        if found:
            reason = (
                f"memhooks: `{found[0].path}` is this machine's own memhooks state (consent, "
                "session records, what the next session is restored from), written only by "
                f"memhooks itself; direct writes into {base} are refused. To change what "
                f"memory holds, use `{cli} task`, `{cli} save` or `{cli} stop`."
            )
            return Verdict("deny", reason, found[0])
    return None


def instead_user(target: Target, cli: str, current: str | None) -> str:
    """The CLI command, with `--user`, that does what the refused write into the user tier
    meant to do."""
    rel = target.relative
    if target.verb == UNCHECKED:
        return (
            "The command is too long for the guard to check, and it names the user tier's "
            f"folder. Run it in smaller parts; write memories with `{cli} save <category> --user`."
        )
    folder = target.category_folder
    if not folder:
        return (
            f"`{rel or 'the user tier'}` is not a memory file. Save what holds for the user in "
            f"every project with `{cli} remember --user '<one sentence>'` or "
            f"`{cli} save <category> --user ...`; take one out with "
            f"`{cli} retire --user <path> --reason '<why>'` (`{cli} recall WORDS` finds them)."
        )
    category = BY_FOLDER[folder].name
    if target.verb in REMOVALS:
        return f"To take it out of memory, run: `{cli} retire --user {rel} --reason '<why>'`."
    if current is not None:
        return "To change it, pipe the whole new document into:\n" + _heredoc(
            f"{cli} save {category} --user --update {rel} --if-hash {current}",
            "# <title>\n\n## …\n(the full new body)",
        )
    return (
        "To file it, pipe the content (frontmatter with title, description and tags, then the "
        "body) into:\n"
        + _heredoc(f"{cli} save {category} --user", "---\ntitle: …\n---\n# …\n\n## …")
        + f"\nFor one sentence: `{cli} remember --user --category {category} '<text>'`."
    )


def _heredoc(command: str, content: str) -> str:
    return f"{command} <<'{HEREDOC_END}'\n{content}\n{HEREDOC_END}"


# One branch per kind of file in the tree: a table of lambdas would read worse.
def instead(target: Target, cli: str, current: str | None) -> str:  # noqa: C901, PLR0911, PLR0912
    """The CLI command that does what the refused write meant to do."""
    rel = target.relative
    top, _, rest = rel.partition("/")
    if rel in DERIVED or top == ".cache":
        return (
            f"`{rel or top}` is derived from the memory files and rewritten after every "
            f"save; it is never edited. Add a memory with `{cli} remember '<one sentence>'` "
            f"or `{cli} save <category> --title '<title>' --body '<markdown>'`; regenerate "
            f"the derived files with `{cli} rebuild`."
        )
    if target.verb == UNCHECKED:
        return (
            "The command is too long for the guard to check, and it names `.claude`. Run "
            "it in smaller parts; write memories with "
            f"`{cli} save <category>` (see `{cli} save --help`)."
        )
    if rel == "":
        return f"Turn memory off with `{cli} stop` (the files are kept)."
    if rel == "_session.json":
        return f"It is the store's state: `{cli} start` and `{cli} stop` change it."
    if rel == "config.json":
        return (
            "It holds the user's memhooks settings: tell the user which key to change "
            f"(the keys are listed in docs/configuration.md; `{cli} doctor` checks the file)."
        )
    if rel == "master.md":
        return "Run:\n" + _heredoc(
            f"{cli} synthesize --save",
            "# Project Memory\n## Current Status\n…\n(the whole new master.md)",
        )
    if top in STATE_FOLDERS:
        return (
            f"The task, next step, progress and blockers are set with `{cli} task '<current "
            "task>' --next '<next step>' --progress '<note>' --blocker '<blocker>'`."
        )
    if top == "checkpoints":
        return (
            "Checkpoints are written by the PreCompact hook from the transcript. Record the "
            f"task with `{cli} task '<task>' --next '<next step>'`."
        )
    if top == "sessions" and target.category_folder:
        session = rest[:-3]
        return "Run:\n" + _heredoc(
            f"{cli} summarize --save --session {session}",
            "# Title\n## Context\n…\n## Tracking Points\n- Decision: …\n(the structure "
            "`summarize --material` shows; the automatic journal is kept)",
        )
    folder = target.category_folder or (top if top in BY_FOLDER and not rest else "")
    if not folder:
        return (
            f"It is not a memory file. Save memories with `{cli} remember '<one sentence>'` or "
            f"`{cli} save <category> ...` (see `{cli} save --help`)."
        )
    category = BY_FOLDER[folder].name
    if target.verb in REMOVALS:
        if target.category_folder:
            return f"To take it out of memory, run: `{cli} retire {rel} --reason '<why>'`."
        return (
            f"Retire memories one at a time with `{cli} retire <path> --reason '<why>'` "
            f"(`{cli} list` shows them); `{cli} gc` deletes retired ones after the grace period."
        )
    if current is not None and target.category_folder:
        return (
            "To change it, pipe the whole new document (frontmatter optional: the fields "
            "you give merge) into:\n"
            + _heredoc(
                f"{cli} save {category} --update {rel} --if-hash {current}",
                "# <title>\n\n## …\n(the full new body)",
            )
            + f"\nTo take it out of memory instead: `{cli} retire {rel} --reason '<why>'`."
        )
    text = (
        "To file it, pipe the same content (YAML frontmatter with title, description and tags, "
        "then the body) into:\n"
        + _heredoc(f"{cli} save {category}", "---\ntitle: …\n---\n# …\n\n## …")
        + "\nThe store names the file by the category's scheme."
    )
    if category in REMEMBER_CATEGORIES:
        text += f" For one sentence: `{cli} remember --category {category} '<text>'`."
    return text
