"""update_cache: ExecuTorch's LLM KV-cache write, `llama.update_cache.default`.

Schema (executorch/extension/llm/custom_ops, registered by its native
libcustom_ops_aot_lib.so, which the wheel ships and loads):
    update_cache(Tensor value, Tensor(a!) cache, SymInt start_pos) -> Tensor
cache[:, start_pos : start_pos + S] = value for value [B, S, H, D] and cache
[B, S_max, H, D], in place. The returned tensor is a placeholder of shape [1] that the
reference leaves uninitialized (torch.empty); the kernel writes 0 into it and cases
compare only its shape (Output placeholder=True) and the updated cache. float16 caches
(a force_fp16 LLM) run the kernel's float16 twins (views: values move unchanged).
"""

from codegen.language import (F16, F32, Bind, Case, Dispatch, Elementwise, Guard, Int, Kernel, Op,
                              Output, Route, Tensor, half_routes, same_dtype, u32)
from codegen.graph.inputs import SymInt, randn, tensor

UPDATE = Kernel("update_cache")
ROUTE = Route(UPDATE, Elementwise("max(value.numel, 1)"))
FLOATS = (F32, F16)

OPS = [Op(
    name="update_cache",
    targets=["llama.update_cache.default"],
    args=[Tensor("value", FLOATS, rank=4), Tensor("cache", FLOATS, rank=4, mutable=True),
          Int("start_pos", symbolic=True), Output("out", FLOATS, rank=1, placeholder=True)],
    let={"S": "value.dims[1]", "S_max": "cache.dims[1]"},
    guards=[
        Guard("value.dims[0] == cache.dims[0] and value.dims[2:] == cache.dims[2:]", "value",
              "does not match the cache's batch, heads and head_dim", got="value.dims",
              expected="[{cache.dims[0]}, S, {cache.dims[2]}, {cache.dims[3]}]"),
        Guard("start_pos >= 0 and start_pos + S <= S_max", "start_pos",
              "puts the update past the end of the cache", got="start_pos",
              expected="0..{S_max - S}"),
        same_dtype("value", ["cache", "out"]),
    ],
    shapes={"out": "[1]"},
    resize="dynamic",
    dispatches=[Dispatch(
        params={
            "S": u32("S"),
            "S_max": u32("S_max"),
            "inner": u32("value.dims[2] * value.dims[3]"),
            "start_pos": u32("start_pos"),
            "num_elements": u32("value.numel"),
        },
        bindings=[Bind("value", "value", view="scalar"),
                  Bind("cache", "cache", write=True, view="scalar"),
                  Bind("output", "out", write=True, view="scalar")],
        routes=[*half_routes([ROUTE], "value"), ROUTE],
    )],
    cases=[
        Case("prefill", (randn(1, 5, 2, 8), randn(1, 16, 2, 8), 0), route="update_cache",
             exact=True),
        Case("middle", (randn(2, 3, 2, 4), randn(2, 10, 2, 4), 6), exact=True),
        # decode: built for a 5-token prefill at 0, run for one token at position 11
        Case("decode_symint", (randn(1, 5, 2, 8), randn(1, 16, 2, 8), SymInt(0)),
             resize={"value": (1, 1, 2, 8), "start_pos": 11}, exact=True),
        Case("past_end", (randn(1, 4, 2, 8), randn(1, 16, 2, 8), 13),
             raises="start_pos puts the update past the end of the cache (got 13, expected 0..12)"),
        Case("heads_mismatch", (randn(1, 4, 3, 8), randn(1, 16, 2, 8), 0),
             raises="value does not match the cache's batch, heads and head_dim (got [1, 4, 3, 8], "
                    "expected [1, S, 2, 8])"),
        Case("rejects_int32", (tensor([[[[1]]]], dtype="int32"), randn(1, 4, 1, 1), 0),
             raises="value has an unsupported dtype (got int32, expected float32 or float16)"),
        # float16 caches: prefill, then a decode step of one token (the packed twin writes
        # halves with atomics: neighbours in one word belong to other positions)
        Case("f16_decode_symint", (randn(1, 5, 2, 7, dtype="float16"),
                                   randn(1, 16, 2, 7, dtype="float16"), SymInt(0)),
             resize={"value": (1, 1, 2, 7), "start_pos": 11}, route="update_cache_f16",
             exact=True),
        Case("rejects_mixed_floats", (randn(1, 4, 2, 8, dtype="float16"), randn(1, 16, 2, 8), 0),
             raises="value does not share its dtype with cache and out (got float16, expected "
                    "the dtype of cache and out)"),
    ],
)]
