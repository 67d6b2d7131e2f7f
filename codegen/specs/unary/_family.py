"""The unary family's shared parts (not a spec file: the loader skips `_` files): the
elementwise op shape and its kernels, the per-dtype dispatch, the math family's standard
cases. The spec modules of this folder (unary.py, fmod.py, rounding.py) build their ops
from these.

A float op runs on float32 and float16 tensors from one kernel body: apply() maps a
vec4<f32>, the bindings view the tensors (`view="vec4"`), and the kernel's float16 twins
(shader-f16 storage, and halves packed in u32 words where the device lacks it) come
first in its routes (`half_routes`)."""

from codegen.language import (F16, F32, Bind, Case, Dispatch, Elementwise, Kernel, Op, Output,
                              Route, Tensor, half_routes, u32)
from codegen.graph.inputs import rand, randn, tensor

NAN, INF = float("nan"), float("inf")

UNARY_WORKGROUP = (128, 1, 1)
# the shared entry point (apply() on each vec4), over float views or the arrays as declared
ENTRY = ["../common/map_vec4s.wgsl", "unary_map.wgsl", "../common/vec4_views.wgsl"]
WORDS_ENTRY = ["../common/map_vec4s.wgsl", "unary_map.wgsl", "../common/vec4_words.wgsl"]
FLOATS = (F32, F16)


def unary_kernel(name: str, vec: str = "vec4<f32>", **kw) -> Kernel:
    """A unary kernel: its apply() maps a `vec` (the alias Vec: the type its bindings hold)."""
    return Kernel(name, workgroup=UNARY_WORKGROUP, aliases={"Vec": vec}, **kw)


def unary_op(name: str, kernel: Kernel, cases: list[Case], extra_args=(), extra_params=None,
             helpers=(), target: str = "", overrides=None, guards=()) -> Op:
    """An elementwise op out[i] = f(self[i]) on float32 or float16 tensors that follows the
    live shape on resize. `helpers`: WGSL files of shared functions besides the entry point
    (float_bits.wgsl...)."""
    route = Route(kernel, Elementwise("ceil_div(out.numel, 4)", per_invocation=4),
                  overrides=overrides or {})
    return Op(
        name=name,
        targets=[target or f"aten.{name}.default"],
        args=[Tensor("self", FLOATS), *extra_args, Output("out", FLOATS)],
        guards=list(guards),
        shapes={"out": "self.dims"},
        resize="dynamic",
        dispatches=[Dispatch(
            params={"num_vec4": u32("ceil_div(out.numel, 4)"), **(extra_params or {})},
            helpers=[*ENTRY, *helpers],
            bindings=[Bind("input", "self", view="vec4"),
                      Bind("output", "out", write=True, view="vec4")],
            routes=[*half_routes([route], "self"), route],
        )],
        cases=cases,
    )


FLOAT_BITS = ("float_bits.wgsl",)
FLT_MIN = 1.2e-38  # results below it may be flushed to zero (docs/numerics.md)
REJECTS_INT32 = "self has an unsupported dtype (got int32, expected float32 or float16)"
# float16 values of note: NaN, infinities, zeros, the largest finite half (65504), the
# smallest subnormal (2^-24) and normal (2^-14) halves, and values whose exp() overflows
HALF_SPECIALS = tensor([NAN, INF, -INF, -0.0, 0.0, 65504.0, -65504.0, 2.0 ** -24, -(2.0 ** -24),
                        2.0 ** -14, 1.0, -1.0, 0.5, 11.0, -12.0, 12.0, 3.0, -3.0],
                       dtype="float16")


def half_cases(route: str, extra=(), exact: bool = False, tolerance=None) -> list[Case]:
    """The float16 cases of a float op: a random tensor on the shader-f16 route (its masked
    twin runs the packed route) and the float16 specials; `extra`: the arguments after
    self."""
    atol, rtol = tolerance or (None, None)
    return [
        Case("f16", (randn(2, 3, 8, 9, dtype="float16"), *extra), route=f"{route}_f16",
             exact=exact, atol=atol, rtol=rtol),
        Case("f16_specials", (HALF_SPECIALS, *extra), exact=exact, atol=atol, rtol=rtol),
    ]


def math_op(name: str, cases: list[Case], kernel: Kernel | None = None, helpers=FLOAT_BITS,
            **kw) -> Op:
    """A unary op of the math family: its kernel is <name>.wgsl unless a shared one is given."""
    return unary_op(name, kernel or unary_kernel(name), cases,
                    helpers=helpers, **kw)


def standard_cases(route: str, specials, tolerance=None, wide=None,
                   exact_half: bool = False) -> list[Case]:
    """Shapes, a resize, the op's bit-exact IEEE specials, a wide-range accuracy case
    (`wide`: (low, high)), the dtype rejection and the float16 cases (`exact_half`: bit
    for bit with torch's float16 result)."""
    atol, rtol = tolerance or (1e-6, 1e-5)
    cases = [
        Case("basic_4d", (randn(2, 3, 8, 8),), route=route, atol=atol, rtol=rtol),
        Case("odd_length", (randn(1001),), atol=atol, rtol=rtol),
        Case("prime_shape", (randn(7, 13, 3),), atol=atol, rtol=rtol),
        # 773 vec4s, the last partial: second-workgroup lanes store 3 or 2 vec4s
        Case("partial_invocation", (randn(773 * 4 - 1),), atol=atol, rtol=rtol),
        Case("resize", (randn(4, 64),), resize={"self": (3, 50)}, atol=atol, rtol=rtol),
        Case("ieee_specials", (tensor(specials),), exact=True),
        Case("rejects_int32", (tensor([1, 2, 3], dtype="int32"),), raises=REJECTS_INT32),
        *half_cases(route, exact=exact_half),
    ]
    if wide:
        cases.append(Case("wide_range", (rand(4099, low=wide[0], high=wide[1]),), atol=atol,
                          rtol=rtol))
    return cases


SIGNED = [NAN, INF, -INF, -0.0, 0.0, 1.0, -1.0, 3.4e38, -3.4e38, 1e-30, -1e-30, 2.5, -7.0]


def dtype_dispatch(kernel: Kernel, dtype: str, elem: str, helpers=(), **params) -> Dispatch:
    """A unary_map dispatch for the tensors of one dtype (an op with a kernel per dtype),
    its Params named after the dtype; `params` beyond num_vec4 as given. A float32
    dispatch (`elem` "float") views its tensors and takes float16 ones too, through the
    kernel's float16 twins."""
    route = Route(kernel, Elementwise("ceil_div(out.numel, 4)", per_invocation=4))
    floats = elem == "float"
    return Dispatch(
        params={"num_vec4": u32("ceil_div(out.numel, 4)"), **params},
        helpers=[*(ENTRY if floats else WORDS_ENTRY), *helpers],
        bindings=[Bind("input", "self", **({"view": "vec4"} if floats else {"elem": elem})),
                  Bind("output", "out", write=True,
                       **({"view": "vec4"} if floats else {"elem": elem}))],
        routes=[*half_routes([route], "self"), route] if floats else [route],
        when="self.dtype != 'int32'" if floats else f"self.dtype == '{dtype}'",
        name=dtype,  # one Params struct per dispatch: <Op>Float32Params, <Op>Int32Params
    )
