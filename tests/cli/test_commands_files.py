"""Slash commands as the host expands them: frontmatter, `$ARGUMENTS`, `!` and permissions.

Each `` !`…` `` command is run for real (the plugin root replaced by this repo, `python3` by
the test interpreter) against a temporary tree, and must be allowed by the file's own
`allowed-tools`. Commands that the body tells Claude to run must be allowed too.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml

from memhooks.cli.main import build_parser
from memhooks.curate.summary_format import MASTER_SECTIONS
from support import local_of

REPO = Path(__file__).resolve().parents[2]
COMMANDS = REPO / "commands"
LAUNCHER = 'python3 "${CLAUDE_PLUGIN_ROOT}/hooks/memhooks.py"'
VERBS = {
    "start",
    "stop",
    "status",
    "rebuild",
    "summarize",
    "synthesize",
    "recall",
    "remember",
    "forget",
    "consolidate",
    "export",
    "import",
    "view",
    "promote",
    "demote",
}
INJECTION = re.compile(r"!`([^`]+)`")
FENCED = re.compile(r"^```[^\n]*\n(.*?)^```", re.MULTILINE | re.DOTALL)
#: What each deterministic command must relay (seed 000's confirmations come from the CLI).
EXPECTED = {
    "start": "Infinite memory mode active. I'll manage my context autonomously.",
    "stop": "Memory mode stopped. Files preserved in .claude/memory/",
    "status": "ACTIVE",
    "rebuild": "Index rebuilt. Found ",
    "recall": 'hooks/memhooks.py" recall',  # the resolved command Claude then runs
    "summarize": "Session: ",
    "synthesize": "Synthesis material for .claude/memory/master.md",
    "consolidate": "Nothing to consolidate in .claude/memory/",
    "view": "/view.html",  # in the machine-local folder, outside the checkout
}


@dataclass(frozen=True)
class CommandFile:
    verb: str
    meta: dict[str, object]
    body: str

    @property
    def allowed(self) -> list[str]:
        raw = self.meta.get("allowed-tools", "")
        items = raw if isinstance(raw, list) else re.split(r",\s*(?=[A-Z])", str(raw))
        return [str(i).strip() for i in items if str(i).strip()]


def load(path: Path) -> CommandFile:
    text = path.read_text(encoding="utf-8")
    match = re.match(r"\A---\n(.*?)\n---\n(.*)\Z", text, re.DOTALL)
    assert match, f"{path.name}: no frontmatter"
    meta = yaml.safe_load(match.group(1))
    assert isinstance(meta, dict), path.name
    return CommandFile(path.stem, meta, match.group(2))


def expand(body: str, arguments: str) -> str:
    """What the host does before `!` runs: `$ARGUMENTS`, then `$0`, `$1`, … (0-based)."""
    words = arguments.split()
    body = body.replace("$ARGUMENTS", arguments)
    return re.sub(
        r"\$(\d+)", lambda m: words[int(m.group(1))] if int(m.group(1)) < len(words) else "", body
    )


def allows(pattern: str, command: str) -> bool:
    match = re.fullmatch(r"Bash\((.*)\)", pattern)
    if not match:
        return False
    rule = match.group(1)
    if rule.endswith(":*"):
        prefix = rule[:-2]
        return command == prefix or command.startswith(prefix + " ")
    return command == rule


def covered(cmd: CommandFile, command: str) -> bool:
    return any(allows(p, command.strip()) for p in cmd.allowed)


def runnable(command: str) -> str:
    assert command.startswith(LAUNCHER), command
    rest = command[len(LAUNCHER) :]
    return f'{shlex.quote(sys.executable)} "{REPO}/hooks/memhooks.py"' + rest


def started_project(tmp_path: Path) -> dict[str, str]:
    env = {**os.environ, "MEMHOOKS_PROJECT_DIR": str(tmp_path)}
    env.pop("CLAUDE_PROJECT_DIR", None)
    done = subprocess.run(
        [sys.executable, str(REPO / "hooks" / "memhooks.py"), "start"],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return env


def shell(command: str, env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", "-c", runnable(command)],
        env=env,
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )


FILES = sorted(COMMANDS.glob("*.md"))
#: A description is one short line: the model reads the agents' and the skill's in every session.
DESCRIPTION_MAX = 120


@pytest.mark.parametrize(
    "path",
    [*sorted((REPO / "agents").glob("*.md")), REPO / "skills" / "memory" / "SKILL.md"],
    ids=lambda p: p.parent.name + "/" + p.stem,
)
def test_agent_and_skill_descriptions_are_one_short_line(path: Path) -> None:
    description = load(path).meta["description"]
    assert isinstance(description, str)
    assert "\n" not in description
    assert len(description) <= DESCRIPTION_MAX


def test_the_command_set() -> None:
    assert {p.stem for p in FILES} == VERBS


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_frontmatter(path: Path) -> None:
    cmd = load(path)
    assert set(cmd.meta) <= {
        "description",
        "argument-hint",
        "allowed-tools",
        "model",
        "disable-model-invocation",
    }
    assert isinstance(cmd.meta.get("description"), str)
    assert cmd.meta["description"]
    # Only a person runs these: the host then leaves them out of the skill list it sends
    # the model in every session (tests/e2e/test_install_e2e.py measures that list's cost).
    assert cmd.meta.get("disable-model-invocation") is True
    assert len(cmd.meta["description"]) <= DESCRIPTION_MAX
    assert cmd.allowed, "every command runs the CLI, so it needs allowed-tools"
    for pattern in cmd.allowed:
        assert pattern.startswith(f"Bash({LAUNCHER} {cmd.verb}"), pattern  # no blanket Bash
    assert ".claude/memory/" in cmd.body + str(cmd.meta["description"])
    if "$ARGUMENTS" in cmd.body or "$0" in cmd.body:
        assert cmd.meta.get("argument-hint"), "a command taking arguments says which"


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_every_injected_command_is_allowed_and_runs(path: Path, tmp_path: Path) -> None:
    cmd = load(path)
    project = tmp_path / "project"  # the data folder sits beside it: never inside a project
    project.mkdir()
    env = (
        started_project(project)
        if cmd.verb != "start"
        else {
            **os.environ,
            "MEMHOOKS_PROJECT_DIR": str(project),
        }
    )
    if cmd.verb == "summarize":
        state = local_of(project / ".claude" / "memory") / "session.json"
        state.write_text(
            state.read_text().replace(
                '"active": true', '"active": true, "sessions": [{"id": "s-1"}]'
            )
        )
    arguments = {"recall": "price formatting", "summarize": ""}.get(cmd.verb, "some words")
    data = tmp_path / "plugin-data"
    env["XDG_CACHE_HOME"] = str(tmp_path / "user-cache")
    env.pop("CLAUDE_PLUGIN_DATA", None)  # the host does not export it to an injection
    # The host substitutes ${CLAUDE_PLUGIN_DATA} in the body, as it does ${CLAUDE_PLUGIN_ROOT}.
    body = expand(cmd.body, arguments).replace("${CLAUDE_PLUGIN_DATA}", str(data))
    injected = INJECTION.findall(body)
    if cmd.verb in EXPECTED:
        assert injected, f"{cmd.verb} is deterministic: its body runs the CLI"
    else:
        assert not injected, f"{cmd.verb}: Claude runs the CLI, with the user's words quoted"
    subcommands = set(build_parser()._subparsers._group_actions[0].choices)  # type: ignore[union-attr]
    for command in injected:
        assert covered(cmd, command), (command, cmd.allowed)
        assert command.split()[2] in subcommands
        assert f'--plugin-data "{data}"' in command, "the data folder is passed, never guessed"
        done = shell(command, env, project)
        assert done.returncode == 0, done.stderr  # a non-zero exit aborts the slash command
        assert EXPECTED[cmd.verb] in done.stdout, done.stdout


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_commands_claude_is_told_to_run_are_allowed(path: Path) -> None:
    cmd = load(path)
    for block in FENCED.findall(cmd.body):
        first = block.strip().splitlines()[0]
        if first.startswith("python3"):
            assert covered(cmd, first.split(" <<")[0]), (first, cmd.allowed)


@pytest.mark.parametrize(
    "hostile",
    [
        "x; touch PWNED",
        "$(touch PWNED)",
        "`touch PWNED`",
        "a && touch PWNED",
        "what's our db",
        "x'; touch PWNED; echo '",
    ],
)
def test_recall_arguments_cannot_inject_shell(hostile: str, tmp_path: Path) -> None:
    cmd = load(COMMANDS / "recall.md")
    env = started_project(tmp_path)
    # The host substitutes first; a backtick in the arguments would end the `!` span early.
    body = cmd.body.replace("$ARGUMENTS", hostile.replace("`", ""))
    for command in INJECTION.findall(body):
        done = shell(command, env, tmp_path)
        assert done.returncode == 0, done.stderr
    assert not (tmp_path / "PWNED").exists()


def test_recall_without_arguments_prints_the_overview(tmp_path: Path) -> None:
    env = started_project(tmp_path)
    (command,) = INJECTION.findall(expand(load(COMMANDS / "recall.md").body, ""))
    how = shell(command, env, tmp_path)
    assert how.returncode == 0, how.stderr
    printed = how.stdout.strip()
    assert printed == f'python3 "{REPO}/hooks/memhooks.py" recall'
    done = shell(printed.replace(str(REPO), "${CLAUDE_PLUGIN_ROOT}"), env, tmp_path)
    assert done.returncode == 0, done.stderr
    assert "No .claude/memory/master.md yet" in done.stdout
    assert "MEMORY.md" in done.stdout


def test_the_save_commands_in_the_bodies_work(tmp_path: Path) -> None:
    """summarize and synthesize tell Claude to save through a heredoc: run those for real."""
    env = started_project(tmp_path)
    summary = "# T\n\n## Context\nc\n\n## Tracking Points\n- Status: done\n"
    master = "# Project Memory\n\n" + "".join(f"## {h}\n- x\n\n" for h in MASTER_SECTIONS)
    for verb, text in (("summarize", summary), ("synthesize", master)):
        (block,) = [b for b in FENCED.findall(load(COMMANDS / f"{verb}.md").body) if "<<" in b]
        script = block.replace("<session-id>", "s-1")
        head, _, rest = script.partition("<<'MEMHOOKS_EOF'\n")
        script = (
            head
            + "<<'MEMHOOKS_EOF'\n"
            + text
            + "\nMEMHOOKS_EOF"
            + rest.split("\nMEMHOOKS_EOF", 1)[1]
        )
        done = shell(script, env, tmp_path)
        assert done.returncode == 0, (verb, done.stderr)
    assert (tmp_path / ".claude/memory/sessions/s-1.md").is_file()
    assert (tmp_path / ".claude/memory/master.md").is_file()


def test_docs_document_every_command() -> None:
    """docs/commands.md documents every slash command and every CLI command; the README's
    front page lists every slash command."""
    text = (REPO / "docs" / "commands.md").read_text(encoding="utf-8")
    front = (REPO / "README.md").read_text(encoding="utf-8")
    assert "\n## Commands" in "\n" + front, "README.md has no '## Commands' section"
    listed = front.split("\n## Commands", 1)[1].split("\n## ", 1)[0]
    for verb in sorted(VERBS):
        assert f"/memory {verb}" in text, verb
        assert f"/memory {verb}" in listed, verb
    subcommands = build_parser()._subparsers._group_actions[0].choices  # type: ignore[union-attr]
    for name in sorted(subcommands):
        assert f"memhooks {name}" in text, name
