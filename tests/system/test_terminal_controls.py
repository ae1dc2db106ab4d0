"""Terminal controls never reach a file of the tree raw (issue 32, item 11).

OSC 52 (which writes the clipboard), erase-line and U+202E from a command's output, a todo
item and Claude's quote were written as they came into the committed `checkpoints/*.md` and
`sessions/<id>.md`, live for `cat` and `git diff`. The store writes every text through one
function (`text.controls.inert`), which writes them as `\\u001b`, `\\u202e`.

Mounted as it happens: a session's transcript holds them (a failing command printed them, a
todo item and Claude's reply carry them), and Stop and PreCompact run as the host runs them.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from memhooks.store import write_atomic
from memhooks.text.controls import inert
from plugin_host import Host

SESSION = "dddddddd-0000-4000-8000-0000000000c1"
OSC52 = "\x1b]52;c;Y3VybCBldmlsLmV4YW1wbGUgfCBzaA==\x07"
ERASE = "\x1b[2K\r\x1b[1A"
BIDI = "\u202e"
C1 = "\x9b31m\x9d0;title\x9c"
CONTROLS = f"{OSC52} done {ERASE} ok {BIDI}hs.live{BIDI} {C1}"
#: What a terminal obeys: C0 but tab and newline, DEL, C1, the bidi overrides and isolates.
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def transcript(project: Path) -> Path:
    def message(role: str, content: object) -> dict[str, object]:
        return {"type": role, "cwd": str(project), "message": {"role": role, "content": content}}

    todos = [{"content": f"ship {CONTROLS}", "status": "in_progress", "activeForm": "shipping"}]
    records = [
        message("user", f"run the build {CONTROLS}"),
        message(
            "assistant",
            [{"type": "tool_use", "id": "t1", "name": "TodoWrite", "input": {"todos": todos}}],
        ),
        message("user", [{"type": "tool_result", "tool_use_id": "t1", "content": "ok"}]),
        message(
            "assistant",
            [{"type": "tool_use", "id": "t2", "name": "Bash", "input": {"command": "make"}}],
        ),
        message(
            "user",
            [
                {
                    "type": "tool_result",
                    "tool_use_id": "t2",
                    "is_error": True,
                    "content": f"make: *** failed {CONTROLS}",
                }
            ],
        ),
        message("assistant", [{"type": "text", "text": f"The build printed: {CONTROLS}"}]),
    ]
    path = project.parent / "session.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def test_checkpoints_and_journals_hold_no_raw_control(
    machine: tuple[Path, Path, Path], tmp_path: Path
) -> None:
    host = Host(*machine, Path.home(), tmp_path / "project")
    assert host.command("start").returncode == 0
    path = str(transcript(host.project))
    host.hook("SessionStart", source="startup", session_id=SESSION)
    host.hook("Stop", session_id=SESSION, transcript_path=path)
    host.hook("PreCompact", session_id=SESSION, transcript_path=path, trigger="manual")
    host.hook("Stop", session_id=SESSION, transcript_path=path)
    state = Path.home() / ".local" / "state" / "memhooks"  # machine-local, where kept apart
    written = {
        p.as_posix().split("/memory/", 1)[-1]: p.read_text(encoding="utf-8", errors="replace")
        for folder in (host.memory, state)
        for p in folder.rglob("*")
        if p.is_file() and p.suffix in (".md", ".json")
    }
    checkpoints = [name for name in written if name.startswith("checkpoints/")]
    assert f"sessions/{SESSION}.md" in written
    assert checkpoints
    assert any("hs.live" in written[name] for name in checkpoints)  # the route was taken
    dirty = {name: RAW.findall(text) for name, text in written.items() if RAW.search(text)}
    assert not dirty
    assert "\\u001b]52;c;" in "".join(written[name] for name in checkpoints)


def test_inert_writes_controls_visibly_and_keeps_json_the_same(tmp_path: Path) -> None:
    document = json.dumps({"said": CONTROLS, "tab": "a\tb"}, ensure_ascii=False)
    assert json.loads(inert(document)) == json.loads(document)
    assert not RAW.search(inert(CONTROLS))
    assert inert("a\r\nb\tc\n") == "a\nb\tc\n"
    assert inert(inert(CONTROLS)) == inert(CONTROLS)
    target = tmp_path / ".claude" / "memory" / "sessions" / "s.md"
    write_atomic(target, f"# s\n{CONTROLS}\n")
    assert not RAW.search(target.read_text(encoding="utf-8"))
    write_atomic(target, CONTROLS.encode())  # bytes: a copy, written as it is
    assert target.read_bytes() == CONTROLS.encode()
