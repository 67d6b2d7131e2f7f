"""sdpa_with_kv_cache: ExecuTorch's LLM attention with its KV cache (`llama::`, which the
Vulkan serializer writes by its bare name `sdpa_with_kv_cache.default`; the loader maps
it to llama.sdpa_with_kv_cache.default).

    sdpa_with_kv_cache(query, key, value, key_cache(a!), value_cache(b!), SymInt start_pos,
                       SymInt seq_len, attn_mask?, float drpout_p, bool is_causal, scale?)
query [B, S, Hq, D]; key, value [B, S, Hk, D]; caches [B, S_max, Hk, D]. The new keys and
values go into the caches at rows start_pos .. start_pos + S - 1; then each query row s
attends the cached rows it sees (causal: up to start_pos + s; else all start_pos + S),
query head h reading key/value head h // (Hq / Hk) (grouped-query attention). seq_len is
not read: ExecuTorch's Vulkan pattern (backends/vulkan/patterns/sdpa.py) writes 1 there
for every call; the length is query's dim 1. attn_mask and dropout are not supported.

Three dispatches: kv_cache_write; the attention, which splits each query row's context
into chunks and writes every chunk's running max, sum and unnormalized output; kv_combine,
which merges the chunks. A prefill runs kv_attend: one workgroup per (b, key/value head,
query row) holding the head group's G query heads, so each cached key and value is read
once per head group, with an online softmax over 64-key steps (one chunk: the whole
context). A decode step (S = 1) runs kv_decode: one 256-thread workgroup per (b,
key/value head, chunk of CHUNK keys), flash-decoding, so a long context keeps the GPU
busy, no thread walks it alone, and the time grows with the context, not with S_max. The
two switch per execute (Dispatch.active): one graph serves the prefill and the decode
steps. Every resize (the next token, a new start_pos) rewrites params and grids only.
float16 tensors and caches (a force_fp16 LLM) run the kernels' float16 twins; the chunks'
statistics and partial sums stay float32.
"""

from codegen.language import (F16, F32, Bind, Bool, Case, Dispatch, Double, Elementwise, Guard,
                              Int, Kernel, Op, Output, Route, Rows, Scratch, Tensor, f32,
                              half_routes, same_dtype, u32)
from codegen.graph.inputs import SymInt, randn

CHUNK = 32  # keys per decode workgroup (kv_decode.wgsl)
MAX_G = 8  # query heads per key/value head (kv_attend.wgsl, kv_decode.wgsl)
MAX_D = 128  # head_dim (kv_attend: two dims per thread of 64; kv_decode: G * D / 4 <= 256)

WRITE = Kernel("kv_cache_write")
# kv_attend too: its heads' loops run to MAX_G (guarded), a step's keys to TILE (clamped
# below the row's context), q_tile holds G * D / 4 <= 256 vec4s.
ATTEND = Kernel("kv_attend", workgroup=(64, 1, 1), runtime_checks=False)
# kv_decode and kv_combine without runtime checks (0.384 -> 0.226 ms of a 16-layer
# decode step on the H100): every index is in range by construction. The guards keep
# G <= MAX_G and D <= MAX_D, so the workgroup tiles hold G * D / 4 <= 256 vec4s, G *
# CHUNK <= 256 scores and 256 * MAX_G parts; a chunk's keys lie below start_pos + 1 <=
# S_max; the scratch holds B * Hq * chunks slots of D values and 2 stats.
DECODE = Kernel("kv_decode", workgroup=(256, 1, 1), runtime_checks=False)
COMBINE = Kernel("kv_combine", helpers=("../common/each_element.wgsl",), runtime_checks=False)
FLOATS = (F32, F16)


def _reference(query, key, value, key_cache, value_cache, start_pos, seq_len, attn_mask=None,
               drpout_p=0.0, is_causal=False, scale=None):
    """ExecuTorch's own CPU kernel (float32 only), with the sequence length it needs
    (query's dim 1; the graph's seq_len argument is not it); the caches it updates are
    copied back into the caller's."""
    import torch

    kc, vc = key_cache.float().contiguous(), value_cache.float().contiguous()
    out = torch.ops.llama.sdpa_with_kv_cache(query.float(), key.float(), value.float(), kc, vc,
                                             start_pos, query.shape[1], attn_mask, drpout_p,
                                             is_causal, scale)
    key_cache.copy_(kc)
    value_cache.copy_(vc)
    return out


