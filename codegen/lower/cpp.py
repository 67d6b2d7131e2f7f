"""C++ text for one op handler: argument unpacking, checks, plan, dispatch and resize.

Builds the pieces the `handler.cpp.j2` template assembles. Every expression comes from
the spec through `Expr.cpp()`, so the C++ computes exactly what the harness computes.
"""

from __future__ import annotations

from dataclasses import dataclass

from codegen.spec import expr as E
from codegen.spec.layout import parse_type
from codegen.spec.model import (Bool, BoundDispatch, BoundOp, Copy, Double, DoubleList, Elementwise,
                           Ignored, Int, IntList, Output, OutputList, Outputs, Rows, Scalar, Tensor,
                           TensorList,
                           Tiles, pascal)

_DTYPE_ENUM = {"float32": "Float32", "int32": "Int32", "int64": "Int64", "bool": "Bool",
               "float16": "Float16", "uint8": "UInt8"}


def cpp_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


@dataclass
class TensorRef:
    """How the handler reaches one tensor: its C++ name and ValueRef expression."""

    name: str
    ref: str  # C++ expression of its ValueRef
    spec: Tensor
    optional: bool
    present: str = ""  # C++ test that an optional tensor is given (valid anywhere in the handler)


def tensor_refs(bound: BoundOp) -> dict[str, TensorRef]:
    """Every tensor; an OutputList's item is reachable inside its per-output loops only."""
    refs = {}
    for i, a in enumerate(bound.op.args):
        if isinstance(a, OutputList):
            refs[a.item.name] = TensorRef(a.item.name,
                                          f"utils::at(graph.get_value_list(args[{i}]), {a.index})",
                                          a.item, False)
        elif isinstance(a, Outputs):
            for j, item in enumerate(a.items):
                ref = f"graph.get_value_list(args[{i}])[{j}]"
                refs[item.name] = TensorRef(
                    item.name, ref, item, item.optional,
                    f"graph.get_value_list(args[{i}]).size() > {j} && !graph.is_null({ref})")
        elif isinstance(a, Tensor):
            refs[a.name] = TensorRef(a.name, f"args[{i}]", a, a.optional,
                                     f"!graph.is_null(args[{i}])")
    return refs


def scratch_ref(name: str) -> str:
    """The C++ variable holding a scratch tensor's ValueRef in add_<op> and its hook."""
    return f"scratch_{name}"


def all_exprs(bound: BoundOp) -> list[E.Expr]:
    exprs = list(bound.lets.values()) + list(bound.shapes.values())
    exprs += [bound.count] if bound.count is not None else []
    for g in bound.guards:
        exprs += [g.check, g.got] + [p for p in g.expected if not isinstance(p, str)]
    for d in bound.dispatches:
        exprs += list(d.params.values()) + list(d.copy.values())
        exprs += [d.when] if d.when is not None else []
        for r in d.routes:
            exprs += list(r.grid.values()) + list(r.overrides.values())
            exprs += [r.when] if r.when is not None else []
    exprs += list(bound.scratch.values())
    return exprs


def used_names(bound: BoundOp) -> set[str]:
    """Every argument or let name the op's expressions read (and what their defaults read)."""
    names = {n for e in all_exprs(bound) for n in e.names}
    for a in reversed(bound.op.args):  # a default reads only the arguments before it
        if a.name in names and a.name in bound.defaults:
            names |= set(bound.defaults[a.name].names)
    return names


def null_tested(bound: BoundOp) -> set[str]:
    """The nullable arguments some expression tests with `is None`."""
    return {n for e in all_exprs(bound) for n in e.null_tests}


def _nullable_read(bound: BoundOp, a, arg: str, read: str, tested: set[str]) -> list[str]:
    """Declarations of a scalar argument that may be None (it then reads as its default)."""
    ctype = {E.INT: "int64_t", E.FLOAT: "double", E.BOOL: "bool"}[a.expr_type()]
    if not a.nullable:
        return [f"const {ctype} {a.name} = {read};"]
    fallback = bound.defaults[a.name].cpp()
    if a.name not in tested:
        return [f"const {ctype} {a.name} = graph.is_null({arg}) ? {fallback} : {read};"]
    flag = E.null_cpp(a.name)
    return [f"const bool {flag} = graph.is_null({arg});",
            f"const {ctype} {a.name} = {flag} ? {fallback} : {read};"]


