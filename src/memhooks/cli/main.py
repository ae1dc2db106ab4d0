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


#: Every command, in the order `--help` lists them: (name, module under
#: `memhooks.cli.commands`, the one line `--help` shows). Each module defines
#: `register(subparsers)`, whose parsers (one per name mapped to it) set `func`; only the
#: chosen command's module is imported (tests/cli/test_parser.py checks that each module
#: registers its names with these lines).
COMMANDS = (
    ("start", "start", "create .claude/memory/ and turn memory on for this checkout on this "
        "machine"),
    ("stop", "stop", "turn memory off for this checkout on this machine (files are kept)"),
    ("status", "status", "show whether memory is on and what it holds"),
    ("rebuild", "rebuild", "regenerate MEMORY.md and caches from the files"),
    ("save", "save", "save a typed memory (from flags or stdin)"),
    ("list", "list_cmd", "list memories"),
    ("show", "show", "print one memory and its content hash"),
    ("retire", "lifecycle", "take a memory out of the index (GC deletes it after the grace "
        "period)"),
    ("archive", "lifecycle", "take a memory out of the index for good, never GC'd"),
    ("restore", "lifecycle", "bring a retired or archived memory back, or take back the rewrite "
        "`consolidate --apply` made of an active one"),
    ("gc", "gc", "expire old memories, delete retired ones past the grace period"),
    ("task", "task", "set the current task, next step or blockers"),
    ("doctor", "doctor", "check the installation and the memory tree"),
    ("recall", "recall", "print master.md and the index, or the memories matching a query"),
    ("summarize", "summarize", "gather material for a session summary, or save one from stdin"),
    ("synthesize", "synthesize", "gather material for master.md, or save a new one from stdin"),
    ("remember", "remember", "remember a sentence as a typed memory (category guessed from cues)"),
    ("forget", "forget", "retire a memory found by path or search (shows it first; --yes to "
        "confirm)"),
    ("promote", "tiers", "move a project memory up to the user tier (memories about you, used in "
        "every project)"),
    ("demote", "tiers", "move a user-tier memory down into this project's .claude/memory/"),
    ("consolidate", "consolidate", "propose (or --apply) merges, retirements and date fixes that "
        "keep memory true"),
    ("export", "export", "pack chosen memories into one bundle (.tar.gz) for another project"),
    ("import", "import_cmd", "bring the memories of an export bundle into this project"),
    ("view", "view", "write a browser view of the memory (HTML, offline) and print its path"),
    ("demo", "demo", "run a whole session offline and show what is injected"),
)  # fmt: skip


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser: `command`'s module registers its own subparsers; every other command is a
    name and its help line (enough for `memhooks --help` and to find the chosen command),
    its module not imported. `command` "*" imports them all."""
    import argparse
    import importlib

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
    chosen = {m for n, m, _ in COMMANDS if command in (n, "*")}
    for name, module, summary in COMMANDS:
        if module in chosen:
            importlib.import_module(f"memhooks.cli.commands.{module}").register(sub)
            chosen.discard(module)  # it registered all its names
        elif name not in sub.choices:
            sub.add_parser(name, help=summary, add_help=False)
    return parser


def parse(args_list: list[str]) -> argparse.Namespace:
    """argv parsed: once to find the command (no command module imported), then with the
    chosen command's parser."""
    known, _ = build_parser().parse_known_args(args_list)
    return build_parser(known.command).parse_args(args_list)


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

    args = parse(args_list)
    if not getattr(args, "func", None):
        build_parser().print_help()
        return Exit.USAGE
    if getattr(args, "json", False):
        from memhooks.text.progress import silence

        silence()  # one JSON document, and no progress lines from this or its children
    from memhooks.store import keep_reads

    keep_reads(on=True)  # each file read once, as in a hook (store.read_once)
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
    finally:
        keep_reads(on=False)
