"""The 2-D pooling ops' shared spec parts (not a spec file: the loader skips `_` files):
the window lets, the guards on kernel_size, stride and padding (with their negative
cases) and the window's Params. avg_pool2d and max_pool2d_with_indices add their own
output-size formula, guards, Params and cases around them."""

from codegen.language import Case, Guard, u32
from codegen.graph.inputs import randn


def window_lets(out_size) -> dict:
    """The window's lets; `out_size(axis, size)` is the op's output size along one axis."""
    return {
        # an empty stride means kernel_size; one value is used for both axes
        "strides": "kernel_size if len(stride) == 0 else "
                   "[stride[0], stride[0]] if len(stride) == 1 else stride",
        "IH": "self.dims[-2]",
        "IW": "self.dims[-1]",
        "OH": out_size(0, "IH"),
        "OW": out_size(1, "IW"),
    }


WINDOW_GUARDS = [
    Guard("len(stride) <= 2", "stride", "must hold zero, one or two values",
          got="stride", expected="[], [s] or [sh, sw]"),
    Guard("min(kernel_size) > 0", "kernel_size", "is not positive", got="kernel_size",
          expected="sizes >= 1"),
    Guard("min(strides) > 0", "stride", "is not positive", got="stride",
          expected="strides >= 1"),
]
PADDING_GUARD = Guard("min(padding) >= 0 and padding[0] <= kernel_size[0] // 2 and "
                      "padding[1] <= kernel_size[1] // 2", "padding",
                      "is negative or more than half the kernel", got="padding",
                      expected="at most {[kernel_size[0] // 2, kernel_size[1] // 2]}")
# WINDOW_GUARDS' negative cases (the arguments after the input: kernel_size, stride)
WINDOW_CASES = [
    Case("too_many_strides", (randn(1, 1, 4, 4), [2, 2], [1, 1, 1]),
         raises="stride must hold zero, one or two values (got [1, 1, 1], expected [], [s] "
                "or [sh, sw])"),
    Case("zero_kernel", (randn(1, 1, 4, 4), [0, 2]),
         raises="kernel_size is not positive (got [0, 2], expected sizes >= 1)"),
    Case("zero_stride", (randn(1, 1, 4, 4), [2, 2], [0, 1]),
         raises="stride is not positive (got [0, 1], expected strides >= 1)"),
]
OUTPUT_GUARD = Guard("OH > 0 and OW > 0", "self", "is smaller than the pooling window",
                     got="self.dims", expected="an output of at least 1x1")
OUT_SHAPE = "replace_at(replace_at(self.dims, -2, OH), -1, OW)"
WINDOW_PARAMS = {
    "IH": u32("IH"), "IW": u32("IW"), "OH": u32("out.dims[-2]"), "OW": u32("out.dims[-1]"),
    "kH": u32("kernel_size[0]"), "kW": u32("kernel_size[1]"),
    "sH": u32("strides[0]"), "sW": u32("strides[1]"),
    "pH": u32("padding[0]"), "pW": u32("padding[1]"),
}
