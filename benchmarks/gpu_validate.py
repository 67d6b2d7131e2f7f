"""Every spec case on a GPU machine that cannot install ExecuTorch, checked here.

The GPU machine has torch but not executorch (whose custom ops give the goldens of
the et_vk/llama ops), so the work splits in two:

    python benchmarks/gpu_validate.py run OUT_DIR       # on the GPU: run every case on
                                                        # the harness, save inputs/outputs
    python benchmarks/gpu_validate.py compare OUT_DIR   # here: goldens, tolerances, routes

Cases with large inputs or results (the 2-D grid spill case, the GEMM tail split) are
checked completely on the GPU machine against torch there when their ops are torch's own
(ExecuTorch's custom ops have no golden there), so nothing large travels back.
"""

from __future__ import annotations

import argparse
import os
import pickle
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("XDG_RUNTIME_DIR", "/tmp")

import torch  # noqa: E402

from codegen.executors.wgpu_device import adapter_line  # noqa: E402
from codegen.executors.call import catalog  # noqa: E402
from codegen.executors import harness  # noqa: E402
from codegen.executors.cases import (Ran, all_case_runs, check, execute,  # noqa: E402
                                     executor_for, run_case)
from codegen.graph.errors import OpError  # noqa: E402
from codegen.language.schema import NAMESPACE_MODULES  # noqa: E402

LARGE = 6 << 20  # bytes of input above which a case is checked on the GPU machine itself
SHARD = 10 << 20  # bytes per results file (the device tool brings back files up to 16 MiB)


def _nbytes(values) -> int:
    total = 0
    for v in values:
        if isinstance(v, torch.Tensor):
            total += v.numel() * v.element_size()
        elif isinstance(v, (list, tuple)):
            total += _nbytes(v)
    return total


def _golden_here(r) -> bool:
    """Whether the GPU machine can check the case: its golden comes from torch's own ops,
    not from ExecuTorch's custom ones (not installed there)."""
    return all(t.split(".")[0] not in NAMESPACE_MODULES for t in r.op.op.targets)


def _picklable(entry: dict) -> dict:
    """The entry, or a crash naming the field torch.save cannot store (reported as that
    case's failure by `compare` instead of losing every result)."""
    for key, value in entry.items():
        try:
            pickle.dumps(value)
        except Exception as e:  # noqa: BLE001 (any pickling failure)
            return {"crash": f"result field {key!r} ({type(value).__name__}) cannot be saved: {e}"}
    return entry


def run(out_dir: Path) -> None:
    out_dir.mkdir(parents=True, exist_ok=True)
    for stale in out_dir.glob("gpu_cases*.pt"):  # compare() reads every shard there
        stale.unlink()
    results = {"adapter": adapter_line(), "cases": {}}
    for r in all_case_runs(catalog()):
        entry: dict = {}
        try:
            if _nbytes(r.args()) > LARGE and not r.case.raises:
                entry["routes"] = execute(r, harness.EXECUTOR)
                entry["checked_here"] = True
            else:
                executor = executor_for(r, harness.EXECUTOR)
                ran = run_case(r, executor)
                if _nbytes(list(vars(ran).values())) > LARGE and _golden_here(r):
                    check(r, ran, executor.features())
                    entry["routes"] = ran.routes
                    entry["checked_here"] = True
                else:
                    entry.update(vars(ran))
                    entry["features"] = sorted(executor.features())
        except OpError as e:
            entry["error"] = str(e)
        except Exception as e:  # recorded, reported as a failure by `compare`
            entry["crash"] = f"{type(e).__name__}: {e}"
        results["cases"][r.id] = _picklable(entry)
        print(f"{r.id:52} {'error' if 'error' in entry else 'crash' if 'crash' in entry else 'ran'}",
              flush=True)
    shards, size = [{}], 0
    for case_id, entry in results["cases"].items():
        n = _nbytes([v for v in entry.values() if isinstance(v, (torch.Tensor, list, tuple))])
        if size + n > SHARD and shards[-1]:
            shards.append({})
            size = 0
        shards[-1][case_id] = entry
        size += n
    for i, shard in enumerate(shards):
        # plain pickle: torch.save's pickler refused a result the per-entry check accepts
        # (on the GPU machine's Python 3.12 torch); tensors pickle either way
        with open(out_dir / f"gpu_cases{i}.pt", "wb") as f:
            pickle.dump({"adapter": results["adapter"], "cases": shard}, f, protocol=4)


def compare_results(out_dir: Path) -> int:
    results = {"cases": {}}
    for shard in sorted(out_dir.glob("gpu_cases*.pt")):
        with open(shard, "rb") as f:
            part = pickle.load(f)
        results["adapter"] = part["adapter"]
        results["cases"].update(part["cases"])
    runs = {r.id: r for r in all_case_runs(catalog())}
    passed, failures = 0, []
    unknown = sorted(set(results["cases"]) - set(runs))
    if unknown:
        more = f" and {len(unknown) - 5} more" if len(unknown) > 5 else ""
        raise SystemExit(f"{out_dir}: results for cases the specs no longer have "
                         f"({', '.join(unknown[:5])}{more}): stale results; run again")
    missing = sorted(set(runs) - set(results["cases"]))
    if missing:
        more = f" and {len(missing) - 5} more" if len(missing) > 5 else ""
        raise SystemExit(f"{out_dir}: no results for {len(missing)} of {len(runs)} cases "
                         f"({', '.join(missing[:5])}{more}): a results file did not come "
                         "back (each must stay under the device tool's 16 MiB) or the run "
                         "stopped early")
    for case_id, entry in results["cases"].items():
        r = runs[case_id]
        try:
            if "crash" in entry:
                raise AssertionError(entry["crash"])
            if r.case.raises:
                assert "error" in entry, "expected an error, got none"
                assert r.case.raises in entry["error"], f"error {entry['error']!r}"
            elif not entry.get("checked_here"):  # (checked_here: execute() checked it there)
                assert "error" not in entry, entry.get("error")
                features = entry.pop("features", None)
                check(r, Ran(**entry), None if features is None else frozenset(features))
            passed += 1
        except AssertionError as e:
            failures.append(f"{case_id}: {str(e).splitlines()[0][:200]}")
    print(f"adapter: {results['adapter']}")
    for f in failures:
        print(f"FAILED {f}")
    print(f"GPU harness: {passed} passed, {len(failures)} failed of {len(results['cases'])} cases")
    return 1 if failures else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("mode", choices=("run", "compare"))
    parser.add_argument("out_dir", type=Path)
    a = parser.parse_args()
    if a.mode == "run":
        run(a.out_dir)
        return 0
    return compare_results(a.out_dir)


if __name__ == "__main__":
    sys.exit(main())
