"""apply_rotary_emb: Meta's (llama) interleaved RoPE on xq and xk, two outputs.

xq [B, S, Hq, D], xk [B, S, Hk, D]; freqs_cos / freqs_sin [S, D/2]: the rows of the
sequence, already sliced out of the tables by the graph (slice_copy at start_pos). Each
pair (2j, 2j+1) of a head is a complex number rotated by (cos, sin) of row s, column j:
    out[2j]     = x[2j] * cos[s, j] - x[2j+1] * sin[s, j]
    out[2j + 1] = x[2j] * sin[s, j] + x[2j+1] * cos[s, j]
(ExecuTorch's RotaryEmbeddingPattern, backends/vulkan/patterns/rope.py). One thread per
pair, xq's pairs first, then xk's, in one dispatch; a resize (a decode step's one token)
changes only the params and grid. The HF rotate-half layout is apply_rotary_emb_hf.
"""

from codegen.language import (Bind, Case, Dispatch, Elementwise, Guard, Kernel, Op, Output,
                              Outputs, Route, Tensor, u32)
from codegen.graph.inputs import rand, randn

ROPE = Kernel("rotary_emb_meta")


def _args(q, k, rows=None, half=None):
    rows = q[1] if rows is None else rows
    half = q[3] // 2 if half is None else half
    return (randn(*q), randn(*k), rand(rows, half, low=-1.0, high=1.0),
            rand(rows, half, low=-1.0, high=1.0))


OPS = [Op(
    name="apply_rotary_emb",
    targets=["et_vk.apply_rotary_emb.default"],
    args=[Tensor("xq", rank=4), Tensor("xk", rank=4), Tensor("freqs_cos", rank=2),
          Tensor("freqs_sin", rank=2),
          Outputs("out", (Output("xq_out", rank=4), Output("xk_out", rank=4)))],
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
        Guard("xk.dims[3] == D", "xk", "has a different head_dim than xq", got="xk.dims[3]",
              expected="{D}"),
        Guard("D % 2 == 0", "xq", "has an odd head_dim", got="D", expected="an even head_dim"),
        Guard("freqs_cos.dims == [S, D // 2]", "freqs_cos",
              "does not hold one row of D/2 frequencies per token", got="freqs_cos.dims",
              expected="[{S}, {D // 2}]"),
        Guard("freqs_sin.dims == freqs_cos.dims", "freqs_sin",
              "has a different shape than freqs_cos", got="freqs_sin.dims",
              expected="{freqs_cos.dims}"),
    ],
    shapes={"xq_out": "xq.dims", "xk_out": "xk.dims"},
    resize="dynamic",
    dispatches=[Dispatch(
        params={
            "S": u32("S"),
            "Hq": u32("xq.dims[2]"),
            "Hk": u32("xk.dims[2]"),
            "half": u32("D // 2"),
            "q_pairs": u32("q_pairs"),
            "num_pairs": u32("q_pairs + k_pairs"),
        },
        bindings=[Bind("xq", "xq", elem="vec2<f32>"), Bind("xk", "xk", elem="vec2<f32>"),
                  Bind("cos_table", "freqs_cos"), Bind("sin_table", "freqs_sin"),
                  Bind("xq_out", "xq_out", write=True, elem="vec2<f32>"),
                  Bind("xk_out", "xk_out", write=True, elem="vec2<f32>")],
        routes=[Route(ROPE, Elementwise("q_pairs + k_pairs"))],
    )],
    cases=[
        Case("prefill_gqa", _args((1, 6, 4, 16), (1, 6, 2, 16)), route="rotary_emb_meta"),
        Case("batch_two", _args((2, 3, 2, 8), (2, 3, 1, 8))),
        # built for a 6-token prefill, run for one decode token: params and grid follow
        Case("decode_resize", _args((1, 6, 4, 16), (1, 6, 2, 16)),
             resize={"xq": (1, 1, 4, 16), "xk": (1, 1, 2, 16), "freqs_cos": (1, 8),
                     "freqs_sin": (1, 8)}),
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
