"""Writing `context/current-task.md` and `context/blockers.md` (`memhooks task`); reading
them is `context_files`."""

from __future__ import annotations

from memhooks.store.atomic import write_atomic
from memhooks.store.context_files import BLOCKERS_TEMPLATE
from memhooks.store.paths import MemoryPaths


def render_current_task(task: str, next_step: str, progress: list[str]) -> str:
    lines = [
        "# Current task",
        "",
        "## Task",
        task or "(none yet)",
        "",
        "## Next step",
        next_step or "(none yet)",
        "",
        "## Progress",
    ]
    lines += [f"- {p}" for p in progress] or ["(none yet)"]
    return "\n".join(lines) + "\n"


def render_blockers(blockers: list[str]) -> str:
    if not blockers:
        return "# Blockers\n\n" + BLOCKERS_TEMPLATE.split("\n\n", 1)[1]
    return "# Blockers\n\n" + "\n".join(f"- {b}" for b in blockers) + "\n"


def write_task(
    paths: MemoryPaths, task: str, next_step: str, progress: list[str], blockers: list[str]
) -> None:
    """Replace both files (one-line, redacted values); the caller holds the store lock."""
    write_atomic(paths.current_task, render_current_task(task, next_step, progress))
    write_atomic(paths.blockers, render_blockers(blockers))
