"""C++ for the steps that record work: shared Params blocks, dispatches and copies.

Each step contributes to four places of the handler: the Plan struct (what the plan
function computes for it), the plan function (Params values, route, grid), add_<op>
(recording the dispatch) and, for a dynamic op, the resize hook (re-planning and
updating the recorded dispatch in place; a changed route or set of dispatches fails).
"""

from __future__ import annotations

import re

from codegen.emit.cpp_steps import Ctx, Handler, scratch_ref, tensor_refs
from codegen.lower import steps as S
from codegen.language import expr as E
from codegen.language.args import OutputList, TensorList
from codegen.language.bind import BoundDispatch, BoundParams
from codegen.language.expr.types import cpp_string
from codegen.language.features import FEATURES
from codegen.language.layout import parse_type


def kernel_const(kernel) -> str:
    return f"k{kernel.pascal}Kernel"


def kernel_source(kernel) -> str:
    """The KernelSource initializer of `kernel` (graph.h), from its `<kernel>_wgsl.h`
    constants; the trailing fields only where they differ from their defaults."""
    k = f"k{kernel.pascal}"
    fields = [f'"{kernel.name}"', f"{k}WGSL", f'"{kernel.entry}"',
              f"{{{k}WorkgroupSizeX, {k}WorkgroupSizeY, {k}WorkgroupSizeZ}}",
              f"{k}Bindings", f"{k}BindingCount"]
    if kernel.features or not kernel.runtime_checks:
        fields.append(f"{k}Features" if kernel.features else '""')
    if not kernel.runtime_checks:
        fields.append(f"{k}RuntimeChecks")
    return "{" + ", ".join(fields) + "}"


def struct_lines(block: BoundParams) -> list[str]:
    """The C++ twin of the WGSL Params struct, every offset and the size asserted."""
    name, layout = block.struct_name, block.layout
    lines = [f"struct {name} {{"] + [m.declaration() for m in layout.cpp_members] + ["};"]
    for f in layout.fields:
        lines.append(f"static_assert(offsetof({name}, {f.name}) == {f.offset}, "
                     f"\"{name}.{f.name} must sit at WGSL offset {f.offset}\");")
    lines.append(f"static_assert(sizeof({name}) == {layout.size}, "
                 f"\"{name} must match the WGSL struct size {layout.size}\");")
    return lines


def shared_member(block: BoundParams) -> str:
    """The Plan member holding a shared block."""
    key = block.key.name if block.key is not None and block.key.name else ""
    return f"params_{key}" if key else "params"


def _enclosed(text: str) -> bool:
    """Whether `text` is one parenthesized whole, as `(w != nullptr)`."""
    depth = 0
    for i, c in enumerate(text):
        depth += {"(": 1, ")": -1}.get(c, 0)
        if depth == 0:
            return i == len(text) - 1 and text.startswith("(")
    return False


def _number(e: E.Expr, one: str, zero: str, cast: str) -> str:
    """A bool or int expression as a number: a literal as a literal (`1.0`, not
    `true ? 1.0 : 0.0`), a bool as `<cond> ? one : zero`, an int through `cast`."""
    text = e.cpp()
    if e.type == E.BOOL:
        if text in ("true", "false"):
            return one if text == "true" else zero
        cond = text if re.fullmatch(r"[\w:.]+(\(\))?", text) or _enclosed(text) else f"({text})"
        return f"{cond} ? {one} : {zero}"
    if cast == "double" and e.type == E.FLOAT:
        return text
    if cast == "double" and re.fullmatch(r"-?\d+", text):
        return f"{text}.0"
    return f"static_cast<{cast}>({text})" if cast else text


def _param_lines(block: BoundParams, target: str) -> list[str]:
    lines = []
    for name, e in block.exprs.items():
        t = parse_type(block.types[name])
        field = f"{target}.{name}"
        if t.components > 1:
            lanes = f"{t.lanes}, " if t.count > 1 else ""
            lines.append(f"utils::pack({field}, {lanes}{e.cpp()}, kOp, {cpp_string(name)});")
        elif t.scalar == "f32":
            lines.append(f"{field} = utils::to_f32({e.cpp()});")
        elif e.type == E.BOOL:
            lines.append(f"{field} = {_number(e, '1', '0', '')};")
        else:
            fn = "to_u32" if t.scalar == "u32" else "to_i32"
            lines.append(f"{field} = utils::{fn}({e.cpp()}, kOp, {cpp_string(name)});")
    return lines


