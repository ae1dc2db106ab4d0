"""Issue 24: every hook keeps to a time budget on whatever a repository commits (findings 3, 4,
8 and 10).

Each attack is mounted as a repository would mount it: the files are committed in an origin
repository, the project is a `git clone` of it, the user ran `memhooks start` in the clone, and
the hooks run as `hooks.json` runs them (`python3 -S <plugin>/hooks/memhooks.py hook <Event>`,
JSON on stdin, the project as the working directory, HOME a temporary folder). The only timing
asserted is "finished before the host's timeout", as a subprocess timeout.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from memhooks.recall import citation_check, citations
from memhooks.store import MemoryPaths
from support import LAUNCHER, git, run_cli

SESSION = "5e55-budgets"
#: The `timeout` of each event in hooks/hooks.json (test_manifest checks that file).
HOST_TIMEOUT = {"UserPromptSubmit": 10, "PreCompact": 60, "SessionStart": 15, "Stop": 30}


def clone_of(tmp_path: Path, files: dict[str, str | bytes]) -> Path:
    """A clone of a repository that committed `files`, where the user then ran `start`."""
    origin = tmp_path / "origin"
    origin.mkdir()
    git("init", "-q", cwd=origin)
    for relative, content in files.items():
        path = origin / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    git("add", "-A", "-f", cwd=origin)
    git("commit", "-q", "-m", "the repository as published", cwd=origin)
    project = tmp_path / "cloned project"
    git("clone", "-q", str(origin), str(project), cwd=tmp_path)
    done = run_cli("start", cwd=project)
    assert done.returncode == 0, done.stderr
    return project


def hook(
    project: Path, event: str, timeout: float | None = None, **fields: object
) -> subprocess.CompletedProcess[str]:
    """One hook run as hooks.json runs it; TimeoutExpired past the host's timeout."""
    payload = {
        "session_id": SESSION,
        "transcript_path": "",
        "cwd": str(project),
        "hook_event_name": event,
        **fields,
    }
    env = {k: v for k, v in os.environ.items() if not k.startswith(("MEMHOOKS_", "CLAUDE_"))}
    done = subprocess.run(
        [sys.executable, "-S", str(LAUNCHER), "hook", event],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        cwd=project,
        env=env,
        timeout=timeout or HOST_TIMEOUT.get(event, 10),
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done


def context_of(done: subprocess.CompletedProcess[str]) -> str:
    if not done.stdout.strip():
        return ""
    return str(json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"])


# ---------------------------------------------------------------- finding 3: cites stall


def many_cites_repo(count: int = 300) -> dict[str, str | bytes]:
    """A 1 MB source file and a memory citing `count` long ranges of it, none still there."""
    lines = [f"x_{n} = {n}  # " + "y" * 2_400 for n in range(420)]
    cites = [
        f"src/big.py:{1 + n % 10}-{n % 10 + 399}#{hashlib.sha256(str(n).encode()).hexdigest()[:12]}"
        for n in range(count)
    ]
    memory = (
        "---\ntitle: Tokenizer decision\ncategory: decision\ncreated: 2026-01-01T00:00:00Z\n"
        f"cites: {json.dumps(cites)}\n---\n# Tokenizer decision\n\n"
        "The parser's tokenizer splits on unicode word boundaries.\n"
    )
    return {
        "src/big.py": "\n".join(lines) + "\n",
        ".claude/memory/decisions/2026-01-01_001_tokenizer.md": memory,
    }


def test_hundreds_of_committed_cites_do_not_stall_the_prompt(tmp_path: Path) -> None:
    """Finding 3: 300 line ranges of a 1 MB file took 26 s on main (the host kills the hook at
    10 s); now the first MAX_CITES are checked within the prompt's budget."""
    project = clone_of(tmp_path, many_cites_repo())
    done = hook(project, "UserPromptSubmit", prompt="how does the parser tokenizer split words?")
    text = context_of(done)
    assert "Tokenizer decision" in text
    verdicts = json.loads(Path(MemoryPaths(str(project / ".claude/memory")).citations).read_text())
    verdict = verdicts["decisions/2026-01-01_001_tokenizer.md"]
    assert 1 <= verdict["checked"] <= citations.MAX_CITES


def test_a_verdict_cut_short_goes_on_at_the_next_prompt(tmp_path: Path) -> None:
    files = many_cites_repo(count=30)
    for relative, content in files.items():
        (tmp_path / relative).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / relative).write_text(str(content), encoding="utf-8")
    root = str(tmp_path / ".claude" / "memory")
    memory = "decisions/2026-01-01_001_tokenizer.md"
    progress = []
    for _ in range(citations.MAX_CITES + 2):
        stale = citation_check.stale_of(MemoryPaths(root), [memory], budget=0)  # one cite a call
        verdict = json.loads(Path(MemoryPaths(root).citations).read_text())
        progress.append(verdict[memory]["checked"])
        assert stale == {memory: ["src/big.py"]}
    assert progress == [*range(1, citations.MAX_CITES + 1), citations.MAX_CITES, 20]


def test_only_the_first_cites_are_read() -> None:
    stored = [f"a.py:{n}#abcdef123456" for n in range(1, 500)]
    assert len(citations.from_meta({"cites": stored})) == citations.MAX_CITES
    assert [c.start for c in citations.parse_all(["bad", *stored])][:2] == [1, 2]


# ------------------------------------------------------- finding 10: a FIFO swapped in


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs: POSIX")
def test_a_fifo_swapped_in_after_the_check_does_not_block(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Finding 10: the lstat saw a regular file, then a FIFO took its place before the open.
    The swap is simulated by answering the lstat with a regular file's stat."""
    regular = tmp_path / "regular.py"
    regular.write_text("x = 1\n")
    os.mkfifo(tmp_path / "swapped.py")
    real_lstat = os.lstat

    def lstat(path: str | os.PathLike[str]) -> os.stat_result:
        return real_lstat(regular if str(path).endswith("swapped.py") else path)

    monkeypatch.setattr(citations.os, "lstat", lstat)
    result: list[object] = []
    reader = threading.Thread(
        target=lambda: result.append(citations.read_cited(str(tmp_path), "swapped.py")),
        daemon=True,  # on the old code it waits for a writer forever
    )
    reader.start()
    reader.join(10)
    assert result == [None]
    assert citations.read_cited(str(tmp_path), "regular.py") == ["x = 1"]


# ------------------------------------------------------ finding 4: PreCompact's budget


def record_line(kind: str, uuid: str, content: object) -> str:
    """One transcript line: a `user` or `assistant` record."""
    message = {"role": kind, "content": content}
    return json.dumps({"type": kind, "uuid": uuid, "message": message}) + "\n"


def write_replies(path: Path, megabytes: int) -> None:
    """A transcript of one request and then long replies, `megabytes` of them, and a last
    request: what a long autonomous session leaves, and what redaction is slowest on."""
    paragraph = (
        "We decided to keep the parser's tokenizer and to cache the token table; the api key "
        "stays in the environment, never in config. Next I'll run the tests again. "
    ) * 300
    line = record_line
    with path.open("w", encoding="utf-8") as handle:
        handle.write(line("user", "u0", "Refactor the tokenizer and keep the tests green"))
        n = 0
        while handle.tell() < megabytes << 20:
            n += 1
            handle.write(
                line("assistant", f"a{n}", [{"type": "text", "text": f"{n}. {paragraph}"}])
            )
        handle.write(line("user", "u1", "LAST-REQUEST: ship the tokenizer"))


def checkpoint_of(project: Path) -> str:
    return (project / ".claude/memory/checkpoints/latest.md").read_text(encoding="utf-8")


def test_a_checkpoint_is_written_when_the_deadline_stops_reading(
    started: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The budget is injectable: with none left, nothing is read and the checkpoint says so."""
    from memhooks.hooks import pre_compact
    from memhooks.hooks.event import HookInput
    from memhooks.store import MemoryPaths, Settings

    transcript = tmp_path / "t.jsonl"
    write_replies(transcript, 1)
    monkeypatch.setattr(pre_compact, "READ_SECONDS", -1.0)
    payload = {"session_id": SESSION, "transcript_path": str(transcript), "trigger": "auto"}
    hook_input = HookInput.from_payload("PreCompact", {**payload, "cwd": str(started.parent)})
    pre_compact.handle(hook_input, MemoryPaths(started), Settings())
    text = (started / "checkpoints" / "latest.md").read_text(encoding="utf-8")
    assert "This checkpoint was made from 0.0 MB of the 1.0 MB transcript" in text
    assert "LAST-REQUEST" not in text


def test_the_tail_is_read_when_the_head_is_slow(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past the head, reading jumps to as much of the tail as the head's pace says fits."""
    from memhooks.continuity import timed_read
    from memhooks.continuity.evidence import Evidence

    transcript = tmp_path / "t.jsonl"
    write_replies(transcript, 2)
    monkeypatch.setattr(timed_read, "HEAD_BYTES", 100_000)
    monkeypatch.setattr(timed_read, "READ_CAP", 300_000)
    reading = timed_read.TimedRead(str(transcript), float("inf"))
    turns = Evidence().add_all(reading).state["turns"]
    assert turns[0]["prompt"].startswith("Refactor the tokenizer")
    assert turns[-1]["prompt"] == "LAST-REQUEST: ship the tokenizer"
    assert "(the first 0.1 MB and from 1.8 MB to 2.0 MB)" in reading.note()
    whole = timed_read.TimedRead(str(transcript), float("inf"))
    monkeypatch.setattr(timed_read, "READ_CAP", 256 << 20)
    assert len(list(whole)) > 2
    assert whole.note() == ""


@pytest.mark.slow
def test_pre_compact_on_200_mb_of_replies_writes_a_checkpoint_in_time(tmp_path: Path) -> None:
    """Finding 4: main was killed at the host's timeout with no checkpoint (every reply is
    redacted whole); now it reads what fits, says so, and keeps the latest request."""
    project = clone_of(tmp_path, {"README.md": "a project\n"})
    transcript = tmp_path / "session.jsonl"
    write_replies(transcript, 200)
    hook(project, "PreCompact", transcript_path=str(transcript), trigger="auto")
    text = checkpoint_of(project)
    assert "MB of the 200.0 MB transcript" in text
    assert "LAST-REQUEST: ship the tokenizer" in text


# ------------------------------------------- finding 8: a slow committed redaction pattern

#: Passes the nested-repeat check, and backtracks for seconds on an ordinary line without `!`.
SLOW_PATTERN = "[^!]*[^!]*[^!]*[^!]*[^!]*!"
#: Fast on the probe text (it never holds the literal), slow on a text that does.
SLOW_ON_CUE = "XYZZY[^!]*[^!]*[^!]*[^!]*!"
PROMPT = (
    "Please refactor the tokenizer so that it splits on unicode word boundaries, and keep "
    "the tests green while you do it; the parser depends on it."
)


def pattern_repo(pattern: str) -> dict[str, str | bytes]:
    memory = "---\ntitle: Tokenizer decision\ncategory: decision\n---\n# Tokenizer\n\nSplits.\n"
    return {
        ".claude/memory/config.json": json.dumps({"redact": {"extra_patterns": [pattern]}}),
        ".claude/memory/decisions/2026-01-01_001_tokenizer.md": memory,
    }


def test_a_slow_committed_pattern_is_dropped_and_every_hook_does_its_work(
    tmp_path: Path,
) -> None:
    """Finding 8: on main every prompt paid the 1 s deadline and was not kept for PreCompact,
    and PreCompact wrote no checkpoint. Now the pattern is timed once and dropped."""
    project = clone_of(tmp_path, pattern_repo(SLOW_PATTERN))
    transcript = tmp_path / "session.jsonl"
    replies = [{"type": "text", "text": "I merged the two split helpers and reran the tests."}]
    transcript.write_text(
        record_line("user", "u0", PROMPT) + record_line("assistant", "a0", replies), "utf-8"
    )
    hook(project, "SessionStart", source="startup")
    hook(project, "UserPromptSubmit", prompt=PROMPT, transcript_path=str(transcript))
    kept = json.loads(Path(MemoryPaths(str(project / ".claude/memory")).prompts).read_text())
    assert [item["prompt"] for item in kept] == [PROMPT]
    hook(project, "Stop", transcript_path=str(transcript), stop_hook_active=False)
    hook(project, "PreCompact", transcript_path=str(transcript), trigger="auto")
    assert "I merged the two split helpers" in checkpoint_of(project)
    verdicts = json.loads(Path(MemoryPaths(str(project / ".claude/memory")).patterns).read_text())
    assert verdicts == {SLOW_PATTERN: "slow"}
    status = run_cli("status", cwd=project)
    assert "Redaction: redact.extra_patterns[0]: dropped, too slow" in status.stdout
    doctor = run_cli("doctor", "--json", cwd=project)
    checks = {c["check"]: c for c in json.loads(doctor.stdout)["checks"]}
    assert checks["redact.extra_patterns"]["ok"] is False


def test_a_pattern_that_runs_past_its_deadline_is_dropped_and_the_checkpoint_written(
    tmp_path: Path,
) -> None:
    """A pattern fast on the probe and slow on one text: PreCompact drops it and writes."""
    project = clone_of(tmp_path, pattern_repo(SLOW_ON_CUE))
    transcript = tmp_path / "session.jsonl"
    trap = "XYZZY " + "word " * 390
    transcript.write_text(
        record_line("user", "u0", PROMPT) + record_line("user", "u1", trap), "utf-8"
    )
    hook(project, "PreCompact", transcript_path=str(transcript), trigger="auto")
    assert "refactor the tokenizer" in checkpoint_of(project)
    verdicts = json.loads(Path(MemoryPaths(str(project / ".claude/memory")).patterns).read_text())
    assert verdicts[SLOW_ON_CUE] == "slow"  # and the next hooks leave it out
    done = hook(project, "UserPromptSubmit", prompt=trap)
    assert "ran past" not in done.stderr


def test_patterns_fast_on_the_probe_are_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from memhooks.store import usable_patterns
    from memhooks.text import redact_custom

    monkeypatch.setattr(redact_custom, "_DROPPED", set())  # this process's drops stay here

    patterns = (r"ACME-[0-9a-f]{32}", r"(?i)internal[-_]token\s*[:=]\s*\S+", SLOW_PATTERN)
    kept, dropped = usable_patterns(str(tmp_path), patterns)
    assert kept == patterns[:2]
    assert [line.split(":")[0] for line in dropped] == ["redact.extra_patterns[2]"]