def unpack_lines(bound: BoundOp, used: set[str], mutable_outputs: bool = False) -> list[str]:
    """Declarations reading from `args` the tensors and the `used` arguments."""
    lines = []
    op = bound.op
    tested = null_tested(bound) & used
    out_const = "" if mutable_outputs else "const "
    for i, a in enumerate(op.args):
        arg = f"args[{i}]"
        wanted = a.name in used or isinstance(a, (Output, Outputs, OutputList)) or (
            isinstance(a, (Tensor, TensorList)) and not mutable_outputs)
        if isinstance(a, Ignored) or not wanted:
            continue
        if isinstance(a, OutputList):
            lines.append(f"const std::vector<ValueRef>& {a.name} = graph.get_value_list({arg});")
        elif isinstance(a, Outputs):
            lines.append(f"const std::vector<ValueRef>& {a.name} = graph.get_value_list({arg});")
            for j, item in enumerate(a.items):
                if mutable_outputs and item.unused:
                    continue  # a resize gives an unused output no shape
                if item.optional:
                    lines.append(
                        f"{out_const}Tensor* {item.name} = {a.name}.size() > {j} && "
                        f"!graph.is_null({a.name}[{j}]) ? &graph.get_tensor({a.name}[{j}]) : nullptr;")
                else:
                    lines.append(f"{out_const}Tensor& {item.name} = "
                                 f"graph.get_tensor(utils::at({a.name}, {j}));")
        elif isinstance(a, TensorList):
            lines.append(f"std::vector<const Tensor*> {a.name};  // nullptr for a None entry")
            lines.append(f"for (const ValueRef item : graph.get_value_list({arg})) {{")
            lines.append(f"  {a.name}.push_back(graph.is_null(item) ? nullptr : "
                         f"&graph.get_tensor(item));")
            lines.append("}")
        elif isinstance(a, Tensor):
            const = out_const if isinstance(a, Output) else "const "
            if a.optional:
                lines.append(f"{const}Tensor* {a.name} = graph.is_null({arg}) ? nullptr : "
                             f"&graph.get_tensor({arg});")
            else:
                lines.append(f"{const}Tensor& {a.name} = graph.get_tensor({arg});")
        elif isinstance(a, IntList):
            read = f"graph.get_int_list({arg})"
            if a.hw:
                read = f"utils::parse_hw({read}, kOp, {cpp_string(a.name)})"
            if a.optional:
                read = f"graph.is_null({arg}) ? std::vector<int64_t>{{}} : {read}"
            lines.append(f"const std::vector<int64_t> {a.name} = {read};")
        elif isinstance(a, DoubleList):
            read = f"graph.get_double_list({arg})"
            if a.optional:
                read = f"graph.is_null({arg}) ? std::vector<double>{{}} : {read}"
            lines.append(f"const std::vector<double> {a.name} = {read};")
        elif isinstance(a, Int):
            read = (f"utils::read_int(graph, {arg}, kOp, {cpp_string(a.name)}, "
                    f"{'true' if a.symbolic else 'false'})")
            lines.extend(_nullable_read(bound, a, arg, read, tested))
        elif isinstance(a, Double):
            lines.extend(_nullable_read(bound, a, arg, f"graph.get_double({arg})", tested))
        elif isinstance(a, Scalar):
            lines.extend(_nullable_read(bound, a, arg, f"graph.get_scalar({arg})", tested))
        elif isinstance(a, Bool):
            lines.extend(_nullable_read(bound, a, arg, f"graph.get_bool({arg})", tested))
        else:
            raise AssertionError(a)
    return lines


