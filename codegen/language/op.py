"""The op: its arguments, lets, guards, shapes, dispatches and cases (`Op`), with the
runtime checks (`Guard`) and test cases (`Case`) it declares."""

from __future__ import annotations

import re
from dataclasses import field
from typing import Any, Callable, Mapping, Sequence, Union

from codegen.language.args import Arg, Output, OutputList, Outputs, SymIntOutput
from codegen.language.checked import SpecError, ident, spec_class
from codegen.language.dispatch import Copy, Dispatch, Kernel, Scratch, pascal
from codegen.language.scalar_args import Int

@spec_class
class Guard:
    """A runtime check. Fails with
    `WebGPU <op>: <arg> <what> (got <got>, expected <expected>)`; `got` is an
    expression, `expected` a text where {expr} is replaced by its value."""

    check: str
    arg: str
    what: str
    got: str
    expected: str


# The tolerance of a case that states none, per output dtype (atol, rtol), against torch
# in float64: float32 results must agree to about five significant digits, so a kernel
# wrong in the fourth digit fails; float16 ones to about three.
DEFAULT_TOLERANCE = {"float32": (1e-5, 1e-5), "float16": (1e-3, 1e-3)}


@spec_class
class Case:
    """A test case: torch-style call arguments (`args`, `kwargs`; tensors as `randn(...)`,
    `rand(...)`, `randint(...)`, SymInts as `SymInt(n)`) plus what must happen.

    `route`: the kernel the case must run. `raises`: a substring of the error it must
    fail with (a negative case; every executor must give the same message). `resize`:
    after the build, run again with these live shapes (an argument name -> dims, one dims
    tuple per entry of a tensor list, or a SymInt's new value). Outputs are compared with
    torch in float64 within `atol` + `rtol` * |expected|; None takes the default of the
    output's dtype (DEFAULT_TOLERANCE: 1e-5 and 1e-5 for float32, 1e-3 for float16), so
    state a looser one, with the reason, only where the kernel's arithmetic needs it.
    `exact`: compare bit for bit with float32 torch (copies, gathers). `absent_outputs`:
    optional outputs the graph does not request (bound as Null)."""

    name: str
    args: tuple = ()
    kwargs: Mapping[str, Any] = field(default_factory=dict)
    route: str = ""  # the kernel this case must run
    raises: str = ""  # substring of the expected error message
    # arg -> live dims (tuple) of a tensor, one per entry (list of tuples) of a tensor
    # list, new value (int) of a SymInt, or new values (list) of an int list holding
    # SymInts, after build
    resize: Mapping[str, Union[tuple, list, int]] = field(default_factory=dict)
    atol: Union[float, None] = None  # None: DEFAULT_TOLERANCE of the output's dtype
    rtol: Union[float, None] = None
    exact: bool = False  # compare bit for bit with float32 torch (copies, gathers)
    # integer outputs may differ from the golden by up to this many steps, on at most
    # STEPS_SHARE of their elements (quantized ops: a float32 epilogue rounds a value next
    # to a rounding boundary to the other side than the golden's float64 one)
    steps: int = 0
    absent_outputs: tuple = ()  # optional outputs the graph does not request (bound Null)

    def tolerance(self, dtype: str) -> tuple[float, float]:
        """(atol, rtol) for an output of `dtype` (a dtype name, e.g. "float32")."""
        atol, rtol = DEFAULT_TOLERANCE.get(dtype, DEFAULT_TOLERANCE["float32"])
        return (atol if self.atol is None else self.atol,
                rtol if self.rtol is None else self.rtol)

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not re.match(r"^[a-z0-9_]+$", self.name):
            raise SpecError(f"Case name must be lower_snake_case (got {self.name!r})")
        if not isinstance(self.args, tuple):
            raise SpecError(f"Case {self.name!r} args must be a tuple (got {type(self.args).__name__})")


# --- the op ------------------------------------------------------------------------------

RESIZE_POLICIES = ("dynamic", "static")


