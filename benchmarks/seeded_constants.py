"""Realistic-size LLM .pte files that travel without their weights.

A 4-bit Llama-3.2-1B .pte is about 0.9 GB, mostly the quantized weights (packed nibbles)
and their group scales that export_llama computed. These are not float weights of the
model (seeded_weights.reseed draws those before export), so here the exported file itself
is rewritten: every large constant of its Vulkan delegates (a packed weight, a scale
table) is overwritten in place by bytes drawn from a generator both machines can replay
(numpy's PCG64 seeded with the CRC-32 of the constant's name): uint8/int8 constants by
uniform bytes (any byte is two valid 4-bit weights), float32 constants by uniform values
between the smallest and largest of the values export_llama wrote (group scales stay
scales). The rewritten file is then a model with other random weights of the same
quantization; its holes are cut out here (`.kept`) and drawn again there with
seeded_weights.restore, which checks the rebuilt file's SHA-256.

    weights, entry = reseed_pte(path)          # rewrites `path`, cuts it to `path.kept`
    seeded_weights.write_manifest(folder, model, weights, {path.name: entry})
    seeded_weights.restore_model(folder, model, out)   # on the GPU machine

reseed_onnx_data does the same for the external data file of an ONNX model from
onnxruntime-genai's builder (benchmarks/llm_ort.py).
"""

from __future__ import annotations

import hashlib
import struct
import zlib
from pathlib import Path

import numpy as np

MIN_BYTES = 64 * 1024  # smaller constants (norm weights, RoPE tables) stay in the file
NAMED = (1 << 64) - 1  # VkBytes.offset of a constant kept in the program's named data


def seeded_bytes(name: str, spec: dict) -> bytes:
    """The bytes of constant `name` as `spec` ({"kind": "bytes" | "float32", ...}) draws
    them."""
    rng = np.random.Generator(np.random.PCG64(zlib.crc32(name.encode())))
    if spec["kind"] == "bytes":
        return rng.integers(0, 256, spec["size"], dtype=np.uint8).tobytes()
    if spec["kind"] in ("float32", "float16"):  # float16: llm_ort.py's scales
        return rng.uniform(spec["low"], spec["high"], spec["count"]).astype(spec["kind"]).tobytes()
    raise ValueError(f"constant {name}: unknown kind {spec['kind']!r}")


def _tables(tab, slot: int) -> list:
    from flatbuffers import table

    o = tab.Offset(4 + 2 * slot)
    if not o:
        return []
    start = tab.Vector(o)
    return [table.Table(tab.Bytes, tab.Indirect(start + 4 * i)) for i in range(tab.VectorLen(o))]


def _scalar(tab, slot: int, flags, default):
    o = tab.Offset(4 + 2 * slot)
    return tab.Get(flags, o + tab.Pos) if o else default


def delegate_constants(blob: bytes, named: dict[str, bytes]) -> list[tuple[str, str, bytes]]:
    """(name, dtype, bytes) of each constant tensor of a VH00 delegate blob: the VkGraph's
    constants table, each VkBytes read from the blob's constant region or, when its
    offset says so, from the program's named data (`named`, by key)."""
    from flatbuffers import encode, number_types as N, table

    from codegen.et.vk_graph import VK_DTYPES

    fb_offset, fb_size, bytes_offset = struct.unpack_from("<III", blob, 10)
    buf = bytearray(blob[fb_offset:fb_offset + fb_size])
    root = table.Table(buf, encode.Get(N.UOffsetTFlags.packer_type, buf, 0))
    dtypes: dict[int, str] = {}  # constant id -> the dtype of a tensor holding it
    for v in _tables(root, 2):  # VkGraph.values
        if _scalar(v, 0, N.Uint8Flags, 0) != 5:  # GraphTypes VkTensor
            continue
        o = v.Offset(6)
        t = table.Table(v.Bytes, v.Indirect(o + v.Pos))
        cid = _scalar(t, 2, N.Int32Flags, -1)
        if cid >= 0:
            dtypes[cid] = VK_DTYPES[_scalar(t, 0, N.Int8Flags, 0)]
    out = []
    for cid, c in enumerate(_tables(root, 5)):  # VkGraph.constants (VkBytes)
        offset = _scalar(c, 0, N.Uint64Flags, 0)
        length = _scalar(c, 1, N.Uint64Flags, 0)
        if offset == NAMED:
            key_at = c.Offset(8)
            key = c.String(key_at + c.Pos).decode()
            data = named[key]
        else:
            key = f"constant{cid}"
            data = blob[bytes_offset + offset:bytes_offset + offset + length]
        out.append((key, dtypes.get(cid, "uint8"), bytes(data)))
    return out


def _spec(dtype: str, data: bytes) -> dict | None:
    if dtype in ("uint8", "int8"):
        return {"kind": "bytes", "size": len(data)}
    if dtype in ("float32", "float16"):  # float16: a force_fp16 export's scales
        values = np.frombuffer(data, dtype=dtype)
        values = values[np.isfinite(values)]
        low, high = (float(values.min()), float(values.max())) if values.size else (0.0, 1.0)
        return {"kind": dtype, "count": len(data) // np.dtype(dtype).itemsize, "low": low,
                "high": high}
    return None  # other dtypes keep their bytes


