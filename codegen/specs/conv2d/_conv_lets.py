"""The convolutions' geometry (not a spec file: the loader skips `_` files; conv2d.py
holds the kernels, dispatches and ops): the tuning constants of the GEMM routes, the
arguments, the lets that read a rank-3 or rank-4 conv as a rank-4 one and pick its route,
the guards and the one Params block every pass reads."""

from codegen.language import F16, F32, Bool, Guard, Int, IntList, Tensor, f32, same_dtype, u32

GEMM_TILE = (64, 64)  # output pixels (B * OH * OW) x output channels per workgroup
GEMM_K_STEP = 16  # input channels per K step (BK in conv2d_gemm.wgsl); k per step in the stem's
# conv2d_stem_gemm (flattened K) below STEM_MAX_IC input channels, where conv2d_gemm's K
# steps would be mostly padding. Unmeasured between 4 and 15 channels (the H200 stems all
# have 3); conv2d_gemm stays reachable there with `opgen bench --force conv2d_gemm`.
STEM_MAX_IC = 16
# With fewer than SPLIT_BELOW tiles, split K until there are about SPLIT_TARGET
# workgroups, keeping at least MIN_SLICE_STEPS K steps per slice and at most MAX_SPLIT
# slices. Measured on the H200 (132 SMs; docs/performance.md): B1 C256 56x56 (196 tiles)
# went from 0.277 ms unsplit to 0.240 ms in 3 slices and 0.223 ms in 6 (the last with
# double buffering); B8 C128 56x56 (784 tiles) was 10% slower in 2 slices than unsplit.
SPLIT_BELOW = 512
SPLIT_TARGET = 1024
MIN_SLICE_STEPS = 8
MAX_SPLIT = 8
# conv2d_gemm128 (gemm_tile.wgsl: 128x128 tiles of output channels x pixels, K steps of 8)
# serves direct convs with groups == 1 and at least STEM_MAX_IC input channels whose tiles
# are full in channels and at least half full in pixels: OC >= TILE128_MIN_OC and
# B * OH * OW >= TILE128_MIN_PIXELS. Measured on the H200 (docs/performance.md): 64 output
# channels (B1 C64 56²) ran 0.060 ms here against conv2d_gemm's 0.045, 128 and more gained
# 0-27 %; the pixel floor is unmeasured. `opgen bench --force conv2d_gemm` times the other.
TILE128 = 128
TILE128_K_STEP = 8
TILE128_MIN_OC = 128
TILE128_MIN_PIXELS = 64
# Its split-K rule, the matmul spec's with a floor: with fewer than TILE128_SPLIT_BELOW
# tiles, split K into at most TILE128_SPLIT_TARGET // tiles slices (one wave of two
# 256-thread workgroups per SM on the H200's 132: B8 C512 14x14 3x3 has 13 x 4 tiles,
# split 5 -> 260 workgroups), each at least TILE128_MIN_SLICE_STEPS
# K steps, at most TILE128_MAX_SPLIT. Unmeasured for convs.
TILE128_SPLIT_BELOW = 132
TILE128_SPLIT_TARGET = 264
TILE128_MIN_SLICE_STEPS = 16
TILE128_MAX_SPLIT = 16
# Transposed convs take the phase GEMM up to this many phases (stride[0] * stride[1], the
# grid's z); beyond it, the gather kernel. Not a measured threshold: it keeps z far from
# WebGPU's per-dimension limit for strides far larger than any model's. The phase GEMM
# does not split K: a split-sum pass would also run after a forced gather kernel (`opgen
# bench --force conv_transpose2d`) and overwrite its output.
MAX_PHASES = 1024

