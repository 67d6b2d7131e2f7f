"""The native delegate as a drop-in for `torch.ops`, like `codegen.executors.harness`.

`call(target, *args)` binds the arguments exactly as the harness does (same typed
values, same output shapes), writes a JSON case for the `webgpu_op_runner` built by
CMake, runs it, and reads the outputs back. A failed guard in the C++ handler comes
back as `OpError` with the runtime's message, so both executors share negative cases.
"""

from __future__ import annotations

import json
import math
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from codegen.executors.harness import BoundCall, Value, bind_call, written_outputs
from codegen.spec.loader import built_executable
from codegen.lower.plan import OpError

_NP_DTYPE = {"float32": "float32", "int32": "int32", "float16": "float16", "bool": "uint8",
             "uint8": "uint8"}


def runner_path() -> Path:
    return built_executable("webgpu_op_runner", "OPGEN_NATIVE_RUNNER",
                            "build it with `cmake -S . -B build -G Ninja && cmake --build build`")


def _tensor_bytes(v: Value) -> bytes:
    import torch

    data = v.data.to(torch.uint8) if v.dtype == "bool" else v.data
    return data.contiguous().numpy().tobytes()


class _CaseWriter:
    """Turns a BoundCall into the runner's JSON values, args, inputs and outputs."""

    def __init__(self, call: BoundCall, folder: Path):
        self.folder = folder
        self.values: list[dict] = []
        self.inputs: list[int] = []
        self.outputs: list[int] = []
        self.refs: list[int] = []  # ref of each spec argument
        for i, v in enumerate(call.values):
            is_output = i == len(call.values) - 1
            self.refs.append(self._add(v, is_output, f"arg{i}"))

    def _add(self, v: Value, is_output: bool, name: str) -> int:
        ref = len(self.values)
        if v.kind == "Tensor":
            entry: dict[str, Any] = {"type": "Tensor", "dtype": v.dtype, "dims": list(v.dims)}
            if is_output:
                self.outputs.append(ref)
            else:
                entry["data"] = f"{name}.bin"
                (self.folder / entry["data"]).write_bytes(_tensor_bytes(v))
                self.inputs.append(ref)
            self.values.append(entry)
        elif v.kind == "ValueList":
            items = [self._add(item, is_output, f"{name}_{j}") for j, item in enumerate(v.data)]
            ref = len(self.values)
            self.values.append({"type": "ValueList", "value": items})
        elif v.kind in ("Null", "Ignored"):  # an argument the op does not read travels as None
            self.values.append({"type": "Null"})
        elif v.kind in ("Int", "SymInt", "Bool", "IntList", "DoubleList"):
            self.values.append({"type": v.kind, "value": v.data})
        elif v.kind == "Double":
            d = v.data
            text = "nan" if math.isnan(d) else "inf" if d > 0 else "-inf"
            self.values.append({"type": "Double", "value": d if math.isfinite(d) else text})
        else:
            raise TypeError(f"the native runner cannot pass a {v.kind} value ({v.data!r})")
        return ref


