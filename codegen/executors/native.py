"""The native executor: the generated C++ handlers, run by the CMake-built runner.

A bound call (the same typed values and output shapes the harness runs) becomes a JSON
case for `webgpu_op_runner`, which builds the graph through the generated handlers, runs
it (and any resizes) and writes the outputs back. A failed guard in the C++ handler comes
back as `OpError` with the runtime's message, so every executor shares negative cases.
"""

from __future__ import annotations

import functools
import json
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from codegen.executors.call import BoundCall
from codegen.executors.interface import (Executor, results, tensor_bytes, tensor_from_bytes,
                                         write_back)
from codegen.graph.errors import OpError
from codegen.paths import built_executable
from codegen.graph.values import Value

def runner_path() -> Path:
    return built_executable("webgpu_op_runner", "OPGEN_NATIVE_RUNNER",
                            "build it with `cmake -S . -B build -G Ninja && cmake --build build`")


def mask_args(masked: frozenset[str]) -> list[str]:
    """The runner's arguments that create its device without `masked` features."""
    return ["--mask-features", ",".join(sorted(masked))] if masked else []


@functools.lru_cache(maxsize=None)
def device_features(masked: frozenset[str] = frozenset()) -> frozenset[str]:
    """The optional WebGPU features of the runner's device (its `features` line)."""
    info = subprocess.run([str(runner_path()), "--device-info", *mask_args(masked)],
                          capture_output=True, text=True, check=True).stdout
    line = next((l for l in info.splitlines() if l.startswith("features")), "features")
    return frozenset(line.split()[1:])


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
                (self.folder / entry["data"]).write_bytes(tensor_bytes(v.data, v.dtype))
                self.inputs.append(ref)
            self.values.append(entry)
        elif v.kind == "ValueList":
            items = [self._add(item, is_output, f"{name}_{j}") for j, item in enumerate(v.data)]
            ref = len(self.values)
            self.values.append({"type": "ValueList", "value": items})
        else:
            if is_output and v.kind == "SymInt":  # computed by the op: the runner reports it
                self.outputs.append(ref)
            self.values.append(v.runner_json())
        return ref

    def output_refs(self) -> list[int | None]:
        """The value ref of each output position (None for an absent output)."""
        last = self.values[self.refs[-1]]
        if last["type"] == "ValueList":
            return [r if self.values[r]["type"] == "Tensor" else None for r in last["value"]]
        return [self.refs[-1]]


class NativeNode:
    """One op run by the native runner. Building runs it once (so a failed guard raises
    here, as in the harness); `run(live)` replays the build plus every resize so far in
    one runner process (the runner holds no state between calls)."""

    def __init__(self, call: BoundCall, masked: frozenset[str] = frozenset()):
        self.call, self.masked = call, masked
        self.steps: list[BoundCall] = []
        self._routes: list[str] = []
        self.results = self._execute()

    @property
    def routes(self) -> list[str]:
        """The kernels the runner dispatched (reported by the runner's manifest)."""
        return self._routes

    def run(self, live: BoundCall | None = None):
        if live is not None:
            self.steps.append(live)
            self.results = self._execute()
        return self.results

    def _execute(self):
        last = self.steps[-1] if self.steps else self.call
        with tempfile.TemporaryDirectory(prefix="opgen_native_") as tmp:
            folder = Path(tmp)
            writer = _CaseWriter(self.call, folder)
            mutable = [writer.refs[i] for i in self.call.mutable_inputs()
                       if self.call.values[i].kind == "Tensor"]
            case: dict[str, Any] = {"target": self.call.target, "values": writer.values,
                                    "args": writer.refs, "inputs": writer.inputs,
                                    "outputs": writer.outputs + mutable}
            if self.steps:
                case["resize"] = [self._resize_step(writer, s, k, folder)
                                  for k, s in enumerate(self.steps)]
            (folder / "case.json").write_text(json.dumps(case))
            out_dir = folder / "out"
            run = self._run_runner(folder / "case.json", out_dir, self.masked)
            self._routes = run.get("kernels", [])
            by_ref = {o["ref"]: o for o in run["outputs"]}

            def read(ref):
                if ref is None or ref not in by_ref:
                    return None
                o = by_ref[ref]
                return tensor_from_bytes((out_dir / o["file"]).read_bytes(), o["dtype"], o["dims"])

            write_back(last, lambda i, v: read(writer.refs[i]))
            if last.bound.op.symint_output is not None:
                last.values[-1].data = by_ref[writer.refs[-1]]["symint"]
            refs = writer.output_refs()
            return results(last, lambda i, v: read(refs[i]))

    @staticmethod
    def _run_runner(case: Path, out_dir: Path, masked: frozenset[str]) -> dict:
        """The runner's manifest entry for the last run; its error as an OpError."""
        res = subprocess.run([str(runner_path()), "--case", str(case), "--out", str(out_dir),
                              *mask_args(masked)], capture_output=True, text=True)
        if res.returncode == 1:
            error_file = out_dir / "error.txt"
            message = error_file.read_text().strip() if error_file.exists() else res.stderr.strip()
            raise OpError(message or "native runner failed without a message")
        if res.returncode != 0:
            raise RuntimeError(f"native runner exited {res.returncode}: {res.stderr.strip()}")
        return json.loads((out_dir / "manifest.json").read_text())["runs"][-1]

    def _resize_step(self, writer: _CaseWriter, live: BoundCall, k: int, folder: Path) -> dict:
        tensors, symints = [], []

        def add_tensor(ref: int, v: Value, name: str) -> None:
            (folder / name).write_bytes(tensor_bytes(v.data, v.dtype))
            tensors.append({"ref": ref, "dims": list(v.dims), "data": name})

        for i, (old, new) in enumerate(zip(self.call.values[:-1], live.values[:-1])):
            if new.kind == "Tensor":
                add_tensor(writer.refs[i], new, f"resize{k}_arg{i}.bin")
            elif new.kind == "ValueList":  # a tensor list: each entry is an input of its own
                refs = writer.values[writer.refs[i]]["value"]
                for j, (ref, item, was) in enumerate(zip(refs, new.data, old.data)):
                    if item.kind == "Tensor":
                        add_tensor(ref, item, f"resize{k}_arg{i}_{j}.bin")
                    elif item.kind == "SymInt" and item.data != was.data:  # a dynamic dim
                        symints.append({"ref": ref, "value": item.data})
            elif new.kind == "SymInt" and new.data != old.data:
                symints.append({"ref": writer.refs[i], "value": new.data})
        return {"tensors": tensors, "symints": symints}


class Native(Executor):
    name = "native"

    def build(self, call: BoundCall, force: tuple[str, ...] = ()) -> NativeNode:
        if force:
            raise ValueError(f"the native runner runs the routes the generated C++ picks; it "
                             f"cannot force {', '.join(force)}")
        return NativeNode(call, self.masked)

    def features(self) -> frozenset[str]:
        return device_features(self.masked)


EXECUTOR = Native()


# torch.ops-style entry points (see Executor.build_call and Executor.call)
build = EXECUTOR.build_call
call = EXECUTOR.call
