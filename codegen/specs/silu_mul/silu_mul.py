"""silu_mul (webgpu.silu_mul, codegen/graph/fused_ops.py): out = silu(gate) * up, the gated
product of a Llama-style MLP in one dispatch. ExecuTorch's Vulkan partitioner emits it as
sigmoid(gate), mul(gate, s), mul(t, up); the graph builder (cpp_runtime/executorch/
vk_fusion.cpp) runs this op in their place where the two intermediates have no other
reader. One rounding to the storage dtype where the three ops round three times: a
float16 graph's products can differ from the unfused graph's by an ulp or two.
"""

from codegen.language import (F16, F32, Bind, Case, Dispatch, Elementwise, Guard, Kernel, Op,
                              Output, Route, Tensor, half_routes, same_dtype, u32)
from codegen.graph.inputs import randn, tensor

SILU_MUL = Kernel("silu_mul", workgroup=(128, 1, 1))
ROUTE = Route(SILU_MUL, Elementwise("ceil_div(out.numel, 4)", per_invocation=4))
FLOATS = (F32, F16)

OPS = [Op(
    name="silu_mul",
    targets=["webgpu.silu_mul.default"],
    args=[Tensor("gate", FLOATS), Tensor("up", FLOATS), Output("out", FLOATS)],
    guards=[Guard("up.dims == gate.dims", "up", "does not have the gate's shape", got="up.dims",
                  expected="{gate.dims}"),
            same_dtype("gate", ["up"])],
    shapes={"out": "gate.dims"},
    resize="dynamic",
    dispatches=[Dispatch(
        params={"num_vec4": u32("ceil_div(out.numel, 4)")},
        helpers=["../common/map_vec4s.wgsl", "../common/vec4_views.wgsl"],
        bindings=[Bind("input", "gate", view="vec4"), Bind("up", "up", view="vec4"),
                  Bind("output", "out", write=True, view="vec4")],
        routes=[*half_routes([ROUTE], "gate"), ROUTE],
    )],
    cases=[
        # a decode step's MLP width, and a prefill's rows
        Case("decode", (randn(1, 1, 192), randn(1, 1, 192)), route="silu_mul"),
        Case("prefill", (randn(1, 7, 96), randn(1, 7, 96))),
        # 773 vec4s, the last partial
        Case("partial_vec4", (randn(773 * 4 - 1), randn(773 * 4 - 1))),
        Case("resize", (randn(1, 8, 64), randn(1, 8, 64)),
             resize={"gate": (1, 1, 64), "up": (1, 1, 64)}),
        # sigmoid's tails: exp(-gate) overflows for gate far below 0, not the result
        Case("tails", (tensor([-100.0, -30.0, -1.0, 0.0, 1.0, 30.0, 100.0, 3e38]),
                       tensor([1.0, 2.0, -1.0, 5.0, 0.5, -2.0, 1.0, 0.5]))),
        Case("f16", (randn(2, 3, 40, dtype="float16"), randn(2, 3, 40, dtype="float16")),
             route="silu_mul_f16"),
        Case("up_shape", (randn(1, 4, 8), randn(1, 4, 4)),
             raises="up does not have the gate's shape (got [1, 4, 4], expected [1, 4, 8])"),
        Case("rejects_mixed_floats", (randn(8), randn(8, dtype="float16")),
             raises="gate does not share its dtype with up (got float32, expected the dtype "
                    "of up)"),
        Case("rejects_int32", (tensor([1, 2], dtype="int32"), tensor([1, 2], dtype="int32")),
             raises="gate has an unsupported dtype (got int32, expected float32 or float16)"),
    ],
)]
