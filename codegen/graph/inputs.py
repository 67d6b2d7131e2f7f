"""Deterministic test inputs for spec cases, created lazily (specs never import torch)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any


class SymInt(int):
    """An int argument passed as a runtime SymInt (changeable without a rebuild)."""


@dataclass(frozen=True)
class TensorInput:
    kind: str  # randn | rand | randint | values | full
    shape: tuple[int, ...]
    dtype: str = "float32"
    low: float = 0.0
    high: float = 1.0
    values: tuple = ()

    def make(self, seed_text: str):
        import torch

        dtype = getattr(torch, self.dtype)
        g = torch.Generator().manual_seed(int(hashlib.sha256(seed_text.encode()).hexdigest()[:8], 16))
        if self.kind == "values":
            return torch.tensor(self.values, dtype=dtype).reshape(self.shape)
        if self.kind == "full":
            return torch.full(self.shape, self.low, dtype=dtype)
        if self.kind == "randint":
            return torch.randint(int(self.low), int(self.high), self.shape, generator=g).to(dtype)
        if self.kind == "rand":
            return (torch.rand(self.shape, generator=g, dtype=torch.float64)
                    * (self.high - self.low) + self.low).to(dtype)
        return torch.randn(self.shape, generator=g, dtype=torch.float64).to(dtype)


@dataclass(frozen=True)
class DTypeInput:
    """A torch constant argument by name (a dtype such as _to_copy's `dtype`, a memory
    format, a layout), named without importing torch."""

    name: str

    def make(self, seed_text: str):
        import torch

        return getattr(torch, self.name)


INT32_MIN, INT32_MAX = -2**31, 2**31 - 1  # int32 edge values for cases


def torch_constant(name: str) -> DTypeInput:
    """`torch.<name>`, e.g. torch_constant("channels_last")."""
    return DTypeInput(name)


def torch_dtype(name: str) -> DTypeInput:
    return DTypeInput(name)


def _shape(shape: tuple) -> tuple[int, ...]:
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
        shape = tuple(shape[0])
    return tuple(int(s) for s in shape)


def randn(*shape: int, dtype: str = "float32") -> TensorInput:
    """A case tensor of normal samples (drawn from a seed derived from the case's id, so
    every executor and run sees the same values)."""
    return TensorInput("randn", _shape(shape), dtype)


def rand(*shape: int, low: float = 0.0, high: float = 1.0, dtype: str = "float32") -> TensorInput:
    """A case tensor uniform in [low, high)."""
    return TensorInput("rand", _shape(shape), dtype, low, high)


def randint(low: int, high: int, *shape: int, dtype: str = "int64") -> TensorInput:
    """A case tensor of integers in [low, high) (int64 by default, as torch indexes)."""
    return TensorInput("randint", _shape(shape), dtype, low, high)


def full(shape: tuple, value: float, dtype: str = "float32") -> TensorInput:
    """A case tensor of one value."""
    return TensorInput("full", _shape(shape), dtype, value)


def tensor(values: Any, dtype: str = "float32") -> TensorInput:
    """A case tensor of these (nested list) values, e.g. IEEE specials."""
    flat, shape = _flatten(values)
    return TensorInput("values", shape, dtype, values=tuple(flat))


def _flatten(values: Any) -> tuple[list, tuple[int, ...]]:
    if isinstance(values, (list, tuple)):
        parts = [_flatten(v) for v in values]
        shapes = {p[1] for p in parts}
        if len(shapes) > 1:
            raise ValueError(f"ragged tensor literal {values!r}")
        inner = shapes.pop() if shapes else ()
        return [x for p in parts for x in p[0]], (len(values),) + inner
    return [values], ()


def materialize(value: Any, seed_text: str) -> Any:
    """Case arguments with every TensorInput replaced by a torch tensor."""
    if isinstance(value, (TensorInput, DTypeInput)):
        return value.make(seed_text)
    if isinstance(value, list):
        return [materialize(v, f"{seed_text}/{i}") for i, v in enumerate(value)]
    if isinstance(value, tuple):
        return tuple(materialize(v, f"{seed_text}/{i}") for i, v in enumerate(value))
    return value