class NativeNode:
    """One op run by the native runner. Building runs it once (so a failed guard raises
    here, as in the harness); `run(*args)` with smaller tensors or new SymInt values
    replays the build plus a resize step in one runner process."""

    def __init__(self, call: BoundCall):
        self.call = call
        self.steps: list[BoundCall] = []
        self.results = self._execute()

    @property
    def routes(self) -> list[str]:
        """The kernels the runner dispatched (reported by the runner's manifest)."""
        return self._routes

    def run(self, *args, **kwargs):
        if args or kwargs:
            self.steps.append(bind_call(self.call.target, args, kwargs))
            self.results = self._execute()
        return self.results

    def _execute(self):
        with tempfile.TemporaryDirectory(prefix="opgen_native_") as tmp:
            folder = Path(tmp)
            writer = _CaseWriter(self.call, folder)
            mutable = self._mutable_refs(writer)
            case: dict[str, Any] = {"target": self.call.target, "values": writer.values,
                                    "args": writer.refs, "inputs": writer.inputs,
                                    "outputs": writer.outputs + [r for _, r in mutable]}
            if self.steps:
                case["resize"] = [self._resize_step(writer, s, k, folder)
                                  for k, s in enumerate(self.steps)]
            (folder / "case.json").write_text(json.dumps(case))
            out_dir = folder / "out"
            res = subprocess.run([str(runner_path()), "--case", str(folder / "case.json"),
                                  "--out", str(out_dir)], capture_output=True, text=True)
            if res.returncode == 1:
                error_file = out_dir / "error.txt"
                message = error_file.read_text().strip() if error_file.exists() else res.stderr.strip()
                raise OpError(message or "native runner failed without a message")
            if res.returncode != 0:
                raise RuntimeError(f"native runner exited {res.returncode}: {res.stderr.strip()}")
            manifest = json.loads((out_dir / "manifest.json").read_text())
            last = manifest["runs"][-1]
            self._routes = last.get("kernels", [])
            self._write_back(last, out_dir, mutable)
            return self._read(last, out_dir, self._output_refs(writer))

    def _mutable_refs(self, writer: _CaseWriter) -> list[tuple[Value, int]]:
        """(value, ref) of each input the op writes (e.g. a KV cache)."""
        from codegen.spec.model import Tensor

        call = self.steps[-1] if self.steps else self.call
        return [(v, writer.refs[i]) for i, (a, v) in enumerate(zip(call.bound.op.inputs, call.values))
                if isinstance(a, Tensor) and a.mutable and v.kind == "Tensor"]

    def _write_back(self, run: dict, out_dir: Path, mutable: list[tuple[Value, int]]) -> None:
        """Copies the new contents of mutable inputs into the caller's tensors, as torch's
        in-place ops (and the harness) do."""
        import numpy as np
        import torch

        by_ref = {o["ref"]: o for o in run["outputs"]}
        for v, ref in mutable:
            o = by_ref[ref]
            arr = np.frombuffer((out_dir / o["file"]).read_bytes(), dtype=_NP_DTYPE[o["dtype"]])
            if v.source is not None:
                with torch.no_grad():
                    v.source.copy_(torch.from_numpy(arr.copy()).reshape(o["dims"]).to(v.source.dtype))

    def _resize_step(self, writer: _CaseWriter, live: BoundCall, k: int, folder: Path) -> dict:
        tensors, symints = [], []
        for i, (old, new) in enumerate(zip(self.call.values[:-1], live.values[:-1])):
            if new.kind == "Tensor":
                name = f"resize{k}_arg{i}.bin"
                (folder / name).write_bytes(_tensor_bytes(new))
                tensors.append({"ref": writer.refs[i], "dims": list(new.dims), "data": name})
            elif new.kind == "SymInt" and new.data != old.data:
                symints.append({"ref": writer.refs[i], "value": new.data})
        return {"tensors": tensors, "symints": symints}

    def _read(self, run: dict, out_dir: Path, refs: list[int | None]):
        import numpy as np
        import torch

        by_ref = {o["ref"]: o for o in run["outputs"]}
        call = self.steps[-1] if self.steps else self.call
        written = written_outputs(call.bound, len(refs))
        results = []
        for k, (ref, tdtype) in enumerate(zip(refs, call.torch_out_dtypes)):
            if ref is None or ref not in by_ref or k not in written:
                results.append(None)
                continue
            o = by_ref[ref]
            raw = (out_dir / o["file"]).read_bytes()
            arr = np.frombuffer(raw, dtype=_NP_DTYPE[o["dtype"]]).copy()
            results.append(torch.from_numpy(arr).reshape(o["dims"]).to(tdtype))
        return tuple(results) if call.multi_output else results[0]

    @staticmethod
    def _output_refs(writer: _CaseWriter) -> list[int | None]:
        last = writer.values[writer.refs[-1]]
        if last["type"] == "ValueList":
            return [r if writer.values[r]["type"] == "Tensor" else None for r in last["value"]]
        return [writer.refs[-1]]


def build(target: str, *args, **kwargs) -> NativeNode:
    return NativeNode(bind_call(target, args, kwargs))


def call(target: str, *args, **kwargs):
    """`torch.ops.<target>(*args, **kwargs)`, computed by the native delegate."""
    return build(target, *args, **kwargs).run()
