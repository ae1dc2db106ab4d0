"""The command table: one list of commands, each module imported only when chosen."""

from __future__ import annotations

import argparse
import importlib
import subprocess
import sys
from pathlib import Path

import pytest

from memhooks.cli.main import COMMANDS, build_parser, parse

SRC = Path(__file__).resolve().parents[2] / "src"
MODULES = sorted({module for _, module, _ in COMMANDS})


def _listed(parser: argparse.ArgumentParser) -> list[tuple[str, str | None]]:
    """(name, help line) of each subcommand, in `--help` order."""
    action = parser._subparsers._group_actions[0]  # type: ignore[union-attr]
    return [(c.dest, c.help) for c in action._choices_actions]  # type: ignore[union-attr]


@pytest.mark.parametrize("module", MODULES)
def test_each_module_registers_its_names_with_the_tables_help(module: str) -> None:
    parser = argparse.ArgumentParser()
    importlib.import_module(f"memhooks.cli.commands.{module}").register(parser.add_subparsers())
    expected = [(n, h) for n, m, h in COMMANDS if m == module]
    assert _listed(parser) == expected


def test_the_help_lists_every_command_in_table_order_whatever_is_chosen() -> None:
    listed = [(n, h) for n, _, h in COMMANDS]
    assert _listed(build_parser()) == listed
    assert _listed(build_parser("*")) == listed
    assert _listed(build_parser("retire")) == listed


def test_the_chosen_command_gets_its_own_parser() -> None:
    args = parse(["--project", "remember", "remember", "--new", "we", "use", "tabs"])
    assert args.command == "remember"
    assert args.new
    assert args.text == ["we", "use", "tabs"]
    assert args.func.__module__ == "memhooks.cli.commands.remember"
    assert parse(["archive", "x.md", "--reason", "old"]).state == "archived"


def test_parsing_a_command_imports_only_its_module() -> None:
    code = (
        "import sys; from memhooks.cli.main import parse; parse(['list']); "
        "print(' '.join(sorted(m for m in sys.modules if m.startswith('memhooks.cli.commands.'))))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONPATH": str(SRC), "PATH": ""},
    )
    assert done.stdout.split() == ["memhooks.cli.commands.list_cmd"]
