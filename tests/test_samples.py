"""`sample_call`: a small valid call, as case text, for every ATen op ExecuTorch's Vulkan and
WebGPU backends register (tests/data/executorch_backend_ops.json)."""

from __future__ import annotations

import collections
import json
import time
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")

from codegen.cli import samples
from codegen.graph import inputs
from codegen.language import Case

OPS_JSON = Path(__file__).parent / "data" / "executorch_backend_ops.json"
CONSTRUCTORS = ("randn", "rand", "randint", "full", "tensor", "torch_dtype")

# target -> why it has no sample. The test fails when one of these starts to get a sample
# (remove it here) or when any other target gets none.
KNOWN_WITHOUT_SAMPLE: dict[str, str] = {}


def _targets() -> list[str]:
    return [op["target"] for op in json.loads(OPS_JSON.read_text())["ops"]]


def _eval(text: str):
    return eval(text, {name: getattr(inputs, name) for name in CONSTRUCTORS})


def _run(target: str, sample: samples.SampleCall):
    """Call the overload the way a spec case would: eval, materialize, call (on CPU)."""
    seed = f"{target}/basic"
    args = inputs.materialize(tuple(_eval(t) for t in sample.args_text), seed)
    kwargs = {k: inputs.materialize(_eval(t), f"{seed}/{k}")
              for k, t in sample.kwargs_text.items()}
    _ns, op, overload = target.split(".")
    return getattr(getattr(torch.ops.aten, op), overload)(*args, **kwargs)


def _check_layout(target: str, sample: samples.SampleCall) -> None:
    """Positional texts fit the schema's positional arguments; keyword-only ones are kwargs."""
    _ns, op, overload = target.split(".")
    schema = getattr(getattr(torch.ops.aten, op), overload)._schema
    positional = [a for a in schema.arguments if not a.kwarg_only]
    kw_only = {a.name for a in schema.arguments if a.kwarg_only}
    assert len(sample.args_text) <= len(positional), target
    assert set(sample.kwargs_text) <= {a.name for a in schema.arguments}, target
    given = {a.name for a in positional[:len(sample.args_text)]}
    assert not given & set(sample.kwargs_text), f"{target}: an argument given twice"
    missing = [a.name for a in schema.arguments
               if not a.has_default_value() and a.name not in given | set(sample.kwargs_text)]
    assert not missing, f"{target}: required arguments missing: {missing}"
    assert kw_only >= set(sample.kwargs_text) - {a.name for a in positional}


def _kind(source: str) -> str:
    if source.startswith("OpInfo"):
        return "OpInfo, related overload by name" if "by name" in source else "OpInfo"
    return source


def test_every_backend_op_has_a_valid_sample():
    counts: collections.Counter = collections.Counter()
    failures, now_working = [], []
    start = time.perf_counter()
    for target in _targets():
        try:
            sample = samples.sample_call(target)
        except samples.SampleError as e:
            counts["no sample"] += 1
            if target not in KNOWN_WITHOUT_SAMPLE:
                failures.append(f"{target}: {e}")
            continue
        if target in KNOWN_WITHOUT_SAMPLE:
            now_working.append(target)
        try:
            _check_layout(target, sample)
            _run(target, sample)
        except Exception as e:  # noqa: BLE001 - report every target that fails
            failures.append(f"{target}: {samples.case_text(sample)} fails: {e}")
        counts[_kind(sample.source)] += 1
    elapsed = time.perf_counter() - start
    print(f"\nsample sources over {len(_targets())} targets ({elapsed:.1f} s): "
          + ", ".join(f"{k}: {n}" for k, n in counts.most_common()))
    assert not failures, "\n".join(failures)
    assert not now_working, f"these now get a sample; drop them from KNOWN_WITHOUT_SAMPLE: " \
                            f"{now_working}"


def test_keyword_only_arguments_go_in_kwargs():
    sample = samples.sample_call("aten._to_copy.default")
    assert sample.kwargs_text and len(sample.args_text) == 1
    assert "torch_dtype(" in sample.kwargs_text.get("dtype", "torch_dtype(")


def test_case_text_embeds_in_a_case():
    one = samples.SampleCall(["randn(2, 3)"], {}, "test")
    assert samples.case_text(one) == "(randn(2, 3),)"
    two = samples.SampleCall(["randn(2, 3)", "1"], {"dtype": 'torch_dtype("float32")'}, "t")
    assert samples.case_text(two) == '(randn(2, 3), 1), kwargs={"dtype": torch_dtype("float32")}'
    assert samples.imports_needed(two) == ["randn", "torch_dtype"]
    namespace = {name: getattr(inputs, name) for name in CONSTRUCTORS} | {"Case": Case}
    case = eval(f'Case("basic", {samples.case_text(two)})', namespace)
    assert case.args[1] == 1 and case.kwargs["dtype"].name == "float32"


def test_unknown_target_raises():
    with pytest.raises(samples.SampleError, match="aten.no_such_op.default"):
        samples.sample_call("aten.no_such_op.default")
