"""One `memhooks` command wherever the plugin is installed.

Claude Code puts the plugin's `bin/` (its `memhooks` shim) on the PATH of Claude's Bash tool,
but not on a person's. `memhooks doctor --link` writes a small script into a folder of the
person's PATH (`~/.local/bin` by default) that runs the plugin's launcher with its data
folder. The plugin's root changes with every update, so the script reads the current one
from `<data>/plugin-root`, which SessionStart keeps (`record_plugin_root`).
"""

from __future__ import annotations

import os

from memhooks import TYPE_CHECKING
from memhooks.install.invocation import PLUGIN_ROOT

if TYPE_CHECKING:
    from pathlib import Path

ROOT_RECORD = "plugin-root"
#: The script's second line: a file holding it is ours to replace.
MARK = "# memhooks: written by `memhooks doctor --link`"


def record_plugin_root(data: str) -> None:
    """Best effort, for SessionStart: the folder the host runs the plugin from now."""
    from memhooks.store import read_text, write_atomic

    path = os.path.join(data, ROOT_RECORD)
    if read_text(path, 4096).strip() == PLUGIN_ROOT:
        return
    try:
        write_atomic(path, PLUGIN_ROOT + "\n", durable=False)
    except OSError:
        pass


def script(data: str, root: str = PLUGIN_ROOT) -> str:
    from shlex import quote

    return (
        "#!/bin/sh\n"
        f"{MARK}\n"
        "# Runs the memhooks plugin's command line from wherever Claude Code last installed\n"
        "# the plugin (the hooks record it in the data folder), with that folder's packages.\n"
        f"data={quote(data)}\n"
        f'root=$(cat "$data/{ROOT_RECORD}" 2>/dev/null)\n'
        f'[ -f "$root/hooks/memhooks.py" ] || root={quote(root)}\n'
        "if command -v python3 >/dev/null 2>&1; then py=python3; else py=python; fi\n"
        'CLAUDE_PLUGIN_DATA="$data" exec "$py" "$root/hooks/memhooks.py" "$@"\n'
    )


def ours(target: Path) -> bool:
    """`target` is a file an earlier `--link` wrote (or nothing is there)."""
    if not (target.exists() or target.is_symlink()):
        return True
    if target.is_symlink() or not target.is_file():
        return False
    with target.open("rb") as handle:
        return MARK.encode() in handle.read(512)


def write_link(folder: Path, data: Path) -> Path:
    """Write `folder/memhooks` (atomically, executable); the caller checked `ours`."""
    target = folder / "memhooks"
    folder.mkdir(parents=True, exist_ok=True)
    temp = folder / f".memhooks.{os.getpid()}.tmp"
    temp.write_text(script(str(data)), encoding="utf-8")
    temp.chmod(0o755)
    os.replace(temp, target)
    return target


def on_path(folder: Path) -> bool:
    wanted = os.path.normcase(os.path.realpath(folder))
    return any(
        os.path.normcase(os.path.realpath(entry)) == wanted
        for entry in os.environ.get("PATH", "").split(os.pathsep)
        if entry
    )
