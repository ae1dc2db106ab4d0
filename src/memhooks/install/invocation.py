"""How Claude runs this CLI from its Bash tool. Standard library only (SessionStart uses it).

`${CLAUDE_PLUGIN_ROOT}` is set for hooks and expanded in command files, but Claude's own
Bash calls may not have it: the briefing and `/memory recall` print the resolved command.
"""

from __future__ import annotations

import os

import memhooks

#: The `memhooks` package folder (`src/memhooks` in a checkout or the plugin).
PACKAGE_DIR = os.path.dirname(os.path.abspath(memhooks.__file__))


#: The plugin's root (or a checkout's): the folder above `src/`.
PLUGIN_ROOT = os.path.dirname(os.path.dirname(PACKAGE_DIR))


def launcher_path() -> str | None:
    """The plugin's launcher, `hooks/memhooks.py`; None when memhooks is installed as a
    package (then the console script is on PATH)."""
    launcher = os.path.join(PLUGIN_ROOT, "hooks", "memhooks.py")
    return launcher if os.path.isfile(launcher) else None


def cli_command() -> str:
    launcher = launcher_path()
    if launcher is None:
        return "memhooks"  # installed as a package: the console script is on PATH
    python = "python" if os.name == "nt" else "python3"
    return f'{python} "{launcher}"'


def cli_hint(rest: str) -> str:
    """A command the reader can run where they are, in backticks: `<resolved CLI> rest`."""
    return f"`{cli_command()} {rest}`"


def plural(count: int, one: str, many: str | None = None) -> str:
    """ "1 decision", "2 decisions", "0 analyses"."""
    return f"{count} {one if count == 1 else (many or one + 's')}"
