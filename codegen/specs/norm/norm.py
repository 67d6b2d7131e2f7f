"""native_layer_norm and native_group_norm: one row-normalization kernel for both.

Each normalized group is a contiguous row of the input: layer norm's rows are the
trailing `normalized_shape` dims, group norm's are the C / group channels x HxW of one
sample and group. One workgroup per row computes the mean, then the (biased) variance
from the deviations (two passes over the row, never E[x^2] - E[x]^2), and writes
(x - mean) * rstd * weight + bias. The affine entry of element c of row r is
(r % groups) * (row_len / inner) + c / inner: layer norm has groups = inner = 1 (an
entry per element), group norm one entry per channel of HxW elements. Rows of whole
vec4s (and, for group norm, HxW % 4 == 0) take the vec4 kernel.

mean and rstd are optional outputs (a graph may not request them; a dummy buffer is
bound and the WRITE_* overrides skip the stores). NaN anywhere in a row makes the row's
outputs NaN; a row holding +-inf gives NaN out and rstd as torch does, and mean = the
row's sum / n (inf), where torch's Welford update gives NaN or inf depending on where
the infinity sits.
"""

from codegen.language import (F16, F32, Bind, Case, Dispatch, Double, Guard, Int, IntList, Kernel,
                              Op, Output, Outputs, Override, Params, Route, Rows, Tensor, f32,
                              half_routes, same_dtype, u32)
from codegen.graph.inputs import SymInt, randn, tensor

WRITES = {"WRITE_MEAN": Override("bool", True), "WRITE_RSTD": Override("bool", True)}
NORM = Kernel("norm_rows", workgroup=(128, 1, 1), overrides=WRITES)
NORM_VEC4 = Kernel("norm_rows_vec4", workgroup=(128, 1, 1), overrides=WRITES)
NAN, INF = float("nan"), float("inf")
FLOATS = (F32, F16)  # float16: the kernels' float16 twins (float32 sums), outputs float16
# One storage for every tensor of a kernel: mean and rstd too, which a float16 graph of
# ExecuTorch's Vulkan partitioner (force_fp16) holds as float16 and torch's meta kernel of
# a float16 layer norm gives as float32 (the float16 layer norm cases leave them out).
SAME_DTYPE = same_dtype("input", [], optional=["weight", "bias", "mean", "rstd"])
STATS = ("mean", "rstd")


def h(*shape: int):
    return randn(*shape, dtype="float16")


def outputs(rank) -> Outputs:
    return Outputs("outputs", items=(Output("out", FLOATS, rank=rank),
                                     Output("mean", FLOATS, rank=rank, optional=True),
                                     Output("rstd", FLOATS, rank=rank, optional=True)))


def affine_guard(name: str, check: str, expected: str) -> Guard:
    return Guard(f"not {name}.present or {check}", name, "does not match the normalized shape",
                 got=f"{name}.dims", expected=expected)


def norm_dispatches(row_len: str, num_rows: str, inner: str, groups: str) -> list[Dispatch]:
    """The vec4 kernel when rows are whole vec4s and no vec4 straddles two affine
    entries of group norm (inner % 4 == 0), else the scalar kernel."""
    params = Params({"row_len": u32(row_len), "num_rows": u32(num_rows), "inner": u32(inner),
                     "groups": u32(groups), "eps": f32("eps"),
                     "has_weight": u32("weight.present"), "has_bias": u32("bias.present")})
    vec4 = f"{row_len} % 4 == 0 and ({inner} == 1 or {inner} % 4 == 0)"

    def dispatch(kernel: Kernel, view: str, when: str) -> Dispatch:
        route = Route(kernel, Rows(num_rows), overrides={"WRITE_MEAN": "mean.present",
                                                         "WRITE_RSTD": "rstd.present"})
        return Dispatch(
            params=params,
            bindings=[Bind("input", "input", view=view), Bind("weight", "weight", view="scalar"),
                      Bind("bias", "bias", view="scalar"),
                      Bind("output", "out", write=True, view=view),
                      Bind("mean", "mean", write=True, view="scalar"),
                      Bind("rstd", "rstd", write=True, view="scalar")],
            routes=[*half_routes([route], "input"), route],
            when=when,
            helpers=["../common/each_row.wgsl", "../common/workgroup_reduce.wgsl"],
        )
    return [dispatch(NORM_VEC4, "vec4", vec4), dispatch(NORM, "scalar", f"not ({vec4})")]