def _item_loop(bound: BoundOp, body: list[str], item: str = "", mutable: bool = False) -> list[str]:
    """`body` once per output of the OutputList, with `argument` naming the output
    ("out[1]") and, when `item` is set, the item tensor declared."""
    ol = bound.output_list
    i = ol.index
    lines = [f"for (int64_t {i} = 0; {i} < utils::length({ol.name}); ++{i}) {{"]
    if any("argument" in b for b in body):
        lines.append(f'  const std::string argument = "{ol.name}[" + std::to_string({i}) + "]";')
    if item:
        const = "" if mutable else "const "
        lines.append(f"  {const}Tensor& {item} = graph.get_tensor(utils::at({ol.name}, {i}));")
    return lines + ["  " + b for b in body] + ["}"]


def tensor_check_lines(bound: BoundOp) -> list[str]:
    """dtype/rank checks of every tensor (and tensor-list entry), in argument order like the
    Python twin, so both executors report the same first error."""
    lines = []
    refs = tensor_refs(bound)
    for a in bound.op.args:
        if isinstance(a, TensorList):
            lines += _list_check_lines(a)
        elif isinstance(a, OutputList):
            lines += _item_loop(bound, _tensor_checks(refs[a.item.name], "argument.c_str()"),
                                a.item.name)
        elif isinstance(a, Outputs):
            for item in a.items:
                lines += _tensor_check_lines(refs[item.name])
        elif isinstance(a, Tensor):
            lines += _tensor_check_lines(refs[a.name])
    return lines


def _list_check_lines(a: TensorList) -> list[str]:
    lines = []
    name = cpp_string(a.name)
    dtypes = ", ".join(f"DType::{_DTYPE_ENUM[d]}" for d in a.dtypes)
    lines.append(f"if ({a.name}.size() > {a.max_items}) {{")
    lines.append(f"  utils::fail(kOp, {name}, \"holds too many tensors\", "
                 f"utils::format_value(utils::length({a.name})), \"at most {a.max_items}\");")
    lines.append("}")
    lines.append(f"for (const Tensor* item : {a.name}) {{")
    if not a.optional_items:
        lines.append("  if (item == nullptr) {")
        lines.append(f"    utils::fail(kOp, {name}, \"holds a None entry\", \"None\", "
                     f"\"a tensor\");")
        lines.append("  }")
    lines.append("  if (item != nullptr) {")
    lines.append(f"    utils::check_dtype(kOp, {name}, *item, {{{dtypes}}});")
    if a.rank is not None:
        lo, hi = (a.rank, a.rank) if isinstance(a.rank, int) else a.rank
        lines.append(f"    utils::check_rank(kOp, {name}, *item, {lo}, {hi});")
    lines.append("  }")
    lines.append("}")
    return lines


def _tensor_checks(t: TensorRef, label: str) -> list[str]:
    target = f"*{t.name}" if t.optional else t.name
    dtypes = ", ".join(f"DType::{_DTYPE_ENUM[d]}" for d in t.spec.dtypes)
    check = [f"utils::check_dtype(kOp, {label}, {target}, {{{dtypes}}});"]
    if t.spec.rank is not None:
        lo, hi = (t.spec.rank, t.spec.rank) if isinstance(t.spec.rank, int) else t.spec.rank
        check.append(f"utils::check_rank(kOp, {label}, {target}, {lo}, {hi});")
    return check


def _tensor_check_lines(t: TensorRef) -> list[str]:
    check = _tensor_checks(t, cpp_string(t.name))
    if not t.optional:
        return check
    return [f"if ({t.name} != nullptr) {{"] + ["  " + c for c in check] + ["}"]
    return lines


def cpp_type(t: str) -> str:
    return {E.INT: "int64_t", E.FLOAT: "double", E.BOOL: "bool",
            E.INT_LIST: "std::vector<int64_t>"}[t]


def let_lines(bound: BoundOp, only: set[str] | None = None) -> list[str]:
    return [f"const {cpp_type(e.type)} {name} = {e.cpp()};"
            for name, e in bound.lets.items() if only is None or name in only]


def let_closure(bound: BoundOp, exprs: list[E.Expr]) -> set[str]:
    """The lets `exprs` need, transitively."""
    need: set[str] = set()
    todo = [n for e in exprs for n in e.names]
    while todo:
        n = todo.pop()
        if n in bound.lets and n not in need:
            need.add(n)
            todo.extend(bound.lets[n].names)
    return need


