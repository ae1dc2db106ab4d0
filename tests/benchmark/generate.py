"""Fixtures for the benchmark: memory trees and transcripts in the real formats. Stdlib only.

Memories recombine sentences, titles and tags from a real memory tree (the recall tuning set
in `tests/fixtures/recall/tree/`) when it is there, else from a built-in word list. Transcripts
repeat the real sessions in `tests/fixtures/transcripts/*/transcript.jsonl` with fresh ids and
varied text, interleaved with synthetic turns in the same format (prompts, "Decision:" lines,
Write/Edit/Bash/TodoWrite calls, big and failing tool results, bookkeeping records).
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

GENERATOR_VERSION = 1  # bump when the output changes: it is part of the cache key

#: category -> (folder, share of the tree, body sections); mirrors `memhooks save`.
CATEGORIES: dict[str, tuple[str, float, tuple[str, ...]]] = {
    "decision": (
        "decisions",
        0.40,
        ("Context", "Decision", "Alternatives Considered", "Consequences"),
    ),
    "runbook": ("runbooks", 0.10, ("Trigger", "Symptoms", "Steps", "Verification", "Root Cause")),
    "constraint": ("constraints", 0.10, ("Rule", "Impact", "Workarounds")),
    "preference": ("preferences", 0.08, ("Preference", "Reason", "Examples")),
    "tech_debt": ("tech-debt", 0.10, ("Description", "Why deferred", "Impact", "Suggested Fix")),
    "analysis": ("analysis", 0.10, ("Summary", "Key Findings", "Issues Found", "Recommendations")),
    "session_summary": (
        "sessions",
        0.06,
        ("Context", "Tracking Points", "Related Files/Artifacts"),
    ),
    "subagent": ("subagent", 0.06, ("Summary", "Details", "Files Analyzed", "Recommendations")),
}

_WORDS_SUBJECT = (
    "the payments service",
    "the login flow",
    "the nightly export",
    "the search indexer",
    "the mobile client",
    "the webhook relay",
    "the billing job",
    "the config loader",
    "the session cache",
    "the image pipeline",
    "the audit log",
    "the rate limiter",
)
_WORDS_VERB = (
    "retries",
    "validates",
    "caches",
    "serialises",
    "rejects",
    "batches",
    "streams",
    "migrates",
    "signs",
    "deduplicates",
    "throttles",
    "logs",
)
_WORDS_OBJECT = (
    "every request",
    "expired tokens",
    "customer invoices",
    "large uploads",
    "queue messages",
    "feature flags",
    "schema changes",
    "API keys",
    "due dates",
    "redirect rules",
)
_WORDS_TAIL = (
    "before it writes to disk",
    "behind a feature flag",
    "with an idempotency key",
    "only on the primary region",
    "in UTC",
    "under a file lock",
    "within 200 ms",
    "after the nightly backup",
    "without a network call",
    "with exponential backoff",
)
_BUILTIN_TAGS = (
    "payments",
    "auth",
    "storage",
    "ci",
    "testing",
    "logging",
    "config",
    "api",
    "mobile",
    "performance",
    "security",
    "docs",
    "release",
    "database",
    "queue",
    "observability",
)
_FRONT = re.compile(r"\A---\s*\n(.*?)\n---\s*\n", re.DOTALL)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


class Corpus:
    """Titles, tags and sentences to recombine, plus prompts to ask."""

    def __init__(self) -> None:
        self.titles: list[str] = []
        self.tags: list[str] = []
        self.sentences: list[str] = []
        self.prompts: list[str] = []
        self.source = "built-in word list"

    @classmethod
    def load(cls, fixtures: Path | None, seed: int = 7) -> Corpus:
        corpus = cls()
        tree = fixtures / "recall" / "tree" / ".claude" / "memory" if fixtures else None
        if tree is not None and tree.is_dir():
            for path in sorted(tree.rglob("*.md")):
                corpus._add_memory(path.read_text(encoding="utf-8"))
            if corpus.titles and corpus.sentences:
                corpus.source = str(tree)
        if not corpus.titles or not corpus.sentences:
            corpus._builtin(seed)
        corpus.tags = sorted(set(corpus.tags)) or list(_BUILTIN_TAGS)
        corpus.prompts = load_prompts(fixtures) or [
            f"Why does {s} {v} {o}?"
            for s in _WORDS_SUBJECT[:6]
            for v in _WORDS_VERB[:3]
            for o in _WORDS_OBJECT[:2]
        ]
        return corpus

    def _add_memory(self, text: str) -> None:
        match = _FRONT.match(text)
        if not match:
            return
        for line in match.group(1).splitlines():
            key, _, value = line.partition(":")
            value = value.strip()
            if key == "title" and value:
                self.titles.append(value.strip("\"'"))
            elif key == "tags" and value.startswith("["):
                self.tags.extend(t.strip(" \"'") for t in value.strip("[]").split(",") if t.strip())
        for line in text[match.end() :].splitlines():
            if not line.strip() or line.startswith(("#", "|", "```")):
                continue
            for sentence in _SENTENCE_END.split(line.strip().lstrip("-*0123456789. ")):
                if 30 <= len(sentence) <= 320:
                    self.sentences.append(sentence)

    def _builtin(self, seed: int) -> None:
        rng = random.Random(seed)  # noqa: S311 - fixtures, not secrets
        self.source = "built-in word list"
        for _ in range(400):
            s, v, o, t = (
                rng.choice(w) for w in (_WORDS_SUBJECT, _WORDS_VERB, _WORDS_OBJECT, _WORDS_TAIL)
            )
            self.sentences.append(f"{s.capitalize()} {v} {o} {t}.")
        for _ in range(120):
            s, v, o = (rng.choice(w) for w in (_WORDS_SUBJECT, _WORDS_VERB, _WORDS_OBJECT))
            self.titles.append(f"{s.removeprefix('the ').capitalize()} {v} {o}")
        self.tags.extend(_BUILTIN_TAGS)

    def title(self, rng: random.Random) -> str:
        """A readable recombination: the head of one real title, the tail of another."""
        first, second = rng.choice(self.titles), rng.choice(self.titles)
        head = re.split(r"[:;,(]| — | - ", first, maxsplit=1)[0].strip()
        parts = re.split(r"[:;,(]| — | - ", second, maxsplit=1)
        tail = parts[1].strip(" )") if len(parts) > 1 else second
        title = f"{head}: {tail}" if rng.random() < 0.6 else head
        return title[:110].rstrip(" ,;:-")

    def paragraph(self, rng: random.Random, low: int = 1, high: int = 4) -> str:
        return " ".join(rng.choice(self.sentences) for _ in range(rng.randint(low, high)))


def load_prompts(fixtures: Path | None) -> list[str]:
    """Realistic prompts: the recall queries, the unrelated ones and the sessions' prompts."""
    if fixtures is None:
        return []
    prompts: list[str] = []
    recall = fixtures / "recall"
    for name in ("queries.json", "unrelated.json"):
        try:
            data = json.loads((recall / name).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        prompts.extend(d["prompt"] for d in data if isinstance(d, dict) and d.get("prompt"))
    for path in sorted((fixtures / "transcripts").glob("*/prompts.txt")):
        prompts.extend(
            line.strip()
            for line in path.read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.startswith("/")
        )
    return prompts


# ---------------------------------------------------------------------------------------------
# Memory trees


def _yaml_str(value: str) -> str:
    return json.dumps(value, ensure_ascii=False)


def _day(rng: random.Random) -> str:
    return f"{rng.randint(2023, 2026)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"


def _counts(total: int) -> dict[str, int]:
    counts = {name: int(total * share) for name, (_, share, _) in CATEGORIES.items()}
    counts["decision"] += total - sum(counts.values())
    return counts


def _slug(text: str, limit: int = 50) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:limit].rstrip("-") or "untitled"


