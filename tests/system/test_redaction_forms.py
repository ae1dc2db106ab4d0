"""Issue 32, finding 8: human-chosen passwords in the forms the red team used (given to commands,
in config lines, in prose, to Redis) persist nowhere, through the installed plugin.

A session runs as the host runs it: the installed plugin, a bare interpreter with `-S`, the
host's environment, the project as cwd. Each sample is the prompt, a Bash command, that
command's failing output, Claude's reply and a sub-agent's report; then the whole project
and the whole home (the machine-local state, wherever it lives) are searched for every value.
A canary word beside each sample proves the text was carried.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from plugin_host import SESSION, Host
from secret_corpus_forms import TUNE
from support import as_text

#: One sample of each family and tool shape (every other one: the session stays short).
CASES = [(i, *case) for i, case in enumerate(TUNE) if i % 2 == 0]


def _record(kind: str, content: object, uuid: str, **extra: object) -> str:
    message = {"role": kind, "content": content}
    return json.dumps(
        {"type": kind, "uuid": uuid, "sessionId": SESSION, "message": message, **extra}
    )


def _turn(index: int, text: str) -> list[str]:
    mark, tool = f"CANARY{index:03d}", f"toolu_{index:04d}"
    use = {"type": "tool_use", "id": tool, "name": "Bash", "input": {"command": text}}
    result = {
        "type": "tool_result",
        "tool_use_id": tool,
        "is_error": True,
        "content": f"Exit code 1\nerror: {mark} {text}",
    }
    return [
        _record("user", f"{mark} {text}", f"u{index}"),
        _record("assistant", [use], f"a{index}"),
        _record("user", [result], f"r{index}", toolUseResult="x"),
        _record("assistant", [{"type": "text", "text": f"Decision: {mark} {text}"}], f"b{index}"),
    ]


def _everything(*roots: Path) -> str:
    """Every regular file under the roots (no symlink followed), JSON escapes undone too."""
    return as_text(
        Path(folder) / name
        for root in roots
        for folder, _, files in os.walk(root)
        for name in files
    )


def test_password_forms_persist_nowhere(host: Host, tmp_path: Path) -> None:
    (host.data / "semantic").mkdir(parents=True, exist_ok=True)
    (host.data / "semantic" / "disabled").touch()
    done = host.command("start")
    assert done.returncode == 0, done.stderr
    transcripts = tmp_path / "transcripts"  # outside the project and the home, as the host's
    transcripts.mkdir()
    transcript = transcripts / "t.jsonl"
    lines: list[str] = []
    for index, _, text, _ in CASES:
        mark = f"CANARY{index:03d}"
        host.hook("UserPromptSubmit", prompt=f"{mark} {text}", transcript_path=str(transcript))
        lines += _turn(index, text)
        transcript.write_text("\n".join(lines) + "\n", encoding="utf-8")
        host.hook(
            "PostToolUse",
            tool_name="Bash",
            tool_input={"command": text},
            tool_response={"stdout": "", "stderr": f"{mark} {text}", "exit_code": 1},
            transcript_path=str(transcript),
        )
        host.hook("Stop", last_assistant_message=f"{mark} {text}", transcript_path=str(transcript))
        agent = transcripts / f"agent{index}.jsonl"
        agent.write_text(_record("user", f"{mark} {text}", f"s{index}") + "\n", encoding="utf-8")
        host.hook(
            "SubagentStop",
            agent_type="general-purpose",
            agent_id=f"agent{index:04d}",
            agent_transcript_path=str(agent),
            last_assistant_message=f"Report {mark}: {text} " + "Checked the deployment. " * 4,
            transcript_path=str(transcript),
        )
    host.hook(
        "PreCompact", trigger="manual", custom_instructions="", transcript_path=str(transcript)
    )
    host.hook("SessionEnd", reason="other", transcript_path=str(transcript))
    found = _everything(host.project, host.home)
    leaked = [
        (family, value) for _, family, _, values in CASES for value in values if value in found
    ]
    where = [found[max(0, found.find(value) - 200) : found.find(value) + 40] for _, value in leaked]
    assert leaked == [], where[:6]
    carried = [index for index, *_ in CASES if f"CANARY{index:03d}" in found]
    assert len(carried) >= len(CASES) * 0.9
    # The home holds machine-local state (recovery copies, caches), and it was searched too.
    assert "CANARY" in _everything(host.home)