def guard_lines(bound: BoundOp) -> list[str]:
    lines = []
    for g in bound.guards:
        expected = " + ".join(
            cpp_string(p) if isinstance(p, str) else f"utils::format_value({p.cpp()})"
            for p in g.expected if p != "") or '""'
        if all(isinstance(p, str) for p in g.expected):
            expected = cpp_string("".join(g.expected))
        lines.append(f"if (!({g.check.cpp()})) {{")
        lines.append(f"  utils::fail(kOp, {cpp_string(g.guard.arg)}, {cpp_string(g.guard.what)}, "
                     f"utils::format_value({g.got.cpp()}), {expected});")
        lines.append("}")
    return lines


def scratch_lines(bound: BoundOp) -> list[str]:
    """Plan lines giving each scratch tensor its shape (a local Tensor that expressions read)."""
    lines = []
    for s in bound.op.scratch:
        lines.append(f"Tensor {s.name};  // scratch, allocated by add_{bound.op.name}")
        lines.append(f"{s.name}.dtype = DType::{_DTYPE_ENUM[s.dtype]};")
        lines.append(f"{s.name}.max_dims = {bound.scratch[s.name].cpp()};")
        lines.append(f"{s.name}.live_dims = {s.name}.max_dims;")
    return lines


def shape_check_lines(bound: BoundOp) -> list[str]:
    """Build: each output must have been allocated with the op's output shape."""
    lines = []
    ol = bound.output_list
    if ol is not None:
        lines.append(f"utils::check_output_count(kOp, {cpp_string(ol.name)}, {ol.name}, "
                     f"{bound.count.cpp()});")
    return lines + _per_output(bound, "check_output_dims", mutable=False)


def resize_output_lines(bound: BoundOp) -> list[str]:
    """Resize: each output takes the shape the formula gives for the live inputs."""
    return _per_output(bound, "resize_output", mutable=True)


def _per_output(bound: BoundOp, helper: str, mutable: bool) -> list[str]:
    """`utils::<helper>(kOp, name, tensor, formula)` for every output with a formula."""
    lines = []
    refs = tensor_refs(bound)
    ol = bound.output_list
    for name, e in bound.shapes.items():
        if ol is not None and name == ol.item.name:
            lines.extend(_item_loop(bound, [
                f"utils::{helper}(kOp, argument.c_str(), {name}, {e.cpp()});"], name,
                mutable=mutable))
        elif refs[name].optional:
            lines.append(f"if ({name} != nullptr) {{")
            lines.append(f"  utils::{helper}(kOp, {cpp_string(name)}, *{name}, {e.cpp()});")
            lines.append("}")
        else:
            lines.append(f"utils::{helper}(kOp, {cpp_string(name)}, {name}, {e.cpp()});")
    return lines


@dataclass
class DispatchCode:
    index: int
    is_copy: bool
    struct: str
    members: list[str]
    asserts: list[str]
    kernels: list[str]  # C++ names of the KernelSource constants, in route order
    plan_lines: list[str]
    bindings: str
    copy_src: str = ""
    copy_dst: str = ""
    foreach: str = ""  # an OutputList name: one dispatch per output
    index_var: str = ""  # its loop index

    @property
    def conditional(self) -> bool:
        return any("plan.run" in l for l in self.plan_lines)


def _param_lines(d: BoundDispatch, struct: str = "") -> list[str]:
    lines = []
    for name, e in d.params.items():
        t = parse_type(d.spec.params[name].type)
        field = f"{struct or f'plan.params{d.index}'}.{name}"
        if t.components > 1:
            lanes = f"{t.lanes}, " if t.count > 1 else ""
            lines.append(f"utils::pack({field}, {lanes}{e.cpp()}, kOp, {cpp_string(name)});")
        elif t.scalar == "f32":
            lines.append(f"{field} = utils::to_f32({e.cpp()});")
        elif e.type == E.BOOL:
            lines.append(f"{field} = {e.cpp()} ? 1 : 0;")
        else:
            fn = "to_u32" if t.scalar == "u32" else "to_i32"
            lines.append(f"{field} = utils::{fn}({e.cpp()}, kOp, {cpp_string(name)});")
    return lines


