"""apply_rotary_emb_hf: HuggingFace rotate-half RoPE on xq and xk, full or partial.

The cos/sin tables cover the first R = freqs_cos.dims[-1] (the rotary dim, even, at most
head_dim D) entries of each head; the rest of the head passes through. Two layouts, as
ExecuTorch's Vulkan lowering fuses them (et_vk.apply_rotary_emb_hf's reference, the
pattern of backends/vulkan/patterns/rope_hf.py):
- tables [max_seq, R] (ExecuTorch's Llama): xq [B, S, Hq, D], xk [B, S, Hk, D]; row
  start_pos + s of the tables rotates position s. `start_pos` is an Int or a runtime
  SymInt (KV-cache decode): the resize hook re-reads it with the live sequence length.
- tables [1 or B, S, R] (transformers' partial-rotary models: StableLM, Phi-3 variants,
  cos/sin computed per call from the position ids): xq [B, Hq, S, D], xk [B, Hk, S, D]
  (heads before the sequence), start_pos 0; a batch-1 table serves every batch.
For i < R/2: out[i] = x[i] * cos[i] - x[i + R/2] * sin[i]; for R/2 <= i < R:
out[i] = x[i] * cos[i] + x[i - R/2] * sin[i]; for i >= R: out[i] = x[i].
One thread per element, xq's first, then xk's, in one dispatch.
"""

from codegen.language import (Case, Dispatch, Elementwise, Guard, Int, Kernel, Op, Route, Tensor,
                              half_routes, u32)
from codegen.graph.inputs import SymInt, rand, randn
from codegen.specs.apply_rotary_emb._rope import (FLOATS, OUTPUTS, SAME_DTYPE, SHAPES,
                                                  SIN_LIKE_COS, XK_HEAD_DIM, bindings)

ROPE = Kernel("rotary_emb_hf", helpers=("../common/each_element.wgsl",))
ROUTE = Route(ROPE, Elementwise("q_elems + k_elems"))


def _args(q, k, table, start_pos=0, table_rows=None):
    """[max_seq, R] tables (32 rows unless `table_rows`)."""
    rows = table_rows or 32
    return (randn(*q), randn(*k), rand(rows, table, low=-1.0, high=1.0),
            rand(rows, table, low=-1.0, high=1.0), start_pos)


def _hf_args(q, k, table, start_pos=0):
    """[1 or B, S, R] tables (`table` is their shape), [B, H, S, D] queries and keys."""
    return (randn(*q), randn(*k), rand(*table, low=-1.0, high=1.0),
            rand(*table, low=-1.0, high=1.0), start_pos)


def _half_args(q, k, table, start_pos=0):
    """_args in float16, [max_seq, R] tables of 32 rows."""
    h = "float16"
    return (randn(*q, dtype=h), randn(*k, dtype=h), rand(32, table, low=-1.0, high=1.0, dtype=h),
            rand(32, table, low=-1.0, high=1.0, dtype=h), start_pos)


