"""The sample types and their validation.

`SampleCall` is a call as text: positional and keyword argument texts written with the
constructors of `codegen/graph/inputs.py` (the names in `NAMESPACE`). `materialize_call`
turns the texts into torch values; `check_sample` evals them with two seeds and calls the
overload on CPU. Both strategies validate every candidate with `_valid` and keep the
best through `_Best`: a call whose outputs are non-empty and finite and differ from its
inputs (GOOD) wins (sqrt gets rand, not randn; roll a non-zero shift); one with empty or
non-finite outputs, or an output equal to an input, is kept only when nothing better
validates. This module also holds the small schema helpers (`resolve`, `_type`,
`_inner`, `_flat`) that the others share; it imports no other module of the package.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from codegen.graph import inputs as _inputs

NAMESPACE = {name: getattr(_inputs, name)
             for name in ("randn", "rand", "randint", "full", "tensor", "torch_dtype")}


class SampleError(Exception):
    """No valid sample call could be found for a target."""


@dataclass(frozen=True)
class SampleCall:
    args_text: list[str]
    kwargs_text: dict[str, str]
    source: str
    target: str = ""
    note: str = ""  # e.g. that the op returns no tensor
    tried: tuple = field(default=(), compare=False)


# --- the target ----------------------------------------------------------------------------

def resolve(target: str):
    """The OpOverload of "aten.op.overload"."""
    import torch

    parts = target.split(".")
    if len(parts) != 3 or parts[0] != "aten":
        raise SampleError(f"{target}: expected aten.<op>.<overload>")
    try:
        return getattr(getattr(torch.ops.aten, parts[1]), parts[2])
    except (AttributeError, RuntimeError) as e:
        raise SampleError(f"{target}: torch does not know this overload ({e})") from None


def _type(arg) -> str:
    return str(arg.real_type)


def _inner(t: str, wrapper: str) -> str | None:
    return t[len(wrapper) + 1:-1] if t.startswith(wrapper + "[") else None



# --- validation ----------------------------------------------------------------------------

def materialize_call(sample: SampleCall, seed: str = "sample"):
    """The sample's (args, kwargs) as torch values."""
    args = tuple(eval(t, dict(NAMESPACE)) for t in sample.args_text)
    kwargs = {k: eval(t, dict(NAMESPACE)) for k, t in sample.kwargs_text.items()}
    return (_inputs.materialize(args, seed),
            {k: _inputs.materialize(v, f"{seed}/{k}") for k, v in kwargs.items()})


def check_sample(target: str, sample: SampleCall, with_inputs: bool = False) -> Any:
    """Run the sample on CPU (two seeds); return the first result (with `with_inputs`:
    also its positional and keyword arguments), raise on failure."""
    op = resolve(target)
    result = inputs = None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for i, seed in enumerate((f"{target}/basic", f"{target}/check")):
            args, kwargs = materialize_call(sample, seed)
            snapshot = [_copy(a) for a in [*args, *kwargs.values()]]  # before in-place ops
            out = op(*args, **kwargs)
            result, inputs = (out, snapshot) if i == 0 else (result, inputs)
    return (result, inputs) if with_inputs else result


# Verdicts of _valid, worst to best. GOOD: valid, non-empty and finite outputs, and the call
# exercises the op: no output equals one of its inputs (roll by a zero shift, a max pool of
# a 1x1 kernel would pass a copy), unless nothing better validates.
INVALID, EMPTY, NOT_FINITE, IDENTITY, GOOD = range(5)


def _valid(target: str, args_text: list[str], kwargs_text: dict[str, str]) -> int:
    """INVALID: torch rejects the call; EMPTY: a tensor output is empty; NOT_FINITE: an
    output is not finite; IDENTITY: an output equals an input; else GOOD."""
    import torch

    try:
        out, inputs = check_sample(target, SampleCall(list(args_text), dict(kwargs_text), ""),
                                   with_inputs=True)
    except Exception:  # noqa: BLE001 - any torch error means "not a valid call"
        return INVALID
    outs = [o for o in _flat([out]) if _plain(o)]
    if any(o.numel() == 0 for o in outs):
        return EMPTY
    inexact = [o for o in outs if o.is_floating_point() or o.is_complex()]
    try:
        if not all(bool(torch.isfinite(o).all()) for o in inexact):
            return NOT_FINITE
        ins = [t for t in _flat(inputs) if _plain(t)]
        copies = any(o.shape == t.shape and o.dtype == t.dtype and torch.equal(o, t)
                     for o in outs for t in ins)
    except Exception:  # noqa: BLE001 - an output torch cannot check: valid all the same
        return NOT_FINITE
    return IDENTITY if copies else GOOD


def _plain(t: Any) -> bool:
    import torch

    return type(t) is torch.Tensor and t.layout == torch.strided and not t.is_nested


def _copy(v: Any) -> Any:
    import torch

    if isinstance(v, (list, tuple)):
        return type(v)(_copy(x) for x in v)
    return v.clone() if isinstance(v, torch.Tensor) and _plain(v) else v


class _Best:
    """The best sample offered so far, by _valid's verdict."""

    def __init__(self):
        self.verdict, self.sample = 0, None

    def offer(self, target: str, texts: tuple, source: str) -> bool:
        """Validate; True when the sample is GOOD (stop looking)."""
        verdict = _valid(target, *texts)
        if verdict > self.verdict:
            self.verdict = verdict
            self.sample = SampleCall(list(texts[0]), dict(texts[1]), source, target)
        return verdict == GOOD



def _flat(values: Iterable) -> Iterable:
    for v in values:
        if isinstance(v, (list, tuple)):
            yield from _flat(v)
        else:
            yield v
