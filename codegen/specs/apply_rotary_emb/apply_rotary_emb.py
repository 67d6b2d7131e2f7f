"""apply_rotary_emb: Meta's (llama) interleaved RoPE on xq and xk, two outputs.

xq [B, S, Hq, D], xk [B, S, Hk, D]; freqs_cos / freqs_sin [S, D/2]: the rows of the
sequence, already sliced out of the tables by the graph (slice_copy at start_pos). Each
pair (2j, 2j+1) of a head is a complex number rotated by (cos, sin) of row s, column j:
    out[2j]     = x[2j] * cos[s, j] - x[2j+1] * sin[s, j]
    out[2j + 1] = x[2j] * sin[s, j] + x[2j+1] * cos[s, j]
(ExecuTorch's RotaryEmbeddingPattern, backends/vulkan/patterns/rope.py). One thread per
pair, xq's pairs first, then xk's, in one dispatch; a resize (a decode step's one token)
changes only the params and grid. The HF rotate-half layout is apply_rotary_emb_hf.
float16 tensors and tables (a force_fp16 LLM) run the kernel's float16 twins (a pair is
one word of the packed twin).
"""

from codegen.language import (Case, Dispatch, Elementwise, Guard, Kernel, Op, Route, Tensor,
                              half_routes, u32)
from codegen.graph.inputs import rand, randn
from codegen.specs.apply_rotary_emb._rope import (FLOATS, OUTPUTS, SAME_DTYPE, SHAPES,
                                                  SIN_LIKE_COS, XK_HEAD_DIM, bindings)

ROPE = Kernel("rotary_emb_meta", helpers=("../common/each_element.wgsl",))
ROUTE = Route(ROPE, Elementwise("q_pairs + k_pairs"))


def _args(q, k, rows=None, half=None, dtype="float32"):
    rows = q[1] if rows is None else rows
    half = q[3] // 2 if half is None else half
    return (randn(*q, dtype=dtype), randn(*k, dtype=dtype),
            rand(rows, half, low=-1.0, high=1.0, dtype=dtype),
            rand(rows, half, low=-1.0, high=1.0, dtype=dtype))


OPS = [Op(
    name="apply_rotary_emb",
    targets=["et_vk.apply_rotary_emb.default"],
    args=[Tensor("xq", FLOATS, rank=4), Tensor("xk", FLOATS, rank=4),
          Tensor("freqs_cos", FLOATS, rank=2), Tensor("freqs_sin", FLOATS, rank=2),
          OUTPUTS],
    let={
        "S": "xq.dims[1]",
        "D": "xq.dims[3]",
        "q_pairs": "xq.numel // 2",
        "k_pairs": "xk.numel // 2",
    },
    guards=[
        Guard("xk.dims[0] == xq.dims[0] and xk.dims[1] == S", "xk",
              "has a different batch or sequence length than xq", got="xk.dims",
              expected="[{xq.dims[0]}, {S}, H, D]"),
        XK_HEAD_DIM,
        Guard("D % 2 == 0", "xq", "has an odd head_dim", got="D", expected="an even head_dim"),
        Guard("freqs_cos.dims == [S, D // 2]", "freqs_cos",
              "does not hold one row of D/2 frequencies per token", got="freqs_cos.dims",
              expected="[{S}, {D // 2}]"),
        SIN_LIKE_COS,
        SAME_DTYPE,
    ],
    shapes=SHAPES,
    resize="dynamic",
    dispatches=[Dispatch(
        params={
            "S": u32("S"),
            "Hq": u32("xq.dims[2]"),
            "Hk": u32("xk.dims[2]"),
            "half": u32("D // 2"),
            "q_pairs": u32("q_pairs"),
            "num_elements": u32("q_pairs + k_pairs")  # vec2 elements: pairs,
        },
        bindings=bindings("vec2"),
        routes=[*half_routes([ROUTE], "xq"), ROUTE],
    )],
    cases=[
        Case("prefill_gqa", _args((1, 6, 4, 16), (1, 6, 2, 16)), route="rotary_emb_meta"),
        Case("batch_two", _args((2, 3, 2, 8), (2, 3, 1, 8))),
        # built for a 6-token prefill, run for one decode token: params and grid follow
        Case("decode_resize", _args((1, 6, 4, 16), (1, 6, 2, 16)),
             resize={"xq": (1, 1, 4, 16), "xk": (1, 1, 2, 16), "freqs_cos": (1, 8),
                     "freqs_sin": (1, 8)}),
        Case("f16_prefill_gqa", _args((1, 6, 4, 16), (1, 6, 2, 16), dtype="float16"),
             route="rotary_emb_meta_f16"),
        Case("f16_decode_resize", _args((1, 6, 4, 16), (1, 6, 2, 16), dtype="float16"),
             resize={"xq": (1, 1, 4, 16), "xk": (1, 1, 2, 16), "freqs_cos": (1, 8),
                     "freqs_sin": (1, 8)}),
        Case("rejects_mixed_floats", _args((1, 2, 2, 8), (1, 2, 2, 8))[:2] +
             _args((1, 2, 2, 8), (1, 2, 2, 8), dtype="float16")[2:],
             raises="xq does not share its dtype with xk, freqs_cos and freqs_sin (got float32, "
                    "expected the dtype of xk, freqs_cos and freqs_sin)"),
        Case("seq_mismatch", _args((1, 3, 2, 8), (1, 2, 2, 8)),
             raises="xk has a different batch or sequence length than xq (got [1, 2, 2, 8], "
                    "expected [1, 3, H, D])"),
        Case("head_dim_mismatch", _args((1, 2, 2, 8), (1, 2, 2, 4)),
             raises="xk has a different head_dim than xq (got 4, expected 8)"),
        Case("odd_head_dim", _args((1, 2, 2, 7), (1, 2, 2, 7), half=3),
             raises="xq has an odd head_dim (got 7, expected an even head_dim)"),
        Case("freqs_rows", _args((1, 3, 2, 8), (1, 3, 2, 8), rows=5),
             raises="freqs_cos does not hold one row of D/2 frequencies per token (got [5, 4], "
                    "expected [3, 4])"),
        Case("sin_shape", _args((1, 2, 2, 8), (1, 2, 2, 8))[:3] + (randn(2, 3),),
             raises="freqs_sin has a different shape than freqs_cos (got [2, 3], expected "
                    "[2, 4])"),
        Case("rejects_3d_freqs", _args((1, 2, 2, 8), (1, 2, 2, 8))[:2] + (randn(2, 2, 4),
                                                                          randn(2, 2, 4)),
             raises="freqs_cos has the wrong rank (got 3, expected 2)"),
    ],
)]
