"""Named benchmark suites for `opgen bench --suite NAME`: the anchor layers of
DESIGN.md's performance table, the 256 MB elementwise set, the GEMM shapes, the conv
stems, and a CPU smoke set. A suite in QUICK also runs at small shapes
(`--suite NAME --quick`): the same ops and routes, for the CI adapter. `gemm_f16` and
`conv_f16` are the `gemm` and `conv_anchors` suites with float16 tensors, row for row
(the same names and shapes: `benchmarks/f16_report.py` joins them with the float32 rows);
`gemm_focus`, `conv_focus` and their `_f16` twins are a few rows of each.

An entry is (name, target, arguments) or (name, target, arguments, options); option
`bandwidth` also reports the row as GB/s (every input and output byte once).
"""

from __future__ import annotations

from dataclasses import replace

from codegen.graph.inputs import TensorInput, rand, randn

CONV = "aten.convolution.default"
MB256 = 64 * 1024 * 1024  # float32 elements in 256 MB


# GEMMs with at most this many rows are bandwidth-bound (the matmul spec's GEMV_MAX_ROWS;
# the toolkit never imports a spec module)
BANDWIDTH_ROWS = 8


def conv(b, ic, oc, hw, k, stride=1, pad=1, groups=1, transposed=False, out_pad=0):
    w_shape = (ic, oc // groups, k, k) if transposed else (oc, ic // groups, k, k)
    return (randn(b, ic, hw, hw), randn(*w_shape), randn(oc), [stride, stride], [pad, pad],
            [1, 1], transposed, [out_pad, out_pad], groups)


def mm(m, k, n):
    return randn(m, k), randn(k, n)


def linear(m, k, n):
    return randn(m, k), randn(n, k), None


def gemm(shapes, bmm_shapes=()) -> list[tuple]:
    """Our mm (B as [K, N]) and linear (weight [N, K]) on each M x K x N, then bmm on each
    batch x M x K x N; rows of at most BANDWIDTH_ROWS (the GEMV routes in specs/matmul)
    are read as bandwidth too."""
    rows = []
    for m, k, n in shapes:
        options = {"bandwidth": True} if m <= BANDWIDTH_ROWS else {}
        rows.append((f"mm {m}x{k}x{n}", "aten.mm.default", mm(m, k, n), options))
        rows.append((f"linear {m}x{k}x{n}", "aten.linear.default", linear(m, k, n), options))
    for b, m, k, n in bmm_shapes:
        options = {"bandwidth": True} if m <= BANDWIDTH_ROWS else {}
        rows.append((f"bmm {b}x{m}x{k}x{n}", "aten.bmm.default",
                     (randn(b, m, k), randn(b, k, n)), options))
    return rows


def as_float16(entries: list[tuple]) -> list[tuple]:
    """The same rows (names, targets, shapes, options) with every float32 tensor float16."""
    def half(v):
        if isinstance(v, TensorInput) and v.dtype == "float32":
            return replace(v, dtype="float16")
        return type(v)(half(x) for x in v) if isinstance(v, (list, tuple)) else v

    return [(name, target, half(args), *rest) for name, target, args, *rest in entries]

SUITES = {
    "conv_anchors": [
        ("conv B1 C256 56x56 3x3", CONV, conv(1, 256, 256, 56, 3)),
        ("conv B8 C128 56x56 3x3", CONV, conv(8, 128, 128, 56, 3)),
        ("conv B8 C512 14x14 3x3", CONV, conv(8, 512, 512, 14, 3)),
        ("conv B1 C64 56x56 3x3", CONV, conv(1, 64, 64, 56, 3)),
        ("conv B1 3->64 224x224 7x7 s2", CONV, conv(1, 3, 64, 224, 7, stride=2, pad=3)),
        ("depthwise B1 C256 56x56 3x3", CONV, conv(1, 256, 256, 56, 3, groups=256)),
        ("transposed B1 128->64 28x28 4x4 s2", CONV, conv(1, 128, 64, 28, 4, stride=2, pad=1,
                                                          transposed=True)),
    ],
    "elementwise": [
        ("relu 256MB", "aten.relu.default", (randn(MB256),)),
        ("leaky_relu 256MB", "aten.leaky_relu.default", (randn(MB256), 0.01)),
        ("sigmoid 256MB", "aten.sigmoid.default", (randn(MB256),)),
        ("pad 256MB", "aten.constant_pad_nd.default", (randn(64, 64, 128, 128), [1, 1, 1, 1])),
        ("upsample_nearest 2x ->256MB", "aten.upsample_nearest2d.vec",
         (randn(16, 64, 128, 128), [256, 256], None)),
        ("batch_norm 256MB", "aten._native_batch_norm_legit_no_training.default",
         (randn(64, 64, 128, 128), randn(64), randn(64), randn(64), rand(64, low=0.5, high=2.0),
          0.1, 1e-5)),
        ("add 256MB + 256MB", "aten.add.Tensor", (randn(MB256), randn(MB256))),
        ("add 256MB + per-channel [1,64,1,1]", "aten.add.Tensor",
         (randn(64, 64, 128, 128), randn(1, 64, 1, 1))),
        ("clone 256MB", "aten.clone.default", (randn(MB256),)),
    ],
    # the GEMV rows: LLM decode (1 and 8 rows) and decode attention of 32 heads over 2048
    # cached tokens (scores: B = K^T as [head dim, tokens]; context: B = V)
    "gemm": gemm([(4096, 4096, 4096), (1576, 768, 2304), (1576, 768, 3072), (512, 2048, 8192),
                  (1, 2048, 8192), (8, 4096, 4096), (196, 768, 768),
                  # ViT-B at batch 1: qkv, MLP up and down
                  (196, 768, 2304), (196, 768, 3072), (196, 3072, 768),
                  # a 1B LLM's MLP for a 128-token prompt; ViT-L/14 at 336²; BERT-base
                  # over 8 x 128 tokens
                  (128, 2048, 8192), (128, 8192, 2048), (577, 1024, 4096), (1024, 768, 3072),
                  # decode rows (a few sequences at once) of a 1B LLM
                  (2, 2048, 8192), (4, 2048, 8192), (8, 2048, 2048), (1, 8192, 2048)],
                 [(32, 1, 128, 2048), (32, 1, 2048, 128), (12, 197, 64, 197)]),
    "conv_stems": [
        ("conv B1 3->64 224x224 7x7 s2", CONV, conv(1, 3, 64, 224, 7, stride=2, pad=3)),
        ("patch embed B1 3->768 224x224 16x16 s16", CONV, conv(1, 3, 768, 224, 16, stride=16,
                                                               pad=0)),
        ("conv B1 3->128 768x768 7x7 s4", CONV, conv(1, 3, 128, 768, 7, stride=4, pad=3)),
        ("conv B8 C512 14x14 3x3", CONV, conv(8, 512, 512, 14, 3)),
        ("transposed B1 128->64 56x56 4x4 s2", CONV, conv(1, 128, 64, 56, 4, stride=2, pad=1,
                                                          transposed=True)),
    ],
    "smoke": [
        ("relu 64K", "aten.relu.default", (randn(65536),)),
        ("pad 8x8", "aten.constant_pad_nd.default", (randn(2, 4, 8, 8), [1, 1, 1, 1])),
    ],
}
SUITES["gemm_f16"] = as_float16(SUITES["gemm"])
SUITES["conv_f16"] = as_float16(SUITES["conv_anchors"])
# a few rows of each, for a short float16 GPU run (gpu_run.sh's GEMM_SUITE / CONV_SUITE):
# the compute-bound GEMMs (4096³, an LLM prefill, ViT-B/16's and ConvNeXt-T's MLPs), a
# GEMV, and the 3x3 convolutions on the 128 tile and the 64 tile, and a depthwise one
GEMM_FOCUS = {"mm 4096x4096x4096", "mm 512x2048x8192", "mm 1576x768x3072",
              "linear 196x768x3072", "linear 196x3072x768", "linear 1x2048x8192"}
CONV_FOCUS = {"conv B1 C256 56x56 3x3", "conv B8 C512 14x14 3x3", "conv B1 C64 56x56 3x3",
              "depthwise B1 C256 56x56 3x3"}
for _name, _rows in (("gemm", GEMM_FOCUS), ("conv_anchors", CONV_FOCUS)):
    _focus = f"{_name.split('_')[0]}_focus"
    SUITES[_focus] = [row for row in SUITES[_name] if row[0] in _rows]
    SUITES[f"{_focus}_f16"] = as_float16(SUITES[_focus])


# The same suites at shapes the CI adapter runs in seconds: each keeps its suite's ops,
# routes (tiled with and without split K, GEMV) and conv geometries (kernel, stride, pad).
QUICK = {
    "gemm": gemm([(48, 48, 48), (37, 24, 72), (1, 64, 256), (9, 256, 16)], [(4, 1, 64, 32)]),
    "conv_stems": [
        ("conv B1 3->8 20x20 7x7 s2", CONV, conv(1, 3, 8, 20, 7, stride=2, pad=3)),
        ("patch embed B1 3->16 32x32 16x16 s16", CONV, conv(1, 3, 16, 32, 16, stride=16, pad=0)),
        ("conv B1 3->8 24x24 7x7 s4", CONV, conv(1, 3, 8, 24, 7, stride=4, pad=3)),
        ("conv B2 C16 6x6 3x3", CONV, conv(2, 16, 16, 6, 3)),
        ("transposed B1 8->4 6x6 4x4 s2", CONV, conv(1, 8, 4, 6, 4, stride=2, pad=1,
                                                      transposed=True)),
    ],
    "conv_anchors": [
        ("conv B1 C16 10x10 3x3", CONV, conv(1, 16, 16, 10, 3)),
        ("conv B2 C8 6x6 3x3", CONV, conv(2, 8, 8, 6, 3)),
        ("conv B1 3->8 20x20 7x7 s2", CONV, conv(1, 3, 8, 20, 7, stride=2, pad=3)),
        ("depthwise B1 C16 10x10 3x3", CONV, conv(1, 16, 16, 10, 3, groups=16)),
        ("transposed B1 8->4 6x6 4x4 s2", CONV, conv(1, 8, 4, 6, 4, stride=2, pad=1,
                                                      transposed=True)),
    ],
}
QUICK["gemm_f16"] = as_float16(QUICK["gemm"])
QUICK["conv_f16"] = as_float16(QUICK["conv_anchors"])


def suite(name: str, quick: bool = False) -> list[tuple[str, str, tuple, dict]]:
    """The suite's entries as (name, target, arguments, options)."""
    table = QUICK if quick else SUITES
    if name not in table:
        raise KeyError(f"no benchmark suite {name!r}{' with --quick shapes' if quick else ''} "
                       f"(known: {', '.join(sorted(table))})")
    return [entry if len(entry) == 4 else (*entry, {}) for entry in table[name]]