def write_tree(memory: Path, total: int, corpus: Corpus, seed: int = 1) -> dict[str, int]:
    """Write `total` memory files into `memory` (a `.claude/memory/`); counts per category."""
    rng = random.Random(seed)  # noqa: S311 - fixtures, not secrets
    counts = _counts(total)
    sequence: dict[str, int] = {}
    for category, count in counts.items():
        folder, _, sections = CATEGORIES[category]
        (memory / folder).mkdir(parents=True, exist_ok=True)
        for number in range(count):
            title = corpus.title(rng)
            created = _day(rng)
            tags = rng.sample(corpus.tags, k=min(len(corpus.tags), rng.randint(2, 4)))
            body_parts = [f"# {title}", ""]
            for heading in sections:
                body_parts += [f"## {heading}", corpus.paragraph(rng), ""]
            body = "\n".join(body_parts)
            description = corpus.paragraph(rng, 1, 1)[:190]
            meta = [
                f"title: {_yaml_str(title)}",
                f"category: {category}",
                f"description: {_yaml_str(description)}",
                f"created: {created}",
                f"updated: {created}",
                f"tags: [{', '.join(_yaml_str(t) for t in tags)}]",
            ]
            name = _file_name(
                category,
                title=title,
                created=created,
                number=number,
                rng=rng,
                sequence=sequence,
                meta=meta,
            )
            text = "---\n" + "\n".join(meta) + "\n---\n" + body
            (memory / folder / name).write_text(text, encoding="utf-8")
    _write_state_files(memory, corpus, rng)
    return counts


