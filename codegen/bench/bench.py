"""`opgen bench`: kernel time and throughput of ops on the selected adapter, side by side
with torch (CUDA, when present) and ONNX Runtime's WebGPU EP (when installed).

Our time is measured with GPU timestamp queries when the adapter offers them (wall clock
around submit + sync otherwise, with a warning), after warm-up: each of N timings is one
compute pass holding BACK_TO_BACK calls of the op, as the C++ runtime records a graph
(every dispatch in one pass), and the figure is the median pass time / BACK_TO_BACK (in
the browser too, one submit per timing): a timed pass costs ~4 us on the H200 even with
nothing in it, so a pass per call would count against short ops. torch likewise: N calls
back to back, CUDA events around each, the median (a sync per call would count launch and
sync gaps against torch). ORT runs a one-node
ONNX model and chains of 1 and n identical nodes; (t_n - t_1) / (n - 1) cancels upload
and download (codegen/bench/ort.py; its figure comes with ± half the interquartile
range). Throughput: TFLOP/s from the spec's `flops` formula, else GB/s from its
`bytes` formula (default: every input and output tensor read or written once), and as a
share of the adapter's peak where it is known (`results.KNOWN_PEAKS`, or `--peak UNIT=VALUE`).
A suite entry with option `bandwidth` (a GEMV) is also reported as GB/s: an extra row
"<name> [GB/s]" over every input and output byte once.
Each timed result is checked against torch at the benchmark's shapes (`check_ours`).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
import warnings
from dataclasses import asdict
from pathlib import Path

from codegen.bench import ort as bench_ort
from codegen.bench import suites as bench_suites
from codegen.bench.checks import (BenchError, bench_tolerance, has_float16, relative_error,
                                  widened)
from codegen.bench.results import KNOWN_PEAKS, Result, chart, peaks_for, report
from codegen.executors import browser_planned, harness
from codegen.executors.cases import all_case_runs, reference
from codegen.executors.constants import constant_steps
from codegen.executors.call import bind_call, schema_args, torch_op
from codegen.lower.catalog import catalog
from codegen.executors.interface import Executor
from codegen.executors.wgpu_device import adapter_line, device
from codegen.lower import interpret
from codegen.graph.dtypes import nbytes
from codegen.graph.errors import OpError
from codegen.graph import inputs
from codegen.graph.inputs import materialize


def tensor_bytes(node: harness.Node) -> float:
    """Every input and output tensor's bytes, once."""
    return float(sum(nbytes(v.dtype, v.dims) for v in node.call.values[:-1] + node.call.outputs
                     if v.kind == "Tensor"))


def work_of(node: harness.Node) -> tuple[float, str]:
    """The op's work for one run: FLOPs when the spec gives a formula, else bytes moved."""
    bound = node.bound
    env = interpret.environment(node.call.lowering, node.call.values)
    if bound.flops is not None:
        return float(bound.flops.evaluate(env)), "TFLOP/s"
    if bound.bytes is not None:
        return float(bound.bytes.evaluate(env)), "GB/s"
    return tensor_bytes(node), "GB/s"


BACK_TO_BACK = 10  # calls of the op per timed pass


def time_ours(node, iters: int, warmup: int,
              skip: frozenset[int] = frozenset()) -> tuple[float, str]:
    """The op's median time (ms), less the steps in `skip`, and how it was measured
    ("timestamp" or "wall")."""
    if isinstance(node, browser_planned.PlannedBrowserNode):
        if skip:
            raise BenchError("--constants times the wgpu harness only (not --browser)")
        return _time_in_browser(node, iters, warmup)
    return _time_on_wgpu(node, iters, warmup, skip)


def _time_in_browser(node, iters: int, warmup: int) -> tuple[float, str]:
    """All runs in one page request (one submit each, BACK_TO_BACK calls in its one pass),
    timed by the page's timestamp queries when the adapter offers them, else by the page's
    submit-to-done clock."""
    out = node.dev.run(dict(node.request(), repeat=warmup + iters, calls=BACK_TO_BACK,
                            timestamps=True))
    if out.gpu_ms is not None:
        return statistics.median(out.gpu_ms[warmup:]) / BACK_TO_BACK, "timestamp"
    return statistics.median(out.wall_ms[warmup:]) / BACK_TO_BACK, "wall"