def pack_params(h: Handler, s: S.PackParams, ctx: Ctx) -> None:
    member = shared_member(s.block)
    h.structs.append(struct_lines(s.block))
    h.members.append(f"{s.block.struct_name} {member}{{}};")
    h.plan.extend(_param_lines(s.block, f"plan.{member}"))


def _override_cpp(route) -> str:
    items = []
    for name, e in route.overrides.items():
        value = _number(e, "1.0", "0.0", "double")
        items.append(f"{{{cpp_string(name)}, {value}}}")
    return "{" + ", ".join(items) + "}"


def _route_condition(route) -> str | None:
    """When the route runs: the device has its kernel's features and its `when` holds."""
    parts = [f"graph.has_feature(Feature::{FEATURES[f].cpp})" for f in route.route.kernel.features]
    if route.when is not None:
        parts.append(f"({route.when.cpp()})" if parts else route.when.cpp())
    return " && ".join(parts) or None


def _grid_cpp(route) -> str:
    exprs = {k: e.cpp() for k, e in route.grid.items()}
    return route.route.grid.cpp(exprs, kernel_const(route.route.kernel))


def _bindings(ctx: Ctx, d: BoundDispatch, current: str = "") -> str:
    """`current`: a foreach dispatch's item variable in add_<op>."""
    bound = ctx.bound
    refs = tensor_refs(bound)
    scratch = {s.name for s in bound.op.scratch}
    lists = {a.name: (k, a) for k, a in enumerate(bound.op.args) if isinstance(a, TensorList)}
    binds = ["Binding::params()"] if d.params else []
    for b in d.spec.bindings:
        if b.arg in scratch:
            binds.append(f"Binding::of({scratch_ref(b.arg)})")
            continue
        dummy = "Binding::dummy()"  # the kernel's binding table says how large
        if b.arg in lists and d.item_of(b, 0) != b.item:  # a foreach dispatch's entry
            binds.append(f"Binding::of(graph.get_value_list(args[{lists[b.arg][0]}])[{current}])")
        elif b.arg in lists:  # a tensor-list entry: a dummy when absent or None
            items = f"graph.get_value_list(args[{lists[b.arg][0]}])"
            binds.append(f"utils::length({items}) > {b.item} && !graph.is_null({items}[{b.item}]) "
                         f"? Binding::of({items}[{b.item}]) : {dummy}")
        elif refs[b.arg].present:
            binds.append(f"{refs[b.arg].present} ? Binding::of({refs[b.arg].ref}) : {dummy}")
        else:
            binds.append(f"Binding::of({refs[b.arg].ref})")
    return "{" + ", ".join(binds) + "}"


def _params_arg(d: BoundDispatch, plan: str, index: str = "") -> str:
    """The (pointer, size) of the dispatch's Params in `plan` ("built" or "plan")."""
    if d.params is None:
        return "nullptr, 0"
    member = shared_member(d.params) if d.params.shared else f"params{d.index}{index}"
    return f"&{plan}.{member}, sizeof({plan}.{member})"


def dispatch(h: Handler, s: S.RunKernel, ctx: Ctx) -> None:
    d = s.dispatch
    if d.params is not None and not d.params.shared:
        h.structs.append(struct_lines(d.params))
    kernels = [kernel_const(r.route.kernel) for r in d.routes]
    if len(kernels) > 1:
        h.kernel_arrays += [f"// Dispatch {d.index}'s kernels, in route order.",
                            f"const KernelSource* const kDispatch{d.index}Kernels[] = "
                            f"{{{', '.join('&' + k for k in kernels)}}};"]
    if d.foreach is not None:
        _foreach(h, d, ctx, kernels[0])
    else:
        _routed(h, d, ctx, kernels)


