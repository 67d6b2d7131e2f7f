"""References a spec folder registers with torch where torch has none that is right for
the op (ExecuTorch's reference of et_vk.q8ta_linear, for one, fails on the padded scales
its own partitioner writes).

A folder's `_golden.py` (skipped by the spec loader: its name starts with `_`) defines
torch.library ops in the `opgen_golden` namespace, and the spec names one as
`Op(golden="opgen_golden.<name>.default")`. Importing this module imports every such file,
so `torch.ops.opgen_golden.*` exist (codegen.language.schema.NAMESPACE_MODULES maps the
namespace here). Each golden says in its docstring how it differs from the op's own
reference, if it has one; tests check them against those references where both apply.
"""

from __future__ import annotations

import importlib.util

from codegen.paths import SPECS_DIR

NAMESPACE = "opgen_golden"


def _load() -> list[str]:
    loaded = []
    for path in sorted(SPECS_DIR.glob("*/_golden.py")):
        name = f"opgen_golden_{path.parent.name}"
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        loaded.append(name)
    return loaded


LOADED = _load()