LAYER_NORM = Op(
    name="layer_norm",
    targets=["aten.native_layer_norm.default"],
    args=[Tensor("input", FLOATS, rank=(1, 8)), IntList("normalized_shape"),
          Tensor("weight", FLOATS, optional=True), Tensor("bias", FLOATS, optional=True),
          Double("eps"), outputs((1, 8))],
    let={
        "k": "len(normalized_shape)",
        "axis": "input.rank - k",
        "row_len": "prod(input.dims[axis:])",
        "num_rows": "prod(input.dims[:axis])",
    },
    guards=[
        Guard("k >= 1 and k <= input.rank", "normalized_shape",
              "does not name 1..rank trailing dims of the input", got="normalized_shape",
              expected="1 to {input.rank} sizes"),
        Guard("input.dims[axis:] == normalized_shape", "normalized_shape",
              "does not match the input's trailing dims", got="normalized_shape",
              expected="{input.dims[axis:]}"),
        Guard("row_len > 0", "normalized_shape", "normalizes over no elements",
              got="normalized_shape", expected="non-zero sizes"),
        affine_guard("weight", "weight.dims == normalized_shape", "{normalized_shape}"),
        affine_guard("bias", "bias.dims == normalized_shape", "{normalized_shape}"),
        SAME_DTYPE,
    ],
    shapes={"out": "input.dims", "mean": "input.dims[:axis] + ones(k)",
            "rstd": "input.dims[:axis] + ones(k)"},
    resize="dynamic",
    dispatches=norm_dispatches("row_len", "num_rows", "1", "1"),
    cases=[
        Case("bert_hidden", (randn(2, 5, 768), [768], randn(768), randn(768), 1e-12),
             route="norm_rows_vec4"),
        Case("no_affine", (randn(3, 7), [7], None, None, 1e-5), route="norm_rows"),
        Case("weight_only", (randn(4, 33), [33], randn(33), None, 1e-5)),
        Case("bias_only", (randn(4, 33), [33], None, randn(33), 1e-5)),
        Case("row_of_one", (randn(5, 1), [1], randn(1), randn(1), 1e-5)),
        # rows of 257 and 1031 elements: several strides of the 128-wide workgroup
        Case("prime_rows", (randn(3, 257), [257], randn(257), randn(257), 1e-5)),
        Case("long_rows", (randn(2, 1031), [1031], randn(1031), randn(1031), 1e-5)),
        # 257 vec4s: several strides of the vec4 kernel's workgroup
        Case("long_vec4_rows", (randn(2, 1028), [1028], randn(1028), randn(1028), 1e-5),
             route="norm_rows_vec4"),
        Case("last_two_dims", (randn(2, 3, 5, 7), [5, 7], randn(5, 7), randn(5, 7), 1e-5)),
        Case("all_dims", (randn(3, 4, 5), [3, 4, 5], None, None, 1e-5)),
        # an offset far larger than the spread: E[x^2] - E[x]^2 would lose every digit
        Case("large_offset", (tensor([[1e4 + 0.5, 1e4 - 0.5, 1e4 + 1.5, 1e4 - 1.5]]), [4],
                              None, None, 1e-5), rtol=1e-4, atol=1e-4),
        Case("nan_rows", (tensor([[1.0, NAN, 2.0, 3.0], [0.5, 1.0, -1.0, 2.0],
                                  [NAN, NAN, NAN, NAN]]), [4], None, None, 1e-5)),
        # rows with +-inf: out and rstd are NaN as in torch (mean is not compared: see above)
        Case("inf_rows", (tensor([[1.0, INF, 2.0, 3.0], [-INF, 1.0, 2.0, 3.0],
                                  [INF, -INF, 0.0, 1.0], [0.0, 1.0, 2.0, 3.0]]), [4], None, None,
                          1e-5), absent_outputs=("mean",)),
        Case("out_only", (randn(3, 40), [40], randn(40), randn(40), 1e-5),
             absent_outputs=("mean", "rstd")),
        Case("resize", (randn(4, 6, 32), [32], randn(32), randn(32), 1e-5),
             resize={"input": (2, 3, 32)}),
        Case("shape_mismatch", (randn(2, 3, 4), [3, 5], None, None, 1e-5),
             raises="normalized_shape does not match the input's trailing dims (got [3, 5], "
                    "expected [3, 4])"),
        Case("too_many_dims", (randn(3, 4), [2, 3, 4], None, None, 1e-5),
             raises="normalized_shape does not name 1..rank trailing dims of the input (got "
                    "[2, 3, 4], expected 1 to 2 sizes)"),
        Case("no_dims", (randn(3, 4), [], None, None, 1e-5),
             raises="normalized_shape does not name 1..rank trailing dims of the input (got "
                    "[], expected 1 to 2 sizes)"),
        Case("empty_rows", (randn(3, 0), [0], None, None, 1e-5),
             raises="normalized_shape normalizes over no elements (got [0], expected non-zero "
                    "sizes)"),
        Case("weight_shape", (randn(2, 8), [8], randn(4, 2), None, 1e-5),
             raises="weight does not match the normalized shape (got [4, 2], expected [8])"),
        Case("bias_shape", (randn(2, 8), [8], None, randn(9), 1e-5),
             raises="bias does not match the normalized shape (got [9], expected [8])"),
        Case("rejects_int32", (tensor([[1, 2]], dtype="int32"), [2], None, None, 1e-5),
             raises="input has an unsupported dtype (got int32, expected float32 or float16)"),
        Case("f16_hidden", (h(2, 5, 64), [64], h(64), h(64), 1e-5), route="norm_rows_vec4_f16",
             absent_outputs=STATS),
        Case("f16_odd_rows", (h(3, 7), [7], h(7), h(7), 1e-5), route="norm_rows_f16",
             absent_outputs=STATS),
        # rows of +-65504 and subnormal halves: sums past the half range stay float32
        Case("f16_extremes", (tensor([[65504.0, -65504.0, 65504.0, -65504.0],
                                      [2.0 ** -24, 0.0, -(2.0 ** -24), 2.0 ** -14]],
                                     dtype="float16"), [4], None, None, 1e-5),
             absent_outputs=STATS),
        # statistics as torch's meta kernel gives them (float32) beside a float16 input
        Case("rejects_float32_stats", (h(2, 8), [8], None, None, 1e-5),
             raises="input does not share its dtype with weight, bias, mean and rstd (got "
                    "float16, expected the dtype of weight, bias, mean and rstd)"),
    ],
)

