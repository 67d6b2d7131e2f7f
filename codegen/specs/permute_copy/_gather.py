"""The strided gather's shared parts (not a spec file: the loader skips `_` files): its
kernels and the dispatches of a gather, which permute_copy.py and shuffle.py build their
ops from.

Each output element reads input[offset + sum_k (c_k % mods[k]) * strides[k]] at its
coordinates c (dims right-aligned into 8 slots), in u32 arithmetic: a negative stride is
written as its two's complement (flip), which wraps back into range with the offset."""

from codegen.language import (BOOL, F16, F32, I32, Bind, Dispatch, Elementwise, Kernel, Override,
                              Param, Route, u32)

DTYPES = (F32, F16, I32, BOOL)
MAX_RANK = 8
# LANES elements per invocation, from one body
GATHER = Kernel("strided_gather", helpers=("../common/each_element.wgsl",), consts={"LANES": "1u"})
GATHER_VEC4 = GATHER.variant("strided_gather_vec4", consts={"LANES": "4u"})
GATHER_BYTES = Kernel("strided_gather_bytes", overrides={"ALIGNED": Override("bool", False)},
                      helpers=("../copy/packed_words.wgsl",), consts={"PER_WORD": "4u"})
# float16: two halves to a word, from the same body
GATHER_HALVES = GATHER_BYTES.variant("strided_gather_halves", consts={"PER_WORD": "2u"})



def gather(dims: str, mods: str, strides: str, vec4: str | None, source: str = "self",
           offset: str = "0") -> list[Dispatch]:
    """The gather of tensor argument `source` over output dims `dims` (int-list
    expressions, one entry per output dim; `offset` the input element all of them start
    from): the vec4 kernel when `vec4` holds (None: the op never reads whole vec4s), else
    one element per invocation; bool and float16 one output word (4 or 2 elements) per
    invocation."""

    def dispatch(kernel: Kernel, elem: str, lanes: int, when: str, routes=()) -> Dispatch:
        return Dispatch(
            params={
                "out_dims": Param("array<vec4<u32>, 2>", f"right_align({dims}, {MAX_RANK}, 1)"),
                "in_mods": Param("array<vec4<u32>, 2>", f"right_align({mods}, {MAX_RANK}, 1)"),
                "in_strides": Param("array<vec4<u32>, 2>",
                                    f"right_align({strides}, {MAX_RANK}, 0)"),
                "num_elements": u32(f"out.numel // {lanes}"),
                "in_offset": u32(offset),
            },
            bindings=[Bind("input", source, elem=elem),
                      Bind("output", "out", write=True, elem=elem)],
            routes=[*routes, Route(kernel, Elementwise(f"out.numel // {lanes}"))],
            name=kernel.name, when=when)

    packed = [Route(GATHER_BYTES, Elementwise("ceil_div(out.numel, 4)"),
                    when="out.dtype == 'bool'", overrides={"ALIGNED": vec4 or "False"}),
              Route(GATHER_HALVES, Elementwise("ceil_div(out.numel, 2)"),
                    when="out.dtype == 'float16'", overrides={"ALIGNED": vec4 or "False"})]
    if vec4 is None:
        return [dispatch(GATHER, "u32", 1, "", routes=packed)]
    small = "out.dtype == 'bool' or out.dtype == 'float16'"
    return [dispatch(GATHER_VEC4, "vec4<u32>", 4, f"not ({small}) and ({vec4})"),
            dispatch(GATHER, "u32", 1, f"{small} or not ({vec4})", routes=packed)]
