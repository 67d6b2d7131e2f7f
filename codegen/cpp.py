"""C++ text for one op handler: argument unpacking, checks, plan, dispatch and resize.

Builds the pieces the `handler.cpp.j2` template assembles. Every expression comes from
the spec through `Expr.cpp()`, so the C++ computes exactly what the harness computes.
"""

from __future__ import annotations

from dataclasses import dataclass

from codegen import expr as E
from codegen.layout import parse_type
from codegen.model import (Bool, BoundDispatch, BoundOp, Copy, Double, DoubleList, Elementwise,
                           Ignored, Int, IntList, Output, Outputs, Rows, Scalar, Tensor, TensorList,
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


def tensor_refs(bound: BoundOp) -> dict[str, TensorRef]:
    refs = {}
    for i, a in enumerate(bound.op.args):
        if isinstance(a, Outputs):
            for j, item in enumerate(a.items):
                refs[item.name] = TensorRef(item.name, f"graph.get_value_list(args[{i}])[{j}]",
                                            item, item.optional)
        elif isinstance(a, Tensor):
            refs[a.name] = TensorRef(a.name, f"args[{i}]", a, a.optional)
    return refs


def scratch_ref(name: str) -> str:
    """The C++ variable holding a scratch tensor's ValueRef in add_<op> and its hook."""
    return f"scratch_{name}"


def used_names(bound: BoundOp) -> set[str]:
    """Every argument or let name the op's expressions read (and what their defaults read)."""
    exprs = list(bound.lets.values()) + list(bound.shapes.values())
    for g in bound.guards:
        exprs += [g.check, g.got] + [p for p in g.expected if not isinstance(p, str)]
    for d in bound.dispatches:
        exprs += list(d.params.values()) + list(d.copy.values())
        exprs += [d.when] if d.when is not None else []
        for r in d.routes:
            exprs += list(r.grid.values()) + list(r.overrides.values())
            exprs += [r.when] if r.when is not None else []
    exprs += list(bound.scratch.values())
    names = {n for e in exprs for n in e.names}
    for a in reversed(bound.op.args):  # a default reads only the arguments before it
        if a.name in names and a.name in bound.defaults:
            names |= set(bound.defaults[a.name].names)
    return names


def unpack_lines(bound: BoundOp, used: set[str], mutable_outputs: bool = False) -> list[str]:
    """Declarations reading from `args` the tensors and the `used` arguments."""
    lines = []
    op = bound.op
    out_const = "" if mutable_outputs else "const "
    for i, a in enumerate(op.args):
        arg = f"args[{i}]"
        wanted = a.name in used or isinstance(a, (Output, Outputs)) or (
            isinstance(a, (Tensor, TensorList)) and not mutable_outputs)
        if isinstance(a, Ignored) or not wanted:
            continue
        if isinstance(a, Outputs):
            lines.append(f"const std::vector<ValueRef>& {a.name} = graph.get_value_list({arg});")
            for j, item in enumerate(a.items):
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
        elif isinstance(a, (Int, Double, Bool)):
            read = {Double: f"graph.get_double({arg})", Bool: f"graph.get_bool({arg})"}.get(
                type(a), f"graph.get_int_or_symint({arg})" if getattr(a, "symbolic", False)
                else f"graph.get_int({arg})")
            if a.name in bound.defaults:  # an optional scalar: None takes the default
                read = f"graph.is_null({arg}) ? {bound.defaults[a.name].cpp()} : {read}"
            ctype = {Int: "int64_t", Double: "double", Bool: "bool"}[type(a)]
            lines.append(f"const {ctype} {a.name} = {read};")
        elif isinstance(a, Scalar):
            lines.append(f"const double {a.name} = graph.get_scalar({arg});")
        else:
            raise AssertionError(a)
    return lines


def tensor_check_lines(bound: BoundOp) -> list[str]:
    """dtype/rank checks of every tensor (and tensor-list entry), in argument order like the
    Python twin, so both executors report the same first error."""
    lines = []
    refs = tensor_refs(bound)
    for a in bound.op.args:
        if isinstance(a, TensorList):
            lines += _list_check_lines(a)
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


def _tensor_check_lines(t: TensorRef) -> list[str]:
    lines = []
    name = t.name
    target = f"*{name}" if t.optional else name
    dtypes = ", ".join(f"DType::{_DTYPE_ENUM[d]}" for d in t.spec.dtypes)
    check = [f"utils::check_dtype(kOp, {cpp_string(name)}, {target}, {{{dtypes}}});"]
    if t.spec.rank is not None:
        lo, hi = (t.spec.rank, t.spec.rank) if isinstance(t.spec.rank, int) else t.spec.rank
        check.append(f"utils::check_rank(kOp, {cpp_string(name)}, {target}, {lo}, {hi});")
    if t.optional:
        lines.append(f"if ({name} != nullptr) {{")
        lines.extend("  " + c for c in check)
        lines.append("}")
    else:
        lines.extend(check)
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
    lines = []
    refs = tensor_refs(bound)
    for name, e in bound.shapes.items():
        if refs[name].optional:
            lines.append(f"if ({name} != nullptr) {{")
            lines.append(f"  utils::check_output_dims(kOp, {cpp_string(name)}, *{name}, {e.cpp()});")
            lines.append("}")
        else:
            lines.append(f"utils::check_output_dims(kOp, {cpp_string(name)}, {name}, {e.cpp()});")
    return lines


def resize_output_lines(bound: BoundOp) -> list[str]:
    lines = []
    refs = tensor_refs(bound)
    for name, e in bound.shapes.items():
        if refs[name].optional:
            lines.append(f"if ({name} != nullptr) {{")
            lines.append(f"  utils::resize_output(kOp, {cpp_string(name)}, *{name}, {e.cpp()});")
            lines.append("}")
        else:
            lines.append(f"utils::resize_output(kOp, {cpp_string(name)}, {name}, {e.cpp()});")
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

    @property
    def conditional(self) -> bool:
        return any("plan.run" in l for l in self.plan_lines)


def _param_lines(d: BoundDispatch) -> list[str]:
    lines = []
    for name, e in d.params.items():
        t = parse_type(d.spec.params[name].type)
        field = f"plan.params{d.index}.{name}"
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
        return (f"utils::elementwise_grid({route.grid['count'].cpp()}, "
                f"{kernel_const}.workgroup_size[0], {limit})")
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
            # add_<op> sees ValueRefs only: presence is the value not being None
            binds.append(f"!graph.is_null({t.ref}) ? Binding::of({t.ref}) : "
                         f"Binding::dummy({max(4, elem.stride)})")
        else:
            binds.append(f"Binding::of({t.ref})")
    return DispatchCode(i, False, d.struct_name, members, asserts, kernels, plan,
                        "{" + ", ".join(binds) + "}")


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
        "static_inputs": [(t.name, t.ref, t.optional) for t in inputs],
    }
