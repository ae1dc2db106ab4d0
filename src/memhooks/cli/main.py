"""`memhooks`: parse argv, dispatch to one command module, map errors to exit codes."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from memhooks import __version__
from memhooks.text import one_line
from memhooks.text.controls import visible

if TYPE_CHECKING:
    import argparse

EPILOG = """\
Exit codes: 0 ok, 1 check failed, 2 usage, 3 memory not started, 4 dependencies missing,
5 invalid input (a bad bundle too), 6 conflict (file changed since read; a similar memory
exists), 7 not found, 8 store locked, 9 refused (unsafe path or bundle, retired slug,
unreadable state), 10 file system error (read-only, full), 11 Python older than 3.10.
The memory tree is <project>/.claude/memory/; MEMHOOKS_PROJECT_DIR overrides the project.
"""


def build_parser() -> argparse.ArgumentParser:
    import argparse

    # Every command module, in the order `--help` lists them; each defines
    # `register(subparsers)`, and the parser it adds sets `func`. Imported here, by name (so
    # "find usages" follows them), not at module level: a hook process loads this module too.
    from memhooks.cli.commands import (
        consolidate,
        demo,
        doctor,
        export,
        forget,
        gc,
        import_cmd,
        lifecycle,
        list_cmd,
        rebuild,
        recall,
        remember,
        save,
        show,
        start,
        status,
        stop,
        summarize,
        synthesize,
        task,
        tiers,
        view,
    )

    parser = argparse.ArgumentParser(
        prog="memhooks",
        description="A project-local memory for Claude Code that survives compaction and the "
        "end of a session.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"memhooks {__version__}")
    parser.add_argument(
        "--project",
        metavar="DIR",
        help="project root (default: $MEMHOOKS_PROJECT_DIR, $CLAUDE_PROJECT_DIR, else "
        "found from the current directory as git finds its root: the nearest folder up "
        "that holds .claude/memory/ or .git, else the current directory)",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands = (
        start, stop, status, rebuild, save, list_cmd, show, lifecycle, gc, task, doctor,
        recall, summarize, synthesize, remember, forget, tiers, consolidate, export,
        import_cmd, view, demo,
    )  # fmt: skip
    for command in commands:
        command.register(sub)
    return parser


def _failure(exc: Exception) -> tuple[str, int]:
    """The message and exit code of a refusal, or of a file system error (read-only, full)."""
    from memhooks.errors import Exit, MemhooksError

    if isinstance(exc, MemhooksError):
        return str(exc), exc.code
    return f"the memory tree could not be read or written: {exc}", Exit.IO_ERROR


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    if args_list[:1] == ["hook"]:
        # The hot path: no argparse, no command modules, no third-party imports.
        from memhooks.hooks.entry import run

        return run(args_list[1] if len(args_list) > 1 else "")
    if args_list[:1] == ["settle"]:
        # A hook's settle of a change behind the store's back, in a process of its own
        # (guard.tree_settle): the store's rules without pydantic on the hook's path.
        from memhooks.guard.tree_settle import settle_main

        return settle_main(args_list[1:])
    if args_list[:1] == ["demo"]:
        # The demo parses its own flags (argparse cannot pass `--keep` through a subparser).
        from memhooks.cli.commands.demo import run_with

        return run_with(args_list[1:])
    if not _dependencies_ready(args_list):
        return 4  # Exit.MISSING_DEPENDENCIES; ensure_now said what failed and what to run
    _locate_token_table()
    return _dispatch(args_list)


def _locate_token_table() -> None:
    """Commands write memory vectors and explain with the token table of the data folder
    deps finds (a recorded one), also when CLAUDE_PLUGIN_DATA is not set."""
    import os

    from memhooks.recall import semantic

    semantic.DATA_DIR = None
    if not os.environ.get("CLAUDE_PLUGIN_DATA"):
        from memhooks.install import deps

        found = deps.default_data_dir()
        semantic.DATA_DIR = str(found) if found else None


def _dependencies_ready(args_list: list[str]) -> bool:
    """Every command but --help/--version needs pydantic and friends: the first use installs
    them (or waits for the install in flight), saying so, and goes on."""
    if not args_list or any(a in ("-h", "--help", "--version") for a in args_list[:3]):
        return True
    from memhooks.install import deps

    return deps.ensure_now(fallback=True)


def _say_missing(module: str) -> None:
    from memhooks.install import deps

    data = deps.data_dir(fallback=True)
    hint = deps.manual_install_hint(data) if data else "pip install memhooks"
    sys.stderr.write(
        f"memhooks: the dependency {module!r} cannot be imported; install the "
        f"dependencies with:\n  {hint}\n"
    )


def _utf8_streams() -> None:
    for stream in (sys.stdout, sys.stderr):
        # Memories hold any text; a Windows console or pipe defaults to a legacy code page.
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(encoding="utf-8", errors="replace")


def _dispatch(args_list: list[str]) -> int:
    _utf8_streams()
    from memhooks.errors import Exit, MemhooksError

    parser = build_parser()
    args = parser.parse_args(args_list)
    if not getattr(args, "func", None):
        parser.print_help()
        return Exit.USAGE
    if getattr(args, "json", False):
        from memhooks.text.progress import silence

        silence()  # one JSON document, and no progress lines from this or its children
    try:
        return int(args.func(args))
    except (MemhooksError, OSError) as exc:
        message, code = _failure(exc)
        # One line, whatever the message quotes (a path argument may hold a newline).
        sys.stderr.write("memhooks: " + visible(one_line(message)) + "\n")
        return code
    except ModuleNotFoundError as exc:
        from memhooks.install.deps import MODULES

        if exc.name not in (*MODULES, "yaml"):  # yaml comes with python-frontmatter
            raise
        _say_missing(exc.name or "")
        return Exit.MISSING_DEPENDENCIES
    except KeyboardInterrupt:
        sys.stderr.write("memhooks: interrupted\n")
        return 130
    except RuntimeError as exc:
        from memhooks.text.redact_custom import CustomPatternTimeoutError

        if not isinstance(exc, CustomPatternTimeoutError):
            raise
        sys.stderr.write(f"memhooks: {exc}; fix or remove it in config.json\n")
        return Exit.REFUSED
