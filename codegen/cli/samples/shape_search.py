"""Strategy 2: a shape search (`_search`), when no OpInfo sample validates.

Per schema type a few candidate texts (`_candidates`; an out= tensor starts empty, a
fixed-length list repeats one element since some internal ops do not check the length
and segfault). Combinations are tried in order of increasing summed candidate rank,
required arguments first, then the defaulted ones too (default first); bounded by
`SEARCH_COMBOS` and `SEARCH_SECONDS`. Strategy 1 borrows `_arg_candidates` to fill the
arguments a related overload lacks.
"""

from __future__ import annotations

import time
from collections.abc import Iterable

from codegen.cli.samples.text import _DEFAULT, _default_text, _emit, _is_out
from codegen.cli.samples.validation import SampleCall, _Best, _inner, _type

SEARCH_COMBOS = 6000
SEARCH_SECONDS = 4.0

_ONE = {
    "Tensor": ["randn(2, 3)", "randn(3, 3)", "randn(3)", "randn(2)", "randn(2, 3, 4, 4)",
               'randint(0, 2, 4, dtype="int64")', 'randint(0, 2, 2, 3, dtype="bool")',
               'randint(-8, 8, 2, 3, dtype="int8")', "randn()", "rand(2, 3)",
               "randn(2, 3, 4)", "randn(1, 2, 3, 4, 4)"],
    "int": ["1", "0", "2", "-1"],  # 1 first: int-only ops (remainder.int) divide by it
    "float": ["1.0", "0.5"],
    "number": ["1.0", "1", "2"],
    "bool": ["False", "True"],
    "str": ['"sample"', '"none"', '"mean"', '"sum"', '"floor"', '"tanh"'],
    "ScalarType": ['torch_dtype("float32")', 'torch_dtype("int64")'],
    "Device": ['"cpu"'],
    "complex": ["(1+1j)"],
    "t": ["1", "2"],
}
_OUT = ["randn(0)", 'randint(0, 2, 0, dtype="int64")', 'randint(0, 2, 0, dtype="int32")',
        'randint(0, 2, 0, dtype="bool")']
_LIST = {  # element texts of list candidates
    "Tensor": [["randn(2, 3)", "randn(2, 3)"], ["randn(2, 3)"],
               ['randint(0, 2, 4, dtype="int64")']],
    "Optional[Tensor]": [['randint(0, 2, 4, dtype="int64")'],
                         ["None", 'randint(0, 2, 4, dtype="int64")']],
    "int": [["2", "3"], ["0"], ["1"], ["1", "1"], ["0", "1"], []],
    "float": [["2.0", "2.0"], ["1.0"]],
    "bool": [["True"], ["True", "True"]],
    "number": [["1.0"]],
    "str": [['"a"', '"b"']],
    "t": [["1", "2"]],
}
_BY_NAME = {("number", "size"): ["2", "1", "1.0"]}  # a Scalar size wants an int


def _candidates(t: str, name: str = "", n: int | None = None) -> list[str]:
    """Candidate texts for a schema type; `n` is a fixed list length (int[2])."""
    inner = _inner(t, "Optional")
    if inner is not None:
        return ["None"] + [c for c in _candidates(inner, name, n) if c != "None"]
    if (t, name) in _BY_NAME:
        return _BY_NAME[(t, name)]
    inner = _inner(t, "List")
    if inner is None:
        return _ONE.get(t, [])
    lists = _LIST.get(inner, [])
    if n:  # a fixed length: ops may not check it (reflection_pad1d_backward segfaults)
        firsts = dict.fromkeys(elems[0] for elems in lists if elems)
        lists = [[e] * n for e in firsts]
    return ["[" + ", ".join(elems) + "]" for elems in lists]


def _arg_candidates(arg) -> list[str]:
    """Search candidates of a schema argument: an out= tensor starts empty (torch resizes
    empty outs silently)."""
    if _is_out(arg) and "Tensor" in _type(arg):
        return list(_OUT)
    return _candidates(_type(arg), arg.name, arg.N)


def _by_rank(sizes: list[int], total: int) -> Iterable[tuple]:
    """Index tuples (one per size) whose indices sum to `total`."""
    if not sizes:
        if total == 0:
            yield ()
        return
    for i in range(min(sizes[0] - 1, total) + 1):
        for rest in _by_rank(sizes[1:], total - i):
            yield (i,) + rest


def _search(target: str, schema, tried: list) -> SampleCall | None:
    """Required arguments first; then defaulted ones too (default first)."""
    for everything in (False, True):
        options = _search_options(schema, everything)
        missing = [f"{a.name}: {_type(a)}" for a, o in options if not o]
        if missing:
            tried.append(f"shape search: no candidates for {', '.join(missing)}")
            return None
        found = _search_pass(target, schema, options, tried)
        if found:
            return found
    return None


def _search_options(schema, everything: bool) -> list[tuple]:
    """(argument, candidate texts) of the arguments a search pass varies."""
    out = []
    for a in schema.arguments:
        if not a.has_default_value():
            out.append((a, _arg_candidates(a)))
        elif everything and _arg_candidates(a):
            default = _default_text(a)
            out.append((a, [_DEFAULT] + [c for c in _arg_candidates(a) if c != default]))
    return out


def _search_pass(target: str, schema, options: list[tuple], tried: list) -> SampleCall | None:
    """Combinations of candidates, most preferred (lowest summed rank) first, bounded."""
    start, seen, best = time.perf_counter(), set(), _Best()
    sizes = [len(o) for _a, o in options]
    for total in range(sum(n - 1 for n in sizes) + 1):
        for combo in _by_rank(sizes, total):
            texts = {a.name: _DEFAULT for a in schema.arguments}
            texts.update({a.name: o[i] for (a, o), i in zip(options, combo)})
            args_text, kwargs_text = _emit(schema, texts)
            if repr((args_text, kwargs_text)) in seen:
                continue
            seen.add(repr((args_text, kwargs_text)))
            if best.offer(target, (args_text, kwargs_text), "shape search"):
                return best.sample
            if len(seen) >= SEARCH_COMBOS or time.perf_counter() - start > SEARCH_SECONDS:
                tried.append(f"shape search over {len(options)} arguments: stopped after "
                             f"{len(seen)} combinations")
                return best.sample
    tried.append(f"shape search over {len(options)} arguments: {len(seen)} combinations")
    return best.sample
