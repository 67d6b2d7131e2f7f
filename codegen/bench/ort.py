"""ONNX Runtime's WebGPU EP on the same op and shapes, for `opgen bench`.

Each op becomes a one-node ONNX model (weights as initializers). Where the node's
output can feed the next identical node, chains of 1 and n nodes are timed and
(t_n - t_1) / (n - 1) is the per-op time, so upload and download cancel (n is 21 for
MatMul and Gemm, 41 for Conv, 10 otherwise); otherwise the time of an Identity model
with the same input and output is subtracted from the 1-node time. A MatMul or Gemm whose output is
wider than its input (N > K) chains in pairs: the node, then one that maps its output
back to K columns (a random [N, K] weight: the same FLOPs and bytes, as an MLP's two
layers), chains of 1 and 11 pairs, and the per-op time is half a pair's. (A chain
through a Slice of the output's first K columns does not measure the node: ORT folds the
Slice into the constant weight and multiplies by K columns instead of N; measured on the
H200 at 1576 x 768 x 2304 as 82.6 "TFLOP/s", above the fp32 peak.)
The two models run alternately, each pair giving one estimate (so drift between them
cancels too); the figure is the median estimate, and half their interquartile range says
how far to trust it.
Before any timing, the 1-node model's output is checked against torch on the same inputs,
so a wrong ONNX mapping fails loud instead of timing a different op; a session that ORT
moved to another execution provider (no WebGPU adapter) fails loud too.
"""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass

from codegen.bench.checks import BENCH_TOLERANCE, BenchError, relative_error
from codegen.executors.call import torch_op


def _node_spec(target: str, args: tuple) -> tuple[str, dict, list] | None:
    """(ONNX op type, attributes, initializers) for the op, or None if unmapped."""
    import numpy as np
    import torch

    def arr(t):
        return t.detach().to(torch.float32).numpy() if isinstance(t, torch.Tensor) else np.float32(t)

    if target == "aten.convolution.default":
        # ONNX ConvTranspose takes torch's transposed weight layout (in, out / groups, kH, kW)
        _x, w, b, stride, padding, dilation, transposed, output_padding, groups = args
        # one value per spatial dim (1 for a conv1d, 2 for a conv2d), or one for all
        spatial = lambda v: list(v) * (w.dim() - 2) if len(v) == 1 else list(v)  # noqa: E731
        pad = spatial(padding)
        attrs = {"strides": spatial(stride), "pads": pad + pad, "dilations": spatial(dilation),
                 "group": int(groups), "kernel_shape": list(w.shape[2:])}
        if transposed:
            attrs["output_padding"] = spatial(output_padding)
        inits = [arr(w)] + ([arr(b)] if b is not None else [])
        return ("ConvTranspose" if transposed else "Conv"), attrs, inits
    if target == "aten.mm.default":
        return "MatMul", {}, [arr(args[1])]
    if target == "aten.linear.default":
        x, w, b = (list(args) + [None])[:3]
        if b is None:  # the weight [N, K] as MatMul's B [K, N]
            return "MatMul", {}, [arr(w.t().contiguous())]
        if x.dim() == 2:
            return "Gemm", {"transB": 1}, [arr(w), arr(b)]
        return None
    unary = {"aten.relu.default": "Relu", "aten.sigmoid.default": "Sigmoid"}
    if target in unary:
        return unary[target], {}, []
    if target == "aten.leaky_relu.default":
        return "LeakyRelu", {"alpha": float(args[1]) if len(args) > 1 else 0.01}, []
    binary = {"aten.add.Tensor": "Add", "aten.sub.Tensor": "Sub", "aten.mul.Tensor": "Mul"}
    if target in binary and isinstance(args[1], torch.Tensor) and len(args) <= 2:
        return binary[target], {}, [arr(args[1])]
    return None


# ORT's conv and GEMM paths rely on its graph transformations; elementwise chains must
# stay unfused.
OPTIMIZED = ("Conv", "ConvTranspose", "MatMul", "Gemm")
# nodes in the long chain; others: DEFAULT_CHAIN. Conv: 41, since a small layer's
# per-op figure is the run-to-run noise of the host-side upload and download divided by
# the chain length (with 10 nodes, B1 C64 56² read 0.0072 ± 0.0058 ms on the H200)
CHAIN = {"MatMul": 21, "Gemm": 21, "Conv": 41}
DEFAULT_CHAIN = 10
PAIRS = 11  # widening GEMMs: pairs in the long chain
WIDENING = ("MatMul", "Gemm")  # may chain in pairs with a node that maps N back to K


def chain_glue(op_type: str, x_shape, y_shape) -> str | None:
    """How the output feeds the next identical node: "same" (same shape), "pair" (a
    GEMM's [.., N] output, N > K, through a second GEMM back to [.., K]), or None (it
    cannot)."""
    x_shape, y_shape = tuple(x_shape), tuple(y_shape)
    if x_shape == y_shape:
        return "same"
    if (op_type in WIDENING and len(x_shape) == len(y_shape) and x_shape[:-1] == y_shape[:-1]
            and y_shape[-1] > x_shape[-1]):
        return "pair"
    return None


def narrowing_inits(inits: list) -> list:
    """The pair's second node's initializers: each weight transposed in shape (MatMul's
    [K, N] becomes [N, K]; Gemm's transB [N, K] becomes [K, N]) and a bias of K, drawn at
    random, scaled so a long chain stays finite."""
    import numpy as np

    rng = np.random.default_rng(0)
    w = inits[0]
    fan_in = max(w.shape)
    out = [(rng.standard_normal(w.shape[::-1]) / np.sqrt(fan_in)).astype(np.float32)]
    if len(inits) > 1:
        out.append(rng.standard_normal(min(w.shape)).astype(np.float32))
    return out


