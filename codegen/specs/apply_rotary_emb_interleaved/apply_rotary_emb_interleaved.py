"""apply_rotary_emb_interleaved: ExecuTorch's Vulkan custom op for EdgeTAM's pair-interleaved
complex RoPE (`et_vk.apply_rotary_emb_interleaved(x, freqs_cis)`; semantics of its reference
implementation in executorch/backends/vulkan/custom_ops_lib.py).

x [B, N, C] holds (real, imag) pairs along C; freqs_cis has any shape whose N * C elements,
flattened, are [N, C] with (cos, sin) pairs along C (commonly [N, C] or
view_as_real(...).unsqueeze(0): [1, N, C/2, 2]). Each pair of x is rotated by its
position's (cos, sin): one invocation per pair, a vec2 of x and of freqs_cis. float32, or
float16 (x and freqs_cis alike) on the kernel's float16 twins: computed in f32, each
output rounded to half once.
"""

from codegen.language import (F16, F32, Bind, Case, Dispatch, Elementwise, Guard, Kernel, Op,
                              Output, Route, Tensor, half_routes, same_dtype, u32)
from codegen.graph.inputs import rand, randn, tensor

ROPE = Kernel("rotary_emb_interleaved", helpers=("../common/each_element.wgsl",))
ROUTE = Route(ROPE, Elementwise("x.numel // 2"))
FLOATS = (F32, F16)
NAN, INF = float("nan"), float("inf")
TOL = {"atol": 1e-6, "rtol": 1e-5}


def freqs(*shape, dtype="float32"):
    return rand(*shape, low=-1.0, high=1.0, dtype=dtype)


OPS = [Op(
    name="apply_rotary_emb_interleaved",
    targets=["et_vk.apply_rotary_emb_interleaved.default"],
    args=[Tensor("x", FLOATS, rank=3), Tensor("freqs_cis", FLOATS, rank=(1, 4)),
          Output("out", FLOATS, rank=3)],
    let={"N": "x.dims[1]", "C": "x.dims[2]"},
    guards=[
        Guard("C % 2 == 0", "x", "has an odd last dim (it holds (real, imag) pairs)",
              got="x.dims", expected="an even C in [B, N, C]"),
        Guard("freqs_cis.numel == N * C", "freqs_cis",
              "does not hold one (cos, sin) pair per pair of a row of x", got="freqs_cis.dims",
              expected="{N * C} elements ([N, C] flattened)"),
        same_dtype("x", ["freqs_cis"]),
    ],
    shapes={"out": "x.dims"},
    resize="dynamic",
    dispatches=[Dispatch(
        params={"N": u32("N"), "half": u32("C // 2"), "num_elements": u32("x.numel // 2")},
        bindings=[Bind("input", "x", view="vec2"), Bind("freqs", "freqs_cis", view="vec2"),
                  Bind("output", "out", write=True, view="vec2")],
        routes=[*half_routes([ROUTE], "x"), ROUTE],
    )],
    cases=[
        Case("flat_table", (randn(2, 16, 32), freqs(16, 32)), route="rotary_emb_interleaved",
             **TOL),
        # view_as_real(freqs_cis).unsqueeze(0), as EdgeTAM passes it
        Case("rank4_table", (randn(1, 64, 16), freqs(1, 64, 8, 2)), **TOL),
        Case("prime_shapes", (randn(3, 7, 26), freqs(7, 26)), **TOL),
        Case("one_pair", (randn(1, 1, 2), freqs(2)), **TOL),
        # cos = 1, sin = 0 is the identity; NaN and infinities flow as the formula says
        Case("ieee_specials", (tensor([[[NAN, 1.0, INF, -0.0, -INF, 2.0, 1e30, -1e30]]]),
                               tensor([1.0, 0.0, 0.5, 0.5, 1.0, -1.0, 0.0, 1.0])), **TOL),
        Case("empty_batch", (randn(0, 4, 8), freqs(4, 8)), **TOL),
        Case("resize", (randn(4, 16, 32), freqs(16, 32)), resize={"x": (2, 16, 32)}, **TOL),
        Case("resize_positions", (randn(2, 16, 32), freqs(16, 32)),
             resize={"x": (2, 9, 32), "freqs_cis": (9, 32)}, **TOL),
        Case("odd_channels", (randn(1, 4, 7), freqs(4, 7)),
             raises="x has an odd last dim (it holds (real, imag) pairs) (got [1, 4, 7], "
                    "expected an even C in [B, N, C])"),
        Case("table_size", (randn(1, 4, 8), freqs(5, 8)),
             raises="freqs_cis does not hold one (cos, sin) pair per pair of a row of x (got "
                    "[5, 8], expected 32 elements ([N, C] flattened))"),
        Case("rank2_x", (randn(4, 8), freqs(4, 8)),
             raises="x has the wrong rank (got 2, expected 3)"),
        # float16: f32 products, one rounding; x near 65504 overflows, subnormal products
        Case("f16_flat_table", (randn(2, 16, 32, dtype="float16"), freqs(16, 32, dtype="float16")),
             route="rotary_emb_interleaved_f16"),
        Case("f16_rank4_table", (randn(1, 64, 16, dtype="float16"),
                                 freqs(1, 64, 8, 2, dtype="float16"))),
        Case("f16_specials", (tensor([[[NAN, 1.0, INF, -0.0, 65504.0, 65504.0, 2.0 ** -24, 0.5,
                                        -65504.0, 1000.0]]], dtype="float16"),
                              tensor([1.0, 0.0, 0.5, 0.5, 0.75, 0.75, 0.5, 2.0 ** -14, 1.0, -1.0],
                                     dtype="float16")),
             route="rotary_emb_interleaved_f16", exact=True),
        Case("f16_resize", (randn(4, 16, 32, dtype="float16"), freqs(16, 32, dtype="float16")),
             resize={"x": (2, 9, 32), "freqs_cis": (9, 32)}),
        Case("rejects_mixed_dtypes", (randn(1, 4, 8, dtype="float16"), freqs(4, 8)),
             raises="x does not share its dtype with freqs_cis (got float16, expected the dtype "
                    "of freqs_cis)"),
    ],
)]
