"""The binary family's shared parts (not a spec file: the loader skips `_` files): the
broadcasting dispatch every binary kernel runs under (binary_map.wgsl's entry point) and
the float and int32 kernels. binary.py, div_mode.py build their ops from these."""

from codegen.language import (Bind, Dispatch, Elementwise, Kernel, Override, Param, Route,
                              half_routes, u32)

NAN, INF, BIG = float("nan"), float("inf"), 3.4e38
# override values (expressions): div_mode's int32 kernel divides rounded by rounding_mode
OP_CODES = {"add": "0", "sub": "1", "mul": "2", "div": "3", "minimum": "4", "maximum": "5",
            "div_mode": "7 if rounding_mode == 'floor' else 6"}
BINARY = Kernel("binary_broadcast", workgroup=(128, 1, 1), overrides={"OP": Override("u32", 0)},
                helpers=("divide.wgsl",))
BINARY_I32 = Kernel("binary_broadcast_i32", workgroup=(128, 1, 1),
                    overrides={"OP": Override("u32", 0)})
SLOTS = 8
ELEMENTWISE = Elementwise("ceil_div(out.numel, 4)", per_invocation=4)


def broadcast_dispatch(name: str, kernel: Kernel, elem: str, alpha: Param, dtype: str,
                       other_elem: str = "", when: str = "", routes=(),
                       half: bool = False) -> Dispatch:
    """`routes`: routes tried before the kernel's (a kernel of their own for some calls).
    `elem` "float": float tensors through views (binary_views.wgsl; with `other_elem`,
    pow's int32 exponent read as words, pow_views_i32.wgsl); with `half` the float16
    twins of every route take float16 tensors."""
    floats = elem == "float"
    route = Route(kernel, ELEMENTWISE,
                  overrides={"OP": OP_CODES[name]} if name in OP_CODES else {})
    vec4 = f"array<vec4<u32>, {SLOTS // 4}>"
    other = "exponent" if name == "pow" else "other"
    aligned = f"right_align(out.dims, {SLOTS}, 1)"
    return Dispatch(
        params={
            "out_dims": Param(vec4, aligned),
            "self_strides": Param(vec4, f"broadcast_strides(self.dims, {aligned})"),
            "other_strides": Param(vec4, f"broadcast_strides({other}.dims, {aligned})"),
            "alpha": alpha,
            "num_elements": u32("out.numel"),
            "num_vec4": u32("ceil_div(out.numel, 4)"),
            "rank": u32("out.rank"),
            "same_shape": u32(f"self.dims == {other}.dims"),
        },
        helpers=["binary_map.wgsl", ("pow_views_i32.wgsl" if other_elem else "binary_views.wgsl")
                 if floats else "binary_words.wgsl"],
        bindings=[Bind("lhs", "self", **_storage(elem)),
                  Bind("rhs", other, **_storage(other_elem or elem)),
                  Bind("output", "out", write=True, **_storage(elem))],
        routes=[*(half_routes([*routes, route], "self") if half else []), *routes, route],
        when=when or f"self.dtype == '{dtype}'",
        name=dtype,  # one Params struct per dispatch: <Op>Float32Params, <Op>Int32Params
    )


def _storage(elem: str) -> dict:
    """A binding's element: "float" is a vec4 view of a float tensor."""
    return {"view": "vec4"} if elem == "float" else {"elem": elem}
