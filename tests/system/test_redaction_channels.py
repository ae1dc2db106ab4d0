"""Every fake credential of tests/secret_corpus.py, pushed through every channel that persists
text, must leave no trace anywhere under `.claude/memory/`, its machine-local folder or the
recovery copies.

Hooks run through their real entry point (`memhooks.hooks.entry.run`, stdin from a file, the
payload shapes of tests/fixtures/hook_stdin_examples.jsonl); a subprocess run of each hook
checks the launcher path too. Commands run through `memhooks.cli.main.main`. Each case starts
with a canary word: finding the canary proves the channel carried the text, so "no secret
found" is not "nothing written".
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from memhooks.curate.summary_format import MASTER_SECTIONS
from secret_corpus import NEAR_MISSES, SECRETS
from secret_corpus_shapes import HELD_OUT, TUNE
from support import as_text, local_of, run_hook

SESSION = "5a6ab793-afa3-4fb4-a04e-64b26bcd263c"


def canary(index: int) -> str:
    return f"CANARY{index:03d}"


def _pad(text: str) -> str:
    """Long enough for a sub-agent result (80 characters at least)."""
    return text + " " + "Checked the configuration and the deployment scripts end to end." * 2


def persisted(root: Path) -> str:
    """Every file under the memory tree, its machine-local folder and the recovery copies
    (outside the checkout), as text (JSON escapes undone too)."""
    from memhooks.store import MemoryPaths, mirror_dir

    kept = [*root.rglob("*"), *local_of(root).rglob("*")]
    return as_text([*kept, *Path(mirror_dir(MemoryPaths(str(root)))).rglob("*")])


def traces(value: str) -> list[str]:
    """The value, and its head (a secret cut before redaction would leave that behind)."""
    found = [value]
    if len(value) >= 12:
        found.append(value[: max(10, len(value) // 2)])
    return found


def leaks(text: str, cases: list[tuple[int, str, str, tuple[str, ...]]]) -> list[str]:
    return [
        f"{canary(i)} {family}: {trace!r}"
        for i, family, _, values in cases
        for value in values
        for trace in traces(value)
        if trace in text
    ]


Case = tuple[int, str, str, tuple[str, ...]]
CASES: list[Case] = [(i, family, text, values) for i, (family, text, values) in enumerate(SECRETS)]
#: A few of the formats no rule lists (tests/secret_corpus_shapes.py), mostly held out.
SHAPE_CASES: list[Case] = [
    (500 + i, family, text, values)
    for i, (family, text, values) in enumerate([*HELD_OUT[::5], *TUNE[::10]])
]


def run_entry(
    event: str,
    payload: dict[str, Any],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The hook's real entry point in this process: stdin is a file holding the payload."""
    from memhooks.hooks.entry import run

    stdin = tmp_path / "stdin.json"
    stdin.write_text(json.dumps(payload), encoding="utf-8")
    with stdin.open("r", encoding="utf-8") as handle:
        monkeypatch.setattr("sys.stdin", handle)
        assert run(event) == 0


def _record(kind: str, content: object, uuid: str, **extra: Any) -> str:
    record = {
        "type": kind,
        "uuid": uuid,
        "sessionId": SESSION,
        "cwd": "/home/user/project",
        "message": {"role": kind, "content": content},
        **extra,
    }
    return json.dumps(record)


def transcript_for(index: int, text: str) -> str:
    """A turn where the text is the prompt, a Bash command, its failing output and the reply."""
    mark = canary(index)
    tool_id = f"toolu_{index:04d}"
    lines = [
        _record("user", f"{mark} {text}", f"u{index}"),
        _record(
            "assistant",
            [{"type": "tool_use", "id": tool_id, "name": "Bash", "input": {"command": text}}],
            f"a{index}",
        ),
        _record(
            "user",
            [
                {
                    "type": "tool_result",
                    "tool_use_id": tool_id,
                    "is_error": True,
                    "content": f"Exit code 1\nerror: {mark} {text}",
                }
            ],
            f"r{index}",
            toolUseResult="x",
        ),
        _record(
            "assistant",
            [{"type": "text", "text": f"Decision: {mark} {text}\nBlocker: {mark} {text}"}],
            f"b{index}",
        ),
    ]
    return "\n".join(lines) + "\n"


def _payload(
    examples: dict[str, dict[str, Any]], case: str, project: Path, **extra: Any
) -> dict[str, Any]:
    payload = dict(examples[case])
    payload["cwd"] = str(project)
    payload.update(extra)
    return payload


