"""Recorded values (and search candidates) as case text.

Tensors: floats -> randn (then rand, then literal values if small), integers -> the
literal values when small else randint over the recorded range, bools -> literal when
small else randint(0, 2, dtype="bool"); a one-element tensor where the target takes a
number -> its value. dtypes -> torch_dtype("..."). A memory_format/layout/device/generator
argument is written None when the schema allows, else left at its default; a required
device is written "cpu"; pin_memory=False is left at its default (None). Arguments equal
to their schema default are omitted from the end of the positionals and from the
keywords (`_emit`); keyword-only arguments always go in kwargs, and so do positional
arguments that follow a defaulted one whose default the constructors cannot write.

`_size` is the sort key of recorded calls. Smallest means: no empty tensors, fewest
one-element tensors, fewest elements.
"""

from __future__ import annotations

import math
import re
from typing import Any

from codegen.cli.samples.opinfos import _Call, _TensorRec
from codegen.cli.samples.validation import _flat, _inner, _type

LITERAL_MAX = 16  # tensors up to this many elements may be written as literal values
_NONE_WHEN_OPTIONAL = ("MemoryFormat", "Layout", "Device", "Generator")


class _Unexpressible(Exception):
    """A recorded value the inputs constructors cannot write."""


_DEFAULT = object()  # "leave this argument at its schema default"


class _Text(str):
    """A value that is already case text (a search candidate filling a gap)."""


def _is_out(arg) -> bool:
    """An out= tensor: keyword-only and written."""
    return bool(arg.kwarg_only and arg.alias_info is not None and arg.alias_info.is_write)


def _number(v: Any) -> str:
    if isinstance(v, bool):
        return repr(v)
    if isinstance(v, float):
        if math.isnan(v):
            return 'float("nan")'
        if math.isinf(v):
            return 'float("inf")' if v > 0 else '-float("inf")'
        return repr(round(v, 4)) if abs(v) >= 1e-3 or v == 0 else repr(v)
    return repr(v)


def _dtype_kw(dtype: str, default: str) -> str:
    return "" if dtype == default else f', dtype="{dtype}"'


def _literal(rec: _TensorRec) -> str:
    values = rec.data.tolist()
    body = _nested(values)
    return f"tensor({body}{_dtype_kw(rec.dtype, 'float32')})"


def _nested(values: Any) -> str:
    if isinstance(values, list):
        return "[" + ", ".join(_nested(v) for v in values) + "]"
    return _number(values)


def _dims(rec: _TensorRec) -> str:
    return ", ".join(str(s) for s in rec.shape)


def _tensor_text(rec: _TensorRec, style: str) -> str:
    """A tensor's text; style: "random", "positive" or "literal" (floats)."""
    if not rec.expressible:
        raise _Unexpressible("sparse or subclass tensor")
    dims = _dims(rec)
    sep = ", " if dims else ""
    small = rec.data is not None and 0 < rec.numel <= LITERAL_MAX
    if rec.dtype == "bool":
        return _literal(rec) if small else f'randint(0, 2{sep}{dims}, dtype="bool")'
    if rec.dtype.startswith(("int", "uint")):
        if small:
            return _literal(rec)
        lo, hi = _int_range(rec)
        return f"randint({lo}, {hi}{sep}{dims}{_dtype_kw(rec.dtype, 'int64')})"
    if style == "literal" and small and not rec.dtype.startswith("complex"):
        return _literal(rec)
    ctor = "rand" if style == "positive" else "randn"
    dtype = _dtype_kw(rec.dtype, "float32")
    return f"{ctor}({dims}{dtype})" if dims else f"{ctor}({dtype[2:]})"


def _int_range(rec: _TensorRec) -> tuple[int, int]:
    if rec.data is None or rec.numel == 0:
        return 0, 2
    return int(rec.data.min()), int(rec.data.max()) + 1


