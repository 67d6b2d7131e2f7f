"""Recording torch's OpInfo samples, and choosing the OpInfos that relate to a target.

The OpInfo database (`op_db`) is imported lazily: ~6 s, most of a cold call. OpInfos are
ranked by how their names relate to the target (`_relevance`: 3 = same name stem, 2 = one
name's tokens extend the other's, 1 = a shared significant token) and grouped in stages,
best first (`_stages`). An OpInfo's sample inputs (cpu, its first dtype of
float32/int64/bool/...; same-name OpInfos also their second) run under `_Recorder`, a
TorchDispatchMode that records every aten call. It runs in inference mode, where the mode
also sees CompositeImplicitAutograd ops (softmax.int, linear, upsample_*.vec); it records
them and re-enters itself while decomposing them, so what they decompose into is recorded
too. For a `*_backward` target the samples also run their backward pass (outside
inference mode). Each OpInfo is recorded once per process (cached), at most
`MAX_SAMPLES` samples, under a fixed seed (the caller's RNG state is kept).

Recorded values are `_TensorRec`s (shape, dtype, a clone when small) inside `_Call`s;
`text` writes them as case text.
"""

from __future__ import annotations

import contextlib
import itertools
import math
import re
import threading
import time
import warnings
from dataclasses import dataclass
from functools import cache
from typing import Any

from codegen.cli.samples.validation import _flat

MAX_SAMPLES = 32  # sample inputs run per OpInfo and dtype
OPINFO_SECONDS = 2.0  # safety cap per OpInfo recording
CLONE_MAX = 1 << 14  # recorded tensors up to this many elements keep their values
_STOP = {"nn", "functional", "with", "no", "default", "out", "self", "like", "copy", "the",
         "legit", "training", "indices", "torch", "ops", "aten", "new", "special", "linalg",
         "int", "tensor", "scalar", "mode", "dim"}


# --- recording OpInfo samples --------------------------------------------------------------

@dataclass
class _TensorRec:
    shape: tuple
    dtype: str
    data: Any = None  # a clone when small, else None
    expressible: bool = True

    @property
    def numel(self) -> int:
        return math.prod(self.shape)


@dataclass
class _Call:
    func: Any
    args: tuple
    kwargs: dict
    out_dtypes: tuple = ()  # of its tensor results, for the out= tensors of an out variant


def _snap(value: Any) -> Any:
    import torch

    if isinstance(value, torch.Tensor):
        plain = type(value) is torch.Tensor and value.layout == torch.strided
        dtype = str(value.dtype).split(".")[-1]
        data = value.detach().clone() if plain and value.numel() <= CLONE_MAX else None
        return _TensorRec(tuple(value.shape), dtype, data, plain)
    if isinstance(value, (list, tuple)):
        return [_snap(v) for v in value]
    if isinstance(value, dict):
        return {k: _snap(v) for k, v in value.items()}
    return value


@cache
def _composite(func) -> bool:
    import torch

    return torch._C._dispatch_has_kernel_for_dispatch_key(func.name(), "CompositeImplicitAutograd")


def _recorder_class():
    import torch
    from torch.utils._python_dispatch import TorchDispatchMode

    class _Recorder(TorchDispatchMode):
        """Records every aten call, composite ones and what they decompose into."""

        def __init__(self):
            super().__init__()
            self.calls: list[_Call] = []

        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            kwargs = kwargs or {}
            call = _Call(func, tuple(_snap(args)), _snap(kwargs))
            if getattr(func, "namespace", "") == "aten":
                self.calls.append(call)
            out = NotImplemented
            if _composite(func):
                with self:
                    out = func.decompose(*args, **kwargs)
            if out is NotImplemented:
                out = func(*args, **kwargs)
            call.out_dtypes = tuple(_snap(o).dtype for o in _flat([out])
                                    if isinstance(o, torch.Tensor))
            return out

    return _Recorder


@cache
def _op_db() -> tuple:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from torch.testing._internal.common_methods_invocations import op_db
    return tuple(op_db)


def _dtypes(opinfo) -> list:
    import torch

    order = (torch.float32, torch.int64, torch.bool, torch.int32, torch.float64, torch.int8,
             torch.uint8, torch.float16, torch.bfloat16, torch.complex64)
    try:
        supported = opinfo.supported_dtypes("cpu")
    except Exception:  # noqa: BLE001
        return []
    return [d for d in order if d in supported]


@cache
def _recorded(index: int, dtype_rank: int, backward: bool = False) -> tuple:
    """The aten calls of OpInfo `index`'s first MAX_SAMPLES samples in its dtype_rank-th
    dtype; with `backward`, the calls of their backward pass too.

    Recorded in a new thread: an OpInfo's sample iterator inspects the caller's whole
    stack, with source lines, for every sample (torch's extract_test_fn), and seeding
    formats it too; under a deep stack (pytest's) that cost 3x the recording itself."""
    result: list = []
    worker = threading.Thread(target=lambda: result.append(_record(index, dtype_rank, backward)))
    worker.start()
    worker.join()
    return result[0] if result else ()


