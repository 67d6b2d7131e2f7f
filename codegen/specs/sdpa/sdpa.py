"""sdpa: fused scaled-dot-product attention in three dispatches of one op.

    attn = q @ k^T * scale (+ attn_mask)     QK: per-row or per-entry kernel
    attn = softmax(attn, dim=-1)             max-subtracted, one workgroup per row
    out  = attn @ v                          one thread per output element

q [B, H, Sq, D], k [B, H, Skv, D], v [B, H, Skv, Dv]; attn_mask broadcasts to
[B, H, Sq, Skv]; scale defaults to 1/sqrt(D). The attention weights live in a scratch
tensor `attn` [B, H, Sq, Skv] that the QK dispatch writes and the next two read; it stays
float32 when the tensors are float16 (the QK and AV kernels' float16 twins read and write
those through views, the softmax pass reads only `attn`).

QK routing: the per-row kernel gives each (b, h, s) row one thread that walks all keys
with vec4 loads; with fewer rows than OCCUPANCY_FLOOR (channel attention in
DaViT/Florence, where Sq = head_dim ~ 32) that leaves most of the GPU idle, so the
per-entry kernel gives each (b, h, s, c) entry a thread on a 2-D grid. Both kernels have
the same bindings and write the same layout; the floor is a performance knob only
(benchmarks/bench_sdpa_routes.py measures it).
"""

from codegen.language import (F16, F32, Bind, Case, Dispatch, Double, Elementwise, Guard, Kernel,
                              Op, Output, Param, Route, Rows, Scratch, Tensor, Tiles, f32,
                              half_routes, same_dtype, u32)
from codegen.graph.inputs import randn

# rows (B*H*Sq) below which QK runs one thread per entry. Upstream used 4096; on the H200
# the per-entry kernel won at every measured shape, up to 131072 rows (1.8x at 131072,
# 2.7x at 16384, 28x for DaViT channel attention: docs/performance.md), so the per-row
# kernel is kept only beyond the measured range.
OCCUPANCY_FLOOR = 262144

QK_PER_ROW = Kernel("qk_per_row", workgroup=(64, 1, 1), helpers=("../common/each_line.wgsl",))
QK_PER_ENTRY = Kernel("qk_per_entry", workgroup=(16, 16, 1))
SOFTMAX = Kernel("softmax_rows", workgroup=(64, 1, 1),
                 helpers=("../common/each_row.wgsl", "../common/workgroup_reduce.wgsl"))
ATTN_V = Kernel("attn_v", helpers=("../common/each_element.wgsl",))
FLOATS = (F32, F16)
QK = [Route(QK_PER_ENTRY, Tiles("Skv", "Sq", tile=(16, 16), z="B * H"),
            when=f"num_rows < {OCCUPANCY_FLOOR}"),
      Route(QK_PER_ROW, Elementwise("num_rows"))]
AV = Route(ATTN_V, Elementwise("out.numel"))


def _qkv(b, h, sq, skv, d, dv=None, dtype="float32"):
    return (randn(b, h, sq, d, dtype=dtype), randn(b, h, skv, d, dtype=dtype),
            randn(b, h, skv, dv or d, dtype=dtype))