def _model(op_type: str, attrs: dict, inits: list, x_shape, y_shape, chain: int,
           pairs: bool = False) -> bytes:
    """`chain` nodes in a row, each feeding the next (same shape); with `pairs`, `chain`
    pairs of the node and its narrowing twin (`narrowing_inits`), ending in x's shape.
    The graph's output is the last node's."""
    from onnx import TensorProto, helper, numpy_helper

    nodes, initializers = [], []
    names = [f"w{i}" for i in range(len(inits))]
    back = [f"v{i}" for i in range(len(inits))] if pairs else []
    for name, value in zip(names + back, inits + (narrowing_inits(inits) if pairs else [])):
        initializers.append(numpy_helper.from_array(value, name))
    steps = [names, back] * chain if pairs else [names] * chain
    cur = "x"
    for k, weights in enumerate(steps):
        out = "y" if k == len(steps) - 1 else f"t{k}"
        if op_type == "Identity":
            nodes.append(helper.make_node("Identity", [cur], [out]))
        else:
            nodes.append(helper.make_node(op_type, [cur] + weights, [out], **attrs))
        cur = out
    graph = helper.make_graph(
        nodes, "bench", [helper.make_tensor_value_info("x", TensorProto.FLOAT, list(x_shape))],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT,
                                       list(x_shape if pairs else y_shape))], initializers)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 9  # what ORT 1.27 reads (newer onnx writes IR 14 by default)
    return model.SerializeToString()


WEBGPU = "WebGpuExecutionProvider"


def _session(model: bytes, optimize: bool, provider: str):
    import onnxruntime as ort

    options = ort.SessionOptions()
    if not optimize:  # a chain of identical elementwise nodes must not be fused into one
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    return require_provider(ort.InferenceSession(model, options, providers=[provider]), provider)


def require_provider(session, provider: str):
    """The session, if ORT kept it on `provider` (it falls back to the CPU silently)."""
    if session.get_providers()[0] != provider:
        raise BenchError(f"ORT runs the benchmark model on {session.get_providers()[0]}, not "
                         f"{provider} (no adapter for it?): its times would not be "
                         f"{provider}'s; pass --no-ort to benchmark without ORT")
    return session


def check_mapping(target: str, args: tuple, provider: str = WEBGPU) -> tuple[int, ...]:
    """Runs the op's one-node ONNX model once and compares it with torch on the same
    inputs; raises if ORT computes something else (a wrong attribute or layout). Returns
    the op's output shape."""
    import torch

    op_type, attrs, inits = _node_spec(target, args)
    x = args[0].detach().to(torch.float32).numpy()
    want = torch_op(target)(*args).to(torch.float32)
    model = _model(op_type, attrs, inits, x.shape, tuple(want.shape), 1)
    (got,) = _session(model, op_type in OPTIMIZED, provider).run(None, {"x": x})
    got = torch.from_numpy(got)
    error = relative_error(got, want)
    if error > BENCH_TOLERANCE:
        raise BenchError(f"ORT's {op_type} for {target} does not compute torch's result "
                         f"(error {error:.3g} relative to the largest value, allowed "
                         f"{BENCH_TOLERANCE:g}; shapes {tuple(got.shape)} and "
                         f"{tuple(want.shape)}): the ONNX mapping in codegen/bench/ort.py "
                         f"is wrong")
    return tuple(want.shape)


def _run_ms(session, feed: dict) -> float:
    t0 = time.perf_counter()
    session.run(None, feed)
    return (time.perf_counter() - t0) * 1e3


def available(provider: str = WEBGPU) -> bool:
    try:
        import onnx  # noqa: F401
        import onnxruntime as ort
    except ImportError:
        return False
    return provider in ort.get_available_providers()


@dataclass
class OrtTime:
    ms: float  # the median per-op estimate
    spread_ms: float  # half the estimates' interquartile range


def time_ort(target: str, args: tuple, iters: int, warmup: int,
             provider: str = WEBGPU) -> OrtTime | None:
    """Per-op time on ORT's `provider`, or None: ORT not installed, the op not mapped, or
    a median estimate of zero or less (noise larger than the op)."""
    import torch

    spec = _node_spec(target, args)
    if spec is None or not available(provider):
        return None
    op_type, attrs, inits = spec
    y_shape = check_mapping(target, args, provider)
    optimize = op_type in OPTIMIZED
    x = args[0].detach().to(torch.float32).numpy()
    glue = chain_glue(op_type, x.shape, y_shape)
    pairs = glue == "pair"
    one = _session(_model(op_type, attrs, inits, x.shape, y_shape, 1, pairs), optimize, provider)
    chained = glue is not None
    length = PAIRS if pairs else CHAIN.get(op_type, DEFAULT_CHAIN)
    other_model = _model(op_type, attrs, inits, x.shape, y_shape, length, pairs) if chained \
        else _model("Identity", {}, [], x.shape, x.shape, 1)
    other = _session(other_model, optimize, provider)
    nodes_per_link = 2 if pairs else 1
    feed = {"x": x}
    for _ in range(warmup):
        one.run(None, feed)
        other.run(None, feed)
    estimates = []
    for _ in range(iters):
        t_one, t_other = _run_ms(one, feed), _run_ms(other, feed)
        estimates.append((t_other - t_one) / ((length - 1) * nodes_per_link) if chained
                         else t_one - t_other)
    q1, median, q3 = statistics.quantiles(estimates, n=4) if len(estimates) > 1 else \
        estimates * 3
    return OrtTime(median, (q3 - q1) / 2) if median > 0 else None

