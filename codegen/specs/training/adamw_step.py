"""et_vk.adamw_step: one AdamW update, in place, for on-device training (ExecuTorch's
Vulkan custom op; semantics of its reference in backends/vulkan/custom_ops_lib.py):

    param *= 1 - lr * weight_decay
    m = beta1 * m + (1 - beta1) * grad
    v = beta2 * v + (1 - beta2) * grad^2
    param -= lr * (m / bias_correction1) / (sqrt(v / bias_correction2) + eps)

param, m and v are written in place (schema Tensor(a!)) and returned; the outputs are
written too, since the graph may hold them as tensors of their own. The caller passes
the step's bias corrections (1 - beta^t), as torch.optim.AdamW computes them;
tests/test_training.py runs several steps beside torch.optim.AdamW. float32, any shape;
one invocation per 4 elements (vec4).
"""

from codegen.language import (Bind, Case, Dispatch, Double, Elementwise, Guard, Kernel, Op, Output,
                              Outputs, Route, Tensor, f32, u32)
from codegen.graph.inputs import full, rand, randn

ADAMW = Kernel("adamw_step", helpers=("../common/each_element.wgsl",))
HYPER = ("lr", "beta1", "beta2", "eps", "weight_decay", "bias_correction1",
         "bias_correction2")


def step_args(*shape, t=1, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.01,
              fresh=False) -> tuple:
    """param, m, v, grad and the hyperparameters of step t (m = v = 0 when fresh)."""
    m = full(shape, 0.0) if fresh else randn(*shape)
    v = full(shape, 0.0) if fresh else rand(*shape, low=0.0, high=0.01)
    b1, b2 = betas
    return (randn(*shape), m, v, randn(*shape), lr, b1, b2, eps, weight_decay,
            1 - b1 ** t, 1 - b2 ** t)


def same_shape(name: str) -> Guard:
    return Guard(f"{name}.dims == param.dims", name, "does not have param's shape",
                 got=f"{name}.dims", expected="{param.dims}")


def positive(name: str) -> Guard:
    return Guard(f"{name} > 0.0", name, "is not positive (it divides)", got=name,
                 expected="a value > 0")


OPS = [Op(
    name="adamw_step",
    targets=["et_vk.adamw_step.default"],
    args=[Tensor("param", mutable=True), Tensor("m", mutable=True), Tensor("v", mutable=True),
          Tensor("grad"), *(Double(h) for h in HYPER),
          Outputs("out", (Output("param_out"), Output("m_out"), Output("v_out")))],
    guards=[same_shape("m"), same_shape("v"), same_shape("grad"),
            positive("bias_correction1"), positive("bias_correction2")],
    shapes={"param_out": "param.dims", "m_out": "param.dims", "v_out": "param.dims"},
    resize="static",
    dispatches=[Dispatch(
        params={"num_elements": u32("ceil_div(param.numel, 4)"),
                # the scalars torch's reference multiplies by, each rounded to float32
                "decay": f32("1.0 - lr * weight_decay"), "beta1": f32("beta1"),
                "one_minus_beta1": f32("1.0 - beta1"), "beta2": f32("beta2"),
                "one_minus_beta2": f32("1.0 - beta2"), "eps": f32("eps"),
                "bias_correction1": f32("bias_correction1"),
                "bias_correction2": f32("bias_correction2"), "neg_lr": f32("-lr")},
        bindings=[Bind("param", "param", write=True, elem="vec4<f32>"),
                  Bind("m", "m", write=True, elem="vec4<f32>"),
                  Bind("v", "v", write=True, elem="vec4<f32>"),
                  Bind("grad", "grad", elem="vec4<f32>"),
                  Bind("param_out", "param_out", write=True, elem="vec4<f32>"),
                  Bind("m_out", "m_out", write=True, elem="vec4<f32>"),
                  Bind("v_out", "v_out", write=True, elem="vec4<f32>")],
        routes=[Route(ADAMW, Elementwise("ceil_div(param.numel, 4)"))])],
    cases=[
        Case("first_step", step_args(4, 16, fresh=True), route="adamw_step", atol=1e-6,
             rtol=1e-5),
        Case("step_100_odd_shape", step_args(7, 13, t=100), atol=1e-6, rtol=1e-5),
        Case("no_weight_decay_rank1", step_args(37, t=3, weight_decay=0.0), atol=1e-6,
             rtol=1e-5),
        Case("large_lr_rank4", step_args(2, 3, 5, 7, t=2, lr=0.1, weight_decay=0.1),
             atol=1e-6, rtol=1e-5),
        Case("rejects_m_shape", (randn(4), randn(5)) + step_args(4)[2:],
             raises="m does not have param's shape (got [5], expected [4])"),
        Case("rejects_v_shape", step_args(4)[:2] + (randn(2, 2),) + step_args(4)[3:],
             raises="v does not have param's shape (got [2, 2], expected [4])"),
        Case("rejects_grad_shape", step_args(4)[:3] + (randn(3),) + step_args(4)[4:],
             raises="grad does not have param's shape (got [3], expected [4])"),
        Case("rejects_bias_correction1", step_args(4)[:9] + (0.0, 0.5),
             raises="bias_correction1 is not positive (it divides) (got 0.0, expected a value "
                    "> 0)"),
        Case("rejects_bias_correction2", step_args(4)[:9] + (0.5, -1.0),
             raises="bias_correction2 is not positive (it divides) (got -1.0, expected a "
                    "value > 0)"),
        Case("rejects_int32", (randn(4, dtype="int32"),) + step_args(4)[1:],
             raises="param has an unsupported dtype (got int32, expected float32)"),
    ],
)]