OPS = [Op(
    name="sdpa",
    targets=["et_vk.sdpa.default"],
    args=[Tensor("q", FLOATS, rank=4), Tensor("k", FLOATS, rank=4), Tensor("v", FLOATS, rank=4),
          Tensor("attn_mask", FLOATS, rank=(1, 4), optional=True),
          Double("scale", optional=True, default="1.0 / sqrt(float(q.dims[-1]))"),
          Output("out", FLOATS, rank=4)],
    let={
        "B": "q.dims[0]", "H": "q.dims[1]", "Sq": "q.dims[2]", "D": "q.dims[3]",
        "Skv": "k.dims[2]", "Dv": "v.dims[3]",
        "num_rows": "B * H * Sq",
        "mask4": "right_align(attn_mask.dims, 4, 1) if attn_mask.present else [1, 1, 1, 1]",
    },
    guards=[
        Guard("k.dims[:2] == q.dims[:2]", "k", "has a different batch or head count than q",
              got="k.dims", expected="[{B}, {H}, S_kv, {D}]"),
        Guard("k.dims[3] == D", "k", "has a different head_dim than q", got="k.dims[3]",
              expected="{D}"),
        Guard("v.dims[:3] == k.dims[:3]", "v", "does not match k's batch, heads and length",
              got="v.dims", expected="[{B}, {H}, {Skv}, D_v]"),
        Guard("D % 4 == 0", "q", "has a head_dim that is not a multiple of 4 (vec4 loads)",
              got="D", expected="a multiple of 4"),
        Guard("(mask4[0] == 1 or mask4[0] == B) and (mask4[1] == 1 or mask4[1] == H) and "
              "(mask4[2] == 1 or mask4[2] == Sq) and (mask4[3] == 1 or mask4[3] == Skv)",
              "attn_mask", "does not broadcast to the attention weights", got="attn_mask.dims",
              expected="a shape broadcastable to [{B}, {H}, {Sq}, {Skv}]"),
        same_dtype("q", ["k", "v"], optional=["attn_mask"]),
    ],
    shapes={"out": "[B, H, Sq, Dv]"},
    scratch=[Scratch("attn", "float32", "[B, H, Sq, Skv]")],
    resize="dynamic",
    dispatches=[
        Dispatch(
            name="qk",
            params={
                "Sq": u32("Sq"), "Skv": u32("Skv"), "D4": u32("D // 4"), "H": u32("H"),
                "num_rows": u32("num_rows"), "scale": f32("scale"),
                "has_mask": u32("attn_mask.present"),
                # element strides of the mask at [b, h, s, c] (0 on broadcast dims)
                "mask_strides": Param("vec4<u32>", "broadcast_strides(mask4, [B, H, Sq, Skv])"),
            },
            bindings=[Bind("q", "q", view="vec4"), Bind("k", "k", view="vec4"),
                      Bind("mask", "attn_mask", view="scalar"), Bind("attn", "attn", write=True)],
            routes=[*half_routes(QK, "q"), *QK],
        ),
        Dispatch(
            name="softmax",
            params={"Skv": u32("Skv"), "num_rows": u32("num_rows")},
            bindings=[Bind("attn", "attn", write=True)],
            routes=[Route(SOFTMAX, Rows("num_rows"))],
        ),
        Dispatch(
            name="av",
            params={"Sq": u32("Sq"), "Skv": u32("Skv"), "Dv": u32("Dv"),
                    "num_elements": u32("out.numel")},
            bindings=[Bind("attn", "attn"), Bind("v", "v", view="scalar"),
                      Bind("output", "out", write=True, view="scalar")],
            routes=[*half_routes([AV], "q"), AV],
        ),
    ],
    cases=[
        # DaViT channel attention: Sq = Skv = head_dim = 32, 64 rows -> per-entry
        Case("chattn_davit", _qkv(1, 2, 32, 32, 32), route="qk_per_entry"),
        # 8 heads x 32768 queries = 262144 rows (short keys keep it cheap) -> per-row
        Case("standard_per_row", _qkv(1, 8, 32768, 4, 4), route="qk_per_row"),
        Case("mask_broadcast", _qkv(2, 2, 8, 12, 8) + (randn(1, 1, 8, 12),),
             route="softmax_rows"),
        Case("mask_per_head", _qkv(1, 2, 8, 8, 4) + (randn(2, 1, 8),)),
        Case("explicit_scale", _qkv(1, 2, 8, 8, 8) + (None, 0.5)),
        Case("value_dim_differs", _qkv(1, 3, 8, 16, 8, dv=12), route="attn_v"),
        # built for 16 queries x 16 keys, run with 4 x 10: scratch and grids follow
        Case("resize", _qkv(1, 2, 16, 16, 8),
             resize={"q": (1, 2, 4, 8), "k": (1, 2, 10, 8), "v": (1, 2, 10, 8)}),
        # float16: float32 scores, softmax and sums; one rounding per output
        Case("f16_chattn", _qkv(1, 2, 32, 32, 32, dtype="float16"), route="qk_per_entry_f16"),
        Case("f16_per_row", _qkv(1, 8, 32768, 4, 4, dtype="float16"), route="qk_per_row_f16"),
        Case("f16_mask_value_dim", _qkv(1, 3, 8, 16, 8, dv=12, dtype="float16")
             + (randn(1, 1, 8, 16, dtype="float16"),), route="attn_v_f16"),
        Case("rejects_mixed_floats", _qkv(1, 2, 4, 4, 8, dtype="float16") + (randn(4, 4),),
             raises="q does not share its dtype with k, v and attn_mask (got float16, expected "
                    "the dtype of k, v and attn_mask)"),
        Case("head_dim_not_vec4", _qkv(1, 2, 4, 4, 6),
             raises="q has a head_dim that is not a multiple of 4 (vec4 loads) (got 6, "
                    "expected a multiple of 4)"),
        Case("heads_mismatch", (randn(1, 2, 4, 8), randn(1, 1, 4, 8), randn(1, 1, 4, 8)),
             raises="k has a different batch or head count than q (got [1, 1, 4, 8], expected "
                    "[1, 2, S_kv, 8])"),
        Case("k_head_dim", (randn(1, 2, 4, 8), randn(1, 2, 4, 4), randn(1, 2, 4, 8)),
             raises="k has a different head_dim than q (got 4, expected 8)"),
        Case("v_length", (randn(1, 2, 4, 8), randn(1, 2, 4, 8), randn(1, 2, 5, 8)),
             raises="v does not match k's batch, heads and length (got [1, 2, 5, 8], expected "
                    "[1, 2, 4, D_v])"),
        Case("mask_shape", _qkv(1, 2, 4, 6, 8) + (randn(4, 5),),
             raises="attn_mask does not broadcast to the attention weights (got [4, 5], "
                    "expected a shape broadcastable to [1, 2, 4, 6])"),
    ],
)]
