"""Run an ExecuTorch .pte on the native WebGPU delegate through `webgpu_pte_runner`
(built by CMake with WEBGPU_EXECUTORCH=ON).

    outputs, latency = run_pte("model.pte", [x])   # torch tensors in, torch tensors out

`latency` holds the runner's host-clock milliseconds per `forward` (min, median,
mean over `iters`) and the adapter it ran on. A load or run failure raises PteError
with the runner's message (which names the operator or value).
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from codegen.et.export import load_factory
from codegen.spec.loader import built_executable

_DTYPES = {"float32": "float32", "int32": "int32", "int64": "int64", "float16": "float16",
           "uint8": "uint8", "bool": "bool"}


class PteError(RuntimeError):
    """webgpu_pte_runner failed; the message is the runner's."""


@dataclass
class Latency:
    min_ms: float
    median_ms: float
    mean_ms: float
    iters: int
    device: str


def pte_runner_path() -> Path:
    return built_executable("webgpu_pte_runner", "OPGEN_PTE_RUNNER",
                            "build with the executorch package installed and CMake >= 3.28 "
                            "(WEBGPU_EXECUTORCH=ON)")


def run_pte(path: str | Path, inputs, *, iters: int = 10, warmup: int = 1,
            method: str = "forward", timeout: float = 600):
    """Run `path` with `inputs` (a sequence of torch tensors); returns (outputs, Latency)."""
    import numpy as np
    import torch

    with tempfile.TemporaryDirectory(prefix="opgen_pte_") as tmp:
        folder = Path(tmp)
        cmd = [str(pte_runner_path()), str(path), "--iters", str(iters), "--warmup", str(warmup),
               "--method", method, "--out", str(folder / "out")]
        for i, x in enumerate(inputs):
            name = folder / f"input{i}.bin"
            name.write_bytes(x.detach().contiguous().cpu().numpy().tobytes())
            cmd += ["--input", str(name)]
        res = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        if res.returncode != 0:
            error = folder / "out" / "error.txt"
            message = error.read_text().strip() if error.exists() else res.stderr.strip()
            raise PteError(message or f"webgpu_pte_runner exited {res.returncode}")
        manifest = json.loads((folder / "out" / "manifest.json").read_text())
        outputs = []
        for o in manifest["outputs"]:
            raw = (folder / "out" / o["file"]).read_bytes()
            arr = np.frombuffer(raw, dtype=_DTYPES[o["dtype"]]).copy().reshape(o["dims"])
            outputs.append(torch.from_numpy(arr))
        lat = manifest["latency_ms"]
        return outputs, Latency(lat["min"], lat["median"], lat["mean"], manifest["iters"],
                                manifest["device"])


# --- command line (opgen run) ------------------------------------------------------------------
def add_parser(sub) -> None:
    r = sub.add_parser("run", help="run a .pte on the native WebGPU delegate (webgpu_pte_runner)")
    r.add_argument("pte", help="the .pte to run")
    r.add_argument("--reference", metavar="MODULE:FACTORY",
                   help="feed the factory's example inputs and compare with its eager outputs")
    r.add_argument("--iters", type=int, default=10, help="timed iterations (default 10)")


def cmd_run(args) -> int:
    import torch

    if not args.reference:
        res = subprocess.run([str(pte_runner_path()), args.pte, "--iters", str(args.iters)])
        return res.returncode
    model, inputs = load_factory(args.reference)
    try:
        outputs, latency = run_pte(args.pte, inputs, iters=args.iters)
    except PteError as e:
        print(f"opgen run: {e}", file=sys.stderr)
        return 1
    with torch.no_grad():
        expected = model.eval()(*inputs)
    expected = expected if isinstance(expected, (tuple, list)) else (expected,)
    print(f"{args.pte} on {latency.device}")
    worst = 0.0
    for i, (got, want) in enumerate(zip(outputs, expected)):
        err = (got.double() - want.double()).abs().max().item() if got.numel() else 0.0
        worst = max(worst, err)
        print(f"  output {i}: {list(got.shape)} max abs error vs PyTorch eager {err:.3g}")
    print(f"max abs error {worst:.3g}; latency over {latency.iters} runs: median "
          f"{latency.median_ms:.3f} ms (min {latency.min_ms:.3f}, mean {latency.mean_ms:.3f})")
    shapes_ok = len(outputs) == len(expected) and all(
        tuple(g.shape) == tuple(w.shape) for g, w in zip(outputs, expected))
    return 0 if shapes_ok and worst <= 1e-3 else 1
