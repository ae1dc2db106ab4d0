"""The hooks' own caps, as behaviour: the payload read, a filed sub-agent result."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memhooks.hooks import stdin
from memhooks.hooks.event import HookInput
from memhooks.hooks.subagent_stop import DETAILS_CAP, render_body
from memhooks.hooks.user_prompt import PROMPT_CHARS_KEPT, prompt_to_keep
from memhooks.store import MemoryPaths, Settings


def test_a_payload_past_the_cap_is_not_read_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    big = tmp_path / "payload.json"
    big.write_text(json.dumps({"prompt": "x" * (stdin.MAX_PAYLOAD_BYTES + 1_000)}), "utf-8")
    small = tmp_path / "small.json"
    small.write_text(json.dumps({"prompt": "hello"}), "utf-8")
    with small.open("rb") as handle:
        monkeypatch.setattr("sys.stdin", handle)
        assert stdin.read_payload() == ({"prompt": "hello"}, "")
    with big.open("rb") as handle:
        monkeypatch.setattr("sys.stdin", handle)
        data, problem = stdin.read_payload()
    assert data == {}
    assert problem.startswith("stdin is not JSON")


def test_a_long_sub_agent_result_is_filed_cut_with_a_note() -> None:
    result = "The parser drops the last token. " * 2_000
    body = render_body(
        title="Explore: audit", agent="Explore", when="2026-11-29", task="audit",
        session_id="s1", result=result,
    )  # fmt: skip
    assert len(body) < DETAILS_CAP + 2_000
    assert "characters cut." in body
    assert "The parser drops the last token." in body


def test_the_prompt_kept_for_pre_compact_is_cut_at_its_head(tmp_path: Path) -> None:
    paths = MemoryPaths(tmp_path / ".claude" / "memory")
    hook = HookInput("UserPromptSubmit", prompt="Please fix the importer. " + "log line\n" * 5_000)
    kept = prompt_to_keep(paths, hook, Settings())
    assert kept.startswith("Please fix the importer.")
    assert len(kept) <= PROMPT_CHARS_KEPT