def _file_name(
    category: str,
    *,
    title: str,
    created: str,
    number: int,
    rng: random.Random,
    sequence: dict[str, int],
    meta: list[str],
) -> str:
    if category == "decision":
        sequence[created] = sequence.get(created, 0) + 1
        meta.append("status: " + rng.choice(("accepted", "proposed", "superseded")))
        return f"{created}_{sequence[created]:03d}_{_slug(title)}.md"
    if category == "analysis":
        source = f"src/{rng.choice(('api', 'core', 'jobs', 'web'))}/{_slug(title, 30)}_{number}.py"
        meta.append(f"path: {_yaml_str(source)}")
        return source.replace("/", "_") + ".md"
    if category == "session_summary":
        head, tail = rng.getrandbits(32), rng.getrandbits(48)
        session = f"{head:08x}-{number:04x}-4{rng.getrandbits(12):03x}-8000-{tail:012x}"
        meta.append(f"session_id: {_yaml_str(session)}")
        return f"{session}.md"
    if category == "subagent":
        clock = f"{rng.randint(0, 23):02d}{rng.randint(0, 59):02d}{number % 60:02d}"
        meta.append("agent: " + rng.choice(("Explore", "general-purpose", "Plan")))
        return f"{created}_{clock}_{_slug(title, 30)}-{number}.md"
    return f"{_slug(title)}-{number}.md"


def _write_state_files(memory: Path, corpus: Corpus, rng: random.Random) -> None:
    context = memory / "context"
    context.mkdir(parents=True, exist_ok=True)
    (context / "current-task.md").write_text(
        "# Current task\n\n## Task\n"
        + corpus.title(rng)
        + "\n\n## Next step\n"
        + corpus.paragraph(rng, 1, 1)
        + "\n\n## Progress\n- [x] "
        + corpus.title(rng)
        + "\n- [ ] "
        + corpus.title(rng)
        + "\n",
        encoding="utf-8",
    )
    (context / "blockers.md").write_text(
        "# Blockers\n\n- " + corpus.paragraph(rng, 1, 1) + "\n", encoding="utf-8"
    )
    (memory / "master.md").write_text(
        "# Project memory\n\n"
        + "\n\n".join(f"## {corpus.title(rng)}\n{corpus.paragraph(rng, 2, 5)}" for _ in range(12))
        + "\n",
        encoding="utf-8",
    )


# ---------------------------------------------------------------------------------------------
# Transcripts

_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
_TOOLU = re.compile(r"toolu_[A-Za-z0-9]{24}")
_FAKE_SECRET = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"  # a token-shaped string to redact


