"""flip and pixel_shuffle: strided gathers (_gather.py), float32, int32 and bool, rank 0..8.

flip reads each flipped dim from its far end: a negative stride (written as its two's
complement: the gather's u32 arithmetic wraps it back into range) from an offset at the
dim's last element. When the last dim is not flipped and is a multiple of 4, whole vec4s
move. pixel_shuffle reads out[..., c, h*r + i, w*r + j] = self[..., c*r*r + i*r + j, h, w]:
the output viewed as [B, C, H, r, W, r] over permuted strides of the input viewed as
[B, C, r, r, H, W] (B the leading dims, flattened).
"""

from codegen.language import Case, Guard, Int, IntList, Op, Output, Tensor
from codegen.graph.inputs import randint, randn, tensor
from codegen.specs.permute_copy._gather import DTYPES, MAX_RANK, gather

NAN, INF = float("nan"), float("inf")
U32_WRAP = 2**32

FLIP = Op(
    name="flip",
    targets=["aten.flip.default"],
    args=[Tensor("self", DTYPES, rank=(0, MAX_RANK)), IntList("dims"),
          Output("out", DTYPES, rank=(0, MAX_RANK))],
    let={
        "r1": "max(self.rank, 1)",  # a 0-d tensor takes dims as a 1-d one does
        "in_range": "len(dims) == 0 or (min(dims) >= -r1 and max(dims) < r1)",
        "flipped": "normalize_dims(dims, self.rank) if in_range and self.rank > 0 else []",
        "strides": "contiguous_strides(self.dims)",
        "signed_strides": "[-strides[k] if k in flipped else strides[k] for k in range(self.rank)]",
        "offset": "sum([max(self.dims[k] - 1, 0) * strides[k] for k in flipped])",
    },
    guards=[
        Guard("in_range", "dims", "names a dim the input does not have", got="dims",
              expected="dims in {-r1}..{r1 - 1}"),
        Guard("len([k for k in range(len(flipped)) if flipped[k] in flipped[:k]]) == 0",
              "dims", "names a dim more than once", got="dims", expected="each dim once"),
    ],
    shapes={"out": "self.dims"},
    resize="dynamic",
    dispatches=gather("self.dims", "self.dims", f"[s % {U32_WRAP} for s in signed_strides]",
                      "self.rank > 0 and (self.rank - 1) not in flipped and "
                      "self.dims[-1] % 4 == 0", offset="offset"),
    cases=[
        Case("last_dim", (randn(3, 5, 7), [-1]), route="strided_gather", exact=True),
        Case("rows_vec4", (randn(5, 3, 8), [0, 1]), route="strided_gather_vec4", exact=True),
        Case("all_dims", (randn(2, 3, 5), [0, 1, 2]), exact=True),
        Case("negative_dims", (randn(4, 3, 2, 5), [-2, 0]), exact=True),
        Case("no_dims", (randn(3, 4), []), exact=True),
        Case("rank0", (tensor(1.5), [0]), exact=True),
        Case("rank8", (randn(2, 1, 3, 2, 1, 2, 3, 2), [7, 5, 2, 0]), exact=True),
        Case("int32", (randint(-100, 100, 3, 4, 5, dtype="int32"), [1]), exact=True),
        Case("int64", (randint(-100, 100, 6, 7), [0, 1]), exact=True),
        Case("bool_last_dim", (randint(0, 2, 3, 7, 9, dtype="bool"), [2]),
             route="strided_gather_bytes", exact=True),
        Case("f16_last_dim", (randn(3, 7, 9, dtype="float16"), [2]),
             route="strided_gather_halves", exact=True),
        Case("bool_rows", (randint(0, 2, 5, 8, dtype="bool"), [0]), exact=True),
        Case("ieee_specials", (tensor([[NAN, -0.0, INF], [-INF, 1e-45, -NAN]]), [0, 1]),
             exact=True),
        Case("empty", (randn(0, 3), [0]), exact=True),
        # 17 x 13 x 11 elements over several workgroups
        Case("multi_workgroup", (randn(17, 13, 11), [0, 2]), exact=True),
        Case("resize", (randn(3, 6, 3, 4), [1, 3]), resize={"self": (2, 5, 3, 4)}, exact=True),
        Case("resize_vec4", (randn(4, 6, 8), [0]), resize={"self": (3, 5, 8)}, exact=True),
        Case("dim_out_of_range", (randn(2, 3), [2]),
             raises="dims names a dim the input does not have (got [2], expected dims in "
                    "-2..1)"),
        Case("repeated_dim", (randn(2, 3), [0, -2]),
             raises="dims names a dim more than once (got [0, -2], expected each dim once)"),
        Case("rank9", (randn(1, 1, 1, 1, 1, 1, 1, 1, 2), [0]),
             raises="self has the wrong rank (got 9, expected 0..8)"),
    ],
)