OPS = [Op(
    name="apply_rotary_emb_hf",
    targets=["et_vk.apply_rotary_emb_hf.default"],
    args=[Tensor("xq", FLOATS, rank=4), Tensor("xk", FLOATS, rank=4),
          Tensor("freqs_cos", FLOATS, rank=(2, 3)), Tensor("freqs_sin", FLOATS, rank=(2, 3)),
          Int("start_pos", symbolic=True),
          OUTPUTS],
    let={
        "hf": "1 if freqs_cos.rank == 3 else 0",  # [B, H, S, D] with [1 or B, S, R] tables
        "S": "xq.dims[2] if hf == 1 else xq.dims[1]",
        "D": "xq.dims[3]",
        "R": "freqs_cos.dims[-1]",
        "q_elems": "xq.numel",
        "k_elems": "xk.numel",
    },
    guards=[
        Guard("xk.dims[0] == xq.dims[0] and xk.dims[2 if hf == 1 else 1] == S", "xk",
              "has a different batch or sequence length than xq", got="xk.dims",
              expected="batch {xq.dims[0]}, sequence length {S}"),
        XK_HEAD_DIM,
        SIN_LIKE_COS,
        Guard("R % 2 == 0", "freqs_cos", "covers an odd rotary dim", got="R",
              expected="an even rotary dim"),
        Guard("R <= D", "freqs_cos", "covers more than xq's head_dim", got="R",
              expected="at most {D}"),
        Guard("hf == 1 or (start_pos >= 0 and start_pos + S <= freqs_cos.dims[0])", "start_pos",
              "puts the sequence past the end of the cos/sin tables", got="start_pos",
              expected="0..{freqs_cos.dims[0] - S}"),
        Guard("hf == 0 or start_pos == 0", "start_pos",
              "must be 0 with [B, S, rotary_dim] cos/sin tables", got="start_pos", expected="0"),
        Guard("hf == 0 or freqs_cos.dims[1] == S", "freqs_cos",
              "has a different sequence length than xq", got="freqs_cos.dims[1]",
              expected="{S}"),
        Guard("hf == 0 or freqs_cos.dims[0] == 1 or freqs_cos.dims[0] == xq.dims[0]",
              "freqs_cos", "has a batch that is neither 1 nor xq's", got="freqs_cos.dims[0]",
              expected="1 or {xq.dims[0]}"),
        SAME_DTYPE,
    ],
    shapes=SHAPES,
    resize="dynamic",
    dispatches=[Dispatch(
        params={
            "S": u32("S"),
            "Hq": u32("xq.dims[1 if hf == 1 else 2]"),
            "Hk": u32("xk.dims[1 if hf == 1 else 2]"),
            "D": u32("D"),
            "R": u32("R"),
            "half": u32("R // 2"),
            "start_pos": u32("start_pos"),
            "hf": u32("hf"),
            # table rows per batch ([B, S, R] tables; 0: one table for every batch)
            "batch_rows": u32("S if hf == 1 and freqs_cos.dims[0] > 1 else 0"),
            "q_elems": u32("q_elems"),
            "num_elements": u32("q_elems + k_elems"),
        },
        bindings=bindings("scalar"),
        routes=[*half_routes([ROUTE], "xq"), ROUTE],
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
        # a quarter of each head rotated (rotary dim 8 of 32), odd head count and sequence
        Case("partial_rotary", _args((1, 5, 3, 32), (1, 5, 1, 32), 8, start_pos=2)),
        # transformers' partial-rotary layout (StableLM): [B, H, S, D], [1, S, R] tables
        Case("hf_partial", _hf_args((1, 4, 7, 16), (1, 2, 7, 16), (1, 7, 4))),
        # a [B, S, R] table per batch, full rotary, odd head_dim halves
        Case("hf_batch_tables", _hf_args((2, 4, 5, 10), (2, 2, 5, 10), (2, 5, 10))),
        Case("hf_batch_broadcast", _hf_args((3, 4, 5, 12), (3, 1, 5, 12), (1, 5, 6))),
        # decode with transformers' layout: the tables follow the sequence length
        Case("hf_decode_resize", _hf_args((1, 4, 6, 16), (1, 2, 6, 16), (1, 6, 8)),
             resize={"xq": (1, 4, 1, 16), "xk": (1, 2, 1, 16), "freqs_cos": (1, 1, 8),
                     "freqs_sin": (1, 1, 8)}),
        Case("f16_prefill_gqa", _half_args((1, 6, 4, 16), (1, 6, 2, 16), 16),
             route="rotary_emb_hf_f16"),
        Case("f16_partial_rotary", _half_args((1, 5, 3, 32), (1, 5, 1, 32), 8, start_pos=2)),
        Case("rejects_mixed_floats", (randn(1, 2, 2, 8, dtype="float16"),
                                      randn(1, 2, 2, 8, dtype="float16"), randn(32, 8),
                                      randn(32, 8), 0),
             raises="xq does not share its dtype with xk, freqs_cos and freqs_sin (got float16, "
                    "expected the dtype of xk, freqs_cos and freqs_sin)"),
        Case("seq_mismatch", _args((1, 3, 2, 8), (1, 2, 2, 8), 8),
             raises="xk has a different batch or sequence length than xq (got [1, 2, 2, 8], "
                    "expected batch 1, sequence length 3)"),
        Case("hf_seq_mismatch", _hf_args((1, 2, 3, 8), (1, 2, 2, 8), (1, 3, 8)),
             raises="xk has a different batch or sequence length than xq (got [1, 2, 2, 8], "
                    "expected batch 1, sequence length 3)"),
        Case("head_dim_mismatch", _args((1, 2, 2, 8), (1, 2, 2, 4), 8),
             raises="xk has a different head_dim than xq (got 4, expected 8)"),
        Case("odd_rotary_dim", _args((1, 2, 2, 8), (1, 2, 2, 8), 7),
             raises="freqs_cos covers an odd rotary dim (got 7, expected an even rotary dim)"),
        Case("rotary_dim_past_head", _args((1, 2, 2, 8), (1, 2, 2, 8), 12),
             raises="freqs_cos covers more than xq's head_dim (got 12, expected at most 8)"),
        Case("sin_shape", (randn(1, 2, 2, 8), randn(1, 2, 2, 8), randn(32, 8), randn(16, 8), 0),
             raises="freqs_sin has a different shape than freqs_cos (got [16, 8], expected [32, 8])"),
        Case("start_pos_negative", _args((1, 2, 2, 8), (1, 2, 2, 8), 8, start_pos=-1),
             raises="start_pos puts the sequence past the end of the cos/sin tables (got -1, "
                    "expected 0..30)"),
        Case("hf_start_pos", _hf_args((1, 2, 3, 8), (1, 2, 3, 8), (1, 3, 8), start_pos=2),
             raises="start_pos must be 0 with [B, S, rotary_dim] cos/sin tables (got 2, "
                    "expected 0)"),
        Case("hf_table_seq", _hf_args((1, 2, 3, 8), (1, 2, 3, 8), (1, 4, 8)),
             raises="freqs_cos has a different sequence length than xq (got 4, expected 3)"),
        Case("hf_table_batch", _hf_args((2, 2, 3, 8), (2, 2, 3, 8), (3, 3, 8)),
             raises="freqs_cos has a batch that is neither 1 nor xq's (got 3, expected 1 or 2)"),
    ],
)]
