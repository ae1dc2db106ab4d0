"""Print a session transcript as the plain conversation: prompts, replies, tool calls, results.

    python3 tests/benchmark/conversation_text.py SESSION_DIR/transcript_at_precompact.jsonl

Bookkeeping records (queue operations, hook summaries, cost state, environment attachments)
are skipped; a file the CLI reports as changed on disk is kept as a one-line note. Long tool
results are cut to `--max-result` characters. This is what the host summaries in
tests/fixtures/host_summaries/ were written from (stdlib only).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

NOTE_ATTACHMENTS = {"edited_text_file"}


def clip(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    return f"{text[:limit]}\n[... {len(text) - limit} more characters]"


def result_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(part.get("text", "") for part in content if isinstance(part, dict))
    return ""


def user_lines(content: Any, max_result: int) -> list[str]:
    if isinstance(content, str):
        return [f"USER: {content}"]
    lines = []
    for part in content:
        if part.get("type") == "text":
            lines.append(f"USER: {part['text']}")
        elif part.get("type") == "tool_result":
            flag = " (error)" if part.get("is_error") else ""
            lines.append(f"RESULT{flag}: {clip(result_text(part.get('content')), max_result)}")
    return lines


def assistant_lines(content: list[dict[str, Any]]) -> list[str]:
    lines = []
    for part in content:
        if part.get("type") == "text" and part["text"].strip():
            lines.append(f"CLAUDE: {part['text']}")
        elif part.get("type") == "tool_use":
            lines.append(f"TOOL {part['name']}: {json.dumps(part['input'], ensure_ascii=False)}")
    return lines


def conversation(path: Path, max_result: int) -> list[str]:
    lines = []
    for raw in path.read_text(encoding="utf-8").splitlines():
        record = json.loads(raw)
        kind = record.get("type")
        if kind == "user" and not record.get("isMeta"):
            lines += user_lines(record["message"]["content"], max_result)
        elif kind == "assistant":
            lines += assistant_lines(record["message"]["content"])
        elif kind == "attachment" and record["attachment"].get("type") in NOTE_ATTACHMENTS:
            lines.append(f"NOTE: file changed on disk: {record['attachment'].get('filename')}")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("transcript", type=Path)
    parser.add_argument("--max-result", type=int, default=3000)
    args = parser.parse_args(argv)
    sys.stdout.write("\n\n".join(conversation(args.transcript, args.max_result)) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
