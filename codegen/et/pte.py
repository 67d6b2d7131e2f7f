"""Run an ExecuTorch .pte on the native WebGPU delegate through `webgpu_pte_runner`
(built by CMake with WEBGPU_EXECUTORCH=ON).

    outputs, latency = run_pte("model.pte", [x])   # torch tensors in, torch tensors out

`latency` holds the runner's host-clock milliseconds per `forward` (min, median,
mean over `iters`), the adapter it ran on, and what the delegates ran: dispatches that
compute constants of the graph (a conv's weight pack) run once, at load, and
`rerun_constants=True` runs them on every execute instead (the behaviour before; for
timing both). A view's output shares its input's buffer and the view runs nothing;
`copy_views=True` gives each view a buffer of its own and a copy on every execute
(ExecuTorch's memory plan; for timing both). A load or run failure raises PteError
with the runner's message (which names the operator or value).

The ExecuTorch commands live here too: `opgen export` and `opgen coverage` (over
`codegen.et.export`) and `opgen run`.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from codegen.et.compare import CRITERION, HALF_CRITERION, eager_outputs, judge
from codegen.et.coverage import pte_coverage, read_pte
from codegen.et.errors import InputError
from codegen.et.export import lower
from codegen.et.factory import load_factory
from codegen.paths import StaleBuildError, built_executable

_DTYPES = {"float32": "float32", "int32": "int32", "int64": "int64", "float16": "float16",
           "uint8": "uint8", "int8": "int8", "bool": "bool"}


class PteError(RuntimeError):
    """webgpu_pte_runner is not built, or it failed (the message is then the runner's)."""


@dataclass
class Latency:
    min_ms: float
    median_ms: float
    mean_ms: float
    iters: int
    device: str
    constant_dispatches: int = 0  # dispatches and copies that ran once, at load
    freed_constant_bytes: int = 0  # GPU memory freed after load: buffers only those touch
    kernel_runs: dict[str, int] = field(default_factory=dict)  # load + warmup + iters
    # with profile=True: per kernel, {"dispatches", "gpu_ms"} per execute (GPU timestamps)
    kernel_times: dict[str, dict[str, float]] = field(default_factory=dict)


def profile_table(kernel_times: dict[str, dict[str, float]], top: int | None = None) -> list[str]:
    """Lines of a profiled run's GPU time per execute (Latency.kernel_times), the total
    first, then the `top` kernels (all by default), largest first."""
    times = sorted(kernel_times.items(), key=lambda kv: -kv[1]["gpu_ms"])
    total = sum(t["gpu_ms"] for _, t in times)
    lines = [f"GPU time per execute {total:.3f} ms (profiled: each dispatch in its own pass), "
             f"by kernel:"]
    for kernel, t in times[:top]:
        lines.append(f"  {kernel:28s} {t['gpu_ms']:8.3f} ms "
                     f"{100 * t['gpu_ms'] / max(total, 1e-12):5.1f} % {t['dispatches']:5g} dispatches")
    return lines


def pte_runner_path() -> Path:
    try:
        return built_executable("webgpu_pte_runner", "OPGEN_PTE_RUNNER",
                                "build with the executorch package installed and CMake >= "
                                "3.28 (WEBGPU_EXECUTORCH=ON)")
    except (FileNotFoundError, StaleBuildError) as e:
        raise PteError(str(e)) from None


def run_pte(path: str | Path, inputs, *, iters: int = 10, warmup: int = 1,
            method: str = "forward", timeout: float = 600, rerun_constants: bool = False,
            copy_views: bool = False, profile: bool = False):
    """Run `path` with `inputs` (a sequence of torch tensors); returns (outputs, Latency).
    `profile`: time each dispatch on the GPU (the runner's --profile)."""
    import numpy as np
    import torch

    with tempfile.TemporaryDirectory(prefix="opgen_pte_") as tmp:
        folder = Path(tmp)
        cmd = [str(pte_runner_path()), str(path), "--iters", str(iters), "--warmup", str(warmup),
               "--method", method, "--out", str(folder / "out")]
        cmd += ["--rerun-constants"] if rerun_constants else []
        cmd += ["--copy-views"] if copy_views else []
        cmd += ["--profile"] if profile else []
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
        # a runner built before constants were kept writes no "dispatches"
        lat, ran = manifest["latency_ms"], manifest.get("dispatches", {})
        return outputs, Latency(lat["min"], lat["median"], lat["mean"], manifest["iters"],
                                manifest["device"], ran.get("constant", 0),
                                ran.get("freed_constant_bytes", 0), ran.get("kernel_runs", {}),
                                manifest.get("kernel_times", {}))


# --- command line (opgen export / coverage / run) -------------------------------------------
def add_parsers(sub) -> None:
    """opgen export, coverage and run."""
    e = sub.add_parser("export", help="lower a model onto the WebGPU delegate and write a .pte")
    e.add_argument("factory", help="<python module or file.py>:<factory> returning (model, inputs)")
    e.add_argument("-o", "--output", required=True, help="the .pte to write")
    e.add_argument("--allow-unsupported", action="store_true",
                   help="delegate every operator Vulkan knows, even those without a WebGPU handler")
    e.add_argument("--strict-guards", action="store_true",
                   help="fail when a spec's guards reject a node, instead of leaving it on "
                        "ExecuTorch's CPU kernels")
    e.add_argument("--fp16", action="store_true",
                   help="float16 delegates (the Vulkan partitioner's force_fp16): float32 "
                        "tensors and weights become float16, inputs and outputs stay float32")
    c = sub.add_parser("coverage", help="which operators of a model run on the WebGPU delegate")
    c.add_argument("model", help="<module>:<factory> or a .pte file")
    c.add_argument("--fp16", action="store_true",
                   help="for a <module>:<factory>: lowered with force_fp16, as export --fp16 "
                        "lowers it (a .pte holds its own dtypes)")
    r = sub.add_parser("run", help="run a .pte on the native WebGPU delegate (webgpu_pte_runner)")
    r.add_argument("pte", help="the .pte to run")
    r.add_argument("--reference", metavar="MODULE:FACTORY",
                   help="feed the factory's example inputs and compare with its eager outputs "
                        "(flattened as torch.export flattens them; exit 1 naming the first "
                        "output that exceeds the criterion of codegen/et/compare.py, its "
                        "float16 one for a .pte whose delegates hold float16 tensors)")
    r.add_argument("--iters", type=positive_int, default=10, help="timed iterations (default 10)")
    r.add_argument("--profile", action="store_true",
                   help="print each kernel's GPU time per execute (timestamp queries; each "
                        "dispatch then runs in a compute pass of its own)")


def positive_int(text: str) -> int:
    """An argparse type: an integer >= 1."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}")
    return value


def writable_output(path: str | Path, flag: str = "-o") -> Path:
    """`path` when a file can be written there (checked before minutes of work)."""
    path = Path(path)
    parent = path.parent
    if path.is_dir():
        raise InputError(f"{flag} {path} is a directory (expected a file path)")
    if not parent.is_dir():
        raise InputError(f"{flag} {path}: directory {parent} does not exist")
    if not os.access(parent, os.W_OK):
        raise InputError(f"{flag} {path}: directory {parent} is not writable")
    return path


def cmd_export(args) -> int:
    output = writable_output(args.output)
    model, inputs = load_factory(args.factory)
    result = lower(model, inputs, allow_unsupported=args.allow_unsupported,
                   strict_guards=args.strict_guards, fp16=args.fp16)
    try:
        output.write_bytes(result.pte)
    except OSError as e:
        raise InputError(f"-o {output}: cannot write it ({e.strerror})") from None
    print(result.coverage_table())
    print(f"wrote {output} ({len(result.pte)} bytes)")
    return 0


def cmd_coverage(args) -> int:
    """Exit 0 when every operator is delegated, 1 when any is not (missing a handler,
    kept off by a guard, or left on ExecuTorch's CPU kernels)."""
    if args.model.endswith(".pte"):
        coverage = pte_coverage(args.model)
    elif ":" not in args.model:
        raise InputError(f"expected <module or file.py>:<factory> or a .pte file, "
                         f"got {args.model!r}")
    else:
        model, inputs = load_factory(args.model)
        coverage = lower(model, inputs, allow_unsupported=True, fp16=args.fp16).coverage
        # Operators Vulkan delegates but the op table lacks, and those it leaves out.
    print(coverage.table())
    return 0 if coverage.fully_delegated else 1


def cmd_run(args) -> int:
    read_pte(args.pte)  # InputError when it is not there or not a program
    if not args.reference:
        res = subprocess.run([str(pte_runner_path()), args.pte, "--iters", str(args.iters)]
                             + (["--profile"] if args.profile else []))
        return res.returncode
    import torch

    half = pte_coverage(args.pte).float16
    criterion = HALF_CRITERION if half else CRITERION
    model, inputs = load_factory(args.reference)
    outputs, latency = run_pte(args.pte, inputs, iters=args.iters, profile=args.profile)
    with torch.no_grad():
        expected = eager_outputs(model.eval()(*inputs))
    verdict = judge(outputs, expected, half)
    print(f"{args.pte} on {latency.device}")
    for i, name, shape, error, why in verdict.rows:
        print(f"  output {i} ({name}): {list(shape)} max abs error vs PyTorch eager {error:.3g}"
              + (f": {why}" if why else ""))
    print(f"max abs error {verdict.worst:.3g}; latency over {latency.iters} runs: median "
          f"{latency.median_ms:.3f} ms (min {latency.min_ms:.3f}, mean {latency.mean_ms:.3f}); "
          f"{latency.constant_dispatches} constant dispatches ran once, at load "
          f"({latency.freed_constant_bytes} bytes only they touch freed)")
    if args.profile:
        print("\n".join(profile_table(latency.kernel_times)))
    if verdict.failure:
        print(f"FAILED: {verdict.failure} (criterion: {criterion})")
        return 1
    print(f"matches eager ({criterion})")
    return 0
