# Copyright (c) 2025 memhooks developers. Licensed under the MIT License.
"""What the mock answers: content blocks, a Messages reply streamed as server-sent events, a model.

Standard library only; the shapes are the Messages API's, as the `claude` CLI reads them.
"""

from __future__ import annotations

import json
from typing import Any

JsonDict = dict[str, Any]


def text_block(text: str) -> JsonDict:
    return {"type": "text", "text": text}


def tool_use(name: str, tool_input: JsonDict, tool_id: str) -> JsonDict:
    """A scripted tool call; a later rule can match its result by `tool_id`."""
    return {"type": "tool_use", "id": tool_id, "name": name, "input": tool_input}


def _sse(event: str, data: JsonDict) -> bytes:
    return f"event: {event}\ndata: {json.dumps(data)}\n\n".encode()


def sse_body(msg_id: str, model: str, blocks: list[JsonDict], stop: str, usage: JsonDict) -> bytes:
    start_usage = dict(usage, output_tokens=1)
    message: JsonDict = {
        "id": msg_id,
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": [],
        "stop_reason": None,
        "stop_sequence": None,
        "usage": start_usage,
    }
    out = [_sse("message_start", {"type": "message_start", "message": message})]
    for index, block in enumerate(blocks):
        delta: JsonDict | None
        if block["type"] == "text":
            start: JsonDict = text_block("")
            delta = {"type": "text_delta", "text": block["text"]}
        elif block["type"] == "tool_use":
            start = {"type": "tool_use", "id": block["id"], "name": block["name"], "input": {}}
            delta = {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}
        else:  # any other block type goes whole in its start event
            start, delta = block, None
        head = {"type": "content_block_start", "index": index, "content_block": start}
        out.append(_sse("content_block_start", head))
        if delta is not None:
            step = {"type": "content_block_delta", "index": index, "delta": delta}
            out.append(_sse("content_block_delta", step))
        out.append(_sse("content_block_stop", {"type": "content_block_stop", "index": index}))
    tail = {
        "type": "message_delta",
        "delta": {"stop_reason": stop, "stop_sequence": None},
        "usage": {"output_tokens": usage["output_tokens"]},
    }
    out.append(_sse("message_delta", tail))
    out.append(_sse("message_stop", {"type": "message_stop"}))
    return b"".join(out)


def model_entry(name: str) -> JsonDict:
    created = "2025-01-01T00:00:00Z"
    return {"type": "model", "id": name, "display_name": name, "created_at": created}