def _time_on_wgpu(node: harness.Node, iters: int, warmup: int,
                  skip: frozenset[int]) -> tuple[float, str]:
    import numpy as np
    import wgpu

    adapter, dev = device()
    for _ in range(warmup):
        node.run()
    if "timestamp-query" in dev.features:
        qs = dev.create_query_set(type=wgpu.QueryType.timestamp, count=2 * iters)
        resolve = dev.create_buffer(size=16 * iters, usage=wgpu.BufferUsage.QUERY_RESOLVE
                                    | wgpu.BufferUsage.COPY_SRC)
        encoder = dev.create_command_encoder()
        keep: list = []
        for i in range(iters):
            node.encode_all(encoder, keep, (qs, 2 * i, 2 * i + 1), skip, BACK_TO_BACK)
        encoder.resolve_query_set(qs, 0, 2 * iters, resolve, 0)
        dev.queue.submit([encoder.finish()])
        ticks = np.frombuffer(bytes(dev.queue.read_buffer(resolve)), dtype=np.uint64)
        times = [(int(ticks[2 * i + 1]) - int(ticks[2 * i])) * 1e-6 / BACK_TO_BACK
                 for i in range(iters)]
        return statistics.median(times), "timestamp"
    warnings.warn(f"{adapter_line()} has no timestamp queries: wall-clock timing "
                  f"includes submission and synchronisation")
    sync = dev.create_buffer(size=4, usage=wgpu.BufferUsage.COPY_SRC)
    times = []
    for _ in range(iters):
        t0 = time.perf_counter()
        encoder = dev.create_command_encoder()
        node.encode_all(encoder, [], skip=skip, calls=BACK_TO_BACK)
        dev.queue.submit([encoder.finish()])
        dev.queue.read_buffer(sync)
        times.append((time.perf_counter() - t0) * 1e3 / BACK_TO_BACK)
    return statistics.median(times), "wall"


def browser_adapter_line() -> str:
    info = browser_planned.device().adapter_info()
    return (f"{info.get('description') or info.get('device') or 'browser adapter'} "
            f"(Chromium WebGPU, {info.get('vendor')} {info.get('architecture')})")


def time_torch(target: str, args: tuple, iters: int, warmup: int) -> float | None:
    import torch

    if not torch.cuda.is_available():
        return None
    op = torch_op(target)
    cuda_args = [a.cuda() if isinstance(a, torch.Tensor) else a for a in args]
    torch.backends.cudnn.allow_tf32 = False
    torch.backends.cuda.matmul.allow_tf32 = False
    for _ in range(warmup):
        op(*cuda_args)
    # back to back, an event pair around each call and one synchronize at the end: like
    # ours (every run in one command buffer, timestamps around each), no launch or sync
    # gap is counted against either side
    events = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True))
              for _ in range(iters)]
    for start, end in events:
        start.record()
        op(*cuda_args)
        end.record()
    torch.cuda.synchronize()
    return statistics.median(start.elapsed_time(end) for start, end in events)


def check_ours(name: str, target: str, args: tuple, node: harness.Node) -> None:
    """Our outputs at the benchmark's shapes match torch's (the cases cover smaller ones):
    a fast wrong result is no result. Outputs the op leaves unwritten read back as None.
    float16 arguments: torch computes on them widened to float32 (no half rounding of its
    own sums) and ours must be within BENCH_TOLERANCE_F16 (checks.py)."""
    got = node.run()
    tolerance = bench_tolerance(args)
    # float32, as ours (float16: the halves widened, the reference float32)
    want, _ = reference(node.bound, target, widened(args), to_float64=False)
    gots = list(got) if isinstance(got, (tuple, list)) else [got]
    wants = list(want) if isinstance(want, (tuple, list)) else [want]
    for i, (g, w) in enumerate(zip(gots, wants)):
        if g is None:
            continue
        error = relative_error(g, w)
        if error > tolerance:
            raise BenchError(f"{name}: output {i} of {'+'.join(node.routes)} does "
                               f"not match torch at these shapes (error {error:.3g} relative to "
                               f"the largest value, allowed {tolerance:g}; shapes "
                               f"{tuple(g.shape)} and {tuple(w.shape)})")


