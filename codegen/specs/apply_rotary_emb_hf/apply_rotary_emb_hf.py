"""apply_rotary_emb_hf: HuggingFace rotate-half RoPE on xq and xk (Qwen3 and other HF models).

xq [B, S, Hq, D], xk [B, S, Hk, D]; cos/sin tables [max_seq, rotary_dim] are read at row
start_pos + s. For each pair (i, i + D/2) of a head:
    out[i]       = x[i] * cos[i]       - x[i + D/2] * sin[i]
    out[i + D/2] = x[i + D/2] * cos[i + D/2] + x[i] * sin[i + D/2]
One thread per pair, xq's pairs first, then xk's, in one dispatch. `start_pos` is an Int
or a runtime SymInt (KV-cache decode): the resize hook re-reads it with the live
sequence length. Full rotary only: rotary_dim < head_dim fails loud.
"""

from codegen.language import (Bind, Case, Dispatch, Elementwise, Guard, Int, Kernel, Op, Output,
                          Outputs, Route, Tensor, u32)
from codegen.graph.inputs import SymInt, rand, randn

ROPE = Kernel("rotary_emb_hf")


def _args(q, k, table, start_pos=0, table_rows=None):
    rows = table_rows or 32
    return (randn(*q), randn(*k), rand(rows, table, low=-1.0, high=1.0),
            rand(rows, table, low=-1.0, high=1.0), start_pos)


OPS = [Op(
    name="apply_rotary_emb_hf",
    targets=["et_vk.apply_rotary_emb_hf.default"],
    args=[Tensor("xq", rank=4), Tensor("xk", rank=4), Tensor("freqs_cos", rank=2),
          Tensor("freqs_sin", rank=2), Int("start_pos", symbolic=True),
          Outputs("out", (Output("xq_out", rank=4), Output("xk_out", rank=4)))],
    let={
        "S": "xq.dims[1]",
        "D": "xq.dims[3]",
        "half": "xq.dims[3] // 2",
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
        Guard("freqs_sin.dims == freqs_cos.dims", "freqs_sin", "has a different shape than freqs_cos",
              got="freqs_sin.dims", expected="{freqs_cos.dims}"),
        Guard("freqs_cos.dims[1] == D", "freqs_cos",
              "covers a partial rotary dim (rotary_dim < head_dim is not supported)",
              got="freqs_cos.dims[1]", expected="{D} (full rotary)"),
        Guard("start_pos >= 0 and start_pos + S <= freqs_cos.dims[0]", "start_pos",
              "puts the sequence past the end of the cos/sin tables", got="start_pos",
              expected="0..{freqs_cos.dims[0] - S}"),
    ],
    shapes={"xq_out": "xq.dims", "xk_out": "xk.dims"},
    resize="dynamic",
    dispatches=[Dispatch(
        params={
            "S": u32("S"),
            "Hq": u32("xq.dims[2]"),
            "Hk": u32("xk.dims[2]"),
            "D": u32("D"),
            "half": u32("half"),
            "start_pos": u32("start_pos"),
            "q_pairs": u32("q_pairs"),
            "num_pairs": u32("q_pairs + k_pairs"),
        },
        bindings=[Bind("xq", "xq"), Bind("xk", "xk"), Bind("cos_table", "freqs_cos"),
                  Bind("sin_table", "freqs_sin"), Bind("xq_out", "xq_out", write=True),
                  Bind("xk_out", "xk_out", write=True)],
        routes=[Route(ROPE, Elementwise("q_pairs + k_pairs"))],
    )],
    cases=[
        Case("prefill_gqa", _args((1, 6, 4, 16), (1, 6, 2, 16), 16), route="rotary_emb_hf"),
        Case("start_pos_int", _args((2, 3, 2, 8), (2, 3, 1, 8), 8, start_pos=5)),
        # decode: built for 6 tokens at position 0, run for 1 token at position 20
        Case("decode_symint", _args((1, 6, 4, 16), (1, 6, 2, 16), 16, start_pos=SymInt(0)),
             resize={"xq": (1, 1, 4, 16), "xk": (1, 1, 2, 16), "start_pos": 20}),
        Case("decode_past_table", _args((1, 6, 2, 8), (1, 6, 2, 8), 8, start_pos=SymInt(0)),
             resize={"xq": (1, 2, 2, 8), "xk": (1, 2, 2, 8), "start_pos": 31},
             raises="start_pos puts the sequence past the end of the cos/sin tables "
                    "(got 31, expected 0..30)"),
        Case("partial_rotary", _args((1, 2, 2, 16), (1, 2, 2, 16), 8),
             raises="freqs_cos covers a partial rotary dim (rotary_dim < head_dim is not "
                    "supported) (got 8, expected 16 (full rotary))"),
        Case("seq_mismatch", _args((1, 3, 2, 8), (1, 2, 2, 8), 8),
             raises="xk has a different batch or sequence length than xq (got [1, 2, 2, 8], "
                    "expected [1, 3, H, D])"),
        Case("head_dim_mismatch", _args((1, 2, 2, 8), (1, 2, 2, 4), 8),
             raises="xk has a different head_dim than xq (got 4, expected 8)"),
        Case("odd_head_dim", _args((1, 2, 2, 7), (1, 2, 2, 7), 7),
             raises="xq has an odd head_dim (got 7, expected an even head_dim)"),
        Case("sin_shape", (randn(1, 2, 2, 8), randn(1, 2, 2, 8), randn(32, 8), randn(16, 8), 0),
             raises="freqs_sin has a different shape than freqs_cos (got [16, 8], expected [32, 8])"),
        Case("start_pos_negative", _args((1, 2, 2, 8), (1, 2, 2, 8), 8, start_pos=-1),
             raises="start_pos puts the sequence past the end of the cos/sin tables (got -1, "
                    "expected 0..30)"),
    ],
)]
