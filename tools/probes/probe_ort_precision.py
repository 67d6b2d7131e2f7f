"""Whether ORT's WebGPU MatMul computes in fp32: its max abs error against float64,
over the output's scale, beside torch CUDA fp32 (TF32 off) and our mm, on the GEMM
suite's shapes. f16 or TF32 arithmetic would show errors near 1e-3; fp32 about 1e-6.
`opgen bench` reads ORT's MatMul figures as fp32 figures on that evidence
(docs/decisions.md). Run on the GPU machine (torch CUDA, onnxruntime-webgpu, onnx, wgpu):

    python tools/probes/probe_ort_precision.py      # or step ort_precision of scripts/gpu_run.sh
"""

import sys
from pathlib import Path

import numpy as np
import onnxruntime as ort
import torch
from onnx import TensorProto, helper, numpy_helper

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from codegen.executors import harness  # noqa: E402

SHAPES = [(1576, 768, 2304), (1576, 768, 3072), (196, 768, 768), (4096, 4096, 4096)]


def ort_matmul(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    (m, k), n = a.shape, b.shape[1]
    graph = helper.make_graph(
        [helper.make_node("MatMul", ["A", "B"], ["C"])], "matmul",
        [helper.make_tensor_value_info("A", TensorProto.FLOAT, [m, k])],
        [helper.make_tensor_value_info("C", TensorProto.FLOAT, [m, n])],
        [numpy_helper.from_array(b, "B")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=9)
    session = ort.InferenceSession(model.SerializeToString(),
                                   providers=["WebGpuExecutionProvider"])
    return session.run(None, {"A": a})[0]


def main() -> None:
    torch.backends.cuda.matmul.allow_tf32 = False
    for m, k, n in SHAPES:
        rng = np.random.default_rng(0)
        a = rng.standard_normal((m, k), dtype=np.float32)
        b = rng.standard_normal((k, n), dtype=np.float32)
        exact = a.astype(np.float64) @ b.astype(np.float64)
        scale = np.abs(exact).max()
        got = {
            "ORT": ort_matmul(a, b),
            "torch fp32": (torch.from_numpy(a).cuda() @ torch.from_numpy(b).cuda()).cpu().numpy(),
            "ours": harness.EXECUTOR.call("aten.mm.default", torch.from_numpy(a),
                                          torch.from_numpy(b)).numpy(),
        }
        errors = "  ".join(f"{name} {np.abs(v.astype(np.float64) - exact).max() / scale:.2e}"
                           for name, v in got.items())
        print(f"{m}x{k}x{n}: max abs error / scale: {errors}", flush=True)


if __name__ == "__main__":
    main()