def load_episodes(fixtures: Path | None) -> list[list[str]]:
    """The real sessions' main transcripts, one list of JSONL lines each."""
    if fixtures is None:
        return []
    episodes = []
    for path in sorted((fixtures / "transcripts").glob("*/transcript.jsonl")):
        lines = [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        if lines:
            episodes.append(lines)
    return episodes


def _dump(record: dict[str, object]) -> str:
    return json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n"


def _vary_episode(
    lines: list[str], cycle: int, session_id: str, corpus: Corpus, rng: random.Random
) -> list[str]:
    """A real session again: every id fresh, some prompts and replies reworded."""
    mask = (cycle * 0x9E3779B1 + 1) & 0xFFFFFFFFFFFF

    def new_uuid(match: re.Match[str]) -> str:
        text = match.group(0)
        return f"{text[:24]}{int(text[24:], 16) ^ mask:012x}"

    def new_toolu(match: re.Match[str]) -> str:
        return f"{match.group(0)[:-8]}{cycle:08d}"

    out = []
    for line in lines:
        record = json.loads(_TOOLU.sub(new_toolu, _UUID.sub(new_uuid, line)))
        if "sessionId" in record:
            record["sessionId"] = session_id
        message = record.get("message") if isinstance(record.get("message"), dict) else None
        if record.get("type") == "user" and message and isinstance(message.get("content"), str):
            content = message["content"]
            genuine = not content.startswith("<") and not record.get("isCompactSummary")
            if genuine and rng.random() < 0.7:
                message["content"] = rng.choice(corpus.prompts)
        elif record.get("type") == "assistant" and message:
            for block in message.get("content") or []:
                if block.get("type") == "text" and rng.random() < 0.5:
                    block["text"] += "\n\nDecision: " + rng.choice(corpus.sentences)
        out.append(_dump(record))
    return out


class TurnMaker:
    """Synthetic turns in the transcript format, for filling and for growing a transcript."""

    def __init__(self, session_id: str, cwd: str, corpus: Corpus, seed: int = 3) -> None:
        self.session_id = session_id
        self.cwd = cwd
        self.corpus = corpus
        self.rng = random.Random(seed)  # noqa: S311 - fixtures, not secrets
        self.parent: str | None = None
        self.count = 0
        self.last_assistant_message = ""

    def _uuid(self) -> str:
        r = self.rng.getrandbits(128)
        h = f"{r:032x}"
        return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-8{h[17:20]}-{h[20:32]}"

    def _env(self, kind: str, **fields: object) -> dict[str, object]:
        uuid = self._uuid()
        record: dict[str, object] = {
            "parentUuid": self.parent,
            "isSidechain": False,
            "type": kind,
            **fields,
            "uuid": uuid,
            "timestamp": f"2026-11-25T{self.count // 3600 % 24:02d}:{self.count // 60 % 60:02d}:"
            f"{self.count % 60:02d}.000Z",
            "userType": "external",
            "entrypoint": "sdk-cli",
            "cwd": self.cwd,
            "sessionId": self.session_id,
            "version": "2.1.332",
            "gitBranch": "main",
        }
        self.parent = uuid
        return record

    def _assistant(self, content: dict[str, object]) -> dict[str, object]:
        return self._env(
            "assistant",
            message={
                "id": f"msg_mock_{self.rng.getrandbits(64):016x}",
                "type": "message",
                "role": "assistant",
                "model": "claude-opus-5-5",
                "content": [content],
                "stop_reason": "tool_use" if content["type"] == "tool_use" else "end_turn",
                "usage": {"input_tokens": 14000 + self.count, "output_tokens": 120},
            },
            requestId=f"req_mock_{self.rng.getrandbits(64):016x}",
        )

    def _tool(self, name: str, tool_input: dict[str, object]) -> tuple[dict[str, object], str]:
        tool_id = f"toolu_01{self.rng.getrandbits(110):022x}"[:30]
        return self._assistant(
            {"type": "tool_use", "id": tool_id, "name": name, "input": tool_input}
        ), tool_id

    def _result(
        self, tool_id: str, content: str, result: object, *, error: bool = False
    ) -> dict[str, object]:
        return self._env(
            "user",
            message={
                "role": "user",
                "content": [
                    {
                        "tool_use_id": tool_id,
                        "type": "tool_result",
                        "content": content,
                        "is_error": error,
                    }
                ],
            },
            toolUseResult=result,
            sourceToolAssistantUUID=self.parent,
        )

    def _log(self, lines: int) -> str:
        rng = self.rng
        out = []
        for i in range(lines):
            name = _slug(rng.choice(self.corpus.titles), 40).replace("-", "_")
            out.append(
                f"tests/test_{name}.py::test_case_{i} PASSED [{i * 100 // max(lines, 1):3d}%]"
            )
        out.append(f"export GITHUB_TOKEN={_FAKE_SECRET}")
        out.append(f"==== {lines} passed in {rng.randint(1, 90)}.{rng.randint(0, 99):02d}s ====")
        return "\n".join(out)

    def turn(self, *, big: bool) -> list[str]:
        """One user turn, as the CLI writes it; `big` adds a long tool output."""
        rng, corpus = self.rng, self.corpus
        self.count += 1
        prompt = rng.choice(corpus.prompts)
        path = f"{self.cwd}/src/{_slug(corpus.title(rng), 30).replace('-', '_')}.py"
        code = "\n".join(f"# {rng.choice(corpus.sentences)}" for _ in range(rng.randint(10, 60)))
        todos = [
            {"content": corpus.title(rng), "status": s, "activeForm": "Working on it"}
            for s in ("completed", "in_progress", "pending", "pending")
        ]
        records: list[dict[str, object]] = [
            {
                "type": "queue-operation",
                "operation": "enqueue",
                "sessionId": self.session_id,
                "content": prompt,
            },
            self._env(
                "user",
                promptId=self._uuid(),
                message={"role": "user", "content": prompt},
                permissionMode="default",
                promptSource="sdk",
            ),
            self._env("attachment", attachment={"type": "date", "date": "2026-11-25"}),
            {
                "type": "api-request",
                "sessionId": self.session_id,
                "id": self._uuid(),
                "params": {"model": "claude-opus-5-5", "max_tokens": 128000},
                "tail": [f"{rng.getrandbits(256):064x}"],
            },
            self._assistant(
                {"type": "text", "text": "Let me look at this. " + corpus.paragraph(rng, 1, 2)}
            ),
        ]
        call, tid = self._tool("TodoWrite", {"todos": todos})
        records += [
            call,
            self._result(
                tid, "Todos have been modified successfully.", {"oldTodos": [], "newTodos": todos}
            ),
        ]
        call, tid = self._tool("Write", {"file_path": path, "content": code})
        records += [
            call,
            self._result(
                tid,
                f"File created successfully at: {path}",
                {
                    "type": "create",
                    "filePath": path,
                    "content": code,
                    "structuredPatch": [],
                    "originalFile": None,
                },
            ),
        ]
        old, new = rng.choice(corpus.sentences), rng.choice(corpus.sentences)
        call, tid = self._tool(
            "Edit", {"replace_all": False, "file_path": path, "old_string": old, "new_string": new}
        )
        records += [
            call,
            self._result(
                tid,
                f"The file {path} has been updated successfully.",
                {
                    "filePath": path,
                    "oldString": old,
                    "newString": new,
                    "structuredPatch": [{"oldStart": 1, "lines": [f"-{old}", f"+{new}"]}],
                },
            ),
        ]
        log = self._log(rng.randint(400, 2500) if big else rng.randint(10, 60))
        call, tid = self._tool(
            "Bash", {"command": "python3 -m pytest -q", "description": "Run the tests"}
        )
        records += [
            call,
            self._result(
                tid, log, {"stdout": log, "stderr": "", "interrupted": False, "isImage": False}
            ),
        ]
        failure = (
            "Exit code 1\nTraceback (most recent call last):\n"
            + "\n".join(
                f'  File "{path}", line {rng.randint(1, 400)}, in step_{i}'
                for i in range(rng.randint(3, 30))
            )
            + f"\nAssertionError: {rng.choice(corpus.sentences)}"
        )
        call, tid = self._tool(
            "Bash", {"command": "python3 build.py --dry-run", "description": "Dry run"}
        )
        records += [call, self._result(tid, failure, "Error: " + failure, error=True)]
        decision = rng.choice(corpus.sentences)
        reply = (
            f"Done. {corpus.paragraph(rng, 1, 3)}\n\nDecision: {decision}\n\n"
            f"Next: {corpus.title(rng)}."
        )
        self.last_assistant_message = reply
        records += [
            {
                "type": "api-request-blob",
                "sessionId": self.session_id,
                "hash": f"{rng.getrandbits(256):064x}",
                "message": {
                    "role": "user",
                    "content": [{"type": "text", "text": prompt + "\n" + reply}],
                },
            },
            self._assistant({"type": "text", "text": reply}),
            self._env(
                "system",
                subtype="stop_hook_summary",
                hookCount=1,
                hookInfos=[{"command": "python3 -S memhooks.py hook Stop", "durationMs": 40}],
                hookErrors=[],
                preventedContinuation=False,
                level="suggestion",
            ),
            {
                "type": "last-prompt",
                "lastPrompt": prompt,
                "leafUuid": self.parent,
                "sessionId": self.session_id,
            },
            {
                "type": "tools-used",
                "tools": ["TodoWrite", "Write", "Edit", "Bash"],
                "sessionId": self.session_id,
            },
            {"type": "cost-state", "sessionId": self.session_id, "totalCostUSD": 0.1 * self.count},
            {"type": "mode", "mode": "normal", "sessionId": self.session_id},
            {"type": "atis-latch", "atis": "", "sessionId": self.session_id},
        ]
        return [_dump(r) for r in records]


def write_transcript(
    path: Path,
    *,
    target_bytes: int,
    corpus: Corpus,
    episodes: list[list[str]],
    session_id: str,
    cwd: str,
    seed: int = 5,
) -> int:
    """Fill `path` with whole records up to about `target_bytes`; returns the size written."""
    rng = random.Random(seed)  # noqa: S311 - fixtures, not secrets
    turns = TurnMaker(session_id, cwd, corpus, seed)
    size = 0
    cycle = 0
    tmp = path.with_name(path.name + ".partial")
    with tmp.open("w", encoding="utf-8") as out:
        while size < target_bytes:
            lines = (
                _vary_episode(episodes[cycle % len(episodes)], cycle, session_id, corpus, rng)
                if episodes
                else []
            )
            lines += turns.turn(big=True)
            for line in lines:
                out.write(line)
                size += len(line.encode("utf-8"))
                if size >= target_bytes:
                    break
            cycle += 1
    tmp.replace(path)
    return size
