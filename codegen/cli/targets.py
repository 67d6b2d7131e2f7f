"""A target as torch knows it, for `opgen new`: its schema (a misspelled target gets the
real overloads nearest to it) and what torch.export makes of a call of it (`opgen new`
warns when the target does not survive: a spec for it then never sees an exported model;
torch.roll, for one, becomes arange, fmod and index_select)."""

from __future__ import annotations

from codegen.et.lowering import KEPT_WHOLE
from codegen.executors.call import torch_op
from codegen.language.checked import SpecError
from codegen.language.loader import SpecFileError
from codegen.language.schema import import_namespace


def torch_schema(target: str):
    """The torch op's schema; a SpecFileError when torch does not know the target."""
    import torch

    if target.count(".") != 2:
        raise SpecFileError(f"--target must be namespace.op.overload, e.g. aten.tanh.default "
                            f"(got {target!r})")
    ns, name, overload = target.split(".")
    try:
        import_namespace(ns, [target])
        return getattr(getattr(getattr(torch.ops, ns), name), overload)._schema
    except (AttributeError, RuntimeError, SpecError):
        raise SpecFileError(f"target {target!r} is not known to torch {torch.__version__} "
                            f"(torch.ops.{ns}.{name}.{overload} does not exist); "
                            f"{_nearest_targets(ns, name)}") from None


def _nearest_targets(ns: str, name: str) -> str:
    """Real targets near a misspelled one: the overloads of `ns.name` when that op exists,
    else of the ops whose names are closest to it."""
    import difflib

    import torch

    overloads: dict[str, list[str]] = {}
    for full in torch._C._dispatch_get_all_op_names():  # "aten::erf.out", "aten::erf"
        op_ns, _, rest = full.partition("::")
        if op_ns == ns:
            op, _, over = rest.partition(".")
            overloads.setdefault(op, []).append(over or "default")
    ops = [name] if name in overloads else difflib.get_close_matches(name, overloads, n=3)
    if not ops:
        return f"no {ns} op has a name close to {name!r}"
    near = [f"{ns}.{op}.{o}" for op in ops
            for o in sorted(overloads[op], key=lambda o: (o != "default", o))[:4]]
    return f"did you mean {', '.join(near)}?"




def export_decomposes(target: str, args: tuple, kwargs: dict) -> list[str] | None:
    """The operators torch.export (with the core ATen decompositions ExecuTorch's edge
    lowering runs, less the ops it keeps whole) turns this call of `target` into, when the
    target is not among them;
    None when it survives, or when the call cannot be exported on its own (an out=
    variant, a call export rejects), so there is nothing to say."""
    import torch
    from torch.utils import _pytree as pytree

    op = torch_op(target)
    if any(a.is_out for a in op._schema.arguments):
        return None
    leaves, spec = pytree.tree_flatten((args, kwargs))
    tensor_at = [i for i, v in enumerate(leaves) if isinstance(v, torch.Tensor)]

    class Call(torch.nn.Module):
        def forward(self, *tensors):
            values = list(leaves)
            for i, t in zip(tensor_at, tensors):
                values[i] = t
            call_args, call_kwargs = pytree.tree_unflatten(values, spec)
            return op(*call_args, **call_kwargs)

    try:
        exported = torch.export.export(Call(), tuple(leaves[i].clone() for i in tensor_at))
        # ours first: ExecuTorch's list takes seconds to import, and keeping more ops whole
        # only keeps more, so a target that survives ours survives both
        names = _after(exported, [torch_op(t) for t in KEPT_WHOLE])
        if target not in names:
            names = _after(exported, kept_whole())
    except Exception:  # noqa: BLE001 - export's own limits: not this check's question
        return None
    return None if target in names else names


def _after(exported, kept: list) -> list[str]:
    """The operators of `exported` after the core ATen decompositions less `kept` (as the
    lowering runs them: the partitioner keeps those whole)."""
    import torch

    table = torch.export.default_decompositions()
    for op in kept:
        table.pop(op, None)
    graph = exported.run_decompositions(table).graph
    return sorted({_name(n.target) for n in graph.nodes if n.op == "call_function"} - {""})


def kept_whole() -> list:
    """The ops our lowering keeps from decomposition: ExecuTorch's Vulkan partitioner's
    (hardswish, upsample_nearest2d.vec, ...) and ours (KEPT_WHOLE)."""
    ops = [torch_op(t) for t in KEPT_WHOLE]
    try:
        from executorch.backends.vulkan.partitioner.vulkan_partitioner import ops_not_to_decompose
    except ImportError:  # without ExecuTorch: what torch.export alone does
        return ops
    return ops + list(ops_not_to_decompose)


def _name(target) -> str:
    """`ns.op.overload` of an operator node's target ("" for getitem and the like)."""
    schema = getattr(target, "_schema", None)
    if schema is None:
        return ""
    return f"{schema.name.replace('::', '.')}.{schema.overload_name or 'default'}"


def warning(target: str, becomes: list[str]) -> str:
    into = ", ".join(becomes) if becomes else "no operator at all"
    return (f"torch.export decomposes {target} into {into}: an exported model never calls "
            f"it, so this spec serves direct calls (and the harness) only; a model's export "
            f"is delegated through the specs of those ops (or keep the target whole at export: "
            f"KEPT_WHOLE in codegen/et/lowering.py)")
