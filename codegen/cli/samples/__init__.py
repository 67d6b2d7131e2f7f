"""A small, valid sample call of any ATen overload, written as spec case text.

Design note
-----------
`opgen new` needs one case whose arguments are a call torch accepts. `sample_call(target)`
finds one and returns it as Python source text built from the constructors of
`codegen/graph/inputs.py` (randn, rand, randint, tensor, torch_dtype); `case_text` turns it
into the pieces of `Case("basic", (...), kwargs={...})`.

Where samples come from, in order:

1. torch's OpInfo database: the samples of the OpInfos whose names relate to the target,
   recorded as aten calls (`opinfos`), calls of the target itself or of a related overload
   bound by argument name (`opinfo_samples`).
2. A shape search over a few candidate texts per schema type (`shape_search`).

Recorded values become text in `text`. Every sample is validated (`validation`): its
texts are eval'ed in `NAMESPACE`, materialized with two seeds and the overload is called
on CPU. If nothing validates, `SampleError` names the target and what was tried. A few
internal torch kernels segfault on bad arguments (reflection_pad1d_backward with a short
padding list, which the search now avoids; _batch_norm_no_update without running stats):
`sample_call_isolated` runs the search in a child process (`python -m
codegen.cli.samples TARGET`, see `__main__`) so that such a crash becomes a SampleError.

The modules import in one direction: validation <- opinfos <- text <- shape_search <-
opinfo_samples <- this package's API; none imports the package itself.
"""

from __future__ import annotations

import re

from codegen.cli.samples.opinfo_samples import MAX_VALIDATIONS, _from_opinfo
from codegen.cli.samples.opinfos import CLONE_MAX, MAX_SAMPLES, OPINFO_SECONDS
from codegen.cli.samples.shape_search import SEARCH_COMBOS, SEARCH_SECONDS, _search
from codegen.cli.samples.text import LITERAL_MAX
from codegen.cli.samples.validation import (
    GOOD,
    NAMESPACE,
    SampleCall,
    SampleError,
    check_sample,
    materialize_call,
    resolve,
)

__all__ = [
    "CLONE_MAX", "GOOD", "LITERAL_MAX", "MAX_SAMPLES", "MAX_VALIDATIONS", "NAMESPACE",
    "OPINFO_SECONDS", "SEARCH_COMBOS", "SEARCH_SECONDS", "SampleCall", "SampleError",
    "args_tuple_text", "case_text", "check_sample", "imports_needed", "kwargs_dict_text",
    "materialize_call", "resolve", "sample_call", "sample_call_isolated",
]


def _note(schema) -> str:
    returns = [str(r.type) for r in schema.returns]
    if not returns:
        return "returns nothing"
    if not any("Tensor" in r for r in returns):
        return f"returns no tensor ({', '.join(returns)})"
    return ""


def sample_call(target: str) -> SampleCall:
    """A small valid call of `target` ("aten.op.overload") as inputs-constructor text."""
    schema = resolve(target)._schema
    tried: list[str] = []
    for strategy in (_from_opinfo, _search):
        found = strategy(target, schema, tried)
        if found:
            return SampleCall(found.args_text, found.kwargs_text, found.source, target,
                              _note(schema), tuple(tried))
    raise SampleError(f"{target}: no valid sample call found; tried: " + "; ".join(tried))


def args_tuple_text(sample: SampleCall) -> str:
    inner = ", ".join(sample.args_text)
    return f"({inner},)" if len(sample.args_text) == 1 else f"({inner})"


def kwargs_dict_text(sample: SampleCall) -> str:
    """`{"name": value, ...}`, or "" when the sample has no keyword arguments."""
    if not sample.kwargs_text:
        return ""
    return "{" + ", ".join(f'"{k}": {v}' for k, v in sample.kwargs_text.items()) + "}"


def case_text(sample: SampleCall) -> str:
    """What follows `Case("basic", `: the args tuple, then `, kwargs={...}` if any."""
    kwargs = kwargs_dict_text(sample)
    return args_tuple_text(sample) + (f", kwargs={kwargs}" if kwargs else "")


def imports_needed(sample: SampleCall) -> list[str]:
    """The codegen.graph.inputs names the sample's text uses."""
    text = " ".join(sample.args_text + list(sample.kwargs_text.values()))
    return sorted(n for n in NAMESPACE if re.search(rf"\b{n}\(", text))


def sample_call_isolated(target: str, timeout: float = 300.0) -> SampleCall:
    """sample_call in a child process: a torch crash (some internal ops segfault on the
    shape search's guesses) becomes a SampleError instead of killing the caller."""
    import json
    import subprocess
    import sys

    try:
        done = subprocess.run([sys.executable, "-m", "codegen.cli.samples", target],
                              capture_output=True, text=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        raise SampleError(f"{target}: the sample search took over {timeout:.0f} s") from None
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        raise SampleError(f"{target}: the sample search process failed "
                          f"(exit {done.returncode}): {done.stderr.strip()[-500:]}")
    found = json.loads(lines[-1])
    if "error" in found:
        raise SampleError(found["error"])
    return SampleCall(found["args_text"], found["kwargs_text"], found["source"], target,
                      found["note"], tuple(found["tried"]))


def _main(argv: list[str]) -> int:
    """`python -m codegen.cli.samples TARGET`: the sample as one JSON line."""
    import json

    try:
        s = sample_call(argv[0])
    except SampleError as e:
        print(json.dumps({"error": str(e)}))
        return 0
    print(json.dumps({"args_text": s.args_text, "kwargs_text": s.kwargs_text,
                      "source": s.source, "note": s.note, "tried": list(s.tried)}))
    return 0
