"""The web model format: what a page loads to run a model on the WebAssembly delegate,
without the ExecuTorch runtime.

A fully delegated `.pte` (one VulkanBackend delegate call that takes the program's inputs
and gives its outputs) becomes two files:

- `<name>.bin`: the delegate's VH00 blob (header, VK00 flatbuffer, constant segment),
  verbatim, then every named constant the graph names (ExecuTorch's named data map, where
  the Vulkan serializer puts the weights), each at a 16-byte boundary;
- `<name>.json`: `{"format", "name", "source", "method", "blob": {offset, size},
  "named": {key: [offset, length]}, "inputs": [{dtype, dims}], "outputs": [...]}`; the
  dtypes and dims are the program's (int64 token ids stay int64: the delegate narrows
  them, as natively).

The page keeps `<name>.bin` as one ArrayBuffer: the header and the flatbuffer are copied
into wasm memory, the weights are written to GPU buffers from the ArrayBuffer
(web/src/web_model.cpp), so a model's size is not bounded by wasm32's 4 GB.
"""

from __future__ import annotations

import json
import re
import struct
from dataclasses import dataclass, field
from pathlib import Path

from codegen.et.coverage import BACKEND_ID, read_pte
from codegen.et.errors import InputError

FORMAT = "opgen-web-1"
ALIGN = 16
# ExecuTorch's ScalarType values -> the graph's dtype names
SCALAR_TYPES = {0: "uint8", 1: "int8", 3: "int32", 4: "int64", 5: "float16", 6: "float32",
                11: "bool"}


class WebModelError(InputError):
    """The .pte cannot be turned into a web model (the message says why)."""


@dataclass
class WebModel:
    name: str
    source: str
    method: str
    blob: bytes
    named: dict[str, bytes] = field(default_factory=dict)
    inputs: list[dict] = field(default_factory=list)
    outputs: list[dict] = field(default_factory=list)

    def files(self) -> tuple[dict, bytes]:
        """(<name>.json's object, <name>.bin's bytes)."""
        data = bytearray(self.blob)
        named = {}
        for key in sorted(self.named):
            data += bytes(-len(data) % ALIGN)
            named[key] = [len(data), len(self.named[key])]
            data += self.named[key]
        meta = {"format": FORMAT, "name": self.name, "source": self.source, "method": self.method,
                "blob": {"offset": 0, "size": len(self.blob)}, "named": named,
                "inputs": self.inputs, "outputs": self.outputs}
        return meta, bytes(data)

    def write(self, folder: Path) -> tuple[Path, Path]:
        meta, data = self.files()
        folder.mkdir(parents=True, exist_ok=True)
        json_path, bin_path = folder / f"{self.name}.json", folder / f"{self.name}.bin"
        json_path.write_text(json.dumps(meta, indent=1) + "\n")
        bin_path.write_bytes(data)
        return json_path, bin_path


def model_name(path: str | Path) -> str:
    """A file name for the model: the .pte's stem, with characters outside [A-Za-z0-9_-]
    replaced."""
    return re.sub(r"[^A-Za-z0-9_-]", "_", Path(path).stem) or "model"


def _tensor(value, what: str) -> dict:
    t = value.val
    if type(t).__name__ != "Tensor":
        raise WebModelError(f"{what} is a {type(t).__name__}, the page takes tensors only")
    code = int(getattr(t.scalar_type, "value", t.scalar_type))
    if code not in SCALAR_TYPES:
        raise WebModelError(f"{what} has ExecuTorch scalar type {code}, which the page does not "
                            f"handle (known: {', '.join(SCALAR_TYPES.values())})")
    return {"dtype": SCALAR_TYPES[code], "dims": [int(d) for d in t.sizes]}


def read_web_model(path: str | Path, method: str = "forward", name: str | None = None) -> WebModel:
    """The web model of a .pte: its method must be one VulkanBackend delegate call over the
    program's inputs and outputs (what `opgen export` writes for a fully delegated model)."""
    data = read_pte(path)
    from executorch.exir._serialize._program import deserialize_pte_binary
    from executorch.exir.schema import DataLocation

    try:
        pte = deserialize_pte_binary(data)
    except (struct.error, ValueError) as e:
        raise WebModelError(f"{path} cannot be read as an ExecuTorch program ({e})") from None
    program = pte.program
    plans = {p.name: p for p in program.execution_plan}
    if method not in plans:
        raise WebModelError(f"{path} has no method {method!r} (it has {', '.join(plans)})")
    plan = plans[method]
    instructions = [i for chain in plan.chains for i in chain.instructions]
    calls = [i.instr_args for i in instructions if type(i.instr_args).__name__ == "DelegateCall"]
    others = sorted({type(i.instr_args).__name__ for i in instructions} - {"DelegateCall"})
    if len(calls) != 1 or others:
        raise WebModelError(
            f"{path} method {method} runs {len(calls)} delegate calls"
            + (f" and {', '.join(others)} instructions" if others else "")
            + ": the page runs a model that is one whole VulkanBackend delegate (export it "
              "fully delegated: opgen export, without --allow-unsupported)")
    call = calls[0]
    delegate = plan.delegates[call.delegate_index]
    if delegate.id != BACKEND_ID:
        raise WebModelError(f"{path}: the delegate is {delegate.id!r}, expected {BACKEND_ID!r}")
    expected = list(plan.inputs) + list(plan.outputs)
    if list(call.args) != expected:
        raise WebModelError(f"{path}: the delegate call's arguments {list(call.args)} are not "
                            f"the program's inputs then outputs {expected}")
    if delegate.processed.location != DataLocation.INLINE:
        raise WebModelError(f"{path}: the delegate data was not restored from its segment")
    blob = bytes(program.backend_delegate_data[delegate.processed.index].data)
    named = {}
    if pte.named_data is not None:
        for key, entry in pte.named_data.pte_data.items():
            buffer = pte.named_data.buffers[entry.buffer_index]
            named[key] = buffer if isinstance(buffer, bytes) else buffer.to_bytes()
        if pte.named_data.external_data:
            raise WebModelError(f"{path} keeps named data in external files "
                                f"({', '.join(pte.named_data.external_data)}), which the page "
                                f"does not load")
    return WebModel(
        name=name or model_name(path), source=Path(path).name, method=method, blob=blob,
        named=named,
        inputs=[_tensor(plan.values[i], f"input {k}") for k, i in enumerate(plan.inputs)],
        outputs=[_tensor(plan.values[i], f"output {k}") for k, i in enumerate(plan.outputs)])


def vh00_regions(blob: bytes) -> dict[str, int]:
    """The VH00 header's regions (for reports; the C++ loader checks them)."""
    if len(blob) < 30 or blob[4:8] != b"VH00":
        return {}
    fb_offset, fb_size, bytes_offset = struct.unpack_from("<III", blob, 10)
    (bytes_size,) = struct.unpack_from("<Q", blob, 22)
    return {"flatbuffer_offset": fb_offset, "flatbuffer_size": fb_size,
            "bytes_offset": bytes_offset, "bytes_size": bytes_size}