def cut_holes(data: bytes | bytearray, holes: list, path: Path) -> dict:
    """Writes `path.kept`, `data` without the (offset, length, name) ranges `holes`;
    returns the manifest entry seeded_weights.restore rebuilds `data` from."""
    holes = sorted(holes)
    kept, pos = [], 0
    for at, n, _ in holes:
        if at < pos:
            raise ValueError(f"{path}: constant ranges overlap at byte {at}")
        kept.append(bytes(data[pos:at]))
        pos = at + n
    kept.append(bytes(data[pos:]))
    Path(f"{path}.kept").write_bytes(b"".join(kept))
    return {"size": len(data), "sha256": hashlib.sha256(data).hexdigest(),
            "holes": [[at, name, ""] for at, _, name in holes]}


def reseed_pte(path: Path, min_bytes: int = MIN_BYTES) -> tuple[dict, dict]:
    """Overwrite `path`'s large Vulkan constants with seeded bytes, then replace the file
    by `path.kept` without them; returns (weights, entry) as seeded_weights.write_manifest
    takes them (entry: size, SHA-256 and holes [offset, name, ""] of the rewritten file)."""
    from codegen.web.model import read_web_model

    model = read_web_model(path)
    data = bytearray(path.read_bytes())
    weights, holes, start = {}, [], 0
    constants: dict[str, tuple[set[str], bytes]] = {}  # named data is keyed by content
    for key, dtype, original in delegate_constants(model.blob, model.named):
        constants.setdefault(key, (set(), original))[0].add(dtype)
    for name, (dtypes, original) in constants.items():
        spec = (_spec(next(iter(dtypes)), original)
                if len(original) >= min_bytes and len(dtypes) == 1 else None)
        if spec is None:  # small, or read as two dtypes: kept as exported
            continue
        at = data.find(original, start)
        at = data.find(original) if at < 0 else at
        if at < 0:
            raise ValueError(f"{path}: constant {name} ({len(original)} bytes) is not stored "
                             f"as one range of the file")
        name = f"{path.stem}/{name}"
        data[at:at + len(original)] = seeded_bytes(name, spec)
        weights[name] = spec
        holes.append((at, len(original), name))
        start = at + len(original)
    entry = cut_holes(data, holes, path)
    path.write_bytes(bytes(data))  # the model the figures are for (restore rebuilds it)
    return weights, entry


def reseed_onnx_data(onnx_path: Path, min_bytes: int = MIN_BYTES) -> tuple[dict, dict, dict]:
    """The same for an ONNX model of onnxruntime-genai's builder (llm_ort.py): its 4-bit
    weights' initializers in the external data file (packed `*_Q4`, uint8 or int4, and
    `*scales`, float16 or float32) overwritten by seeded bytes and cut out
    (`<data>.kept`); returns (weights, {data file: entry}, summary) as
    seeded_weights.write_manifest takes the first two."""
    import numpy as np
    import onnx

    model = onnx.load(str(onnx_path), load_external_data=False)
    # packed weights: uint8 (MatMulNBits) or int4 (GatherBlockQuantized): any byte is two
    # valid 4-bit weights
    dtypes = {onnx.TensorProto.UINT8: "bytes", onnx.TensorProto.INT4: "bytes",
              onnx.TensorProto.FLOAT16: "float16",
              onnx.TensorProto.FLOAT: "float32"}
    files, ranges = set(), []
    for init in model.graph.initializer:
        if init.data_location != onnx.TensorProto.EXTERNAL:
            continue
        info = {e.key: e.value for e in init.external_data}
        files.add(info["location"])
        ranges.append((int(info.get("offset", 0)), int(info["length"]), init))
    if len(files) != 1:
        raise SystemExit(f"{onnx_path}: expected one external data file (got {sorted(files)})")
    data_path = onnx_path.parent / files.pop()
    data = bytearray(data_path.read_bytes())
    weights, holes, summary = {}, [], {"reseeded_bytes": 0, "kept_initializers": []}
    for at, n, init in sorted(ranges, key=lambda r: r[0]):
        kind = dtypes.get(init.data_type)
        quantized = "_Q4" in init.name or init.name.endswith("scales")
        if n < min_bytes or kind is None or not quantized:
            summary["kept_initializers"].append([init.name, n])
            continue
        if kind == "bytes":
            spec = {"kind": "bytes", "size": n}
        else:
            values = np.frombuffer(bytes(data[at:at + n]),
                                   dtype=np.float16 if kind == "float16" else np.float32)
            spec = {"kind": kind, "count": values.size, "low": float(values.min()),
                    "high": float(values.max())}
        name = f"{onnx_path.parent.name}/{init.name}"
        data[at:at + n] = seeded_bytes(name, spec)
        weights[name] = spec
        holes.append((at, n, name))
        summary["reseeded_bytes"] += n
    entry = cut_holes(data, holes, data_path)
    data_path.unlink()
    return weights, {data_path.name: entry}, summary