PIXEL_SHUFFLE = Op(
    name="pixel_shuffle",
    targets=["aten.pixel_shuffle.default"],
    args=[Tensor("self", DTYPES, rank=(3, MAX_RANK)), Int("upscale_factor"),
          Output("out", DTYPES, rank=(3, MAX_RANK))],
    let={
        "r": "upscale_factor",
        "C_in": "self.dims[-3]",
        "H": "self.dims[-2]",
        "W": "self.dims[-1]",
        "C": "C_in // (r * r) if r > 0 else 0",
        "B": "prod(self.dims[:-3])",
    },
    guards=[
        Guard("r > 0", "upscale_factor", "is not positive", got="upscale_factor",
              expected="an upscale_factor >= 1"),
        Guard("C_in % (r * r) == 0", "self", "has channels not divisible by upscale_factor "
              "squared", got="self.dims", expected="dim -3 a multiple of {r * r}"),
    ],
    shapes={"out": "self.dims[:-3] + [C, H * r, W * r]"},
    resize="dynamic",
    # out as [B, C, H, r(i), W, r(j)] reads self as [B, C, r(i), r(j), H, W]
    dispatches=gather("[B, C, H, r, W, r]", "[B, C, H, r, W, r]",
                      "[C_in * H * W, r * r * H * W, W, r * H * W, 1, H * W]", None),
    cases=[
        Case("upscale_2", (randn(1, 8, 3, 5), 2), route="strided_gather", exact=True),
        Case("upscale_3_prime", (randn(2, 18, 5, 7), 3), exact=True),
        # Real-ESRGAN's x4 tail: 3 channels out
        Case("upscale_4", (randn(1, 48, 4, 3), 4), exact=True),
        Case("batch_dims", (randn(2, 3, 4, 3, 3), 2), exact=True),
        Case("rank3", (randn(9, 2, 3), 3), exact=True),
        Case("upscale_1", (randn(2, 5, 3, 4), 1), exact=True),
        Case("int32", (randint(-99, 99, 1, 12, 2, 3, dtype="int32"), 2), exact=True),
        Case("bool", (randint(0, 2, 2, 8, 3, 5, dtype="bool"), 2),
             route="strided_gather_bytes", exact=True),
        Case("f16", (randn(2, 8, 3, 5, dtype="float16"), 2), route="strided_gather_halves",
             exact=True),
        Case("ieee_specials", (tensor([[[[NAN]], [[-0.0]], [[INF]], [[-INF]]]]), 2), exact=True),
        Case("empty", (randn(0, 4, 2, 2), 2), exact=True),
        Case("resize", (randn(2, 8, 4, 5), 2), resize={"self": (1, 8, 3, 5)}, exact=True),
        Case("channels_not_divisible", (randn(1, 5, 2, 2), 2),
             raises="self has channels not divisible by upscale_factor squared (got [1, 5, 2, "
                    "2], expected dim -3 a multiple of 4)"),
        Case("zero_factor", (randn(1, 4, 2, 2), 0),
             raises="upscale_factor is not positive (got 0, expected an upscale_factor >= 1)"),
        Case("rank2", (randn(4, 4), 2),
             raises="self has the wrong rank (got 2, expected 3..8)"),
    ],
)

OPS = [FLIP, PIXEL_SHUFFLE]