# input [B, C, H, W] or [B, C, L], weight of the input's rank; the four int lists hold one
# value per spatial dim or one for all (the lets below read them per axis)
FLOATS = (F32, F16)  # float16: every kernel's float16 twins, float32 accumulators
CONV_ARGS = [
    Tensor("input", FLOATS, rank=(3, 4)), Tensor("weight", FLOATS, rank=(3, 4)),
    Tensor("bias", FLOATS, rank=1, optional=True),
    IntList("stride"), IntList("padding"), IntList("dilation"),
    Bool("transposed"), IntList("output_padding"), Int("groups"),
]
SPATIAL_LISTS = {"stride": ("sH", "sW", 1), "padding": ("pH", "pW", 0),
                 "dilation": ("dH", "dW", 1), "output_padding": ("opH", "opW", 0)}


def per_axis(name: str, fill: int) -> tuple[str, str]:
    """A spatial int list read as its H and W values. A rank-3 conv is the rank-4 one with
    H = 1, so its H value is the identity `fill` (stride 1, no padding); one value serves
    every spatial dim. Defined for any length (lets run before the guards that reject a
    wrong one)."""
    return (f"{fill} if rank == 3 else {name}[0] if len({name}) > 0 else {fill}",
            f"{name}[-1] if len({name}) > 0 else {fill}")


def out_size(axis: str, size: str, kernel: str) -> str:
    """The conv output size along one spatial axis (H or W), direct and transposed."""
    s, p, d, op = f"s{axis}", f"p{axis}", f"d{axis}", f"op{axis}"
    return (f"({size} - 1) * {s} - 2 * {p} + {d} * ({kernel} - 1) + {op} + 1 "
            f"if transposed else ({size} + 2 * {p} - {d} * ({kernel} - 1) - 1) // max({s}, 1) + 1")


LETS = {
    # a rank-3 conv (conv1d) runs as the rank-4 one with H = 1: input [B, C, 1, L], weight
    # [OC, IC / groups, 1, K] (transposed: [IC, OC / groups, 1, K]), out [B, OC, 1, OL],
    # the same bytes as the rank-3 tensors
    "rank": "input.rank",
    "B": "input.dims[0]", "IC": "input.dims[1]",
    "IH": "input.dims[2] if rank == 4 else 1", "IW": "input.dims[-1]",
    "KH": "weight.dims[-2] if weight.rank == 4 else 1", "KW": "weight.dims[-1]",
    **{let: expr for name, (h, w, fill) in SPATIAL_LISTS.items()
       for let, expr in zip((h, w), per_axis(name, fill))},
    "g": "max(groups, 1)",
    "OC": "weight.dims[1] * g if transposed else weight.dims[0]",
    "icpg": "IC // g",
    "OH": out_size("H", "IH", "KH"),
    "OW": out_size("W", "IW", "KW"),
    "gemm": "not transposed and groups == 1",
    "stem": f"gemm and IC < {STEM_MAX_IC}",
    "K": "IC * KH * KW",
    "gemm128": f"gemm and not stem and OC >= {TILE128_MIN_OC} and "
               f"B * OH * OW >= {TILE128_MIN_PIXELS}",
    # dilation > 1 and groups > 1 stay on the gather kernel: a dilated tap's phase is not
    # kh % sH, and a grouped GEMM would need a tile per group
    "tgemm": f"transposed and groups == 1 and dH == 1 and dW == 1 and "
             f"sH * sW <= {MAX_PHASES}",
    "tiles": f"ceil_div(B * OH * OW, {GEMM_TILE[0]}) * ceil_div(OC, {GEMM_TILE[1]})",
    # the chosen GEMM kernel's K steps (a forced conv2d_gemm runs with the stem's split)
    "steps": f"ceil_div(KH * KW * IC, {GEMM_K_STEP}) if stem "
             f"else KH * KW * ceil_div(IC, {GEMM_K_STEP})",
    "split64": f"max(1, min(min(ceil_div({SPLIT_TARGET}, max(tiles, 1)), "
               f"steps // {MIN_SLICE_STEPS}), {MAX_SPLIT})) if tiles < {SPLIT_BELOW} else 1",
    "tiles128": f"ceil_div(B * OH * OW, {TILE128}) * ceil_div(OC, {TILE128})",
    "steps128": f"ceil_div(K, {TILE128_K_STEP})",
    "split128": f"max(1, min(min({TILE128_SPLIT_TARGET} // max(tiles128, 1), "
                f"steps128 // {TILE128_MIN_SLICE_STEPS}), {TILE128_MAX_SPLIT})) "
                f"if tiles128 < {TILE128_SPLIT_BELOW} else 1",
    # the chosen route's split; a forced route runs with it (any split is correct)
    "split": "(split128 if gemm128 else split64) if gemm else 1",
    # K per split-K slice of conv2d_gemm128, whole K steps
    "k_chunk": f"ceil_div(steps128, split) * {TILE128_K_STEP}",
}