def _grid_cpp(route, kernel_const: str) -> str:
    g = route.route.grid
    limit = "graph.limits().max_workgroups_per_dimension"
    if isinstance(g, Elementwise):
        per_workgroup = f"{kernel_const}.workgroup_size[0]"
        if g.per_invocation > 1:
            per_workgroup += f" * {g.per_invocation}"
        return f"utils::elementwise_grid({route.grid['count'].cpp()}, {per_workgroup}, {limit})"
    if isinstance(g, Rows):
        return f"utils::elementwise_grid({route.grid['count'].cpp()}, 1, {limit})"
    if isinstance(g, Tiles):
        return (f"utils::tiles_grid({route.grid['x'].cpp()}, {route.grid['y'].cpp()}, "
                f"{route.grid['z'].cpp()}, {g.tile[0]}, {g.tile[1]}, {limit})")
    raise AssertionError(g)


def _override_cpp(route) -> str:
    items = []
    for name, e in route.overrides.items():
        value = f"{e.cpp()} ? 1.0 : 0.0" if e.type == E.BOOL else f"static_cast<double>({e.cpp()})"
        items.append(f"{{{cpp_string(name)}, {value}}}")
    return "{" + ", ".join(items) + "}"


def kernel_const(kernel) -> str:
    return f"k{kernel.pascal}Kernel"


def dispatch_code(bound: BoundOp, d: BoundDispatch) -> DispatchCode:
    i = d.index
    refs = tensor_refs(bound)
    plan = []
    guard = f"plan.run{i}"
    if d.when is not None:
        plan.append(f"plan.run{i} = {d.when.cpp()};")
    if isinstance(d.spec, Copy):
        plan.append(f"plan.nbytes{i} = {d.copy['nbytes'].cpp()};")
        return DispatchCode(i, True, "", [], [], [], plan, "", refs[d.spec.src].ref,
                            refs[d.spec.dst].ref)
    members, asserts = [], []
    if d.layout:
        members = [m.declaration() for m in d.layout.cpp_members]
        for f in d.layout.fields:
            asserts.append(f"static_assert(offsetof({d.struct_name}, {f.name}) == {f.offset}, "
                           f"\"{d.struct_name}.{f.name} must sit at WGSL offset {f.offset}\");")
        asserts.append(f"static_assert(sizeof({d.struct_name}) == {d.layout.size}, "
                       f"\"{d.struct_name} must match the WGSL struct size {d.layout.size}\");")
    kernels = [kernel_const(r.route.kernel) for r in d.routes]
    if d.foreach is not None:
        return _foreach_dispatch_code(bound, d, members, asserts, kernels)
    body = _param_lines(d)
    if len(d.routes) == 1:
        r = d.routes[0]
        body.append(f"plan.grid{i} = {_grid_cpp(r, kernels[0])};")
        if r.overrides:
            body.append(f"plan.overrides{i} = {_override_cpp(r)};")
    else:
        for j, r in enumerate(d.routes):
            head = f"if ({r.when.cpp()}) {{" if j == 0 else \
                (f"}} else if ({r.when.cpp()}) {{" if r.when is not None else "} else {")
            body.append(head)
            body.append(f"  plan.route{i} = {j};  // {r.route.kernel.name}")
            body.append(f"  plan.grid{i} = {_grid_cpp(r, kernels[j])};")
            if r.overrides:
                body.append(f"  plan.overrides{i} = {_override_cpp(r)};")
        body.append("}")
    if d.when is not None:
        plan.append(f"if ({guard}) {{")
        plan.extend("  " + b for b in body)
        plan.append("}")
    else:
        plan.extend(body)
    return DispatchCode(i, False, d.struct_name, members, asserts, kernels, plan,
                        _bindings_cpp(bound, d, refs))


