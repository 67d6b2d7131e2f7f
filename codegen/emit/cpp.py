"""The C++ handler of one op: its lowering's steps rendered into the sections of
`templates/handler.cpp.j2`, which holds only the file skeleton.

The plan function runs the plan steps; the resize function (dynamic ops) the resize
steps; add_<op> records what the plan says and installs the resize hook, which re-plans
and updates the recorded dispatches (dynamic) or rejects a resized input (static).
"""

from __future__ import annotations

from codegen.emit import cpp_dispatch, cpp_steps
from codegen.emit.cpp_steps import Ctx, Handler, tensor_refs
from codegen.lower import steps as S
from codegen.language.args import Output, Tensor, TensorList
from codegen.language.dispatch import Copy
from codegen.language.expr.types import cpp_string
from codegen.language.scalar_args import Str

EMIT = {S.ReadArg: cpp_steps.read_arg, S.CheckTensor: cpp_steps.check_tensor,
        S.CheckTensorList: cpp_steps.check_tensor_list,
        S.CheckOutputItems: cpp_steps.check_output_items, S.Let: cpp_steps.let,
        S.CheckGuard: cpp_steps.guard, S.CheckOutputCount: cpp_steps.check_output_count,
        S.OutputShape: cpp_steps.output_shape, S.ScratchShape: cpp_steps.scratch_shape,
        S.SetSymInt: cpp_steps.set_symint,
        S.PackParams: cpp_dispatch.pack_params, S.RunKernel: cpp_dispatch.dispatch,
        S.CopyBuffer: cpp_dispatch.copy}


def _static_hook(lowering: S.Lowering) -> list[str]:
    """A static op's resize hook: any resized input is an error."""
    lines = []
    for name, t in tensor_refs(lowering.bound).items():
        if isinstance(t.spec, Output):
            continue
        check = f"utils::check_not_resized(kOp, \"{name}\", graph.get_tensor({t.ref}));"
        lines += ([f"if (!graph.is_null({t.ref})) {{", f"  {check}", "}"] if t.spec.optional
                  else [check])
    for i, a in enumerate(lowering.bound.op.args):
        if isinstance(a, TensorList):
            lines += [f"for (const ValueRef item : graph.get_value_list(args[{i}])) {{",
                      "  if (!graph.is_null(item)) {",
                      f"    utils::check_not_resized(kOp, {cpp_string(a.name)}, "
                      f"graph.get_tensor(item));",
                      "  }", "}"]
    return lines


def render_steps(lowering: S.Lowering) -> Handler:
    h = Handler()
    tested = frozenset(S.null_tested(lowering.bound))
    for resize, steps in ((False, lowering.plan), (True, lowering.resize)):
        ctx = Ctx(lowering, tested, resize)
        for s in steps:
            EMIT[type(s)](h, s, ctx)
    if lowering.bound.op.resize != "dynamic":
        h.hook = _static_hook(lowering)
    return h


def op_aliasing(op) -> str:
    """The OpAliasing the op registers with (cpp_runtime's graph.h): WritesInputs when a
    tensor argument is mutable; OutputMayShareInput when its one dispatch is an
    unconditional flat copy from its first argument to its last, an output (the output's
    leading bytes are then the input's, so one buffer can hold both); None otherwise."""
    if any(isinstance(a, Tensor) and a.mutable for a in op.args):
        return "WritesInputs"
    first, last = op.args[0], op.args[-1]
    if len(op.dispatches) == 1 and isinstance(op.dispatches[0], Copy):
        copy = op.dispatches[0]
        if not copy.when and copy.src == first.name and copy.dst == last.name \
                and isinstance(last, Output):
            return "OutputMayShareInput"
    return "None"


def handler_context(lowering: S.Lowering, spec_rel: str, header_includes: list[str]) -> dict:
    op = lowering.bound.op
    h = render_steps(lowering)
    kernels = [{"const": cpp_dispatch.kernel_const(k), "source": cpp_dispatch.kernel_source(k)}
               for k in op.kernels()]
    return {
        "spec_file": spec_rel,
        "op": op.name,
        "Op": op.pascal,
        "num_args": len(op.args),
        "targets": list(op.targets),
        "aliasing": op_aliasing(op),
        # WritesInputs: the positions of the arguments it writes in place
        "written_args": ", ".join(str(i) for i, a in enumerate(op.args)
                                  if isinstance(a, Tensor) and a.mutable),
        "includes": header_includes,
        # std::string: the per-output argument names of an OutputList, string arguments
        "strings": lowering.bound.output_list is not None or any(
            isinstance(a, Str) for a in op.args),
        "dynamic": op.resize == "dynamic",
        "kernels": kernels,
        "h": h,
    }
