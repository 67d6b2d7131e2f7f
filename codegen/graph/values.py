"""Graph values: what an ExecuTorch graph hands an op, as both executors see them.

A torch-style call is turned into one `Value` per argument (by the argument kinds in
`codegen.language.args`); the harness plans from them, the native runner receives them as
JSON (`runner_json`). Tensors hold their data at the graph dtype (`codegen.graph.dtypes`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from codegen.graph.dtypes import graph_dtype
from codegen.graph.inputs import SymInt

# Value kinds, as the runtime's ValueType names them ("Ignored": an argument the op does
# not read, which travels to the runtime as Null).
KINDS = ("Tensor", "Null", "Int", "Double", "Bool", "String", "IntList", "DoubleList",
         "SymInt", "ValueList", "Ignored")


@dataclass
class Value:
    """One graph value, typed as the ExecuTorch graph would hold it."""

    kind: str
    data: Any = None  # torch tensor (graph dtype), number, list; ValueList: list[Value]
    dtype: str = ""  # graph dtype of a tensor
    dims: tuple[int, ...] = ()
    source: Any = None  # the caller's tensor (a mutable input is written back into it)

    def runner_json(self) -> dict:
        """The native runner's JSON for a scalar or list value (tensors and value lists
        are written by the runner's case writer, which owns their files)."""
        if self.kind in ("Null", "Ignored"):
            return {"type": "Null"}
        if self.kind == "Double":
            d = self.data
            text = "nan" if math.isnan(d) else "inf" if d > 0 else "-inf"
            return {"type": "Double", "value": d if math.isfinite(d) else text}
        if self.kind in ("Int", "SymInt", "Bool", "String", "IntList", "DoubleList"):
            return {"type": self.kind, "value": self.data}
        raise TypeError(f"the native runner cannot pass a {self.kind} value ({self.data!r})")


NULL = Value("Null")


def graph_tensor(t, what: str = "a tensor") -> Value:
    """A torch tensor as the graph holds it (contiguous, at its graph dtype). An int64
    tensor becomes int32, each value checked as the delegate checks a .pte's inputs: one
    outside int32 is a ValueError naming `what`, the element and the value."""
    import torch

    name = str(t.dtype).replace("torch.", "")
    gdtype = graph_dtype(name)
    data = t.detach().contiguous()
    if gdtype != name:
        if name == "int64" and gdtype == "int32" and not data.is_meta:
            _check_int32(data, what)
        data = data.to(getattr(torch, gdtype))
    return Value("Tensor", data, gdtype, tuple(t.shape), source=t)


INT32_MIN, INT32_MAX = -(2 ** 31), 2 ** 31 - 1


def _check_int32(data, what: str) -> None:
    flat = data.reshape(-1)
    outside = ((flat < INT32_MIN) | (flat > INT32_MAX)).nonzero()
    if len(outside):
        i = int(outside[0])
        raise ValueError(f"{what} element {i} = {int(flat[i])} does not fit the graph's int32 "
                         f"(int64 tensors are int32 on the GPU; the .pte runtime refuses such "
                         f"an input too)")


def scalar_value(v: Any) -> Value:
    """A scalar argument by its Python type (a SymInt stays a SymInt)."""
    if v is None:
        return NULL
    if isinstance(v, SymInt):
        return Value("SymInt", int(v))
    if isinstance(v, bool):
        return Value("Bool", v)
    if isinstance(v, int):
        return Value("Int", v)
    if isinstance(v, float):
        return Value("Double", v)
    if isinstance(v, str):
        return Value("String", v)
    return Value("Ignored", v)