def _bindings_cpp(bound: BoundOp, d: BoundDispatch, refs: dict[str, TensorRef]) -> str:
    binds = ["Binding::params()"] if d.layout else []
    lists = {a.name: (k, a) for k, a in enumerate(bound.op.args) if isinstance(a, TensorList)}
    for b in d.spec.bindings:
        if b.arg in scratch_names(bound):
            binds.append(f"Binding::of({scratch_ref(b.arg)})")
            continue
        if b.arg in lists:  # a tensor-list entry: a dummy when absent or None
            k, a = lists[b.arg]
            elem = parse_type(b.elem or {"float32": "f32", "int32": "i32"}[a.dtypes[0]],
                              uniform=False)
            items = f"graph.get_value_list(args[{k}])"
            binds.append(f"utils::length({items}) > {b.item} && !graph.is_null({items}[{b.item}]) "
                         f"? Binding::of({items}[{b.item}]) : Binding::dummy({max(4, elem.stride)})")
            continue
        t = refs[b.arg]
        if t.optional:
            elem = parse_type(b.elem or {"float32": "f32", "int32": "i32"}[t.spec.dtypes[0]],
                              uniform=False)
            binds.append(f"{t.present} ? Binding::of({t.ref}) : "
                         f"Binding::dummy({max(4, elem.stride)})")
        else:
            binds.append(f"Binding::of({t.ref})")
    return "{" + ", ".join(binds) + "}"


def _foreach_dispatch_code(bound: BoundOp, d: BoundDispatch, members, asserts,
                           kernels) -> DispatchCode:
    """A dispatch run once per output of the OutputList: its plan holds one Params and
    one grid per output."""
    ol = d.foreach
    r = d.routes[0]
    exprs = list(d.params.values()) + list(r.grid.values())
    body = []
    if any(ol.item.name in e.names for e in exprs):
        body.append(f"const Tensor& {ol.item.name} = graph.get_tensor(utils::at({ol.name}, "
                    f"{ol.index}));")
    if d.layout:
        body.append(f"{d.struct_name}& params = plan.params{d.index}.emplace_back();")
        body += _param_lines(d, "params")
    body.append(f"plan.grid{d.index}.push_back({_grid_cpp(r, kernels[0])});")
    i = ol.index
    plan = [f"for (int64_t {i} = 0; {i} < utils::length({ol.name}); ++{i}) {{"]
    plan += ["  " + b for b in body] + ["}"]
    return DispatchCode(d.index, False, d.struct_name, members, asserts, kernels, plan,
                        _bindings_cpp(bound, d, tensor_refs(bound)), foreach=ol.name, index_var=i)


def scratch_names(bound: BoundOp) -> list[str]:
    return [s.name for s in bound.op.scratch]


def handler_context(bound: BoundOp, spec_rel: str, header_includes: list[str]) -> dict:
    op = bound.op
    dispatches = [dispatch_code(bound, d) for d in bound.dispatches]
    tensors = tensor_refs(bound)
    shape_needs = let_closure(bound, list(bound.shapes.values()))
    shape_names = {n for e in list(bound.shapes.values()) + [bound.lets[n] for n in shape_needs]
                   for n in e.names}
    kernels = []
    for k in op.kernels():
        kernels.append({"const": kernel_const(k), "name": k.name, "pascal": k.pascal,
                        "entry": k.entry})
    inputs = [t for t in tensors.values() if not isinstance(t.spec, Output)]
    return {
        "spec_file": spec_rel,
        "op": op.name,
        "Op": op.pascal,
        "num_args": len(op.args),
        "targets": list(op.targets),
        "includes": header_includes,
        "kernels": kernels,
        "dispatches": dispatches,
        "unpack": unpack_lines(bound, used_names(bound)),
        "unpack_mutable": unpack_lines(bound, shape_names, mutable_outputs=True),
        "tensor_checks": tensor_check_lines(bound),
        "lets": let_lines(bound),
        "shape_lets": let_lines(bound, shape_needs),
        "guards": guard_lines(bound),
        "shape_checks": shape_check_lines(bound),
        "scratch_lines": scratch_lines(bound),
        "scratch": [{"name": s.name, "ref": scratch_ref(s.name), "dtype": _DTYPE_ENUM[s.dtype]}
                    for s in bound.op.scratch],
        "static_lists": [(a.name, i) for i, a in enumerate(op.args) if isinstance(a, TensorList)],
        "resize_outputs": resize_output_lines(bound),
        "dynamic": op.resize == "dynamic",
        "output_list": bound.output_list is not None,
        "static_inputs": [(t.name, t.ref, t.optional) for t in inputs],
    }