def _routed(h: Handler, d: BoundDispatch, ctx: Ctx, kernels: list[str]) -> None:
    i, conditional, dynamic = d.index, d.when is not None, ctx.bound.op.resize == "dynamic"
    if conditional:
        h.members.append(f"bool run{i} = true;")
    if len(kernels) > 1:
        h.members.append(f"size_t route{i} = 0;")
    if d.params is not None and not d.params.shared:
        h.members.append(f"{d.params.struct_name} params{i}{{}};")
    h.members += [f"utils::Grid grid{i};", f"std::vector<OverrideValue> overrides{i};"]

    body = _param_lines(d.params, f"plan.params{i}") if d.params and not d.params.shared else []
    for j, r in enumerate(d.routes):
        if len(d.routes) > 1:
            cond = _route_condition(r)
            body.append(f"if ({cond}) {{" if j == 0 else
                        f"}} else if ({cond}) {{" if cond is not None else "} else {")
            body.append(f"  plan.route{i} = {j};  // {r.route.kernel.name}")
        pad = "  " if len(d.routes) > 1 else ""
        body.append(f"{pad}plan.grid{i} = {_grid_cpp(r)};")
        if r.overrides:
            body.append(f"{pad}plan.overrides{i} = {_override_cpp(r)};")
    if len(d.routes) > 1:
        body.append("}")
    if d.active is not None:
        h.members.append(f"bool active{i} = true;")
        body.append(f"plan.active{i} = {d.active.cpp()};")
    if conditional:
        h.plan += [f"plan.run{i} = {d.when.cpp()};", f"if (plan.run{i}) {{"]
        h.plan += ["  " + b for b in body] + ["}"]
    else:
        h.plan += body

    kernel = f"*kDispatch{i}Kernels[built.route{i}]" if len(kernels) > 1 else kernels[0]
    call = (f"graph.add_dispatch({kernel}, built.overrides{i}, {_bindings(ctx, d)}, "
            f"{_params_arg(d, 'built')}, built.grid{i})")
    if conditional and dynamic:
        h.add.append(f"const DispatchId dispatch{i} = built.run{i} ? {call} : 0;")
    elif conditional:
        h.add += [f"if (built.run{i}) {{", f"  {call};", "}"]
    elif dynamic:
        h.add.append(f"const DispatchId dispatch{i} = {call};")
    elif d.active is not None:
        h.add.append(f"graph.set_dispatch_active({call}, built.active{i});")
    else:
        h.add.append(f"{call};")
    if dynamic and d.active is not None:
        h.add.append(f"graph.set_dispatch_active(dispatch{i}, built.active{i});")
    if dynamic:
        _routed_hook(h, d, conditional, len(kernels) > 1)


def _run_check(i: int) -> list[str]:
    return [f"if (plan.run{i} != built.run{i}) {{",
            f"  utils::fail(kOp, \"inputs\", \"were resized into a different set of "
            f"dispatches\", utils::format_value(plan.run{i}), utils::format_value(built.run{i}));",
            "}"]


def _routed_hook(h: Handler, d: BoundDispatch, conditional: bool, routed: bool) -> None:
    i = d.index
    h.captures.append(f"dispatch{i}")
    if conditional:
        h.hook += _run_check(i)
    if routed:
        h.hook += [f"if (plan.route{i} != built.route{i}) {{",
                   f"  utils::fail(kOp, \"inputs\", \"were resized into a different kernel "
                   f"route\", kDispatch{i}Kernels[plan.route{i}]->name, "
                   f"kDispatch{i}Kernels[built.route{i}]->name);",
                   "}"]
    if d.active is not None:  # the prefill or decode route of this execute
        h.hook.append(f"graph.set_dispatch_active(dispatch{i}, plan.active{i});")
    update = f"graph.update_dispatch(dispatch{i}, {_params_arg(d, 'plan')}, plan.grid{i})"
    h.hook += [f"if (built.run{i}) {{", f"  {update};", "}"] if conditional else [f"{update};"]


