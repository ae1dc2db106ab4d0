"""How well `redact` catches secrets, what it costs ordinary text, and how fast it runs.

    PYTHONPATH=src python3 tests/benchmark/redaction_eval.py
    PYTHONPATH=src python3 tests/benchmark/redaction_eval.py --tree JS=/some/node/package \
        --speed-mb 2 --json out.json

Reports:

- recall on each secret corpus of tests/ (a sample is caught when none of its values survives
  `redact`), by family, and the near-misses that do not come out unchanged;
- the false-positive rate on bodies of ordinary source: lines changed by `redact` per 10,000
  lines (each file redacted whole, as a tool output would be), with the first changed lines;
  tests/ is measured without the files that hold fake secrets on purpose (``_SECRET_FIXTURES``);
- images and request ids: markers in a notebook's `image/png` output, in a bare base64 PNG
  and in S3 response headers (all should be 0);
- speed: MB/s of `redact` over a generated transcript (record by record, as the hooks read
  it) and over source text (best of ``--repeat`` runs, in CPU time: other processes on the
  machine change it less than the clock).

Standard library only (with the repository's src/ on the path).
"""

from __future__ import annotations

import argparse
import base64
import json
import random
import struct
import sys
import sysconfig
import time
import zlib
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(REPO / "src"), str(REPO / "tests"), str(Path(__file__).parent)]

from memhooks.text.redact import MARKER_PREFIX, redact  # noqa: E402

#: Files of tests/ that hold fake secrets on purpose (left out of the false-positive count).
_SECRET_FIXTURES = ("secret_corpus", "redact", "redaction", "security", "hostile")
_SUFFIXES = {".py", ".md", ".toml", ".json", ".yaml", ".yml", ".txt", ".js", ".ts", ".sh",
             ".pm", ".pl", ".c", ".h", ".cfg", ".ini"}  # fmt: skip
MB = 1_000_000


def _corpora() -> dict[str, list[tuple[str, str, tuple[str, ...]]]]:
    import secret_corpus
    import secret_corpus_forms
    import secret_corpus_forms_held
    import secret_corpus_shapes

    return {
        "secret_corpus": secret_corpus.SECRETS,
        "shapes tune": secret_corpus_shapes.TUNE,
        "shapes held-out": secret_corpus_shapes.HELD_OUT,
        "forms tune": secret_corpus_forms.TUNE,
        "forms held-out": secret_corpus_forms_held.HELD_OUT,
    }


def _near_misses() -> list[str]:
    import secret_corpus
    import secret_corpus_forms

    return [*secret_corpus.NEAR_MISSES, *secret_corpus_forms.NEAR_MISSES]


def recall(cases: list[tuple[str, str, tuple[str, ...]]]) -> dict[str, object]:
    persisted: list[str] = []
    by_family: dict[str, list[int]] = {}
    for family, text, values in cases:
        out = redact(text)
        leaked = [value for value in values if value in out]
        counts = by_family.setdefault(family, [0, 0])
        counts[1] += 1
        if leaked:
            persisted.append(f"{family}: {out!r}")
        else:
            counts[0] += 1
    caught = len(cases) - len(persisted)
    return {
        "samples": len(cases),
        "caught": caught,
        "recall": round(caught / len(cases), 4) if cases else 1.0,
        "by_family": {family: f"{c}/{n}" for family, (c, n) in sorted(by_family.items())},
        "persisted": persisted,
    }


def _files(root: Path, *, skip_fixtures: bool) -> list[Path]:
    files = []
    for path in sorted(root.rglob("*")):
        if path.suffix not in _SUFFIXES or not path.is_file() or path.is_symlink():
            continue
        if any(part.endswith("-packages") for part in path.relative_to(root).parts):
            continue  # what pip installed is not the standard library
        if skip_fixtures and any(word in path.name for word in _SECRET_FIXTURES):
            continue
        files.append(path)
    return files


def false_positives(
    root: Path, *, skip_fixtures: bool = False, show: int = 20
) -> dict[str, object]:
    lines = changed = 0
    examples: list[str] = []
    for path in _files(root, skip_fixtures=skip_fixtures):
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        before = text.splitlines()
        after = redact(text).splitlines()
        lines += len(before)
        if before == after:
            continue
        if len(before) != len(after):
            import difflib

            matcher = difflib.SequenceMatcher(None, before, after, autojunk=False)
            diff = sum(i2 - i1 for op, i1, i2, _, _ in matcher.get_opcodes() if op != "equal")
            changed += diff
            examples.append(f"{path.relative_to(root)}: {diff} lines (line count changed)")
            continue
        for number, (old, new) in enumerate(zip(before, after, strict=True), 1):
            if old != new:
                changed += 1
                if len(examples) < show:
                    examples.append(f"{path.relative_to(root)}:{number}: {new.strip()[:140]}")
    return {
        "lines": lines,
        "changed": changed,
        "per_10k": round(changed * 10_000 / lines, 2) if lines else 0.0,
        "examples": examples[:show],
    }


