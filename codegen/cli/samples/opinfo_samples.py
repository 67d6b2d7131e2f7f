"""Strategy 1: calls recorded from torch's OpInfo samples (`_from_opinfo`).

OpInfos run stage by stage (`opinfos._stages`), at most 16 per stage. Per stage: recorded
calls of exactly the target overload, smallest first (`_exact`), are turned into text and
validated; failing that, calls of a related overload (another overload of the op, the
view behind a `_copy`, native_batch_norm for _native_batch_norm_legit_...) bound to the
target's arguments by name ("arguments by name", `_transfer`). Out= tensors the related
call lacks become empty tensors of its results' dtypes (torch resizes empty outs
silently); other missing non-tensor arguments come from the shape search's candidates.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable

from codegen.cli.samples.opinfos import (
    _Call,
    _label,
    _op_db,
    _recorded,
    _relevance,
    _stages,
    _TensorRec,
)
from codegen.cli.samples.shape_search import _arg_candidates
from codegen.cli.samples.text import _bind, _call_texts, _is_out, _size, _Text
from codegen.cli.samples.validation import SampleCall, _Best, _type

MAX_VALIDATIONS = 24  # candidate calls validated per stage


def _first_valid(target: str, schema, candidates: Iterable) -> SampleCall | None:
    """Candidates (sort key, bound values, source), smallest first, validated in each text
    style: the first GOOD one, else the best of the first MAX_VALIDATIONS."""
    seen, best = set(), _Best()
    for _key, bound, source in sorted(candidates, key=lambda c: c[0]):
        for style in ("random", "positive", "literal"):
            texts = _call_texts(schema, bound, style)
            if texts is None or repr(texts) in seen:
                continue
            seen.add(repr(texts))
            if best.offer(target, texts, source) or len(seen) >= MAX_VALIDATIONS:
                return best.sample
    return best.sample


def _exact(target: str, schema, indices: tuple, rank: int, backward: bool) -> Iterable:
    for i in indices:
        for call in _recorded(i, rank, backward):
            if str(call.func) == target:
                bound = _bind(schema, call)
                yield _size(bound), bound, _label(_op_db()[i])


def _transfer(target: str, schema, indices: tuple, rank: int, backward: bool) -> Iterable:
    """Calls of related overloads, bound to the target's arguments by name; required
    arguments they lack (out= tensors, flags) are filled from the search candidates."""
    op_name = target.split(".")[1]
    names = {a.name for a in schema.arguments}
    required = {a.name for a in schema.arguments if not a.has_default_value()}
    for i in indices:
        for call in _recorded(i, rank, backward):
            name = str(call.func)
            score = _relevance(op_name, name.split(".")[1]) if name != target else 0
            if score < 2:
                continue
            bound = {k: v for k, v in _bind(call.func._schema, call).items() if k in names}
            key = _size(bound)  # of the inputs, not the empty outs
            bound.update(_empty_outs(schema, call))
            source = f"{_label(_op_db()[i])} via {name} (arguments by name)"
            missing = len(required - bound.keys())  # to be filled from candidates
            for filled in itertools.islice(_fill(schema, bound), 16):
                yield (-score, missing, *key), filled, source


def _empty_outs(schema, call: _Call) -> dict:
    """The out= tensors of an out variant, empty (torch resizes them silently), in the
    dtypes of the related call's results."""
    outs = [a for a in schema.arguments if _is_out(a) and _type(a) == "Tensor"]
    if len(outs) != len(call.out_dtypes):
        return {}
    return {a.name: _TensorRec((0,), dtype) for a, dtype in zip(outs, call.out_dtypes)}


def _fill(schema, bound: dict) -> Iterable[dict]:
    """`bound` with its missing required arguments set to search candidates; only out=
    tensors and non-tensor arguments are filled (a missing input means an unrelated op)."""
    missing = [a for a in schema.arguments if a.name not in bound and not a.has_default_value()]
    if any("Tensor" in _type(a) and not _is_out(a) for a in missing):
        return
    options = [_arg_candidates(a) for a in missing]
    for combo in itertools.product(*options):
        yield {**bound, **{a.name: _Text(c) for a, c in zip(missing, combo)}}


def _from_opinfo(target: str, schema, tried: list) -> SampleCall | None:
    op_name = target.split(".")[1]
    backward = "_backward" in op_name  # record the samples' backward pass too
    stages = _stages(op_name.replace("_backward", "") if backward else op_name)
    for score, indices in stages:
        indices = indices[:16]
        for rank in ((0, 1) if score == 3 else (0,)):
            for finder in (_exact, _transfer):
                found = _first_valid(target, schema, finder(target, schema, indices, rank,
                                                            backward))
                if found:
                    return found
        names = sorted({_op_db()[i].name for i in indices})
        tried.append(f"OpInfos {', '.join(names)} (relevance {score}): no valid call")
    if not stages:
        tried.append("no OpInfo relates to the name")
    return None