def bench_call(name: str, target: str, args: tuple, iters: int = 20, warmup: int = 3,
               with_torch: bool = True, with_ort: bool = True,
               force: tuple[str, ...] = (), executor: Executor = harness.EXECUTOR,
               bandwidth: bool = False, constants: tuple[str, ...] = ()) -> list[Result]:
    """The op as its routes choose, then once more per kernel in `force` that one of its
    dispatches can run instead (to choose route thresholds from measurements), on
    `executor` (the wgpu harness, or the browser). `bandwidth`: also record the bytes
    moved (`extra["bytes"]`, reported as a GB/s row by `report` and `chart`).
    `constants`: tensor arguments an exported model holds as constants (weight, bias);
    each node whose steps include some that read only them (a conv's weight pack, run
    once at load there) gets a second row, "[constants]", timed without those steps."""
    nodes = [executor.build(bind_call(target, args, {}))]
    for kernel in force:
        try:
            forced = executor.build(bind_call(target, args, {}), force=(kernel,))
        except OpError as e:  # a feature route on a device without the feature
            print(f"opgen bench: {name}: --force {kernel} cannot run here: {e}", file=sys.stderr)
            continue
        if kernel not in forced.routes:
            print(f"opgen bench: {name}: --force {kernel} does not apply (no dispatch that "
                  f"runs for these arguments has it as a route)", file=sys.stderr)
        elif forced.routes != nodes[0].routes:
            nodes.append(forced)
    torch_ms = time_torch(target, args, iters, warmup) if with_torch else None
    ort = None
    if with_ort and has_float16(args):  # ORT's one-node models (ort.py) are float32
        print(f"opgen bench: {name}: no ORT figure for float16 tensors (ORT's one-node "
              f"models are float32)", file=sys.stderr)
    elif with_ort:
        ort = bench_ort.time_ort(target, args, iters, warmup)
    results = []
    for k, node in enumerate(nodes):
        check_ours(name, target, args, node)
        work, unit = work_of(node)
        label = name if k == 0 else f"{name} [forced]"
        extra = {"bytes": tensor_bytes(node)} if bandwidth else {}
        once = frozenset(constant_steps(node, set(constants)) if constants else ())
        for skip in (frozenset(), once) if once else (frozenset(),):
            ours, timer = time_ours(node, iters, warmup, skip)
            routes = [p.kernel.name for i, p in enumerate(node.plans)
                      if p.kernel is not None and p.run and p.active and i not in skip]
            results.append(Result(label + (" [constants]" if skip else ""), target,
                                  "+".join(routes) or "copy", ours, timer, work, unit,
                                  torch_ms, ort and ort.ms, ort and ort.spread_ms, extra))
    return results


def _parse_call(text: str) -> tuple:
    names = ("randn", "rand", "randint", "full", "tensor")
    try:
        value = eval(text, {"__builtins__": {}},  # noqa: S307 (a trusted CLI argument)
                     {k: getattr(inputs, k) for k in names})
    except (SyntaxError, NameError, TypeError, ValueError) as e:
        raise BenchError(f"--call {text!r} is not a tuple of the op's arguments ({e}); "
                         f"expected Python over {', '.join(names)}, e.g. "
                         f"'randn(1, 3, 8, 8), 2'") from None
    return value if isinstance(value, tuple) else (value,)


def _call_job(target: str, text: str) -> tuple[str, str, tuple]:
    """The `--call` benchmark, checked against the op's schema and spec on meta tensors."""
    call_args = _parse_call(text)
    names = [sa.name for sa in schema_args(target)[1]]
    if len(call_args) > len(names):
        raise BenchError(f"--call gives {len(call_args)} arguments; {target} takes at most "
                         f"{len(names)} ({', '.join(names)})")
    try:
        meta_args = _as_meta(call_args)
    except (RuntimeError, AttributeError) as e:  # a negative size, an unknown dtype name
        raise BenchError(f"--call {text!r} makes no tensor: {e}") from None
    try:
        call = bind_call(target, meta_args, {})
        interpret.plan(call.lowering, call.values, 2**31 - 1)
    except OpError as e:
        raise BenchError(f"--call {text!r} is rejected by the spec: {e}") from None
    except (TypeError, ValueError) as e:  # a missing or mistyped argument (named)
        raise BenchError(f"--call {text!r} does not fit {target}: {e}") from None
    return text, target, call_args


def _as_meta(value):
    import torch

    if isinstance(value, inputs.TensorInput):
        return torch.empty(value.shape, dtype=getattr(torch, value.dtype), device="meta")
    if isinstance(value, (list, tuple)):
        return type(value)(_as_meta(v) for v in value)
    return materialize(value, "")


