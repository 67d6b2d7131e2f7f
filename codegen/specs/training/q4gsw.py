"""et_vk.linear_q4gsw_backward and et_vk.q4gsw_requant: the two 4-bit ops of on-device
training through a frozen 4-bit group-symmetric base (ExecuTorch's Vulkan custom ops;
semantics of their references in custom_ops_lib.py).

Weights as linear_q4gsw holds them: uint8 [N, K / 2], byte j of row n holding weight
2j in its low nibble and 2j + 1 in its high nibble, each + 8 (patterns/
weight_packing_utils.py); scales float32 [K / group_size, N] (transposed):
W[n, k] = (nibble - 8) * scales[k // group_size, n].

- linear_q4gsw_backward(d_out [..., N], weights, weight_scales, group_size) -> [..., K]:
  d_x = d_out @ W, the input gradient of linear_q4gsw. One invocation per pair of outputs
  (the two weights of one byte), summing over N. Golden: opgen_ref's float64 twin
  (ExecuTorch's reference mixes its dtypes under float64 inputs).
- q4gsw_requant(latent float32 [N, K], scales [>= ceil(K / group_size), N], group_size)
  -> uint8 [N, ceil(K / 2)]: each latent weight re-quantized with its frozen scale,
  q = clamp(round(latent / scale), -8, 7) (0 where the scale is 0, and for NaN), packed
  as above (an odd K's last high nibble 0). One invocation per output word (4 bytes).
  The division is WGSL's (not correctly rounded: a quotient within a few ulp of a half may
  round the other way than torch's; docs/numerics.md), the rounding half to even.
"""

from codegen.language import (F32, U8, Bind, Case, Dispatch, Elementwise, Guard, Int, Kernel, Op,
                              Output, Route, Tensor, f32, u32)
from codegen.graph.inputs import rand, randint, randn, tensor

NIBBLES = ("q4_nibbles.wgsl",)
BACKWARD = Kernel("q4gsw_backward", helpers=NIBBLES)
REQUANT = Kernel("q4gsw_requant", helpers=("../common/each_word.wgsl",))