def _foreach(h: Handler, d: BoundDispatch, ctx: Ctx, kernel: str) -> None:
    """A dispatch run once per output of the OutputList or entry of a TensorList: its
    plan holds one Params and one grid per item (none when its `when` is false)."""
    i, each, dynamic = d.index, d.foreach, ctx.bound.op.resize == "dynamic"
    conditional = d.when is not None
    what = "entry" if isinstance(each, TensorList) else "output"
    h.members.append(f"// One dispatch per {what} of {each.name}.")
    if conditional:
        h.members.append(f"bool run{i} = true;")
    if d.params is not None:
        h.members.append(f"std::vector<{d.params.struct_name}> params{i};")
    h.members += [f"std::vector<utils::Grid> grid{i};", f"std::vector<OverrideValue> overrides{i};"]
    r = d.routes[0]
    exprs = (list(d.params.exprs.values()) if d.params else []) + list(r.grid.values())
    body = []
    if isinstance(each, OutputList) and any(each.item.name in e.names for e in exprs):
        body.append(f"const Tensor& {each.item.name} = graph.get_tensor(utils::at({each.name}, "
                    f"{each.index}));")
    if d.params is not None:
        body.append(f"{d.params.struct_name}& params = plan.params{i}.emplace_back();")
        body += _param_lines(d.params, "params")
    body.append(f"plan.grid{i}.push_back({_grid_cpp(r)});")
    loop = [f"for (int64_t {each.index} = 0; {each.index} < utils::length({each.name}); "
            f"++{each.index}) {{"] + ["  " + b for b in body] + ["}"]
    if conditional:
        h.plan += [f"plan.run{i} = {d.when.cpp()};", f"if (plan.run{i}) {{"]
        h.plan += ["  " + line for line in loop] + ["}"]
    else:
        h.plan += loop

    k = each.index
    call = (f"graph.add_dispatch({kernel}, built.overrides{i}, {_bindings(ctx, d, k)}, "
            f"{_params_arg(d, 'built', f'[{k}]')}, built.grid{i}[{k}])")
    if dynamic:
        h.add.append(f"std::vector<DispatchId> dispatch{i};")
    h.add += [f"for (size_t {k} = 0; {k} < built.grid{i}.size(); ++{k}) {{",
              f"  dispatch{i}.push_back({call});" if dynamic else f"  {call};", "}"]
    if dynamic:
        h.captures.append(f"dispatch{i}")
        h.hook += _run_check(i) if conditional else []
        h.hook += [f"for (size_t {k} = 0; {k} < dispatch{i}.size(); ++{k}) {{",
                   f"  graph.update_dispatch(dispatch{i}[{k}], {_params_arg(d, 'plan', f'[{k}]')}, "
                   f"plan.grid{i}[{k}]);",
                   "}"]


def copy(h: Handler, s: S.CopyBuffer, ctx: Ctx) -> None:
    d = s.dispatch
    i, conditional, dynamic = d.index, d.when is not None, ctx.bound.op.resize == "dynamic"
    refs = tensor_refs(ctx.bound)
    src, dst = refs[d.spec.src].ref, refs[d.spec.dst].ref
    if conditional:
        h.members.append(f"bool run{i} = true;")
        h.plan.append(f"plan.run{i} = {d.when.cpp()};")
    h.members.append(f"uint64_t nbytes{i} = 0;")
    h.plan.append(f"plan.nbytes{i} = {d.nbytes.cpp()};")
    h.add += ["// A dispatch cannot read and write one buffer; an aliased output needs no copy.",
              f"const bool copy{i} = {f'built.run{i} && ' if conditional else ''}"
              f"!graph.same_buffer({src}, {dst});"]
    if dynamic:
        h.add.append(f"const DispatchId dispatch{i} = copy{i} ? graph.add_copy({src}, {dst}, "
                     f"built.nbytes{i}) : 0;")
        h.captures += [f"dispatch{i}", f"copy{i}"]
        h.hook += _run_check(i) if conditional else []
        h.hook += [f"if (copy{i}) {{", f"  graph.update_copy(dispatch{i}, plan.nbytes{i});", "}"]
    else:
        h.add += [f"if (copy{i}) {{", f"  graph.add_copy({src}, {dst}, built.nbytes{i});", "}"]