@pytest.fixture
def tree(started: Path) -> Path:
    return started


def test_corpus_is_large_and_varied() -> None:
    families = {family for family, _, _ in SECRETS}
    assert len(SECRETS) >= 150
    assert len(families) >= 25


@pytest.mark.parametrize("cases", [CASES, SHAPE_CASES], ids=["listed", "shapes"])
def test_hooks_persist_no_secret(
    cases: list[Case],
    tree: Path,
    tmp_path: Path,
    *,
    examples: dict[str, dict[str, Any]],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    project = tree.parent.parent
    carried: dict[str, set[int]] = {"UserPromptSubmit": set(), "Stop": set(), "PreCompact": set()}
    carried["SubagentStop"] = set()
    found: list[str] = []
    for i, family, text, values in cases:
        transcript = tmp_path / f"t{i}.jsonl"
        transcript.write_text(transcript_for(i, text), encoding="utf-8")
        agent = tmp_path / f"agent{i}.jsonl"
        agent.write_text(_record("user", f"{canary(i)} {text}", f"s{i}") + "\n", encoding="utf-8")
        session = f"{SESSION[:-4]}{i:04d}"
        common = {"session_id": session, "transcript_path": str(transcript)}
        runs = {
            "UserPromptSubmit": _payload(
                examples, "UserPromptSubmit", project, prompt=f"{canary(i)} {text}", **common
            ),
            "Stop": _payload(examples, "Stop", project, last_assistant_message="", **common),
            "PreCompact": _payload(examples, "PreCompact:manual", project, **common),
            "SubagentStop": _payload(
                examples,
                "SubagentStop",
                project,
                agent_type="general-purpose",
                agent_id=f"agent{i:04d}",
                agent_transcript_path=str(agent),
                last_assistant_message=_pad(f"{canary(i)} {text}"),
                **common,
            ),
        }
        for event, payload in runs.items():
            run_entry(event, payload, tmp_path, monkeypatch)
            capsys.readouterr()
            text_now = persisted(tree)
            found += [f"{event}: {leak}" for leak in leaks(text_now, [(i, family, text, values)])]
            if canary(i) in text_now:
                carried[event].add(i)
    assert found == []
    # Each channel carried (nearly) every case: the cases really went through it.
    for event, indexes in carried.items():
        assert len(indexes) >= len(cases) * 0.9, (event, len(indexes))


@pytest.mark.parametrize("cases", [CASES, SHAPE_CASES], ids=["listed", "shapes"])
def test_cli_persists_no_secret(
    cases: list[Case],
    tree: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from memhooks.cli.main import main

    def cli(*argv: str, stdin: str = "") -> None:
        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
        code = main(list(argv))
        out = capsys.readouterr()
        assert code == 0, out.err

    for start in range(0, len(cases), 10):
        batch = cases[start : start + 10]
        joined = "\n".join(f"{canary(i)} {text}" for i, _, text, _ in batch)
        first = batch[0]
        cli("remember", "--new", "--category", "decision", f"Use this setup: {joined}")
        cli("task", f"deploy {joined}", "--next", joined, "--progress", joined, "--blocker", joined)
        cli(
            "save",
            "runbook",
            "--title",
            f"{canary(first[0])} {' '.join(first[2].split())}"[:80],
            "--tags",
            f"ops,{' '.join(first[2].replace(',', ' ').split())}",
            "--body",
            f"## Steps\n{joined}",
        )
    body = "\n\n".join(f"{canary(i)} {text}" for i, _, text, _ in cases)
    cli(
        "summarize",
        "--save",
        "--session",
        SESSION,
        stdin=f"# Session {canary(cases[0][0])}\n\n## Context\n{body}\n\n## Tracking Points\n"
        f"- Decision: {cases[0][2][:80]}\n\n## Related Files/Artifacts\n- none\n",
    )
    master = "# Project Memory\n\n" + "\n\n".join(f"## {h}\n{body}" for h in MASTER_SECTIONS)
    cli("synthesize", "--save", stdin=master)
    text = persisted(tree)
    assert leaks(text, cases) == []
    assert all(canary(i) in text for i, _, _, _ in cases)


def test_near_misses_survive_where_they_are_kept(
    tree: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from memhooks.cli.main import main

    body = "\n\n".join(NEAR_MISSES)
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["save", "analysis", "--title", "Near misses", "--body", body]) == 0
    capsys.readouterr()
    saved = "\n".join(p.read_text(encoding="utf-8") for p in (tree / "analysis").glob("*.md"))
    assert [n for n in NEAR_MISSES if n not in saved] == []


def _straddling(text: str, value: str, inside: int, limit: int = 4_000) -> str:
    """A prompt where `value` (in `text`) starts `inside` characters before the cut at `limit`."""
    lead = limit - inside - text.index(value)
    return ("x " * limit)[: lead - 1] + " " + text


@pytest.mark.parametrize("inside", [6, 10, 14, 20, 30, 39])
def test_a_secret_straddling_the_prompt_cut_leaves_no_head(
    tree: Path, examples: dict[str, dict[str, Any]], inside: int
) -> None:
    """The prompt cache keeps 4,000 characters: redaction must see the whole prompt first, so
    no head of a token that straddles the cut (`inside` of its characters before it) is kept."""
    _, text, values = next(case for case in SECRETS if case[0] == "github")
    prompt = _straddling(text, values[0], inside)
    assert prompt.index(values[0]) == 4_000 - inside
    project = tree.parent.parent
    done = run_hook(
        "UserPromptSubmit",
        _payload(examples, "UserPromptSubmit", project, prompt=prompt),
        env={"MEMHOOKS_PROJECT_DIR": str(project)},
    )
    assert done.returncode == 0, done.stderr
    cache = persisted(tree)
    assert "x x x" in cache
    assert values[0][:inside] not in cache
    assert leaks(cache, [(0, "github", text, tuple(v[:8] for v in values))]) == []


@pytest.mark.parametrize(("family", "text", "values"), SECRETS[::3])
def test_no_family_leaves_a_head_at_the_prompt_cut(
    family: str, text: str, values: tuple[str, ...]
) -> None:
    """`redact_prefix`, what the prompt cache keeps, for a token of each family straddling the
    cut with 6, 10, half and all but one of its characters before it."""
    from memhooks.text.redact import redact_prefix

    value = values[0]
    for inside in sorted({6, 10, len(value) // 2, len(value) - 1}):
        if not 6 <= inside < len(value):
            continue
        kept = redact_prefix(_straddling(text, value, inside), 4_000)
        assert value[:inside] not in kept, (family, inside, kept[-80:])


@pytest.mark.parametrize("event", ["UserPromptSubmit", "Stop", "PreCompact", "SubagentStop"])
def test_launcher_path_redacts(
    tree: Path, tmp_path: Path, examples: dict[str, dict[str, Any]], event: str
) -> None:
    """The same through the launcher, as hooks.json runs it (a batch of cases per hook)."""
    project = tree.parent.parent
    batch = CASES[::15]
    texts = "\n".join(f"{canary(i)} {text}" for i, _, text, _ in batch)
    transcript = tmp_path / "t.jsonl"
    transcript.write_text(transcript_for(999, texts), encoding="utf-8")
    agent = tmp_path / "agent.jsonl"
    agent.write_text(_record("user", texts, "s1") + "\n", encoding="utf-8")
    case = {"PreCompact": "PreCompact:manual"}.get(event, event)
    payload = _payload(
        examples,
        case,
        project,
        transcript_path=str(transcript),
        prompt=texts,
        agent_type="general-purpose",
        agent_transcript_path=str(agent),
        last_assistant_message=_pad(texts),
    )
    done = run_hook(event, payload, env={"MEMHOOKS_PROJECT_DIR": str(project)})
    assert done.returncode == 0, done.stderr
    assert b"failed open" not in done.stderr
    text = persisted(tree)
    assert canary(batch[0][0]) in text
    assert leaks(text, batch) == []


def test_a_frontmatter_field_is_redacted_with_its_key_in_view(
    tree: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`password: hunter2` is a secret where `hunter2` alone is a word: `save --field` keeps the
    key beside the value when it redacts, so the value never reaches the file."""
    from memhooks.cli.main import main

    code = main(
        [
            "save",
            "runbook",
            "--title",
            "Staging database access",
            "--field",
            "password=hunter2-staging",
            "--body",
            "## Steps\nConnect with the staging credentials.",
        ]
    )
    assert code == 0, capsys.readouterr().err
    text = persisted(tree)
    assert "hunter2-staging" not in text
    assert "Staging database access" in text