def _jobs(args: argparse.Namespace) -> list[tuple[str, str, tuple, dict]]:
    """(name, target, arguments, options) of each benchmark asked for; BenchError for bad
    input."""
    targets, suites = catalog().by_target(), bench_suites.SUITES
    try:
        peaks_for("", args.peak)  # --peak, checked before the adapter starts
    except SystemExit as e:  # peaks_for's contract (tests/test_bench.py); a user error here
        raise BenchError(str(e).removeprefix("opgen bench: ")) from None
    if args.iters < 1 or args.warmup < 0:
        raise BenchError(f"--iters must be >= 1 and --warmup >= 0 (got {args.iters} and "
                         f"{args.warmup})")
    for flag, path in (("--json", args.json), ("--png", args.png)):
        if path is not None and (path.is_dir() or not path.parent.is_dir()):
            raise BenchError(f"{flag} {path}: expected a file in an existing directory")
    if args.suite and args.suite not in suites:
        raise BenchError(f"--suite {args.suite!r}: no such suite ({', '.join(sorted(suites))})")
    if args.suite and (args.target or args.call):
        raise BenchError("--suite runs its own targets and calls: give no target or --call")
    if args.quick and args.suite not in bench_suites.QUICK:
        raise BenchError(f"--quick runs a suite at small shapes: give --suite with one of "
                         f"{', '.join(sorted(bench_suites.QUICK))} (got "
                         f"{'--suite ' + repr(args.suite) if args.suite else 'no --suite'})")
    if args.suite:
        return bench_suites.suite(args.suite, quick=args.quick)
    if args.target and args.target not in targets:
        raise BenchError(f"no spec implements target {args.target!r} (targets: "
                         f"{', '.join(sorted(targets))})")
    if args.call and not args.target:
        raise BenchError("--call needs a target, e.g. opgen bench aten.relu.default "
                         "--call 'randn(1, 3, 8, 8)'")
    if args.call:
        return [(*_call_job(args.target, args.call), {})]
    return [(run.id, run.target, run.args(), {}) for run in all_case_runs(catalog())
            if not run.case.raises and (not args.target or args.target in run.op.op.targets)]


def add_parser(sub) -> None:
    p = sub.add_parser("bench", help="time ops on the adapter, beside torch CUDA and ORT WebGPU")
    p.add_argument("target", nargs="?", help="an op target, e.g. aten.relu.default")
    p.add_argument("--call", help="the op's arguments, e.g. \"randn(1, 3, 8, 8),\" (default: its cases)")
    p.add_argument("--suite", help="a named suite of benchmarks/suites.py (e.g. conv_anchors)")
    p.add_argument("--quick", action="store_true",
                   help="run the --suite at its small CI shapes (suites: "
                        f"{', '.join(sorted(bench_suites.QUICK))})")
    p.add_argument("--iters", type=int, default=20)
    p.add_argument("--warmup", type=int, default=3)
    p.add_argument("--no-ort", action="store_true")
    p.add_argument("--browser", action="store_true",
                   help="time our kernels in Chromium's WebGPU (timestamp queries where offered)")
    p.add_argument("--no-torch", action="store_true")
    p.add_argument("--force", default="", help="comma-separated kernels to time as well, in "
                   "place of the routes' choice (e.g. conv2d_gemm,conv2d_vec4)")
    p.add_argument("--constants", default="", metavar="ARGS",
                   help="comma-separated tensor arguments that an exported model holds as "
                        "constants (e.g. weight,bias): each op whose passes read only them "
                        "(a conv's weight pack, run once at load there) gets a second row, "
                        "[constants], timed without those passes")
    p.add_argument("--peak", action="append", default=[], metavar="UNIT=VALUE",
                   help="the adapter's peak, e.g. GB/s=4800 or TFLOP/s=67 (known for: "
                        f"{', '.join(KNOWN_PEAKS)})")
    p.add_argument("--json", type=Path, help="write the results here")
    p.add_argument("--png", type=Path, help="draw the chart here")


def cmd_bench(args: argparse.Namespace) -> int:
    jobs = _jobs(args)
    if args.png:
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            raise BenchError("--png needs matplotlib (pip install -e '.[bench]')") from None
    force = tuple(k for k in args.force.split(",") if k)
    known = {r.route.kernel.name for b in catalog().ops for d in b.dispatches
             for r in d.routes}
    unknown = [k for k in force if k not in known]
    if unknown:
        raise BenchError(f"--force names unknown kernels {', '.join(unknown)} "
                         f"(known: {', '.join(sorted(known))})")
    executor = browser_planned.EXECUTOR if args.browser else harness.EXECUTOR
    adapter = browser_adapter_line() if args.browser else adapter_line()
    peaks = peaks_for(adapter, args.peak)
    print(f"adapter: {adapter}; peaks: "
          f"{', '.join(f'{v:g} {u}' for u, v in peaks.items()) or 'unknown (see --peak)'}")
    results = []
    print("\n".join(report([], peaks).splitlines()[:2]), flush=True)  # the table's head, once
    for name, target, call_args, options in jobs:
        call_args = materialize(call_args, name)
        rows = bench_call(name, target, call_args, args.iters, args.warmup,
                          with_torch=not args.no_torch, with_ort=not args.no_ort,
                          force=force, executor=executor,
                          constants=tuple(a for a in args.constants.split(",") if a), **options)
        results.extend(rows)
        for r in rows:  # each row as soon as it is timed: the table is printed once
            print("\n".join(report([r], peaks).splitlines()[2:]), flush=True)
    if args.json:
        args.json.write_text(json.dumps({"adapter": adapter, "peaks": peaks,
                                         "results": [asdict(r) for r in results]}, indent=2))
    if args.png:
        chart(results, args.png, peaks)
    return 0