def _png(width: int = 96, height: int = 96, seed: int = 3) -> bytes:
    """A PNG of noise: its base64 looks as random as base64 can."""
    rng = random.Random(seed)  # noqa: S311 - test image
    rows = b"".join(b"\x00" + rng.randbytes(width * 3) for _ in range(height))

    def chunk(kind: bytes, body: bytes) -> bytes:
        return (
            struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
        )

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows))
        + chunk(b"IEND", b"")
    )


def images_and_ids() -> dict[str, int]:
    data = base64.b64encode(_png()).decode()
    wrapped = "\n".join(data[i : i + 76] for i in range(0, len(data), 76))
    notebook = json.dumps(
        {"cells": [{"cell_type": "code", "outputs": [{"data": {"image/png": data + "\n",
         "text/plain": ["<Figure size 640x480 with 1 Axes>"]}, "output_type": "display_data"}]}]},
        indent=1,
    )  # fmt: skip
    rng = random.Random(5)  # noqa: S311 - fake ids
    ids = [base64.b64encode(rng.randbytes(56)).decode() for _ in range(10)]
    headers = "\n".join(
        f"< x-amz-id-2: {value}\n< x-amz-request-id: {rng.randbytes(8).hex().upper()}"
        for value in ids
    )
    xml = "".join(f"<Error><Code>AccessDenied</Code><HostId>{v}</HostId></Error>" for v in ids)
    texts = {
        "notebook image/png": notebook,
        "bare base64 PNG": wrapped,
        "x-amz-id-2 headers": headers,
        "S3 error HostId": xml,
    }
    return {name: redact(text).count(MARKER_PREFIX) for name, text in texts.items()}


def _transcript(mb: float) -> list[str]:
    import generate

    path = Path(sys.argv[0]).resolve().parent / f".redaction-eval-{mb:g}mb.jsonl"
    fixtures = REPO / "tests" / "fixtures"
    if not path.exists():
        generate.write_transcript(
            path,
            target_bytes=int(mb * MB),
            corpus=generate.Corpus.load(fixtures),
            episodes=generate.load_episodes(fixtures),
            session_id="5a6ab793-afa3-4fb4-a04e-64b26bcd263c",
            cwd="/home/user/project",
        )
    text = path.read_text(encoding="utf-8")
    path.unlink()
    return text.splitlines(keepends=True)


def speed(pieces: list[str], repeat: int) -> float:
    size = sum(len(piece.encode()) for piece in pieces)
    best = float("inf")
    for _ in range(repeat):
        started = time.process_time()
        for piece in pieces:
            redact(piece)
        best = min(best, time.process_time() - started)
    return round(size / MB / best, 2)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--tree", action="append", default=[], help="NAME=PATH: another body of source"
    )
    parser.add_argument("--no-stdlib", action="store_true", help="skip Python's standard library")
    parser.add_argument("--speed-mb", type=float, default=2.0, help="transcript size (0: no speed)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", type=Path, help="write the full report here")
    args = parser.parse_args()

    report: dict[str, object] = {}
    report["recall"] = {name: recall(cases) for name, cases in _corpora().items()}
    report["near_misses_changed"] = [text for text in _near_misses() if redact(text) != text]
    trees = {"src": (REPO / "src", False), "tests": (REPO / "tests", True)}
    if not args.no_stdlib:
        trees["stdlib"] = (Path(sysconfig.get_paths()["stdlib"]), False)
    for spec in args.tree:
        name, _, path = spec.partition("=")
        trees[name] = (Path(path), False)
    report["false_positives"] = {
        name: false_positives(root, skip_fixtures=skip) for name, (root, skip) in trees.items()
    }
    report["images_and_ids"] = images_and_ids()
    if args.speed_mb:
        source = [p.read_text(encoding="utf-8") for p in _files(REPO / "src", skip_fixtures=False)]
        report["speed_mb_per_s"] = {
            "transcript": speed(_transcript(args.speed_mb), args.repeat),
            "source": speed(source, args.repeat),
        }
    _print(report)
    if args.json:
        args.json.write_text(json.dumps(report, indent=1, ensure_ascii=False), encoding="utf-8")
    return 0


def _print(report: dict[str, object]) -> None:
    recall_report = report["recall"]
    assert isinstance(recall_report, dict)
    print("recall (samples with no value left):")
    for name, result in recall_report.items():
        print(f"  {name:16} {result['caught']:4}/{result['samples']:<4} {result['recall']:.1%}"
              f"  {result['by_family'] if name.startswith('forms') else ''}")  # fmt: skip
    print(f"near-misses changed: {report['near_misses_changed']}")
    print("false positives (lines changed per 10,000):")
    fps = report["false_positives"]
    assert isinstance(fps, dict)
    for name, result in fps.items():
        print(f"  {name:8} {result['changed']:5} of {result['lines']:8} lines: {result['per_10k']}")
    print(f"images and request ids (markers): {report['images_and_ids']}")
    if "speed_mb_per_s" in report:
        print(f"speed (MB/s): {report['speed_mb_per_s']}")


if __name__ == "__main__":
    raise SystemExit(main())
