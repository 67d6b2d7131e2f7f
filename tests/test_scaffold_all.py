"""The op author's path on every ATen op ExecuTorch's WebGPU and Vulkan backends register
(tests/data/executorch_backend_ops.json): in a scratch copy of the toolkit with no specs,
each target is scaffolded as `opgen new` does it (checks, schema, sample call, spec and
kernel text), everything generates and passes `opgen check`, and each scaffolded case
runs on the harness and fails only on its values (the placeholder kernel writes NaN or an
impossible integer), never on its arguments, shapes or dtypes."""

import json
import os
import shutil
import subprocess
import sys

from scratch_repo import ROOT, copy_repo, opgen

TARGETS = [o["target"] for o in json.loads(
    (ROOT / "tests/data/executorch_backend_ops.json").read_text())["ops"]]

# targets `opgen new` refuses, with the reason it gives
NOT_OPS = {
    "aten._assert_scalar.default": "returns nothing",
    "aten.sym_constrain_range_for_size.default": "returns nothing",
    "aten.sym_size.int": "returns SymInt",
}

SCRIPT = r"""
import json, sys, traceback
from codegen.cli import scaffold
from codegen.language.loader import SpecFileError
from codegen.paths import SPECS_DIR
from codegen.emit.generate import generate

results = {}
for target in json.loads(sys.argv[1]):
    op = scaffold.op_name_for(target)
    try:
        scaffold.check_free(op, target)
        texts = scaffold.scaffold(op, target)
    except SpecFileError as e:
        results[target] = {"refused": str(e)}
        continue
    (SPECS_DIR / op).mkdir()
    for name, text in texts.items():
        (SPECS_DIR / op / name).write_text(text)
    results[target] = {"op": op}
generate()
from codegen.executors import cases, harness
from codegen.lower.catalog import catalog
runs = {r.op.op.name: r for r in cases.all_case_runs(catalog())}
for target, r in results.items():
    if "op" not in r:
        continue
    run = runs[r["op"]]
    try:
        ran = cases.run_case(run, harness.EXECUTOR)
    except Exception as e:
        r["run_error"] = f"{type(e).__name__}: {str(e).splitlines()[0][:300]}"
        continue
    try:
        cases.check(run, ran)
        r["check"] = "passed"
    except AssertionError as e:
        r["check"] = str(e)[:300]
print(json.dumps(results))
"""


def test_every_registered_aten_op_scaffolds_generates_and_fails_only_on_values(tmp_path):
    repo = copy_repo(tmp_path / "repo")
    shutil.rmtree(repo / "codegen/specs")
    (repo / "codegen/specs").mkdir()
    res = subprocess.run([sys.executable, "-c", SCRIPT, json.dumps(TARGETS)], cwd=repo,
                         capture_output=True, text=True,
                         env=dict(os.environ, XDG_RUNTIME_DIR="/tmp"))
    assert res.returncode == 0, res.stderr[-3000:]
    results = json.loads(res.stdout.strip().splitlines()[-1])
    refused = {t: r["refused"] for t, r in results.items() if "refused" in r}
    assert set(refused) == set(NOT_OPS), refused
    for target, why in NOT_OPS.items():
        assert why in refused[target], refused[target]
    problems = []
    for target, r in results.items():
        if "refused" in r:
            continue
        if "run_error" in r:
            problems.append(f"{target}: the case did not run: {r['run_error']}")
        elif r["check"] == "passed":
            problems.append(f"{target}: the placeholder kernel passed its case")
        elif not any(m in r["check"] for m in ("Mismatched elements", "Scalars are not close",
                                                "not bit-exact")):
            problems.append(f"{target}: the case failed on something else: {r['check']}")
    assert not problems, "\n".join(problems)
    assert opgen(repo, "check").returncode == 0
    print(f"scaffolded {len(results) - len(refused)} of {len(TARGETS)} targets; refused: "
          f"{', '.join(sorted(refused))}")