def packed(n: int, k: int):
    return randint(0, 256, n, k // 2, dtype="uint8")


def backward_args(rows: tuple, n: int, k: int, group: int) -> tuple:
    return (randn(*rows, n), packed(n, k), rand(k // group, n, low=0.002, high=0.02), group)


BACKWARD_OP = Op(
    name="linear_q4gsw_backward",
    targets=["et_vk.linear_q4gsw_backward.default"],
    args=[Tensor("d_out", (F32,), rank=(1, 4)), Tensor("weights", (U8,), rank=2),
          Tensor("weight_scales", (F32,), rank=2), Int("group_size"),
          Output("out", (F32,), rank=(1, 4))],
    let={"N": "weights.dims[0]", "K": "weights.dims[1] * 2",
         "M": "d_out.numel // max(d_out.dims[-1], 1)"},
    guards=[
        Guard("d_out.dims[-1] == N", "d_out", "does not hold one gradient per output feature",
              got="d_out.dims", expected="[..., {N}]"),
        Guard("group_size > 0 and K % group_size == 0", "group_size",
              "does not divide the input features", got="group_size",
              expected="a divisor of {K}"),
        Guard("weight_scales.dims == [K // group_size, N]", "weight_scales",
              "does not hold one scale per group of each output feature",
              got="weight_scales.dims", expected="[{K // group_size}, {N}]"),
    ],
    shapes={"out": "d_out.dims[:-1] + [K]"},
    resize="static",
    golden="opgen_ref.linear_q4gsw_backward.default",
    flops="2 * M * N * K",
    dispatches=[Dispatch(
        params={"M": u32("M"), "N": u32("N"), "K": u32("K"), "group_size": u32("group_size"),
                "num_pairs": u32("M * K // 2")},
        bindings=[Bind("d_out", "d_out"), Bind("weights", "weights", elem="u32"),
                  Bind("scales", "weight_scales"), Bind("output", "out", write=True)],
        routes=[Route(BACKWARD, Elementwise("M * K // 2"))])],
    cases=[
        Case("lora_rows", backward_args((5,), 12, 32, 16), route="q4gsw_backward",
             atol=1e-5, rtol=1e-5),
        Case("decode_rank3", backward_args((1, 1), 37, 24, 8), atol=1e-5, rtol=1e-5),
        Case("odd_row_bytes", backward_args((3,), 5, 6, 2), atol=1e-5, rtol=1e-5),
        Case("one_group", backward_args((2, 2), 8, 8, 8), atol=1e-5, rtol=1e-5),
        Case("rejects_d_out", (randn(3, 7),) + backward_args((3,), 8, 16, 8)[1:],
             raises="d_out does not hold one gradient per output feature (got [3, 7], "
                    "expected [..., 8])"),
        Case("rejects_group_size", backward_args((3,), 8, 16, 8)[:3] + (6,),
             raises="group_size does not divide the input features (got 6, expected a "
                    "divisor of 16)"),
        Case("rejects_scales", backward_args((3,), 8, 16, 8)[:2] + (rand(8, 2),) + (8,),
             raises="weight_scales does not hold one scale per group of each output feature "
                    "(got [8, 2], expected [2, 8])"),
    ],
)


def requant_args(n: int, k: int, group: int, scale: float = 0.05) -> tuple:
    groups = -(-k // group)
    return (randn(n, k),
            rand(groups, n, low=0.5 * scale, high=1.5 * scale), group)


# latent = scale * (q + 1/2) for a power-of-two scale: exact halves, rounded to even;
# -9.5 and 8.5 clamp; a zero scale gives 0 (code 8) whatever the latent
TIES = tensor([[0.125, 0.375, -0.125, -0.375, 0.625, -0.625, 2.375, -2.375, 1.0625, -1.1875,
                9.0, -9.0, 0.0]])
TIE_SCALES = tensor([[0.25]])

REQUANT_OP = Op(
    name="q4gsw_requant",
    targets=["et_vk.q4gsw_requant.default"],
    args=[Tensor("latent", (F32,), rank=2), Tensor("scales", (F32,), rank=2),
          Int("group_size"), Output("out", (U8,), rank=2)],
    let={"N": "latent.dims[0]", "K": "latent.dims[1]", "KB": "ceil_div(latent.dims[1], 2)"},
    guards=[
        Guard("group_size > 0", "group_size", "is not positive", got="group_size",
              expected="a group size >= 1"),
        Guard("scales.dims[1] == N and scales.dims[0] >= ceil_div(K, max(group_size, 1))",
              "scales", "does not hold a scale for every group of each row",
              got="scales.dims", expected="[{ceil_div(K, max(group_size, 1))}, {N}]"),
    ],
    shapes={"out": "[N, KB]"},
    resize="static",
    dispatches=[Dispatch(
        params={"N": u32("N"), "K": u32("K"), "KB": u32("KB"), "group_size": u32("group_size"),
                "num_bytes": u32("N * KB"), "num_words": u32("ceil_div(N * KB, 4)")},
        bindings=[Bind("latent", "latent"), Bind("scales", "scales"),
                  Bind("output", "out", write=True, elem="u32")],
        routes=[Route(REQUANT, Elementwise("ceil_div(N * KB, 4)"))])],
    cases=[c if c.raises else Case(**{**c.__dict__, "exact": True}) for c in [
        Case("lora_weights", requant_args(12, 32, 16), route="q4gsw_requant"),
        Case("ties_to_even", (TIES, TIE_SCALES, 16)),
        Case("odd_k_prime_rows", requant_args(7, 13, 4)),
        Case("zero_and_saturating_scales", (tensor([[1.0, -3.0, 0.4, 0.6], [0.3, -0.31, 7.0,
                                                                           -9.0]]),
                                            tensor([[0.0, 0.1]]), 4)),
        Case("extra_groups", (randn(3, 10), rand(5, 3, low=0.05, high=0.1), 4)),
        Case("rejects_group_size", (randn(2, 8), rand(2, 2), 0),
             raises="group_size is not positive (got 0, expected a group size >= 1)"),
        Case("rejects_scales", (randn(2, 8), rand(1, 2), 4),
             raises="scales does not hold a scale for every group of each row (got [1, 2], "
                    "expected [2, 2])"),
    ]],
)

OPS = [BACKWARD_OP, REQUANT_OP]
