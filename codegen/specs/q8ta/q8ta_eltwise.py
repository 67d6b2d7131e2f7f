"""et_vk.q8ta_relu, q8ta_add and q8ta_pixel_shuffle: elementwise and data-movement ops on
static int8 tensors, the fusions ExecuTorch's Vulkan partitioner makes of dequantize ->
relu / add / pixel_shuffle -> quantize in a PT2E-quantized graph. Each dequantizes its
inputs ((q - zero_point) * scale, float32), applies the op and quantizes the result with
the output's parameters exactly as torch's quantize_per_tensor (docs/numerics.md): the
results are bit for bit ExecuTorch's references (alpha != 1 in q8ta_add aside: a GPU
compiler may fuse its multiply-add). One invocation per output word (4 elements).

q8ta_add takes operands of one shape (no broadcasting). q8ta_pixel_shuffle's output scale
arrives inverted (output_inv_scale, as the partitioner writes it); it is inverted back in
double, as ExecuTorch's reference does, before quantizing.
"""

from codegen.language import (I8, Bind, Case, Dispatch, Double, Elementwise, Guard, Int, Kernel,
                              Op, Output, Override, Route, Tensor, f32, i32, u32)
from codegen.graph.inputs import randint, tensor

MAP = Kernel("q8ta_map", helpers=("../common/each_word.wgsl", "int8.wgsl"),
             overrides={"ADD": Override("bool", False)})
SHUFFLE = Kernel("q8ta_pixel_shuffle", helpers=("../common/each_word.wgsl", "int8.wgsl"))


def positive(name: str) -> Guard:
    return Guard(f"{name} > 0.0", name, "is not positive", got=name, expected="a scale > 0")


def words(n: str) -> dict:
    return {"num_elements": u32(n), "num_words": u32(f"ceil_div({n}, 4)")}


def int8(*shape) -> object:
    return randint(-128, 128, *shape, dtype="int8")


# every int8 value once: saturation at both ends and zero points anywhere in the range
ALL_INT8 = tensor(list(range(-128, 128)), dtype="int8")

RELU = Op(
    name="q8ta_relu",
    targets=["et_vk.q8ta_relu.default"],
    args=[Tensor("input", (I8,), rank=(0, 8)), Double("input_scale"), Int("input_zero_point"),
          Double("output_scale"), Int("output_zero_point"), Output("out", (I8,), rank=(0, 8))],
    guards=[positive("input_scale"), positive("output_scale")],
    shapes={"out": "input.dims"},
    resize="dynamic",
    dispatches=[Dispatch(
        params={**words("input.numel"), "a_scale": f32("input_scale"),
                "a_zero_point": i32("input_zero_point"), "b_scale": f32("1.0"),
                "b_zero_point": i32("0"), "alpha": f32("0.0"),
                "out_inv_scale": f32("1.0 / output_scale"),
                "out_zero_point": i32("output_zero_point")},
        bindings=[Bind("a", "input", elem="u32"), Bind("b", "input", elem="u32"),
                  Bind("output", "out", write=True, elem="u32")],
        routes=[Route(MAP, Elementwise("ceil_div(input.numel, 4)"))])],
    cases=[
        Case("all_values", (ALL_INT8, 0.05, -7, 0.03, -128), route="q8ta_map"),
        Case("same_params", (int8(3, 5, 7), 0.02, 3, 0.02, 3)),
        Case("requantize_saturates", (int8(2, 3, 11, 13), 0.1, 0, 0.01, -100)),
        # halves: x = (q - 1) * 0.5, quantized at scale 1: ties to even
        Case("ties_to_even", (ALL_INT8, 0.5, 1, 1.0, 0)),
        Case("resize", (int8(4, 10), 0.04, -2, 0.02, -128), resize={"input": (3, 7)}),
        Case("rejects_input_scale", (int8(4), 0.0, 0, 0.1, 0),
             raises="input_scale is not positive (got 0.0, expected a scale > 0)"),
        Case("rejects_output_scale", (int8(4), 0.1, 0, -0.1, 0),
             raises="output_scale is not positive (got -0.1, expected a scale > 0)"),
    ],
)


def add_args(shape, a=(0.02, 3), b=(0.03, -5), out=(0.04, -2), alpha=1.0) -> tuple:
    return (int8(*shape), int8(*shape), *a, *b, *out, alpha)


