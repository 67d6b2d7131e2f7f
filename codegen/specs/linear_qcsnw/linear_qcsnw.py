"""Linears over weights quantized symmetrically per output channel (ExecuTorch's Vulkan
custom ops, as its lowering serializes them):

- linear_qcs4w(self, weight, scales): 4-bit weights from the PT2E weight-only flow, packed
  two to a byte along K: byte j of row n = (w[n, 2j] + 8) << 4 | (w[n, 2j + 1] + 8), K
  padded to even (fuse_quantized_ops.py). out = self @ (w * scales[:, None]).T.
- linear_q8ta_q8csw(x, input_scale, input_zero_point, weights, weight_sums, weight_scales,
  bias?): a static int8 input (quantize_per_tensor's output) and int8 weights [N, K]:
  out = input_scale * weight_scales[n] * sum_k (x[k] - zp) * w[n, k] + bias[n], summed in
  integers (weight_sums holds each row's sum of w, which the lowering stores;
  patterns/quantized_linear.py). weight_sums, weight_scales and bias are padded to a
  multiple of 4 there: each holds at least N entries.

ExecuTorch's own references for both disagree with what the graph holds (codegen/graph/
references.py): the cases compare with `opgen_ref`'s. One invocation per output element.
"""

import random

from codegen.language import (F32, I8, I32, U8, Bind, Case, Dispatch, Double, Elementwise, Guard,
                              Int, Kernel, Op, Output, Route, Tensor, f32, i32, u32)
from codegen.graph.inputs import rand, randint, randn, tensor

NAN, INF = float("nan"), float("inf")
QCS4W = Kernel("linear_qcs4w", workgroup=(64, 1, 1), helpers=("../common/each_element.wgsl",))
Q8TA = Kernel("linear_q8ta_q8csw", workgroup=(64, 1, 1), helpers=("../common/each_element.wgsl",))
TOL = {"atol": 1e-5, "rtol": 1e-5}