def _args(b, s, hq, hk, d, s_max, start_pos, causal=True, scale=None, dtype="float32"):
    """Caches holding random rows (stale data past start_pos too: never read)."""
    return (randn(b, s, hq, d, dtype=dtype), randn(b, s, hk, d, dtype=dtype),
            randn(b, s, hk, d, dtype=dtype), randn(b, s_max, hk, d, dtype=dtype),
            randn(b, s_max, hk, d, dtype=dtype), start_pos, s, None, 0.0, causal, scale)


def _routes(route: Route) -> list[Route]:
    return [*half_routes([route], "query"), route]


OPS = [Op(
    name="sdpa_with_kv_cache",
    targets=["llama.sdpa_with_kv_cache.default"],
    args=[Tensor("query", FLOATS, rank=4), Tensor("key", FLOATS, rank=4),
          Tensor("value", FLOATS, rank=4), Tensor("key_cache", FLOATS, rank=4, mutable=True),
          Tensor("value_cache", FLOATS, rank=4, mutable=True),
          Int("start_pos", symbolic=True), Int("seq_len", symbolic=True),
          Tensor("attn_mask", FLOATS, optional=True), Double("drpout_p"), Bool("is_causal"),
          Double("scale", optional=True, default="1.0 / sqrt(float(query.dims[-1]))"),
          Output("out", FLOATS, rank=4)],
    let={
        "B": "query.dims[0]", "S": "query.dims[1]", "Hq": "query.dims[2]", "D": "query.dims[3]",
        "Hk": "key.dims[2]", "S_max": "key_cache.dims[1]",
        "ctx": "start_pos + S",
        # a decode step splits its context into chunks; a prefill keeps one per query row
        "chunks": f"ceil_div(ctx, {CHUNK}) if S == 1 else 1",
        # slots for the chunks' partial results: at most the built S, or S_max's chunks
        "slots": f"B * Hq * max(S, ceil_div(S_max, {CHUNK}))",
    },
    guards=[
        Guard("key.dims == [B, S, Hk, D] and value.dims == key.dims", "key",
              "does not match the query's batch, length and head_dim, or the value",
              got="key.dims", expected="[{B}, {S}, H_kv, {D}] (value the same)"),
        Guard("key_cache.dims == [B, S_max, Hk, D] and value_cache.dims == key_cache.dims",
              "key_cache", "does not match the keys' batch, heads and head_dim, or the value "
              "cache", got="key_cache.dims", expected="[{B}, S_max, {Hk}, {D}] (value_cache the "
              "same)"),
        Guard(f"Hk > 0 and Hq % Hk == 0 and Hq // Hk <= {MAX_G}", "query",
              "does not have a whole number of query heads per key/value head, at most "
              f"{MAX_G}", got="Hq", expected="a multiple of {Hk}, at most {Hk * %d}" % MAX_G),
        Guard(f"D % 4 == 0 and D <= {MAX_D}", "query",
              "has a head_dim that is not a multiple of 4 up to 128", got="D",
              expected=f"a multiple of 4, at most {MAX_D}"),
        Guard("start_pos >= 0 and start_pos + S <= S_max", "start_pos",
              "puts the new rows past the end of the cache", got="start_pos",
              expected="0..{S_max - S}"),
        Guard("not attn_mask.present", "attn_mask", "is not supported (the mask comes from "
              "is_causal)", got="attn_mask.dims", expected="None"),
        Guard("drpout_p == 0.0", "drpout_p", "is not supported (inference has no dropout)",
              got="drpout_p", expected="0.0"),
        same_dtype("query", ["key", "value", "key_cache", "value_cache"]),
    ],
    shapes={"out": "query.dims"},
    scratch=[Scratch("stats", "float32", "[slots * 2]"),
             Scratch("partial", "float32", "[slots * D]")],
    resize="dynamic",
    reference=_reference,
    dispatches=[
        Dispatch(
            name="write",
            params={"n": u32("key.numel"), "S": u32("S"), "Hk": u32("Hk"), "D": u32("D"),
                    "S_max": u32("S_max"), "start_pos": u32("start_pos")},
            bindings=[Bind("key", "key", view="scalar"), Bind("value", "value", view="scalar"),
                      Bind("key_cache", "key_cache", write=True, view="scalar"),
                      Bind("value_cache", "value_cache", write=True, view="scalar")],
            routes=_routes(Route(WRITE, Elementwise("2 * key.numel"))),
        ),
        Dispatch(
            name="attend", active="S != 1",
            params={"B": u32("B"), "S": u32("S"), "Hq": u32("Hq"), "Hk": u32("Hk"),
                    "D": u32("D"), "G": u32("Hq // Hk"), "S_max": u32("S_max"),
                    "start_pos": u32("start_pos"), "causal": u32("is_causal"),
                    "scale": f32("scale")},
            bindings=[Bind("query", "query", view="vec4"),
                      Bind("key_cache", "key_cache", view="vec4"),
                      Bind("value_cache", "value_cache", view="scalar"),
                      Bind("stats", "stats", write=True), Bind("partial", "partial", write=True)],
            routes=_routes(Route(ATTEND, Rows("B * Hk * S"))),
        ),
        Dispatch(
            name="decode", active="S == 1",
            params={"B": u32("B"), "Hq": u32("Hq"), "Hk": u32("Hk"), "D": u32("D"),
                    "G": u32("Hq // Hk"), "S_max": u32("S_max"), "start_pos": u32("start_pos"),
                    "chunks": u32("chunks"), "scale": f32("scale")},
            bindings=[Bind("query", "query", view="vec4"),
                      Bind("key_cache", "key_cache", view="vec4"),
                      Bind("value_cache", "value_cache", view="vec4"),
                      Bind("stats", "stats", write=True), Bind("partial", "partial", write=True)],
            routes=_routes(Route(DECODE, Rows("B * Hk * chunks"))),
        ),
        Dispatch(
            name="combine",
            params={"D": u32("D"), "chunks": u32("chunks"), "num_elements": u32("out.numel")},
            bindings=[Bind("stats", "stats"), Bind("partial", "partial"),
                      Bind("output", "out", write=True, view="scalar")],
            routes=_routes(Route(COMBINE, Elementwise("out.numel"))),
        ),
    ],
    cases=[
        # a prefill of 5 tokens into an empty cache: Llama-style GQA (4 query heads per kv head)
        Case("prefill_gqa", _args(1, 5, 8, 2, 16, 32, 0), route="kv_attend"),
        # rows past 64 keys take two steps, the second short; the largest group (8 query
        # heads) at head_dim 128 (two dims per thread)
        Case("prefill_two_steps", _args(1, 70, 4, 2, 16, 96, 3), route="kv_attend"),
        Case("prefill_group_8_dim_128", _args(1, 66, 16, 2, 128, 72, 2), route="kv_attend"),
        # a decode step at position 70: 71 keys in three chunks of 32, the last one short
        Case("decode_three_chunks", _args(1, 1, 4, 2, 16, 96, 70), route="kv_decode"),
        Case("decode_head_dim_128", _args(1, 1, 2, 1, 128, 16, 9), route="kv_combine"),
        # the largest group: 8 query heads of head_dim 128 fill the 256 value threads
        Case("decode_group_8_dim_128", _args(2, 1, 16, 2, 128, 48, 40)),
        # the first token: one key in one chunk
        Case("decode_first_token", _args(1, 1, 4, 4, 8, 8, 0)),
        # a prefill after earlier tokens (a second prompt turn), multi-head (G = 1)
        Case("prefill_at_offset", _args(1, 4, 3, 3, 8, 24, 10), route="kv_cache_write"),
        Case("not_causal", _args(2, 3, 4, 4, 12, 16, 2, causal=False)),
        Case("explicit_scale", _args(1, 2, 2, 1, 8, 8, 1, scale=0.3)),
        # drpout_p as the graph holds it: the int constant 0
        Case("int_dropout", _args(1, 2, 2, 1, 8, 8, 1)[:8] + (0,) + _args(1, 2, 2, 1, 8, 8, 1)[9:]),
        # one graph: built for a 6-token prefill at 0, run for a decode step at 70
        Case("prefill_then_decode", _args(1, 6, 4, 2, 16, 96, SymInt(0)),
             resize={"query": (1, 1, 4, 16), "key": (1, 1, 2, 16), "value": (1, 1, 2, 16),
                     "start_pos": 70}),
        # float16 (a force_fp16 LLM): float32 scores, softmax and sums, one rounding
        Case("f16_prefill_then_decode", _args(1, 6, 4, 2, 16, 96, SymInt(0), dtype="float16"),
             resize={"query": (1, 1, 4, 16), "key": (1, 1, 2, 16), "value": (1, 1, 2, 16),
                     "start_pos": 70}, route="kv_decode_f16"),
        Case("f16_prefill", _args(1, 5, 8, 2, 16, 32, 3, dtype="float16"),
             route="kv_attend_f16"),
        # a second prompt turn in float16: the new rows written at 10..13
        Case("f16_prefill_at_offset", _args(1, 4, 4, 2, 8, 24, 10, dtype="float16"),
             route="kv_cache_write_f16"),
        Case("f16_decode_three_chunks", _args(1, 1, 4, 2, 16, 96, 70, dtype="float16"),
             route="kv_combine_f16"),
        Case("rejects_mixed_floats", _args(1, 2, 2, 2, 8, 8, 0)[:3] +
             _args(1, 2, 2, 2, 8, 8, 0, dtype="float16")[3:],
             raises="query does not share its dtype with key, value, key_cache and value_cache "
                    "(got float32, expected the dtype of key, value, key_cache and value_cache)"),
        Case("past_the_cache", _args(1, 4, 2, 2, 8, 16, 13),
             raises="start_pos puts the new rows past the end of the cache (got 13, expected "
                    "0..12)"),
        Case("group_of_heads", _args(1, 2, 3, 2, 8, 16, 0),
             raises="query does not have a whole number of query heads per key/value head, at "
                    "most 8 (got 3, expected a multiple of 2, at most 16)"),
        Case("head_dim", _args(1, 1, 2, 2, 6, 8, 0),
             raises="query has a head_dim that is not a multiple of 4 up to 128 (got 6, "
                    "expected a multiple of 4, at most 128)"),
        Case("key_shape", _args(1, 2, 2, 2, 8, 8, 0)[:1] + (randn(1, 3, 2, 8),) +
             _args(1, 2, 2, 2, 8, 8, 0)[2:],
             raises="key does not match the query's batch, length and head_dim, or the value "
                    "(got [1, 3, 2, 8], expected [1, 2, H_kv, 8] (value the same))"),
        Case("cache_shape", _args(1, 2, 2, 2, 8, 8, 0)[:4] + (randn(1, 9, 2, 8),) +
             _args(1, 2, 2, 2, 8, 8, 0)[5:],
             raises="key_cache does not match the keys' batch, heads and head_dim, or the value "
                    "cache (got [1, 8, 2, 8], expected [1, S_max, 2, 8] (value_cache the same))"),
        Case("with_mask", _args(1, 2, 2, 2, 8, 8, 0)[:7] + (randn(2, 2),) +
             _args(1, 2, 2, 2, 8, 8, 0)[8:],
             raises="attn_mask is not supported (the mask comes from is_causal) (got [2, 2], "
                    "expected None)"),
        Case("dropout", _args(1, 2, 2, 2, 8, 8, 0)[:8] + (0.1,) + _args(1, 2, 2, 2, 8, 8, 0)[9:],
             raises="drpout_p is not supported (inference has no dropout) (got 0.1, expected "
                    "0.0)"),
    ],
)]