ADD = Op(
    name="q8ta_add",
    targets=["et_vk.q8ta_add.default"],
    args=[Tensor("input_a", (I8,), rank=(0, 8)), Tensor("input_b", (I8,), rank=(0, 8)),
          Double("input_a_scale"), Int("input_a_zero_point"), Double("input_b_scale"),
          Int("input_b_zero_point"), Double("output_scale"), Int("output_zero_point"),
          Double("alpha"), Output("out", (I8,), rank=(0, 8))],
    guards=[Guard("input_b.dims == input_a.dims", "input_b", "does not have input_a's shape "
                  "(q8ta_add does not broadcast)", got="input_b.dims",
                  expected="{input_a.dims}"),
            positive("input_a_scale"), positive("input_b_scale"), positive("output_scale")],
    shapes={"out": "input_a.dims"},
    resize="static",
    dispatches=[Dispatch(
        params={**words("input_a.numel"), "a_scale": f32("input_a_scale"),
                "a_zero_point": i32("input_a_zero_point"), "b_scale": f32("input_b_scale"),
                "b_zero_point": i32("input_b_zero_point"), "alpha": f32("alpha"),
                "out_inv_scale": f32("1.0 / output_scale"),
                "out_zero_point": i32("output_zero_point")},
        bindings=[Bind("a", "input_a", elem="u32"), Bind("b", "input_b", elem="u32"),
                  Bind("output", "out", write=True, elem="u32")],
        routes=[Route(MAP, Elementwise("ceil_div(input_a.numel, 4)"), overrides={"ADD": "True"})])],
    cases=[
        Case("residual", add_args((1, 16, 5, 7)), route="q8ta_map"),
        Case("odd_shape_alpha_half", add_args((3, 5, 7), alpha=0.5)),
        # the partitioner writes alpha = 1 (an int in the graph) as Int
        Case("int_alpha", add_args((2, 7), alpha=1)),
        Case("saturates", add_args((2, 9, 11), out=(0.005, 0))),
        Case("relu_zero_point", add_args((1, 13, 3, 3), out=(0.03, -128))),
        # alpha * b is rounded before the add; a GPU compiler may fuse them into one FMA
        Case("alpha_third", add_args((4, 6), alpha=1 / 3), steps=1),
        Case("rejects_shapes", (int8(2, 3), int8(3, 3), 0.1, 0, 0.1, 0, 0.1, 0, 1.0),
             raises="input_b does not have input_a's shape (q8ta_add does not broadcast) (got "
                    "[3, 3], expected [2, 3])"),
        Case("rejects_a_scale", add_args((4,), a=(0.0, 0)),
             raises="input_a_scale is not positive (got 0.0, expected a scale > 0)"),
        Case("rejects_b_scale", add_args((4,), b=(-1.0, 0)),
             raises="input_b_scale is not positive (got -1.0, expected a scale > 0)"),
        Case("rejects_output_scale", add_args((4,), out=(0.0, 0)),
             raises="output_scale is not positive (got 0.0, expected a scale > 0)"),
    ],
)

SHUFFLE_LETS = {"r": "upscale_factor", "C": "input.dims[-3] // max(r * r, 1)",
                "H": "input.dims[-2]", "W": "input.dims[-1]"}

PIXEL_SHUFFLE = Op(
    name="q8ta_pixel_shuffle",
    targets=["et_vk.q8ta_pixel_shuffle.default"],
    args=[Tensor("input", (I8,), rank=(3, 6)), Double("input_scale"), Int("input_zero_point"),
          Double("output_inv_scale"), Int("output_zero_point"), Int("upscale_factor"),
          Output("out", (I8,), rank=(3, 6))],
    let=SHUFFLE_LETS,
    guards=[Guard("r > 0", "upscale_factor", "is not positive", got="upscale_factor",
                  expected="a factor >= 1"),
            Guard("input.dims[-3] % (r * r) == 0", "input",
                  "has channels that upscale_factor squared does not divide", got="input.dims",
                  expected="channels a multiple of {r * r}"),
            positive("input_scale"), positive("output_inv_scale")],
    shapes={"out": "input.dims[:-3] + [C, H * r, W * r]"},
    resize="dynamic",
    dispatches=[Dispatch(
        params={**words("out.numel"), "C": u32("C"), "H": u32("H"), "W": u32("W"),
                "r": u32("r"), "in_scale": f32("input_scale"),
                "in_zero_point": i32("input_zero_point"),
                # the reference's quantize of scale 1 / output_inv_scale, in double
                "out_inv_scale": f32("1.0 / (1.0 / output_inv_scale)"),
                "out_zero_point": i32("output_zero_point")},
        bindings=[Bind("input", "input", elem="u32"),
                  Bind("output", "out", write=True, elem="u32")],
        routes=[Route(SHUFFLE, Elementwise("ceil_div(out.numel, 4)"))])],
    cases=[
        Case("r2_same_params", (int8(1, 8, 3, 5), 0.02, 3, 1 / 0.02, 3),
             kwargs={"upscale_factor": 2}, route="q8ta_pixel_shuffle"),
        Case("r3_requantize", (int8(2, 18, 3, 2), 0.05, -7, 1 / 0.03, 11, 3)),
        Case("rank3_saturates", (int8(9, 5, 7), 0.1, 0, 100.0, -20, 3)),
        Case("r1", (int8(1, 5, 3, 3), 0.04, 0, 1 / 0.04, 0, 1)),
        Case("resize", (int8(1, 12, 4, 5), 0.02, 1, 40.0, 0, 2),
             resize={"input": (1, 12, 3, 3)}),
        Case("rejects_factor", (int8(1, 4, 2, 2), 0.1, 0, 10.0, 0, 0),
             raises="upscale_factor is not positive (got 0, expected a factor >= 1)"),
        Case("rejects_channels", (int8(1, 6, 2, 2), 0.1, 0, 10.0, 0, 2),
             raises="input has channels that upscale_factor squared does not divide (got "
                    "[1, 6, 2, 2], expected channels a multiple of 4)"),
        Case("rejects_input_scale", (int8(1, 4, 2, 2), -0.1, 0, 10.0, 0, 2),
             raises="input_scale is not positive (got -0.1, expected a scale > 0)"),
        Case("rejects_output_inv_scale", (int8(1, 4, 2, 2), 0.1, 0, 0.0, 0, 2),
             raises="output_inv_scale is not positive (got 0.0, expected a scale > 0)"),
    ],
)

OPS = [RELU, ADD, PIXEL_SHUFFLE]