def packed(n: int, k: int):
    """A packed 4-bit weight for N = n, K = k: any byte is two valid nibbles."""
    return randint(0, 256, n, (k + 1) // 2, dtype="uint8")


def scales(n: int):
    return rand(n, low=0.005, high=0.05)


QCS4W_OP = Op(
    name="linear_qcs4w",
    targets=["et_vk.linear_qcs4w.default"],
    golden="opgen_ref.linear_qcs4w.default",
    args=[Tensor("self", (F32,), rank=(1, 8)), Tensor("weight", (U8,), rank=2),
          Tensor("scales", (F32,), rank=1), Output("out", (F32,), rank=(1, 8))],
    let={"K": "self.dims[-1]", "N": "weight.dims[0]", "M": "self.numel // K if K > 0 else 0"},
    guards=[
        Guard("weight.dims[1] == (K + 1) // 2", "weight",
              "does not hold two 4-bit values per byte over self's last dim", got="weight.dims",
              expected="[N, {(K + 1) // 2}] for K = {K}"),
        Guard("scales.dims[0] >= N", "scales", "has fewer entries than weight has rows",
              got="scales.dims", expected="at least {N}"),
    ],
    shapes={"out": "self.dims[:-1] + [N]"},
    resize="dynamic",
    dispatches=[Dispatch(
        params={"N": u32("N"), "K": u32("K"), "K_packed": u32("(K + 1) // 2"),
                "num_elements": u32("M * N")},
        bindings=[Bind("input", "self"), Bind("weight", "weight", elem="u32"),
                  Bind("scales", "scales"), Bind("output", "out", write=True)],
        routes=[Route(QCS4W, Elementwise("M * N"))],
    )],
    cases=[
        Case("decode_row", (randn(1, 64), packed(96, 64), scales(96)), route="linear_qcs4w",
             **TOL),
        Case("batched_rows", (randn(2, 5, 40), packed(24, 40), scales(24)), **TOL),
        Case("odd_k", (randn(3, 7), packed(5, 7), scales(5)), **TOL),
        Case("prime_n", (randn(4, 12), packed(13, 12), scales(13)), **TOL),
        Case("rank1", (randn(10), packed(3, 10), scales(3)), **TOL),
        Case("padded_scales", (randn(2, 8), packed(6, 8), scales(8)), **TOL),
        # a zero weight (nibble 8) times an infinity gives NaN, as the reference's matmul
        Case("ieee_specials", (tensor([[NAN, 1.0, INF, -0.0, -INF, 2.0, 1e30, -1e30]]),
                               packed(4, 8), scales(4)), **TOL),
        Case("empty_rows", (randn(0, 8), packed(4, 8), scales(4)), **TOL),
        Case("resize", (randn(4, 32), packed(16, 32), scales(16)), resize={"self": (2, 32)},
             **TOL),
        Case("wrong_packing", (randn(2, 10), packed(4, 8), scales(4)),
             raises="weight does not hold two 4-bit values per byte over self's last dim (got "
                    "[4, 4], expected [N, 5] for K = 10)"),
        Case("short_scales", (randn(2, 8), packed(4, 8), scales(3)),
             raises="scales has fewer entries than weight has rows (got [3], expected at "
                    "least 4)"),
        Case("rejects_int8_weight", (randn(2, 8), randint(-8, 8, 4, 4, dtype="int8"),
                                     scales(4)),
             raises="weight has an unsupported dtype (got int8, expected uint8)"),
    ],
)


def int8_weights(n: int, k: int, pad: int, seed: int) -> tuple:
    """(weights, weight_sums) as the lowering stores them: int8 [n, k] in -127..127 and
    each row's sum, padded with zeros to `pad` entries."""
    rng = random.Random(seed)
    rows = [[rng.randint(-127, 127) for _ in range(k)] for _ in range(n)]
    sums = [sum(r) for r in rows] + [0] * (pad - n)
    return tensor(rows, dtype="int8"), tensor(sums, dtype="int32")


def q8ta_args(m: tuple, n: int, k: int, zero_point: int, bias: bool = True, seed: int = 0,
              pad: int | None = None) -> tuple:
    pad = pad if pad is not None else -(-n // 4) * 4
    weights, sums = int8_weights(n, k, pad, seed)
    return (randint(-128, 128, *m, k, dtype="int8"), 0.0173, zero_point, weights, sums,
            scales(pad), randn(pad) if bias else None)


def replaced(args: tuple, i: int, value) -> tuple:
    return args[:i] + (value,) + args[i + 1:]


BASE = q8ta_args((2,), 8, 16, 0)

Q8TA_OP = Op(
    name="linear_q8ta_q8csw",
    targets=["et_vk.linear_q8ta_q8csw.default"],
    golden="opgen_ref.linear_q8ta_q8csw.default",
    args=[Tensor("x", (I8,), rank=(1, 8)), Double("input_scale"), Int("input_zero_point"),
          Tensor("weights", (I8,), rank=2), Tensor("weight_sums", (I32,), rank=1),
          Tensor("weight_scales", (F32,), rank=1),
          Tensor("bias", (F32,), rank=1, optional=True), Output("out", (F32,), rank=(1, 8))],
    let={"K": "x.dims[-1]", "N": "weights.dims[0]", "M": "x.numel // K if K > 0 else 0"},
    guards=[
        Guard("weights.dims[1] == K", "weights", "does not match x's last dim",
              got="weights.dims", expected="[N, {K}]"),
        Guard("weight_sums.dims[0] >= N", "weight_sums", "has fewer entries than weights has "
              "rows", got="weight_sums.dims", expected="at least {N}"),
        Guard("weight_scales.dims[0] >= N", "weight_scales", "has fewer entries than weights "
              "has rows", got="weight_scales.dims", expected="at least {N}"),
        Guard("not bias.present or bias.dims[0] >= N", "bias",
              "has fewer entries than weights has rows", got="bias.dims",
              expected="at least {N}"),
        Guard("input_zero_point >= -128 and input_zero_point <= 127", "input_zero_point",
              "is outside int8", got="input_zero_point", expected="-128..127"),
    ],
    shapes={"out": "x.dims[:-1] + [N]"},
    resize="dynamic",
    dispatches=[Dispatch(
        params={"N": u32("N"), "K": u32("K"), "num_elements": u32("M * N"),
                "input_zero_point": i32("input_zero_point"),
                "input_scale": f32("input_scale"), "has_bias": u32("bias.present")},
        bindings=[Bind("input", "x", elem="u32"), Bind("weight", "weights", elem="u32"),
                  Bind("weight_sums", "weight_sums", elem="i32"),
                  Bind("weight_scales", "weight_scales"), Bind("bias", "bias"),
                  Bind("output", "out", write=True)],
        routes=[Route(Q8TA, Elementwise("M * N"))],
    )],
    cases=[
        Case("decode_row", q8ta_args((1,), 96, 64, -3), route="linear_q8ta_q8csw", **TOL),
        Case("batched_rows", q8ta_args((2, 5), 24, 40, 7, seed=1), **TOL),
        Case("no_bias", q8ta_args((3,), 16, 32, 0, bias=False, seed=2), **TOL),
        # N = 13 (sums, scales and bias padded to 16), K = 11: rows cross word boundaries
        Case("prime_shapes", q8ta_args((7,), 13, 11, -128, seed=3), **TOL),
        Case("extreme_zero_point", q8ta_args((4,), 8, 36, 127, seed=4), **TOL),
        Case("unpadded", q8ta_args((2,), 6, 8, 5, seed=5, pad=6), **TOL),
        # a NaN or infinite bias or scale passes into its column; input_scale 0 leaves
        # only the bias (0 + -0.0 = +0.0)
        Case("ieee_bias", replaced(q8ta_args((3,), 8, 16, 2, seed=8), 6,
                                   tensor([NAN, INF, -INF, -0.0, 0.0, 1e-45, 3.4e38, -1.0])),
             **TOL),
        Case("ieee_scales", replaced(replaced(q8ta_args((3,), 8, 16, 2, seed=9), 1, 0.0), 5,
                                     tensor([NAN, INF, -INF, -0.0, 0.0, 1e-45, 3.4e38, 1.0])),
             **TOL),
        Case("empty_rows", q8ta_args((0,), 8, 16, 1, seed=6), **TOL),
        Case("resize", q8ta_args((6,), 16, 32, -9, seed=7), resize={"x": (3, 32)}, **TOL),
        Case("wrong_k", replaced(BASE, 0, randint(-9, 9, 2, 12, dtype="int8")),
             raises="weights does not match x's last dim (got [8, 16], expected [N, 12])"),
        Case("short_sums", replaced(BASE, 4, tensor([0] * 6, dtype="int32")),
             raises="weight_sums has fewer entries than weights has rows (got [6], expected "
                    "at least 8)"),
        Case("short_scales", replaced(BASE, 5, scales(7)),
             raises="weight_scales has fewer entries than weights has rows (got [7], expected "
                    "at least 8)"),
        Case("short_bias", replaced(BASE, 6, randn(5)),
             raises="bias has fewer entries than weights has rows (got [5], expected at least "
                    "8)"),
        Case("zero_point_outside_int8", replaced(BASE, 2, 200),
             raises="input_zero_point is outside int8 (got 200, expected -128..127)"),
        Case("rejects_float_input", replaced(BASE, 0, randn(2, 16)),
             raises="x has an unsupported dtype (got float32, expected int8)"),
    ],
)

OPS = [QCS4W_OP, Q8TA_OP]