@spec_class
class Op:
    """One operator: what a spec file's `OPS = [Op(...)]` declares.

    `name`: the op (lower_snake_case; generated C++ and kernels are named after it).
    `targets`: the `namespace.op.overload` names it serves (one target has one spec).
    `args`: the schema's arguments in order (checked against torch's schema), the
    output(s) last. `let`: named expressions over the arguments, evaluated in order after
    the tensor checks and before the guards (so each must hold for every input those
    checks accept). `guards`: runtime checks with their messages. `shapes`: each output's
    shape formula. `resize`: "dynamic" (outputs follow the formulas when inputs resize) or
    "static" (a resized input is an error). `dispatches`: the compute dispatches and
    copies, in order. `cases`: test cases. `golden`: a torch target to compare with when
    it is not the op's own. `scratch`: tensors the op allocates for itself. `flops`,
    `bytes`: work of one run for `opgen bench`."""

    name: str
    targets: Sequence[str]
    args: Sequence[Arg]
    dispatches: Sequence[Union[Dispatch, Copy]]
    shapes: Mapping[str, str]
    resize: str
    let: Mapping[str, str] = field(default_factory=dict)
    guards: Sequence[Guard] = ()
    cases: Sequence[Case] = ()
    golden: str = ""  # a torch target to compare with, when it is not the op's own
    # a Python reference computing the op from torch-style arguments, when torch has no
    # usable kernel for it (it imports torch itself: specs never import torch)
    reference: Union[Callable[..., Any], None] = None
    scratch: Sequence[Scratch] = ()
    flops: str = ""  # work of one run, for `opgen bench` (TFLOP/s)
    bytes: str = ""  # bytes moved by one run, for `opgen bench` (default: all tensors once)

    def __post_init__(self) -> None:
        ident(self.name, "Op name")
        if not self.targets or not all(isinstance(t, str) and t.count(".") == 2
                                       for t in self.targets):
            raise SpecError(f"Op targets must be a non-empty list of 'namespace.op.overload' "
                            f"names (got {self.targets!r})")
        if self.resize not in RESIZE_POLICIES:
            raise SpecError(f"Op resize must be one of {', '.join(RESIZE_POLICIES)} "
                            f"(got {self.resize!r})")
        if not self.args or not isinstance(self.args[-1], (Output, Outputs, OutputList,
                                                           SymIntOutput)):
            raise SpecError("Op args must end with the output: Output(...), Outputs(...), "
                            "OutputList(...) or SymIntOutput(...)")
        if self.reference is not None and (self.golden or not callable(self.reference)):
            raise SpecError("Op reference must be a function, and an op gives either a golden "
                            "target or a reference")
        names = [a.name for a in self.args] + list(self.let)
        dup = {n for n in names if names.count(n) > 1}
        if dup:
            raise SpecError(f"Op args and let names must be unique (duplicated: "
                            f"{', '.join(sorted(dup))})")
        if self.symint_output is not None:
            if self.dispatches or self.resize != "dynamic":
                raise SpecError("an op returning a SymIntOutput computes it on the host: give it "
                                "no dispatches and resize='dynamic' (its value follows the live "
                                "arguments)")
        elif not self.dispatches:
            raise SpecError("Op dispatches must hold at least one Dispatch(...) or Copy(...)")
        symbolic = [a.name for a in self.args if isinstance(a, Int) and a.symbolic]
        if symbolic and self.resize != "dynamic":
            raise SpecError(f"SymInt args ({', '.join(symbolic)}) may change at run time: the op "
                            f"needs resize='dynamic' (got {self.resize!r})")
        for s in self.scratch:
            if not isinstance(s, Scratch):
                raise SpecError(f"Op scratch must hold Scratch(...) objects (got {s!r})")
            names.append(s.name)
        dup = {n for n in names if names.count(n) > 1}
        if dup:
            raise SpecError(f"Op args, let and scratch names must be unique (duplicated: "
                            f"{', '.join(sorted(dup))})")
        case_names = [c.name for c in self.cases]
        dup = {n for n in case_names if case_names.count(n) > 1}
        if dup:
            raise SpecError(f"Case names must be unique (duplicated: {', '.join(sorted(dup))})")

    @property
    def pascal(self) -> str:
        return pascal(self.name)

    @property
    def symint_output(self) -> SymIntOutput | None:
        last = self.args[-1] if self.args else None
        return last if isinstance(last, SymIntOutput) else None

    @property
    def outputs(self) -> list[Output]:
        """The output tensors (none for an op returning a SymInt)."""
        last = self.args[-1]
        if isinstance(last, SymIntOutput):
            return []
        if isinstance(last, OutputList):
            return [last.item]
        return list(last.items) if isinstance(last, Outputs) else [last]

    @property
    def inputs(self) -> list[Arg]:
        return list(self.args[:-1])

    def kernels(self) -> list[Kernel]:
        seen: dict[str, Kernel] = {}
        for d in self.dispatches:
            if isinstance(d, Dispatch):
                for r in d.routes:
                    seen.setdefault(r.kernel.name, r.kernel)
        return list(seen.values())


