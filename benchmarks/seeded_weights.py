"""Realistic-size model files that travel without their weights.

The device tool carries at most 64 MiB per call, and a ViT-B/16 is 350 MB in each of
the three formats the latency benchmark compares (.pte, .onnx, TorchScript .pt). So the
large weights are drawn from a generator both machines can replay, named by the weight
(numpy's PCG64 seeded with the CRC-32 of its name, float32 normals times a recorded
std): here `reseed` overwrites them before export and `strip` cuts every byte range of
an exported file that holds one of them (as stored, or transposed for 2-D weights);
there `restore` draws them again and writes them back, and checks the rebuilt file's
SHA-256 against the original's, so a file that does not come back byte for byte fails
loud instead of being timed. A float16 file (an `export --fp16` .pte, a half TorchScript
or ONNX model) holds the same weights rounded to half: `strip(..., dtype="float16")`
looks for them so (numpy's float32 -> float16 is torch's: to nearest, ties to even) and
its manifest entry says so.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import zlib
from pathlib import Path

import numpy as np

MIN_BYTES = 64 * 1024  # smaller weights (norms, biases) stay in the files


def seeded(name: str, shape: tuple[int, ...], std: float) -> np.ndarray:
    rng = np.random.Generator(np.random.PCG64(zlib.crc32(name.encode())))
    count = int(np.prod(shape))
    return (rng.standard_normal(count, dtype=np.float32) * np.float32(std)).reshape(shape)


def reseed(model, min_bytes: int = MIN_BYTES) -> dict[str, dict]:
    """Overwrite the model's large float32 parameters and buffers with `seeded` values of
    the same std (4 significant digits); returns {name: {"shape", "std"}}."""
    import torch

    weights = {}
    tensors = dict(model.named_parameters())
    tensors.update(dict(model.named_buffers()))
    with torch.no_grad():
        for name, t in tensors.items():
            if t.dtype != torch.float32 or t.numel() * 4 < min_bytes:
                continue
            std = float(f"{t.std().item():.4g}") or 0.02
            t.copy_(torch.from_numpy(seeded(name, tuple(t.shape), std)))
            weights[name] = {"shape": list(t.shape), "std": std}
    return weights


DTYPES = ("float32", "float16")  # how a file stores the seeded weights


def _variants(name: str, spec: dict, dtype: str = "float32") -> list[tuple[str, bytes]]:
    if "kind" in spec:  # an exported constant's bytes (seeded_constants.py)
        from seeded_constants import seeded_bytes

        return [("", seeded_bytes(name, spec))]
    if dtype not in DTYPES:
        raise ValueError(f"seeded weight {name}: dtype is not one a file stores them in "
                         f"(got {dtype!r}, expected one of {', '.join(DTYPES)})")
    values = seeded(name, tuple(spec["shape"]), spec["std"]).astype(dtype)
    out = [("", values.tobytes())]
    if values.ndim == 2:
        out.append(("T", np.ascontiguousarray(values.T).tobytes()))
    return out


def strip(path: Path, weights: dict[str, dict], dtype: str = "float32") -> dict:
    """Replace `path` by `path.kept` (its bytes without the weights' ranges, stored as
    `dtype`); returns the file's manifest entry: size, SHA-256, dtype and the holes as
    [offset, name, "" or "T"]."""
    data = path.read_bytes()
    holes = []
    for name, spec in weights.items():
        for form, needle in _variants(name, spec, dtype):
            at = data.find(needle)
            while at >= 0:
                holes.append((at, len(needle), name, form))
                at = data.find(needle, at + len(needle))
    holes.sort()
    for (a, n, *_), (b, *_) in itertools.pairwise(holes):
        if a + n > b:
            raise ValueError(f"{path}: weight ranges overlap at bytes {a} and {b}")
    kept, pos = [], 0
    for at, n, _, _ in holes:
        kept.append(data[pos:at])
        pos = at + n
    kept.append(data[pos:])
    Path(f"{path}.kept").write_bytes(b"".join(kept))
    path.unlink()
    return {"size": len(data), "sha256": hashlib.sha256(data).hexdigest(), "dtype": dtype,
            "holes": [[at, name, form] for at, _, name, form in holes]}


def restore(kept: Path, entry: dict, weights: dict[str, dict], out: Path) -> Path:
    """Rebuild the file `strip` cut into `kept`, at `out`; fails on any byte difference."""
    data = kept.read_bytes()
    pieces, pos, src = [], 0, 0
    cache: dict[tuple[str, str], bytes] = {}
    for at, name, form in entry["holes"]:
        if (name, form) not in cache:
            cache.update({(name, f): b for f, b in
                          _variants(name, weights[name], entry.get("dtype", "float32"))})
        needle = cache[(name, form)]
        pieces.append(data[src:src + at - pos])
        src += at - pos
        pieces.append(needle)
        pos = at + len(needle)
    pieces.append(data[src:])
    rebuilt = b"".join(pieces)
    digest = hashlib.sha256(rebuilt).hexdigest()
    if len(rebuilt) != entry["size"] or digest != entry["sha256"]:
        raise SystemExit(f"{kept}: the rebuilt file differs from the original ({len(rebuilt)} "
                         f"bytes, sha256 {digest[:12]}; expected {entry['size']} bytes, "
                         f"{entry['sha256'][:12]}): this machine's numpy draws other weights")
    out.write_bytes(rebuilt)
    return out


def write_manifest(folder: Path, model: str, weights: dict, files: dict) -> None:
    (folder / f"{model}.weights.json").write_text(
        json.dumps({"weights": weights, "files": files}, indent=1))


def restore_model(folder: Path, model: str, out: Path) -> None:
    """Every stripped file of `model` in `folder`, rebuilt into `out`."""
    manifest = json.loads((folder / f"{model}.weights.json").read_text())
    out.mkdir(parents=True, exist_ok=True)
    for file, entry in manifest["files"].items():
        restore(folder / f"{file}.kept", entry, manifest["weights"], out / file)
