"""float16 twins of a dispatch's routes, from the same kernel bodies.

A kernel whose float tensors are bound through views (`Bind(..., view=...)`) runs on
float16 tensors as two variants of itself: `<name>_f16` (storage `f16`, on a device with
`shader-f16`) and `<name>_f16_packed` (halves in u32 words, on every device). A spec
puts their routes before its float32 ones:

    routes = [Route(GEMM, grid, when="small"), Route(GEMM_BIG, grid)]
    Dispatch(..., routes=[*half_routes(routes, "self"), *routes])

For each route, in order, the shader-f16 twin then the packed one, each taken when the
tensor `self` is float16 and the route's own condition holds: a float16 call on a device
with shader-f16 takes the first, on one without it the packed twin of the same route.
"""

from __future__ import annotations

import dataclasses
from typing import Sequence

from codegen.language.checked import SpecError
from codegen.language.dispatch import Kernel, Route
from codegen.language.floats import FLOATS
from codegen.language.op import Guard

SUFFIX = {"f16": "_f16", "f16_packed": "_f16_packed"}


def half_variant(kernel: Kernel, floats: str) -> Kernel:
    """`kernel` compiled for float16 tensors stored as `floats` ("f16", "f16_packed")."""
    if kernel.floats != "f32":
        raise SpecError(f"Kernel {kernel.name!r} already stores floats as {kernel.floats!r}; "
                        f"its float16 twins come from the float32 kernel")
    features = tuple(dict.fromkeys((*kernel.features, *FLOATS[floats].features)))
    return kernel.variant(kernel.name + SUFFIX[floats], floats=floats, features=features)


def half_variants(kernel: Kernel) -> tuple[Kernel, Kernel]:
    """The shader-f16 twin and the portable (packed) twin of `kernel`."""
    return half_variant(kernel, "f16"), half_variant(kernel, "f16_packed")


def half_routes(routes: Sequence[Route], tensor: str) -> list[Route]:
    """The float16 twins of `routes`, to put before them: for each route, `<kernel>_f16`
    (shader-f16 storage) then `<kernel>_f16_packed` (halves in u32 words, any device), each
    taken when tensor argument `tensor` is float16 and the route's own `when` holds. The
    kernels must read and write their float tensors through views (`Bind(view=...)`)."""
    when = f"{tensor}.dtype == 'float16'"
    out = []
    for r in routes:
        for kernel in half_variants(r.kernel):
            out.append(dataclasses.replace(
                r, kernel=kernel, when=f"{when} and ({r.when})" if r.when else when))
    return out


def same_dtype(tensor: str, others: Sequence[str], optional: Sequence[str] = ()) -> Guard:
    """A guard that the float tensors one kernel views share `tensor`'s dtype (its
    storage is one kind for all of them); `optional` ones only when present."""
    checks = [f"{o}.dtype == {tensor}.dtype" for o in others]
    checks += [f"(not {o}.present or {o}.dtype == {tensor}.dtype)" for o in optional]
    names = [*others, *optional]
    listed = ", ".join(names[:-1]) + f" and {names[-1]}" if len(names) > 1 else names[0]
    return Guard(" and ".join(checks), tensor, f"does not share its dtype with {listed}",
                 got=f"{tensor}.dtype", expected=f"the dtype of {listed}")