def _record(index: int, dtype_rank: int, backward: bool) -> tuple:
    import torch

    opinfo = _op_db()[index]
    dtypes = [d for d in _dtypes(opinfo) if d.is_floating_point or not backward]
    if dtype_rank >= len(dtypes):
        return ()
    recorder, calls, start = _recorder_class(), [], time.perf_counter()
    with warnings.catch_warnings(), torch.random.fork_rng(devices=[]):
        warnings.simplefilter("ignore")
        torch.manual_seed(0)
        # a sample generator that fails gives what it gave; a failing sample, its calls so far
        with contextlib.suppress(Exception):
            samples = opinfo.sample_inputs("cpu", dtypes[dtype_rank], requires_grad=backward)
            for s in itertools.islice(samples, MAX_SAMPLES):
                rec = recorder()
                with contextlib.suppress(Exception):
                    _run_sample(opinfo, s, rec, backward)
                calls.extend(rec.calls)
                if time.perf_counter() - start > OPINFO_SECONDS:
                    break
    return tuple(calls)


def _run_sample(opinfo, s, rec, backward: bool) -> None:
    """Call the OpInfo on one sample under `rec` (in inference mode unless `backward`)."""
    import torch

    if not backward:
        with torch.inference_mode(), rec:
            opinfo.op(s.input, *s.args, **s.kwargs)
        return
    with rec:
        out = opinfo.op(s.input, *s.args, **s.kwargs)
        outs = [o for o in _flat([out]) if isinstance(o, torch.Tensor) and o.requires_grad]
        ins = [i for i in _flat([s.input, s.args, list(s.kwargs.values())])
               if isinstance(i, torch.Tensor) and i.requires_grad]
        if outs and ins:
            torch.autograd.grad(outs, ins, [torch.randn_like(o) for o in outs],
                                allow_unused=True)


def _label(opinfo) -> str:
    variant = f" ({opinfo.variant_test_name})" if opinfo.variant_test_name else ""
    return f"OpInfo {opinfo.name!r}{variant}"


# --- which OpInfos relate to a target ------------------------------------------------------

def _stem(name: str) -> str:
    name = name.rsplit(".", 1)[-1].lower().strip("_")
    name = re.sub(r"_copy$", "", name)
    return re.sub(r"^native_", "", name)


def _tokens(name: str) -> list[str]:
    out = []
    for tok in re.split(r"[_\-]", _stem(name)):
        tok = re.sub(r"(?<=[a-z])\d+d$", "", tok)
        if tok:
            out.append(tok)
    return out


def _tok_eq(a: str, b: str) -> bool:
    short, long_ = sorted((a, b), key=len)
    return a == b or (len(short) >= 4 and long_.startswith(short))


@cache
def _named(name: str) -> tuple[str, tuple[str, ...]]:
    return _stem(name), tuple(_tokens(name))


@cache
def _relevance(target_name: str, key: str) -> int:
    """3: same stem; 2: one token list extends the other; 1: a shared significant token."""
    (t_stem, t), (k_stem, k) = _named(target_name), _named(key)
    if not t or not k:
        return 0
    if t_stem == k_stem:
        return 3
    n = min(len(t), len(k))
    if all(_tok_eq(a, b) for a, b in zip(t, k)) and (len(t) == len(k) or n >= 2):
        return 2
    sig = [a for a in t if a not in _STOP and len(a) >= 3]
    return 1 if any(_tok_eq(a, b) for a in sig for b in k if b not in _STOP) else 0


def _opinfo_keys(opinfo) -> set[str]:
    keys = {opinfo.name, opinfo.name.rsplit(".", 1)[-1], str(opinfo.aten_name or "")}
    for alias in getattr(opinfo, "aliases", ()) or ():
        keys.add(alias.name)
    if opinfo.variant_test_name:  # interpolate (trilinear) relates to upsample_trilinear3d
        keys.add(f"{opinfo.name.rsplit('.', 1)[-1]}_{opinfo.variant_test_name}")
    return {k for k in keys if k}


@cache
def _keys() -> tuple:
    """Per OpInfo, its names' stems (deduplicated), computed once."""
    return tuple(tuple({_stem(k): k for k in _opinfo_keys(o)}.values()) for o in _op_db())


@cache
def _stages(op_name: str) -> tuple:
    """OpInfo indices by relevance to an op name, (score, (indices...)) best first; within
    a score, the OpInfos whose names are closest in token count first."""
    by_score: dict[int, list[tuple[int, int]]] = {3: [], 2: [], 1: []}
    width = len(_named(op_name)[1])
    for i, keys in enumerate(_keys()):
        score, closeness = max((_relevance(op_name, k), -abs(len(_named(k)[1]) - width))
                               for k in keys)
        if score:
            by_score[score].append((-closeness, i))
    return tuple((s, tuple(i for _c, i in sorted(by_score[s])))
                 for s in (3, 2, 1) if by_score[s])