def _value_text(v: Any, style: str) -> str:
    import torch

    if v is None:
        return "None"
    if isinstance(v, _Text):
        return str(v)
    if isinstance(v, _TensorRec):
        return _tensor_text(v, style)
    if isinstance(v, (bool, int, float, complex)):
        return _number(v)
    if isinstance(v, str):
        return f'"{v}"' if re.fullmatch(r"[\w .,:;!?+*/=<>()-]*", v) else repr(v)
    if isinstance(v, torch.dtype):
        return f'torch_dtype("{str(v).split(".")[-1]}")'
    if isinstance(v, (list, tuple, torch.Size)):
        return "[" + ", ".join(_value_text(x, style) for x in v) + "]"
    raise _Unexpressible(f"{type(v).__name__} value")


def _arg_text(arg, present: bool, v: Any, style: str) -> Any:
    """An argument's text, or _DEFAULT to leave it at its default."""
    t = _type(arg)
    if not present or (arg.name == "pin_memory" and not v and arg.has_default_value()):
        if arg.has_default_value():
            return _DEFAULT
        raise _Unexpressible(f"no value for required argument {arg.name!r}")
    base = _inner(t, "Optional") or t
    if base in ("number", "float", "int") and isinstance(v, _TensorRec):
        v = _as_number(v)
    try:
        return _value_text(v, style)
    except _Unexpressible:
        if not any(s in t for s in _NONE_WHEN_OPTIONAL):
            raise
    if t.startswith("Optional["):
        return "None"
    if arg.has_default_value():
        return _DEFAULT
    if t == "Device":
        return '"cpu"'
    raise _Unexpressible(f"{t} argument {arg.name!r}")


def _as_number(rec: _TensorRec) -> Any:
    """A one-element tensor recorded where the target takes a number: its value."""
    if rec.data is None or rec.numel != 1:
        raise _Unexpressible("tensor where a number is needed")
    return rec.data.item()


def _default_text(arg) -> str | None:
    if not arg.has_default_value():
        return None
    try:
        return _value_text(arg.default_value, "random")
    except _Unexpressible:
        return None


def _emit(schema, texts: dict[str, Any]) -> tuple[list[str], dict[str, str]]:
    """Positional texts up to the last non-default one; non-default keywords by name."""
    args, kwargs = schema.arguments, {}
    positional = [a for a in args if not a.kwarg_only]
    keep = [texts[a.name] is not _DEFAULT and texts[a.name] != _default_text(a)
            for a in positional]
    last = max((i for i, k in enumerate(keep) if k), default=-1)
    out, by_name = [], False
    for a in positional[:last + 1]:
        text = texts[a.name]
        if text is _DEFAULT:
            text = _default_text(a)
            if text is None:  # a default the inputs cannot write: later ones go by name
                by_name = True
                continue
        if by_name:
            kwargs[a.name] = text
        else:
            out.append(text)
    for a in args:
        if a.kwarg_only and texts[a.name] is not _DEFAULT and texts[a.name] != _default_text(a):
            kwargs[a.name] = texts[a.name]
    return out, kwargs


def _bind(schema, call: _Call) -> dict[str, Any]:
    names = [a.name for a in schema.arguments]
    bound = dict(zip(names, call.args))
    bound.update({k: v for k, v in call.kwargs.items() if k in names})
    return bound


def _call_texts(schema, bound: dict[str, Any], style: str):
    """(args_text, kwargs_text) of bound values, or None when one is unexpressible."""
    try:
        texts = {a.name: _arg_text(a, a.name in bound, bound.get(a.name), style)
                 for a in schema.arguments}
    except _Unexpressible:
        return None
    return _emit(schema, texts)


def _size(bound: dict[str, Any]) -> tuple:
    """Sort key: no empty tensors, fewest one-element tensors, then fewest elements."""
    numels = [r.numel for r in _flat(bound.values()) if isinstance(r, _TensorRec)]
    return (0 in numels, sum(n == 1 for n in numels), sum(numels))
