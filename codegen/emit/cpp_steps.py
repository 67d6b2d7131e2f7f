"""C++ for the steps that read and check an op call (everything before its dispatches).

One function per step kind, each appending to the `Handler` sections it contributes to
(`check`: the plan function's checks; `resize`: the resize function's body). Every
expression comes from the spec through `Expr.cpp()`, so the C++ computes exactly what
`codegen.lower.interpret` computes.
"""

from __future__ import annotations

import re

from dataclasses import dataclass, field

from codegen.lower import steps as S
from codegen.language import expr as E
from codegen.language.args import CppRead, OutputList, Outputs, Tensor
from codegen.language.bind import BoundOp
from codegen.graph.dtypes import dtype
from codegen.language.expr.types import cpp_string

CPP_TYPES = {E.INT: "int64_t", E.FLOAT: "double", E.BOOL: "bool",
             E.INT_LIST: "std::vector<int64_t>"}


@dataclass
class Handler:
    """The sections of a handler file that steps fill; the template is the skeleton."""

    structs: list[list[str]] = field(default_factory=list)  # Params structs + asserts
    kernel_arrays: list[str] = field(default_factory=list)
    members: list[str] = field(default_factory=list)  # of the Plan struct
    check: list[str] = field(default_factory=list)  # plan function, before `Plan plan;`
    plan: list[str] = field(default_factory=list)  # plan function, filling `plan`
    resize: list[str] = field(default_factory=list)  # resize function body
    add: list[str] = field(default_factory=list)  # add_<op> body after the plan
    captures: list[str] = field(default_factory=list)  # the resize hook's captures
    hook: list[str] = field(default_factory=list)  # the resize hook body after re-planning

    @property
    def hook_reads_built(self) -> bool:
        """Whether the resize hook compares with the build-time plan (else it is not
        captured: clang warns of an unused capture)."""
        return any(re.search(r"\bbuilt\b", line) for line in self.hook)

    @property
    def add_reads_built(self) -> bool:
        """Whether add_<op> uses the build-time plan (an op with no dispatches only
        plans for its checks and SymInt outputs: a named plan would be unused)."""
        return self.hook_reads_built or any(re.search(r"\bbuilt\b", line) for line in self.add)


@dataclass(frozen=True)
class TensorRef:
    """How the handler reaches one tensor: its ValueRef expression and, for an optional
    one, the C++ test that it is given (valid anywhere in the handler)."""

    ref: str
    spec: Tensor
    present: str = ""


def tensor_refs(bound: BoundOp) -> dict[str, TensorRef]:
    """Every tensor; an OutputList's item is reachable inside its per-output loops only."""
    refs = {}
    for i, a in enumerate(bound.op.args):
        if isinstance(a, OutputList):
            refs[a.item.name] = TensorRef(f"utils::at(graph.get_value_list(args[{i}]), "
                                          f"{a.index})", a.item)
        elif isinstance(a, Outputs):
            for j, item in enumerate(a.items):
                ref = f"graph.get_value_list(args[{i}])[{j}]"
                present = f"graph.get_value_list(args[{i}]).size() > {j} && !graph.is_null({ref})"
                refs[item.name] = TensorRef(ref, item, present if item.optional else "")
        elif isinstance(a, Tensor):
            refs[a.name] = TensorRef(f"args[{i}]", a,
                                     f"!graph.is_null(args[{i}])" if a.optional else "")
    return refs


def item_loop(ol: OutputList, body: list[str], item: str = "", mutable: bool = False) -> list[str]:
    """`body` once per output of the OutputList, with `argument` naming the output
    ("out[1]") and, when `item` is set, the item tensor declared."""
    i = ol.index
    lines = [f"for (int64_t {i} = 0; {i} < utils::length({ol.name}); ++{i}) {{"]
    if any("argument" in b for b in body):
        lines.append(f'  const std::string argument = "{ol.name}[" + std::to_string({i}) + "]";')
    if item:
        const = "" if mutable else "const "
        lines.append(f"  {const}Tensor& {item} = graph.get_tensor(utils::at({ol.name}, {i}));")
    return lines + ["  " + b for b in body] + ["}"]


@dataclass(frozen=True)
class Ctx:
    """What a step's C++ depends on besides the step: the op, and whether the step is in
    the resize function (else in the plan function)."""

    lowering: S.Lowering
    null_tested: frozenset[str]
    resize: bool = False

    @property
    def bound(self) -> BoundOp:
        return self.lowering.bound


def _section(h: Handler, resize: bool) -> list[str]:
    return h.resize if resize else h.check


def read_arg(h: Handler, s: S.ReadArg, ctx: Ctx) -> None:
    bound = ctx.bound
    a = s.arg
    fallback = bound.defaults[a.name].cpp() if a.name in bound.defaults else ""
    tested = a.name in ctx.null_tested
    _section(h, s.mutable).extend(a.cpp_read(CppRead(f"args[{s.index}]", s.mutable, fallback,
                                                     tested)))


def _dtype_list(dtypes) -> str:
    return ", ".join(f"DType::{dtype(d).cpp}" for d in dtypes)


def _checks(t: Tensor, label: str, target: str) -> list[str]:
    lines = [f"utils::check_dtype(kOp, {label}, {target}, {{{_dtype_list(t.dtypes)}}});"]
    if t.rank is not None:
        lo, hi = (t.rank, t.rank) if isinstance(t.rank, int) else t.rank
        lines.append(f"utils::check_rank(kOp, {label}, {target}, {lo}, {hi});")
    return lines


def check_tensor(h: Handler, s: S.CheckTensor, ctx: Ctx) -> None:
    t = s.tensor
    if not t.optional:
        h.check.extend(_checks(t, cpp_string(t.name), t.name))
        return
    h.check.append(f"if ({t.name} != nullptr) {{")
    h.check.extend("  " + c for c in _checks(t, cpp_string(t.name), f"*{t.name}"))
    h.check.append("}")