GUARDS = [
    Guard("weight.rank == rank", "weight", "does not have the input's rank", got="weight.rank",
          expected="{rank}"),
    *[Guard(f"len({name}) == 1 or len({name}) == rank - 2", name,
            "does not hold one value per spatial dim", got=name,
            expected="{'one value' if rank == 3 else 'one or two values'}")
      for name in SPATIAL_LISTS],
    Guard("min(stride) > 0", "stride", "is not positive", got="stride", expected="strides >= 1"),
    Guard("min(dilation) > 0", "dilation", "is not positive", got="dilation",
          expected="dilations >= 1"),
    Guard("min(padding) >= 0", "padding", "is negative", got="padding", expected="paddings >= 0"),
    Guard("KH > 0 and KW > 0", "weight", "has an empty kernel", got="weight.dims",
          expected="KH and KW >= 1"),
    Guard("groups > 0 and IC % g == 0 and OC % g == 0", "groups", "does not divide the channels",
          got="groups", expected="a divisor of IC={IC} and OC={OC}"),
    Guard("transposed or weight.dims[1] == icpg", "weight",
          "does not match the input channels per group", got="weight.dims",
          expected="dims[1] == {icpg}"),
    Guard("not transposed or weight.dims[0] == IC", "weight",
          "does not match the input channels (transposed)", got="weight.dims",
          expected="dims[0] == {IC}"),
    Guard("transposed or (opH == 0 and opW == 0)", "output_padding",
          "is only valid for a transposed conv", got="output_padding",
          expected="{'[0]' if rank == 3 else '[0, 0]'}"),
    Guard("not transposed or (min(output_padding) >= 0 and "
          "opH < max(sH, dH) and opW < max(sW, dW))", "output_padding",
          "is not smaller than stride or dilation", got="output_padding",
          expected="values below {stride} or {dilation}"),
    Guard("not bias.present or bias.numel == OC", "bias", "does not hold one value per output "
          "channel", got="bias.dims", expected="{OC} values"),
    Guard("OH > 0 and OW > 0", "input", "is smaller than the kernel", got="input.dims",
          expected="an output of at least {'1' if rank == 3 else '1x1'}"),
    same_dtype("input", ["weight"], optional=["bias"]),
]


def conv_params(has_min: str, has_max: str, lo: str, hi: str) -> dict:
    return {
        "B": u32("B"), "IC": u32("IC"), "IH": u32("IH"), "IW": u32("IW"),
        "OC": u32("OC"), "OH": u32("OH"), "OW": u32("OW"),
        "KH": u32("KH"), "KW": u32("KW"),
        "sH": u32("sH"), "sW": u32("sW"), "pH": u32("pH"), "pW": u32("pW"),
        "dH": u32("dH"), "dW": u32("dW"),
        "groups": u32("groups"), "split": u32("split"), "has_bias": u32("bias.present"),
        "has_min": u32(has_min), "has_max": u32(has_max),
        "min_value": f32(lo), "max_value": f32(hi),
        # conv2d_gemm128's GEMM (gemm_tile.wgsl): OC x K weights @ K x B * OH * OW pixels
        "M": u32("OC"), "N": u32("B * OH * OW"), "K": u32("K"), "batch": u32("1"),
        "k_chunk": u32("k_chunk"),
    }

