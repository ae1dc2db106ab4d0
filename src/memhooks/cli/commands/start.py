"""`memhooks start`: create the tree (seed 000), mark memory active, and record that the user
turned it on for this checkout on this machine (store.consent: the hooks' gate)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from memhooks.cli.common import add_json, local_paths, memory_paths, open_store, settings
from memhooks.cli.output import emit
from memhooks.continuity.git_run import Git, repo_root
from memhooks.errors import Exit, UserError
from memhooks.store import (
    CONSENT_ON,
    MemoryPaths,
    StateUnreadableError,
    change_state,
    create_tree,
    record_consent,
    repair_state,
    undo_created,
)
from memhooks.text.clock import iso

CONFIRMATION = "Infinite memory mode active. I'll manage my context autonomously."


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "start",
        help="create .claude/memory/ and turn memory on for this checkout on this machine",
        description="Create the memory tree if needed (category folders, "
        "context and progress placeholders, .gitignore) and mark memory "
        "active. Existing files are kept. Memory a cloned repository ships is used only "
        "once you ran this in your checkout: the choice is kept outside the repository, "
        "in $XDG_STATE_HOME/memhooks/consent/ (default ~/.local/state/memhooks/), and so is "
        "what only this machine's hooks read back (checkouts/<id>/).",
    )
    add_json(parser)
    parser.set_defaults(func=run)


def git_branch(project: Path) -> str | None:
    """The branch checked out (None: detached, no repository, no git), asked of git through
    the safe runner (the project's config and environment choose no program)."""
    root = repo_root(str(project))
    out = Git(root, timeout=5).run("branch", "--show-current") if root else None
    return (out or "").strip() or None


def _activate(paths: MemoryPaths) -> tuple[dict[str, object], bool]:
    now = iso()
    store = open_store(paths)

    def activate(state: dict[str, object]) -> bool:
        repaired = repair_state(state)
        if repaired:
            sys.stderr.write(
                f"memhooks: {paths.relative(paths.session)}: dropped what was not valid "
                f"({', '.join(repaired)}); start sets it again\n"
            )
        was_active = state.get("active") is True
        state.setdefault("version", 1)
        state["active"] = True
        if not was_active or not state.get("started"):
            state["started"] = now
        state.pop("stopped", None)
        state["project"] = Path(paths.base).parent.parent.name
        state["branch"] = git_branch(Path(paths.base).parent.parent)
        state["lastActivity"] = now
        state.setdefault(
            "stats", {"decisions": 0, "analyses": 0, "indexArchived": 0, "subagentOutputs": 0}
        )
        kept.update(state)
        return was_active

    kept: dict[str, object] = {}
    with store.locked():
        try:
            was_active = change_state(paths.session, activate, create=True) is True
        except StateUnreadableError as exc:
            raise UserError(f"{exc}; fix or move it, then run start again", Exit.REFUSED) from None
    store.refresh()
    return kept, was_active


def refuse_home(paths: MemoryPaths) -> None:
    """The home folder is no project: its `.claude/` is Claude Code's own folder."""
    project = Path(paths.base).parent.parent
    if project.resolve() == Path.home().resolve():
        raise UserError(
            f"{project} is your home folder, not a project: memory would go into "
            f"{paths.base}, inside Claude Code's own ~/.claude folder. Run start in a "
            "project's folder (cd into it, or open Claude Code there).",
            Exit.REFUSED,
        )


def run(args: argparse.Namespace) -> int:
    paths = memory_paths(args)
    refuse_home(paths)
    settings(paths)  # a broken config.json is reported before anything is written
    fresh = not Path(paths.base).exists()
    created: list[str] = []
    try:
        create_tree(paths, created)
        paths = local_paths(paths)  # the tree is there now: its id too
        state, was_active = _activate(paths)
        record_consent(paths.base, CONSENT_ON)
    except BaseException:
        undo_created(paths, created, fresh=fresh)  # all or nothing: never a half-started tree
        raise
    data = {
        "active": True,
        "already_active": was_active,
        "root": paths.base,
        "started": state["started"],
        "created": created,
        "message": CONFIRMATION,
    }
    text = (
        CONFIRMATION
        + f"\nMemory tree: {paths.base}"
        + (f"\nCreated: {', '.join(created)}" if created else "")
    )
    emit(data, text, as_json=args.json)
    return Exit.OK
