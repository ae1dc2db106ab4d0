"""How Claude runs this CLI from its Bash tool. Standard library only (SessionStart uses it).

`${CLAUDE_PLUGIN_ROOT}` is set for hooks and expanded in command files, but Claude's own
Bash calls may not have it: the briefing and `/memory recall` print the resolved command.
"""

from __future__ import annotations

import os


def cli_command() -> str:
    package = os.path.dirname(os.path.abspath(__file__))
    launcher = os.path.join(os.path.dirname(os.path.dirname(package)), "hooks", "memhooks.py")
    if not os.path.isfile(launcher):
        return "memhooks"  # installed as a package: the console script is on PATH
    python = "python" if os.name == "nt" else "python3"
    return f'{python} "{launcher}"'


def cli_hint(rest: str) -> str:
    """A command the reader can run where they are, in backticks: `<resolved CLI> rest`."""
    return f"`{cli_command()} {rest}`"


def plural(count: int, one: str, many: str | None = None) -> str:
    """ "1 decision", "2 decisions", "0 analyses"."""
    return f"{count} {one if count == 1 else (many or one + 's')}"
