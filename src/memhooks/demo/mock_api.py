# Copyright (c) 2025 memhooks developers. Licensed under the MIT License.
"""A local stand-in for the Anthropic Messages API, so the real `claude` CLI runs offline.

Standard library only. It records every request, answers `POST /v1/messages` as SSE
(when the body asks for a stream) or JSON, and picks each reply from scripted rules:
a rule fires when its `when` substring occurs in the last user message (a prompt, or a
tool result that carries the id of the scripted tool call before it). A rule may answer
with an API error instead, which is how a 400 "prompt is too long" forces the CLI into
auto-compaction. A compaction request that no rule matches gets a deliberately empty
summary: whatever the session knows after compaction must then come from the plugin.

Run it alone with `python -m memhooks.demo.mock_api --script rules.json --record out.jsonl`.
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import itertools
import json
import sys
import threading
import time
import uuid
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar, cast

from memhooks.demo.mock_replies import JsonDict, model_entry, sse_body, text_block
from memhooks.demo.mock_requests import last_user_text

if TYPE_CHECKING:
    from types import TracebackType


#: The instruction Claude Code sends when it asks the model to summarize a conversation.
COMPACTION_MARKER = "Your task is to create a detailed summary of the conversation"
#: Says nothing about the work on purpose: task, todos and files must come from the plugin.
MOCK_SUMMARY = (
    "<analysis>mock analysis</analysis>\n<summary>MOCK-COMPACT-SUMMARY: the conversation "
    "was compacted by the offline mock, which keeps none of its details.</summary>"
)
PROMPT_TOO_LONG = "prompt is too long: 250000 tokens > 200000 maximum"


@dataclass
class Rule:
    """One scripted reply: `content` blocks, or an `error` {status, type, message}."""

    when: str
    content: list[JsonDict] = field(default_factory=list)
    error: JsonDict | None = None
    times: int | None = 1

    @classmethod
    def from_json(cls, data: JsonDict) -> Rule:
        return cls(
            when=str(data.get("when", "")),
            content=list(data.get("content") or []),
            error=data.get("error"),
            times=data.get("times"),
        )

    @classmethod
    def too_long(cls, when: str) -> Rule:
        return cls(
            when=when,
            error={"status": 400, "type": "invalid_request_error", "message": PROMPT_TOO_LONG},
        )


@dataclass(frozen=True)
class Recorded:
    """One HTTP request the CLI sent, with the reply the mock chose."""

    n: int
    t: float
    method: str
    path: str
    body: object
    reply: object

    @property
    def is_messages(self) -> bool:
        return isinstance(self.body, dict) and "messages" in self.body

    def as_json(self) -> JsonDict:
        return {
            "n": self.n,
            "t": self.t,
            "method": self.method,
            "path": self.path,
            "body": self.body,
            "reply": self.reply,
        }


class MockApi:
    """The mock server, run in a daemon thread of this process; use it as a context manager."""

    def __init__(self, rules: list[Rule] | None = None, record: Path | None = None) -> None:
        self.rules: list[Rule] = list(rules or [])
        self.record = record
        self.requests: list[Recorded] = []
        self._lock = threading.Lock()
        self._ids = itertools.count(1)
        handler = type("Handler", (_Handler,), {"api": self})
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def __enter__(self) -> MockApi:  # noqa: PYI034 - no typing_extensions: stdlib only
        self._thread.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        if self._thread.is_alive():
            self._server.shutdown()
        self._server.server_close()

    def add(self, *rules: Rule) -> None:
        with self._lock:
            self.rules.extend(rules)

    def messages_since(self, start: int) -> list[Recorded]:
        """The Messages API requests recorded after the first `start` requests."""
        with self._lock:
            return [r for r in self.requests[start:] if r.is_messages]

    def choose(self, body: JsonDict) -> tuple[list[JsonDict], str] | JsonDict:
        """The reply blocks and stop reason, or an error dict."""
        last = last_user_text(body)
        # The summarizer's request ends with the whole conversation's instruction; a
        # prompt-matching rule must never answer it by accident.
        if COMPACTION_MARKER in last and not any(COMPACTION_MARKER in r.when for r in self.rules):
            return [text_block(MOCK_SUMMARY)], "end_turn"
        with self._lock:
            for rule in self.rules:
                if rule.times is not None and rule.times <= 0:
                    continue
                if rule.when not in last:
                    continue
                if rule.times is not None:
                    rule.times -= 1
                if rule.error is not None:
                    return dict(rule.error)
                blocks = cast("list[JsonDict]", json.loads(json.dumps(rule.content)))
                for block in blocks:
                    if block.get("type") == "tool_use":
                        block.setdefault("id", f"toolu_mock{next(self._ids):06d}")
                        block.setdefault("input", {})
                has_tool = any(b.get("type") == "tool_use" for b in blocks)
                return blocks, "tool_use" if has_tool else "end_turn"
        return [text_block("ok")], "end_turn"

    def note(self, method: str, path: str, body: object, reply: object) -> None:
        with self._lock:
            rec = Recorded(next(self._ids), time.time(), method, path, body, reply)
            self.requests.append(rec)
            if self.record is not None:
                with self.record.open("a", encoding="utf-8") as out:
                    out.write(json.dumps(rec.as_json(), ensure_ascii=False) + "\n")


class _Handler(BaseHTTPRequestHandler):
    """Serves one request; `api` is set on a subclass made for each `MockApi`."""

    api: ClassVar[MockApi]

    protocol_version = "HTTP/1.1"
    server_version = "memhooks-mock-api/1.0"

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - stdlib name
        """Silent: the recorded requests are the log."""

    def _read_body(self) -> object:
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            raw = b""
            while size := int(self.rfile.readline().split(b";")[0].strip() or b"0", 16):
                raw += self.rfile.read(size)
                self.rfile.readline()
            self.rfile.readline()
        else:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b""
        if raw and self.headers.get("Content-Encoding") == "gzip":
            raw = gzip.decompress(raw)
        try:
            return json.loads(raw) if raw else None
        except ValueError:
            return {"_raw": raw.decode("utf-8", "replace")}

    def _send(self, code: int, data: bytes, ctype: str = "application/json") -> None:
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("request-id", "req_mock_" + uuid.uuid4().hex[:16])
        self.end_headers()
        if self.command != "HEAD":
            # The CLI may give up on a request; there is nobody left to tell.
            with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                self.wfile.write(data)

    def _json(self, code: int, obj: JsonDict) -> None:
        self._send(code, json.dumps(obj).encode())

    def do_HEAD(self) -> None:
        self.api.note("HEAD", self.path, None, None)
        self._json(200, {})

    def do_GET(self) -> None:
        self.api.note("GET", self.path, None, None)
        path = self.path.split("?")[0].rstrip("/")
        if path.startswith("/v1/models/"):
            self._json(200, model_entry(path.rsplit("/", 1)[1]))
        elif path == "/v1/models":
            models = [model_entry(m) for m in ("claude-opus-4-1", "claude-sonnet-4-5")]
            self._json(200, {"data": models, "has_more": False})
        else:
            self._json(200, {})

    def do_POST(self) -> None:
        body = self._read_body()
        path = self.path.split("?")[0].rstrip("/")
        if path.endswith("/v1/messages/count_tokens"):
            self.api.note("POST", self.path, body, "count_tokens")
            self._json(200, {"input_tokens": max(1, len(json.dumps(body)) // 4)})
            return
        if not path.endswith("/v1/messages"):
            self.api.note("POST", self.path, body, "generic-200")
            self._json(200, {})
            return
        request = body if isinstance(body, dict) else {}
        stream = bool(request.get("stream"))
        choice = self.api.choose(request)
        if isinstance(choice, dict):
            self.api.note("POST", self.path, request, {"error": choice, "stream": stream})
            error = {"type": choice.get("type", "invalid_request_error")}
            error["message"] = choice.get("message", "mock error")
            self._json(int(choice.get("status", 400)), {"type": "error", "error": error})
            return
        blocks, stop = choice
        reply = {"content": blocks, "stop_reason": stop, "stream": stream}
        self.api.note("POST", self.path, request, reply)
        self._reply(request, blocks, stop, stream=stream)

    def _reply(self, request: JsonDict, blocks: list[JsonDict], stop: str, *, stream: bool) -> None:
        model = str(request.get("model", "claude-mock"))
        usage = {
            "input_tokens": max(1, len(json.dumps(request)) // 4),
            "output_tokens": 5,
            "cache_creation_input_tokens": 0,
            "cache_read_input_tokens": 0,
        }
        msg_id = "msg_mock_" + uuid.uuid4().hex[:16]
        if stream:
            self._send(200, sse_body(msg_id, model, blocks, stop, usage), "text/event-stream")
            return
        message: JsonDict = {"id": msg_id, "type": "message", "role": "assistant"}
        message.update(model=model, content=blocks, stop_reason=stop, stop_sequence=None)
        message["usage"] = usage
        self._json(200, message)

    do_PUT = do_PATCH = do_DELETE = do_POST  # noqa: N815 - the names http.server calls


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Offline mock of the Anthropic Messages API.")
    parser.add_argument("--script", type=Path, help="JSON list of rules {when, content|error}")
    parser.add_argument("--record", type=Path, help="append every request here as JSON lines")
    args = parser.parse_args(argv)
    rules: list[Rule] = []
    if args.script:
        data = json.loads(args.script.read_text(encoding="utf-8"))
        rules = [Rule.from_json(item) for item in data]
    with MockApi(rules, args.record) as api:
        print(f"URL {api.url}", flush=True)
        try:
            threading.Event().wait()
        except KeyboardInterrupt:
            return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
