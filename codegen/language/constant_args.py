"""Argument kinds the graph never carries: checked once, where their value is known.

ExecuTorch's Vulkan serializer writes `ScalarType`, `MemoryFormat`, `Layout` and
`Device` arguments as Null, and an argument the op does not read travels as Null too, so
no handler can look at them. Each kind here therefore declares the values it accepts and
checks the torch-side value when a call is bound (`codegen.executors.call.bind_call`,
before any executor runs it) and when export decides delegation (`codegen.et`): any
other value is an `OpError` naming the op and the argument. Nothing is silently ignored.

Values are written as torch prints them without the `torch.` prefix: dtypes by name
("float32"), memory formats ("contiguous_format"), layouts ("strided"), devices ("cpu").
"""

from __future__ import annotations

import re
from typing import Any, Callable, ClassVar

from codegen.language.args import Arg, CppRead, Scaffold
from codegen.language.checked import SpecError, spec_class
from codegen.graph.dtypes import graph_dtype
from codegen.graph.errors import fail
from codegen.graph.values import Value

ANY = "*"  # an Ignored argument that accepts every value (say why in the spec)


def constant_text(v: Any) -> str:
    """How a torch-side constant reads in specs and messages: a dtype, format, layout or
    device by name without `torch.`, a string as itself, anything else as str()."""
    return str(v).removeprefix("torch.")


def _matches(v: Any, accepted: Any) -> bool:
    if accepted is None or v is None:
        return v is accepted
    if isinstance(accepted, str):  # torch constants are written by name
        return constant_text(v) == accepted
    return type(v) is type(accepted) and v == accepted


@spec_class
class Constant(Arg):
    """A build-time constant the op does not read; `allowed()` lists what it may be."""

    def expr_type(self) -> str:
        return ""

    def graph_value(self, v: Any) -> Value:
        return Value("Ignored", v)  # the graph holds Null, as the Vulkan serializer writes

    def cpp_read(self, read: CppRead) -> list[str]:
        raise AssertionError(f"{self.name} is not read by the handler")

    def read(self, value: Value, op: str, fallback: Callable[[], Any]) -> dict[str, Any]:
        return {}

    def allowed(self, bound) -> tuple:
        raise NotImplementedError

    def serves(self, schema_type: str) -> bool:
        return any(re.match(s.pattern, schema_type) for s in self.SCHEMA)

    def check_constant(self, v: Any, bound) -> None:
        """Raises OpError unless `v` (the torch-side value) is one the op accepts."""
        allowed = self.allowed(bound)
        if ANY in allowed or any(_matches(v, a) for a in allowed):
            return
        raise fail(bound.op.name, self.name, "is not supported", constant_text(v),
                   " or ".join(constant_text(a) for a in allowed))


@spec_class
class Ignored(Constant):
    """A schema argument the op does not read. `accepts` is the value it is written for
    (a tuple: several values it gives the same result for; `ANY` for an argument that
    cannot change the result, e.g. `non_blocking`); any other value is an error."""

    accepts: Any = ()

    def __post_init__(self) -> None:
        super().__post_init__()
        if not isinstance(self.accepts, tuple):
            object.__setattr__(self, "accepts", (self.accepts,))
        if not self.accepts:
            raise SpecError(f"Ignored {self.name!r} must declare the value it accepts (an "
                            f"ignored argument that changes the result would be a silent "
                            f"wrong answer); write e.g. Ignored({self.name!r}, accepts=None)")

    def serves(self, schema_type: str) -> bool:
        return True

    def allowed(self, bound) -> tuple:
        return self.accepts


@spec_class
class ScalarType(Constant):
    """A `ScalarType?` (dtype=): the op computes in its output's dtype, so the argument
    may be None or name a dtype the graph holds as one of the outputs' declared dtypes."""

    optional: bool = True
    SCHEMA: ClassVar = (Scaffold(r"^ScalarType\??$", "ScalarType({name!r})", "None"),)

    def allowed(self, bound) -> tuple:
        dtypes = {d for o in bound.op.outputs for d in o.dtypes}
        return (None,) + tuple(sorted(dtypes))

    def check_constant(self, v: Any, bound) -> None:
        if v is not None and graph_dtype(constant_text(v)) in self.allowed(bound):
            return
        super().check_constant(v, bound)


@spec_class
class MemoryFormat(Constant):
    """A `MemoryFormat?`: graph tensors are contiguous, so None, contiguous_format or
    preserve_format; channels_last and the rest are errors."""

    optional: bool = True
    SCHEMA: ClassVar = (Scaffold(r"^MemoryFormat\??$", "MemoryFormat({name!r})", "None"),)

    def allowed(self, bound) -> tuple:
        return (None, "contiguous_format", "preserve_format")


@spec_class
class Layout(Constant):
    """A `Layout?`: graph tensors are strided."""

    optional: bool = True
    SCHEMA: ClassVar = (Scaffold(r"^Layout\??$", "Layout({name!r})", "None"),)

    def allowed(self, bound) -> tuple:
        return (None, "strided")


@spec_class
class Device(Constant):
    """A `Device?`: the delegate places every tensor on its own device, so the device a
    graph names cannot change the values computed; any device is accepted."""

    optional: bool = True
    SCHEMA: ClassVar = (Scaffold(r"^Device\??$", "Device({name!r})", "None"),)

    def allowed(self, bound) -> tuple:
        return (ANY,)