def check_tensor_list(h: Handler, s: S.CheckTensorList, ctx: Ctx) -> None:
    a = s.arg
    name = cpp_string(a.name)
    if a.max_items is not None:
        h.check += [f"if ({a.name}.size() > {a.max_items}) {{",
                    f"  utils::fail(kOp, {name}, \"holds too many tensors\", "
                    f"utils::format_value(utils::length({a.name})), \"at most {a.max_items}\");",
                    "}"]
    h.check += [f"for (const Tensor* item : {a.name}) {{"]
    if not a.optional_items:
        h.check += ["  if (item == nullptr) {",
                    f"    utils::fail(kOp, {name}, \"holds a None entry\", \"None\", "
                    f"\"a tensor\");",
                    "  }"]
    h.check.append("  if (item != nullptr) {")
    h.check.extend("    " + c for c in _checks(a, name, "*item"))
    h.check += ["  }", "}"]


def check_output_items(h: Handler, s: S.CheckOutputItems, ctx: Ctx) -> None:
    item = s.arg.item
    h.check.extend(item_loop(s.arg, _checks(item, "argument.c_str()", item.name), item.name))


def let(h: Handler, s: S.Let, ctx: Ctx) -> None:
    ctype, value = CPP_TYPES[s.expr.type], s.expr.cpp()
    if _may_throw(value):  # utils::let names the op and the let when it does
        value = (f"utils::let(kOp, {cpp_string(f'{s.name} = {s.expr.text}')}, "
                 f"[&]() -> {ctype} {{ return {value}; }})")
    _section(h, ctx.resize).append(f"const {ctype} {s.name} = {value};")


def _may_throw(cpp: str) -> bool:
    """Whether C++ an expression rendered to may throw: any call but `.rank()` may (a dim
    out of range, a checked overflow, a division by zero); names, literals, operators
    and comparisons do not."""
    return re.search(r"[A-Za-z_]\w*\s*\(", cpp.replace(".rank()", "")) is not None


def guard(h: Handler, s: S.CheckGuard, ctx: Ctx) -> None:
    g = s.guard
    if all(isinstance(p, str) for p in g.expected):
        expected = cpp_string("".join(g.expected))
    else:
        expected = " + ".join(
            cpp_string(p) if isinstance(p, str) else f"utils::format_value({p.cpp()})"
            for p in g.expected if p != "") or '""'
    h.check += [f"if ({g.check.cpp_negated()}) {{",
                f"  utils::fail(kOp, {cpp_string(g.guard.arg)}, {cpp_string(g.guard.what)}, "
                f"utils::format_value({g.got.cpp()}), {expected});",
                "}"]


def check_output_count(h: Handler, s: S.CheckOutputCount, ctx: Ctx) -> None:
    h.check.append(f"utils::check_output_count(kOp, {cpp_string(s.arg.name)}, {s.arg.name}, "
                   f"{s.count.cpp()});")


def output_shape(h: Handler, s: S.OutputShape, ctx: Ctx) -> None:
    """Build: the output must have the formula's shape; resize: it takes that shape."""
    helper = "resize_output" if s.resize else "check_output_dims"
    section = _section(h, s.resize)
    if s.each is not None:
        section.extend(item_loop(s.each, [
            f"utils::{helper}(kOp, argument.c_str(), {s.name}, {s.shape.cpp()});"], s.name,
            mutable=s.resize))
    elif s.optional:
        section += [f"if ({s.name} != nullptr) {{",
                    f"  utils::{helper}(kOp, {cpp_string(s.name)}, *{s.name}, {s.shape.cpp()});",
                    "}"]
    else:
        section.append(f"utils::{helper}(kOp, {cpp_string(s.name)}, {s.name}, {s.shape.cpp()});")


def set_symint(h: Handler, s: S.SetSymInt, ctx: Ctx) -> None:
    """Build and every resize: the SymInt output takes its value on the host."""
    h.plan.append(f"graph.set_symint(args[{s.index}], {s.value.cpp()});")


def scratch_ref(name: str) -> str:
    """The C++ variable holding a scratch tensor's ValueRef in add_<op> and its hook."""
    return f"scratch_{name}"


def scratch_shape(h: Handler, s: S.ScratchShape, ctx: Ctx) -> None:
    """A local Tensor that later expressions read; add_<op> allocates the real one."""
    name, ref = s.scratch.name, scratch_ref(s.scratch.name)
    h.check += [f"Tensor {name};  // scratch, allocated by add_{ctx.bound.op.name}",
                f"{name}.dtype = DType::{dtype(s.scratch.dtype).cpp};",
                f"{name}.max_dims = {s.shape.cpp()};",
                f"{name}.live_dims = {name}.max_dims;"]
    h.members.append(f"std::vector<int64_t> {ref};  // dims of scratch tensor {name}")
    h.plan.append(f"plan.{ref} = {name}.dims();")
    elem = f"DType::{dtype(s.scratch.dtype).cpp}"
    if s.scratch.shared:
        h.add += [f"// Scratch tensor {name}: in the graph's buffer shared by every op's {name}, "
                  f"written and read by this op's dispatches only.",
                  f'const ValueRef {ref} = graph.add_shared_tensor("{name}", {elem}, '
                  f"built.{ref});"]
    else:
        h.add += [f"// Scratch tensor {name}: owned by the graph, written and read by this op's "
                  f"dispatches.",
                  f"const ValueRef {ref} = graph.add_tensor({elem}, built.{ref});"]
    h.captures.append(ref)
    h.hook.append(f"graph.resize_tensor({ref}, plan.{ref});")
