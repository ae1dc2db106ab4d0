"""The offline mock of the Messages API, without the claude CLI: rules, replies, what it records."""

from __future__ import annotations

import json
import urllib.request

from memhooks.demo.mock_api import COMPACTION_MARKER, MOCK_SUMMARY, MockApi, Rule
from memhooks.demo.mock_replies import sse_body, text_block, tool_use
from memhooks.demo.mock_requests import hook_contexts, request_texts


def _post(url: str, body: dict[str, object]) -> tuple[int, bytes]:
    request = urllib.request.Request(  # noqa: S310 - the mock's own http:// URL
        url + "/v1/messages", json.dumps(body).encode(), {"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as reply:  # noqa: S310
            return reply.status, reply.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()


def _asks(text: str, *, stream: bool = False) -> dict[str, object]:
    return {"model": "m", "stream": stream, "messages": [{"role": "user", "content": text}]}


def test_rules_fire_once_on_their_words_and_errors_are_api_errors() -> None:
    rules = [Rule("hello", [text_block("hi there")]), Rule.too_long("compact me")]
    with MockApi(rules) as api:
        status, raw = _post(api.url, _asks("say hello"))
        assert status == 200
        assert json.loads(raw)["content"] == [text_block("hi there")]
        assert json.loads(_post(api.url, _asks("say hello"))[1])["content"] == [text_block("ok")]
        status, raw = _post(api.url, _asks("compact me"))
        assert status == 400
        assert "prompt is too long" in json.loads(raw)["error"]["message"]
        status, raw = _post(api.url, _asks(COMPACTION_MARKER))
        assert json.loads(raw)["content"] == [text_block(MOCK_SUMMARY)]
        assert len(api.messages_since(0)) == 4
        assert len(api.messages_since(3)) == 1


def test_a_streamed_reply_carries_the_tool_call_as_events() -> None:
    call = tool_use("Bash", {"command": "ls"}, "toolu_1")
    with MockApi([Rule("run it", [call])]) as api:
        status, raw = _post(api.url, _asks("run it", stream=True))
    assert status == 200
    events = [
        line.split(": ", 1)[1] for line in raw.decode().splitlines() if line.startswith("event")
    ]
    assert events[0] == "message_start"
    assert events[-2:] == ["message_delta", "message_stop"]
    assert b'"stop_reason": "tool_use"' in raw
    assert b'"partial_json": "{\\"command\\": \\"ls\\"}"' in raw
    assert sse_body("id", "m", [], "end_turn", {"output_tokens": 1}).count(b"event:") == 3


def test_hook_contexts_are_cut_at_the_next_label_and_the_hosts_own_text() -> None:
    text = (
        "SessionStart hook additional context: first\nline\n\n"
        "UserPromptSubmit hook additional context: second\n\nToday's date is 2026-01-01."
    )
    body = {"system": "sys", "messages": [{"role": "user", "content": text}]}
    found = [(c.event, c.text) for c in hook_contexts(body)]
    assert found == [("SessionStart", "first\nline"), ("UserPromptSubmit", "second")]
    assert next(request_texts(body)) == ("system-prompt", "sys")
