"""Named benchmark suites for `opgen bench --suite NAME`: the anchor layers of
DESIGN.md's performance table, the 256 MB elementwise set, and a CPU smoke set."""

from __future__ import annotations

from codegen.spec.inputs import rand, randn

CONV = "aten.convolution.default"
MB256 = 64 * 1024 * 1024  # float32 elements in 256 MB


def conv(b, ic, oc, hw, k, stride=1, pad=1, groups=1, transposed=False, out_pad=0):
    w_shape = (ic, oc // groups, k, k) if transposed else (oc, ic // groups, k, k)
    return (randn(b, ic, hw, hw), randn(*w_shape), randn(oc), [stride, stride], [pad, pad],
            [1, 1], transposed, [out_pad, out_pad], groups)


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
    "smoke": [
        ("relu 64K", "aten.relu.default", (randn(65536),)),
        ("pad 8x8", "aten.constant_pad_nd.default", (randn(2, 4, 8, 8), [1, 1, 1, 1])),
    ],
}


def suite(name: str) -> list[tuple]:
    if name not in SUITES:
        raise KeyError(f"no benchmark suite {name!r} (known: {', '.join(sorted(SUITES))})")
    return list(SUITES[name])
