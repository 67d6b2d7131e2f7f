"""ONNX Runtime's WebGPU EP on the same op and shapes, for `opgen bench`.

Each op becomes a one-node ONNX model (weights as initializers). Where the node's
output can feed the next identical node, chains of 1 and 10 nodes are timed and
(t10 - t1) / 9 is the per-op time, so upload and download cancel; otherwise the time
of an Identity model with the same input and output is subtracted from the 1-node time.
Before any timing, the 1-node model's output is checked against torch on the same inputs,
so a wrong ONNX mapping fails loud instead of timing a different op; a session that ORT
moved to another execution provider (no WebGPU adapter) fails loud too.
"""

from __future__ import annotations

import statistics
import time
from typing import Any

from codegen.bench import BenchError


def _node_spec(target: str, args: tuple) -> tuple[str, dict, list] | None:
    """(ONNX op type, attributes, initializers) for the op, or None if unmapped."""
    import numpy as np
    import torch

    def arr(t):
        return t.detach().to(torch.float32).numpy() if isinstance(t, torch.Tensor) else np.float32(t)

    if target == "aten.convolution.default":
        # ONNX ConvTranspose takes torch's transposed weight layout (in, out / groups, kH, kW)
        _x, w, b, stride, padding, dilation, transposed, output_padding, groups = args
        two = lambda v: list(v) * 2 if len(v) == 1 else list(v)  # noqa: E731
        pad = two(padding)
        attrs = {"strides": two(stride), "pads": pad + pad, "dilations": two(dilation),
                 "group": int(groups), "kernel_shape": list(w.shape[2:])}
        if transposed:
            attrs["output_padding"] = two(output_padding)
        inits = [arr(w)] + ([arr(b)] if b is not None else [])
        return ("ConvTranspose" if transposed else "Conv"), attrs, inits
    unary = {"aten.relu.default": "Relu", "aten.sigmoid.default": "Sigmoid"}
    if target in unary:
        return unary[target], {}, []
    if target == "aten.leaky_relu.default":
        return "LeakyRelu", {"alpha": float(args[1]) if len(args) > 1 else 0.01}, []
    binary = {"aten.add.Tensor": "Add", "aten.sub.Tensor": "Sub", "aten.mul.Tensor": "Mul"}
    if target in binary and isinstance(args[1], torch.Tensor) and len(args) <= 2:
        return binary[target], {}, [arr(args[1])]
    return None


# ORT's conv paths rely on its graph transformations; elementwise chains must stay unfused.
OPTIMIZED = ("Conv", "ConvTranspose")


def _model(op_type: str, attrs: dict, inits: list, x_shape, y_shape, chain: int) -> bytes:
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    nodes, initializers = [], []
    names = [f"w{i}" for i in range(len(inits))]
    for name, value in zip(names, inits):
        initializers.append(numpy_helper.from_array(value, name))
    cur = "x"
    for k in range(chain):
        out = "y" if k == chain - 1 else f"t{k}"
        if op_type == "Identity":
            nodes.append(helper.make_node("Identity", [cur], [out]))
        else:
            nodes.append(helper.make_node(op_type, [cur] + names, [out], **attrs))
        cur = out
    graph = helper.make_graph(
        nodes, "bench", [helper.make_tensor_value_info("x", TensorProto.FLOAT, list(x_shape))],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, list(y_shape))], initializers)
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


def check_mapping(target: str, args: tuple, provider: str = WEBGPU) -> None:
    """Runs the op's one-node ONNX model once and compares it with torch on the same
    inputs; raises if ORT computes something else (a wrong attribute or layout)."""
    import torch

    from codegen.harness import torch_op

    op_type, attrs, inits = _node_spec(target, args)
    x = args[0].detach().to(torch.float32).numpy()
    want = torch_op(target)(*args).to(torch.float32)
    model = _model(op_type, attrs, inits, x.shape, tuple(want.shape), 1)
    (got,) = _session(model, op_type in OPTIMIZED, provider).run(None, {"x": x})
    got = torch.from_numpy(got)
    tolerance = 1e-4 * max(1.0, float(want.abs().max()))
    error = float((got - want).abs().max()) if got.shape == want.shape else float("inf")
    if not error <= tolerance:
        raise BenchError(f"ORT's {op_type} for {target} does not compute torch's result "
                           f"(max abs error {error:.3g}, allowed {tolerance:.3g}; shapes "
                           f"{tuple(got.shape)} and {tuple(want.shape)}): the ONNX mapping "
                           f"in codegen/bench_ort.py is wrong")


def _time_model(model: bytes, x, iters: int, warmup: int, optimize: bool) -> float:
    session = _session(model, optimize, WEBGPU)
    feed = {"x": x}
    for _ in range(warmup):
        session.run(None, feed)
    times = []
    for _ in range(iters):
        t0 = time.perf_counter()
        session.run(None, feed)
        times.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(times)


def available() -> bool:
    try:
        import onnx  # noqa: F401
        import onnxruntime as ort
    except ImportError:
        return False
    return WEBGPU in ort.get_available_providers()


def time_ort(target: str, args: tuple, iters: int, warmup: int) -> float | None:
    """Per-op milliseconds on ORT's WebGPU EP, or None (not installed / op not mapped)."""
    import torch

    spec = _node_spec(target, args)
    if spec is None or not available():
        return None
    op_type, attrs, inits = spec
    check_mapping(target, args)
    optimize = op_type in OPTIMIZED
    x = args[0].detach().to(torch.float32).numpy()
    y_shape = _output_shape(target, args)
    one = _time_model(_model(op_type, attrs, inits, x.shape, y_shape, 1), x, iters, warmup,
                      optimize)
    if tuple(y_shape) == tuple(x.shape):
        ten = _time_model(_model(op_type, attrs, inits, x.shape, y_shape, 10), x, iters, warmup,
                          optimize)
        per_op = (ten - one) / 9
    else:
        ident = _time_model(_model("Identity", {}, [], x.shape, x.shape, 1), x, iters, warmup,
                            optimize)
        per_op = one - ident
    return per_op if per_op > 0 else None  # noise larger than the op: no figure


def _output_shape(target: str, args: tuple) -> Any:
    from codegen.harness import torch_op

    meta = [a.to("meta") if hasattr(a, "to") else a for a in args]
    return tuple(torch_op(target)(*meta).shape)
