"""Checks a spec's argument list against torch's own schema for each target.

Importing torch costs seconds, so schemas are read once per torch version and kept in
`generated/torch_schemas.json` (a generated file: `opgen check` notices when it is stale).
"""

from __future__ import annotations

import importlib
import importlib.metadata
import json
import re
from pathlib import Path

from codegen.language.args import Output, Outputs
from codegen.language.checked import SpecError
from codegen.language.op import Op


def torch_version() -> str:
    return importlib.metadata.version("torch")


# Operator namespaces torch knows only once a module registers them.
def query_torch(targets: list[str]) -> dict[str, dict]:
    import torch

    for ns in sorted({t.split(".")[0] for t in targets}):
        import_namespace(ns, [t for t in targets if t.startswith(ns + ".")])
    out = {}
    for target in targets:
        ns, name, overload = target.split(".")
        try:
            schema = getattr(getattr(getattr(torch.ops, ns), name), overload)._schema
        except (AttributeError, RuntimeError):
            raise SpecError(f"target {target!r} is not known to torch {torch.__version__} "
                            f"(torch.ops.{ns}.{name}.{overload} does not exist)") from None
        out[target] = {"schema": str(schema), "args": parse_schema_args(str(schema)),
                       "returns": len(schema.returns)}
    return out


# Custom-op namespaces and the module whose import registers them with torch.
NAMESPACE_MODULES = {
    "et_vk": "executorch.backends.vulkan.custom_ops_lib",  # ExecuTorch Vulkan custom ops
    "llama": "executorch.extension.llm.custom_ops.custom_ops",  # ExecuTorch LLM custom ops
    "dim_order_ops": "executorch.exir.passes.dim_order_ops_registry",  # dim-order copies
    "torchao": "torchao.quantization.quant_primitives",  # quantization primitives (8da4w)
    # PT2E's quantize/dequantize ops (torch registers them only when this is imported)
    "quantized_decomposed": "torch.ao.quantization.fx._decomposed",
    "opgen_ref": "codegen.graph.references",  # references for custom ops' spec cases
    "webgpu": "codegen.graph.fused_ops",  # the delegate's fused ops (vk_fusion.cpp)
}


def import_namespace(ns: str, targets: list[str] = ()) -> None:
    """Registers a custom-op namespace with torch (no-op for aten and other built-ins)."""
    if ns not in NAMESPACE_MODULES:
        return
    try:
        importlib.import_module(NAMESPACE_MODULES[ns])
    except Exception as e:  # not installed, or installed without what it needs (e.g. torch)
        raise SpecError(f"targets {', '.join(targets) or ns + '.*'} need ExecuTorch's custom "
                        f"ops ({NAMESPACE_MODULES[ns]}): pip install 'executorch==1.5.1' "
                        f"({e})") from None


def parse_schema_args(schema: str) -> list[list[str]]:
    """[[name, type], ...] from 'ns::op(Tensor self, SymInt[] pad, *, bool x=False) -> ...'."""
    inner = schema[schema.index("(") + 1:]
    depth, parts, cur = 0, [], ""
    for ch in inner:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            if depth == 0:
                break
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    parts.append(cur)
    args = []
    for p in (p.strip() for p in parts):
        if not p or p == "*":
            continue
        decl, _, default = p.partition("=")
        type_, name = decl.strip().rsplit(" ", 1)
        args.append([name, re.sub(r"\([a-z!]+\)", "", type_)] + ([default.strip()] if default else []))
    return args


CACHE_FORMAT = 2  # bump when the cached fields change: older caches are rebuilt


def schema_default(text: str, stype: str):
    """The Python value of a schema default ('None', 'False', '0.01', '[]', '1' for an
    int[2], ...)."""
    import ast

    value = ast.literal_eval(text)
    size = re.search(r"\[(\d+)\]", stype)
    if size and not isinstance(value, list) and value is not None:
        return [value] * int(size.group(1))
    return value


def cached_schema(target: str, cache_file: Path) -> dict:
    """A target's schema from the generated cache, for when its op library is not
    installed (e.g. ExecuTorch's custom ops on a machine that cannot install it)."""
    schemas = json.loads(cache_file.read_text())["schemas"]
    if target not in schemas:
        raise SpecError(f"{target} is not in {cache_file}; run `opgen generate`")
    return schemas[target]


def load_schemas(targets: list[str], cache_file: Path) -> dict[str, dict]:
    """Schemas for `targets`, from the cache when it was made by the installed torch."""
    version = torch_version()
    cached = {}
    if cache_file.exists():
        try:
            data = json.loads(cache_file.read_text())
        except json.JSONDecodeError:
            data = {}  # a damaged cache is rebuilt from torch
        if data.get("torch") == version and data.get("format") == CACHE_FORMAT:
            cached = data.get("schemas", {})
    missing = [t for t in targets if t not in cached]
    if missing:
        cached.update(query_torch(missing))
    return {"torch": version, "format": CACHE_FORMAT,
            "schemas": {t: cached[t] for t in sorted(targets)}}


def check_args(op: Op, target: str, schema: dict) -> None:
    expected = schema["args"]
    inputs = op.inputs
    got = [a.name for a in inputs]
    want = [entry[0] for entry in expected]
    if got != want:
        raise SpecError(f"args of {target} do not match torch's schema {schema['schema']!r}: "
                        f"spec has {got}, torch has {want}; list the inputs in torch's order "
                        f"with torch's names (Ignored('name') for ones the op does not read)")
    for arg, (name, stype, *_default) in zip(inputs, expected):
        if not arg.serves(stype):
            raise SpecError(f"arg {name!r} of {target} is {type(arg).__name__}"
                            f"{'(optional)' if getattr(arg, 'optional', False) else ''} in the "
                            f"spec but {stype!r} in torch's schema")
    n_out = len(op.args[-1].items) if isinstance(op.args[-1], Outputs) else 1
    if isinstance(op.args[-1], Output) and schema["returns"] != 1 or n_out != schema["returns"]:
        raise SpecError(f"{target} returns {schema['returns']} tensors in torch's schema; the "
                        f"spec declares {n_out} (use Outputs(...) with one Output per return)")