GROUP_NORM = Op(
    name="group_norm",
    targets=["aten.native_group_norm.default"],
    args=[Tensor("input", FLOATS, rank=(2, 8)), Tensor("weight", FLOATS, rank=1, optional=True),
          Tensor("bias", FLOATS, rank=1, optional=True), Int("N", symbolic=True),
          Int("C", symbolic=True), Int("HxW", symbolic=True), Int("group"), Double("eps"),
          outputs((2, 8))],
    let={"channels": "C // group if group > 0 else 0"},
    guards=[
        Guard("input.dims[0] == N and input.dims[1] == C and input.numel == N * C * HxW",
              "input", "does not match N, C and HxW", got="input.dims",
              expected="[{N}, {C}, ...] with {N * C * HxW} elements"),
        Guard("group > 0 and C % group == 0", "group", "does not divide the channels",
              got="group", expected="a divisor of {C}"),
        Guard("HxW > 0", "HxW", "is not positive", got="HxW", expected="at least 1"),
        affine_guard("weight", "weight.dims[0] == C", "[{C}]"),
        affine_guard("bias", "bias.dims[0] == C", "[{C}]"),
        SAME_DTYPE,
    ],
    shapes={"out": "input.dims", "mean": "[N, group]", "rstd": "[N, group]"},
    resize="dynamic",
    dispatches=norm_dispatches("channels * HxW", "N * group", "HxW", "group"),
    cases=[
        Case("resnet_like", (randn(2, 8, 5, 5), randn(8), randn(8), 2, 8, 25, 4, 1e-5),
             route="norm_rows"),
        # HxW = 16: the vec4 kernel, a weight entry per 4 vec4s
        Case("vec4_groups", (randn(2, 8, 4, 4), randn(8), randn(8), 2, 8, 16, 2, 1e-5),
             route="norm_rows_vec4"),
        Case("no_affine", (randn(1, 6, 3, 7), None, None, 1, 6, 21, 3, 1e-5)),
        Case("weight_only", (randn(2, 4, 9), randn(4), None, 2, 4, 9, 2, 1e-5)),
        Case("one_group", (randn(3, 5, 4, 4), randn(5), randn(5), 3, 5, 16, 1, 1e-5)),
        Case("instance_norm", (randn(2, 7, 3, 3), randn(7), randn(7), 2, 7, 9, 7, 1e-5)),
        Case("rank2", (randn(4, 6), randn(6), randn(6), 4, 6, 1, 3, 1e-5)),
        # groups of 2 x 521 = 1042 elements: several strides of the workgroup
        Case("long_groups", (randn(1, 4, 521), randn(4), randn(4), 1, 4, 521, 2, 1e-5)),
        Case("rank5", (randn(1, 4, 2, 3, 5), randn(4), randn(4), 1, 4, 30, 2, 1e-5)),
        Case("nan_group", (tensor([[[1.0, NAN], [2.0, 3.0], [0.5, 1.5], [2.5, -1.0]]]), None,
                           None, 1, 4, 2, 2, 1e-5)),
        Case("resize", (randn(2, 8, 4, 4), randn(8), randn(8), SymInt(2), 8, SymInt(16), 4,
                        1e-5),
             resize={"input": (1, 8, 3, 4), "N": 1, "HxW": 12}),
        Case("stats_absent", (randn(2, 6, 10), randn(6), randn(6), 2, 6, 10, 3, 1e-5),
             absent_outputs=("mean", "rstd")),
        Case("group_not_divisor", (randn(1, 6, 4), None, None, 1, 6, 4, 4, 1e-5),
             raises="group does not divide the channels (got 4, expected a divisor of 6)"),
        Case("zero_group", (randn(1, 6, 4), None, None, 1, 6, 4, 0, 1e-5),
             raises="group does not divide the channels (got 0, expected a divisor of 6)"),
        Case("shape_mismatch", (randn(2, 6, 4), None, None, 2, 6, 5, 3, 1e-5),
             raises="input does not match N, C and HxW (got [2, 6, 4], expected [2, 6, ...] "
                    "with 60 elements)"),
        Case("empty_groups", (randn(2, 6, 0), None, None, 2, 6, 0, 3, 1e-5),
             raises="HxW is not positive (got 0, expected at least 1)"),
        Case("weight_size", (randn(1, 6, 4), randn(3), None, 1, 6, 4, 3, 1e-5),
             raises="weight does not match the normalized shape (got [3], expected [6])"),
        Case("bias_size", (randn(1, 6, 4), None, randn(7), 1, 6, 4, 3, 1e-5),
             raises="bias does not match the normalized shape (got [7], expected [6])"),
        # float16 statistics too (torch's group norm keeps the input's dtype)
        Case("f16_groups", (h(2, 8, 5, 5), h(8), h(8), 2, 8, 25, 4, 1e-5), route="norm_rows_f16"),
        Case("f16_vec4_groups", (h(2, 8, 4, 4), h(8), h(8), 2, 8, 16, 2, 1e-5),
             route="norm_rows_vec4_f16"),
        Case("rejects_mixed_floats", (h(1, 6, 4), randn(6), None, 1, 6, 4, 3, 1e-5),
             raises="input does not share its dtype with weight, bias, mean and rstd (got "
                    "float16, expected the dtype of weight, bias, mean and rstd)"),
    ],
)

OPS = [LAYER_NORM, GROUP_NORM]
