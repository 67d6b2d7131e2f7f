"""`opgen new`: a new op's spec, shader and case, pre-filled from torch's schema.

Every check comes before anything is written (the name is free, torch knows the target,
no spec claims it, the op returns tensors); the spec, its kernel and what the op adds to
generated/ (its handler, its kernels' modules and headers, the shader registry, the CMake
source list, the op table) are then rendered together and committed all or nothing, so a
failed `opgen new` leaves the repository as it was. The other ops' C++ is not rendered
again: on a tree `opgen check` passed, what `opgen new` writes is what `opgen generate`
would.

What is scaffolded: each schema argument as the argument kind that serves its type
(`codegen.language.ARG_KINDS`; defaults carried over; a string's value list starts with its
default; an argument no kind serves is `Ignored`, accepting its default only), tensor
dtypes, output dtypes and shapes taken from a valid sample call of the op
(`codegen.cli.samples`), and one case: that call, keyword-only arguments by name. The
kernel writes NaN (or an impossible integer) into every output, so the case fails until
the author writes the body; the output shapes are the sample's, to be replaced by the
op's formula.
"""

from __future__ import annotations

import argparse
import ast
import re
import shutil
import sys
import textwrap
from dataclasses import dataclass

from codegen.cli import samples
from codegen.cli.targets import export_decomposes, torch_schema
from codegen.cli.targets import warning as decomposition_warning
from codegen.emit.render import GENERATED, render
from codegen.emit.writer import commit
from codegen.executors.call import shape_run, torch_op
from codegen.language import ARG_KINDS
from codegen.graph.dtypes import REGISTRY, SPEC_DTYPES, graph_dtype
from codegen.language.loader import SpecFileError, load
from codegen.paths import REPO_ROOT, SPECS_DIR, rel
from codegen.language.schema import parse_schema_args

# the word every placeholder output element is set to, by graph dtype: a NaN, an integer
# no op computes for these inputs, or bools alternating true / false
PLACEHOLDER_WORD = {"float32": "0x7fc00000u", "float16": "0x7e007e00u",
                    "int32": "0x80000000u", "bool": "0x00010001u", "uint8": "0xfefefefeu",
                    "int8": "0x80808080u"}


def add_parser(sub) -> None:
    p = sub.add_parser("new", help="scaffold a new op spec from its torch schema")
    p.add_argument("op", help="the op's name (a folder under codegen/specs/)")
    p.add_argument("--target", required=True, help="ns.op.overload, e.g. aten.tanh.default")


@dataclass(frozen=True)
class SchemaArg:
    name: str
    type: str  # as the schema spells it, alias annotations dropped
    default: str | None  # the schema's default text
    kwarg_only: bool


def schema_args(schema) -> list[SchemaArg]:
    """The arguments with their types as the schema text spells them (`SymInt[]`,
    `int[1]?`, `ScalarType?`: torch's type objects print Python-style names instead)."""
    parsed = parse_schema_args(str(schema))
    return [SchemaArg(name, stype, default[0] if default else None, a.kwarg_only)
            for (name, stype, *default), a in zip(parsed, schema.arguments)]


def op_name_for(target: str) -> str:
    """A folder/op name for a target: `aten.mean.dim` -> mean_dim, `aten._to_copy.default`
    -> to_copy (what the bulk test and a hurried author would pick)."""
    _, name, overload = target.split(".")
    base = name.strip("_").lower()
    return base if overload == "default" else f"{base}_{overload.lower()}"


def check_free(op: str, target: str) -> None:
    """The name and target are free; raises before anything is written."""
    if not re.match(r"^[a-z][a-z0-9_]*$", op):
        raise SpecFileError(f"op name must be lower_snake_case (got {op!r})")
    folder = SPECS_DIR / op
    if folder.exists():
        raise SpecFileError(f"{rel(folder)} already exists; pick another op name (or delete "
                            f"the folder to start over)")
    catalog = load()
    if any(b.op.name == op for b in catalog.ops):
        owner = next(b for b in catalog.ops if b.op.name == op)
        raise SpecFileError(f"op name {op!r} is already used by {rel(owner.spec_file)}; pick "
                            f"another name")
    owner = catalog.by_target().get(target)
    if owner is not None:
        raise SpecFileError(f"target {target} is already implemented by op {owner.op.name!r} "
                            f"in {rel(owner.spec_file)}; add a route or case there")


def cmd_new(args: argparse.Namespace) -> int:
    op, target = args.op, args.target
    check_free(op, target)
    texts, sample = scaffold_with_sample(op, target)
    folder = SPECS_DIR / op
    folder.mkdir(parents=True)
    try:  # the loader reads specs from disk: stage the two files, render what they add
        for name, text in texts.items():
            (folder / name).write_text(text)
        rendered = render(load(), ops={op})
    except BaseException:
        shutil.rmtree(folder)
        raise
    # the authored files as written, and what the op adds to generated/: its handler, its
    # kernel's module and header, the registry, the source list, the op table and schemas
    # (every other output is as `opgen generate` left it: the other ops' C++ is not redone)
    files = {**{rel(folder / n): t for n, t in texts.items()}, **rendered}
    changed = commit(REPO_ROOT, files, [], [REPO_ROOT / GENERATED, SPECS_DIR])
    print(f"created {rel(folder / (op + '.py'))} and {rel(folder / (op + '.wgsl'))}; "
          f"{len(changed)} files written")
    becomes = export_decomposes(target, *samples.materialize_call(sample, target))
    if becomes is not None:
        print(f"opgen new: warning: {decomposition_warning(target, becomes)}", file=sys.stderr)
    return 0


def scaffold(op: str, target: str) -> dict[str, str]:
    """{file name: text} of the new spec folder."""
    return scaffold_with_sample(op, target)[0]


def scaffold_with_sample(op: str, target: str) -> tuple[dict[str, str], samples.SampleCall]:
    """{file name: text} of the new spec folder, and the sample call its case makes."""
    schema = torch_schema(target)
    returns = str(schema).rsplit("->", 1)[1].strip()  # e.g. "Tensor", "(Tensor, Tensor)"
    if "Tensor" not in returns:
        raise SpecFileError(f"{target} returns {'nothing' if returns == '()' else returns}, no "
                            f"tensor: it is not an op a WebGPU delegate computes")
    try:
        sample = samples.sample_call(target)
    except samples.SampleError as e:
        raise SpecFileError(str(e)) from None
    spec = OpText(op, target, schema, sample)
    return {f"{op}.py": spec.text(), f"{op}.wgsl": spec.wgsl()}, sample


def _literal(text: str):
    """The Python value a schema default spells, or the text itself (a torch constant's
    name, such as contiguous_format)."""
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return text


def _kind_text(a: SchemaArg, sample_value) -> tuple[str, str]:
    """The spec constructor of a schema argument and the kind that wrote it (a string
    argument's values start as its default and the sample's value)."""
    strings = [_literal(a.default) if a.default not in (None, "None") else ""]
    if isinstance(sample_value, str) and sample_value not in strings:
        strings.append(sample_value)
    for kind in ARG_KINDS:
        for s in kind.SCHEMA:
            if re.match(s.pattern, a.type):
                text = s.ctor.format(name=a.name, value=repr(tuple(map(str, strings))))
                return _with_default(text, kind.__name__, a), kind.__name__
    accepts = repr(_literal(a.default)) if a.default is not None else "None"
    return f"Ignored({a.name!r}, accepts={accepts})", "Ignored"


def _with_default(text: str, kind: str, a: SchemaArg) -> str:
    """Scalars keep a non-None schema default (what a None in the graph reads as)."""
    if kind in ("Int", "Double", "Scalar", "Bool", "Str") and a.default not in (None, "None"):
        return text[:-1] + f", default={a.default})"
    return text


class OpText:
    """The scaffolded spec and kernel for one target and its sample call."""

    def __init__(self, op: str, target: str, schema, sample: samples.SampleCall):
        self.op, self.target, self.schema, self.sample = op, target, schema, sample
        self.args = schema_args(schema)
        self.inputs, self.results = _run_sample(target, schema, sample)
        self.list_output = str(schema).rsplit("->", 1)[1].strip().startswith("Tensor[]")

    def _dtype_of(self, name: str, t) -> str:
        """The graph dtype of a sample tensor; one the runtime lacks stops the scaffold."""
        d = graph_dtype(_dtype(t))
        if d not in SPEC_DTYPES:
            raise SpecFileError(f"{self.target}: {name} is a {d} tensor in the sample call "
                                f"({self.sample.source}); graph tensors are "
                                f"{', '.join(SPEC_DTYPES)}: add the dtype to "
                                f"codegen/graph/dtypes.py and the runtime first")
        return d

    def _input_specs(self) -> tuple[list[str], list[str], set[str]]:
        specs, tensors, kinds = [], [], set()
        for a, value in zip(self.args, self.inputs):
            text, kind = _kind_text(a, value)
            kinds.add(kind)
            if kind == "Tensor":
                if value is not None:
                    text = text[:-1] + f", dtypes=({self._dtype_of(a.name, value)!r},))"
                    tensors.append(a.name)
            elif kind == "TensorList":
                dtypes = {self._dtype_of(a.name, v) for v in value or [] if v is not None}
                if dtypes:
                    text = text[:-1] + f", dtypes={tuple(sorted(dtypes))!r})"
            specs.append(text)
        return specs, tensors, kinds

    def _outputs(self) -> tuple[str, list[str], dict[str, str]]:
        """The output argument, the output names and each one's shape formula."""
        results = self.results
        if self.list_output:
            dtypes = tuple(sorted({self._dtype_of("out", r) for r in results})) or ("float32",)
            shape = str(list(results[-1].shape)) if results else "[0]"
            for k in reversed(range(len(results) - 1)):
                shape = f"{list(results[k].shape)} if i == {k} else {shape}"
            return (f'OutputList("out", item=Output("item", dtypes={dtypes!r}), '
                    f'count="{len(results)}")', ["item"], {"item": shape})
        names = ["out"] if len(results) == 1 else [f"out{i}" for i in range(len(results))]
        items = [f'Output("{n}", dtypes=({self._dtype_of(n, r)!r},))'
                 for n, r in zip(names, results)]
        arg = items[0] if len(items) == 1 else f'Outputs("out", ({", ".join(items)},))'
        return arg, names, {n: self._shape_formula(r) for n, r in zip(names, results)}

    def _shape_formula(self, result) -> str:
        """An output's shape: the broadcast of the (non-optional) tensor inputs, or one
        input's dims, when the sample's output has that shape (elementwise and other
        shape-keeping ops: the output follows its inputs on resize); else the sample's
        shape, a literal for the author to turn into a formula."""
        import torch

        shape = list(result.shape)
        tensors = [(a.name, list(v.shape)) for a, v in zip(self.args, self.inputs)
                   if a.type == "Tensor" and isinstance(v, torch.Tensor)]
        if len(tensors) > 1:
            try:
                broadcast = list(torch.broadcast_shapes(*(s for _, s in tensors)))
            except RuntimeError:
                broadcast = None
            if broadcast == shape and any(s != shape for _, s in tensors):
                formula = f"{tensors[0][0]}.dims"
                for name, _ in tensors[1:]:
                    formula = f"broadcast_shape({formula}, {name}.dims)"
                return formula
        same = next((name for name, s in tensors if s == shape), None)
        return f"{same}.dims" if same else str(shape)

    def text(self) -> str:
        inputs, tensors, kinds = self._input_specs()
        out_arg, outs, shapes = self._outputs()
        binds = [f'Bind("{t}_data", "{t}", elem="u32")' for t in tensors] + \
            [f'Bind("{o}_data", "{o}", write=True, elem="u32")' for o in outs]
        words = " + ".join(f"ceil_div({o}.numel * {REGISTRY[self._out_dtype(o)].size}, 4)"
                           for o in outs)
        imports = sorted({"Bind", "Case", "Dispatch", "Elementwise", "Kernel", "Op", "Route",
                          "u32", "Output"} | kinds | ({"Outputs"} if len(outs) > 1 else set())
                         | ({"OutputList"} if self.list_output else set()))
        inputs_used = samples.imports_needed(self.sample)
        inputs_import = (_import_line("codegen.graph.inputs", inputs_used) + "\n"
                         if inputs_used else "")
        foreach = ',\n        foreach="out"' if self.list_output else ""
        # outputs whose shape follows the inputs (elementwise ops) resize with them, as must
        # an op taking a SymInt (it may change between runs); a literal shape is static
        follows = all(not s.startswith("[") for s in shapes.values())
        symint = any(a.type.startswith("SymInt") for a in self.args)
        resize = "dynamic" if follows or symint else "static"
        about = textwrap.fill(
            f"Scaffolded by `opgen new`: the argument kinds and dtypes, the output dtypes and "
            f"the case come from torch's schema and a sample call ({self.sample.source}). The "
            f"output shapes follow the inputs where the sample's did (resize \"dynamic\"); "
            f"a literal shape is the sample's, to turn into a formula (the op is \"static\" "
            f"until then). Still to write: guards with their negative cases, params, routes, "
            f"and the kernel body in {self.op}.wgsl, which writes a placeholder (NaN) into "
            f"every output until then.", width=88)
        case = f'Case("basic", {samples.case_text(self.sample)}, route="{self.op}")'
        if len(case) > 91:
            case = case.replace(', route="', ',\n             route="')
        return f'''"""{self.op}: {self.target}

{self.schema}

{about}
"""

{_import_line("codegen.language", imports)}
{inputs_import}
KERNEL = Kernel("{self.op}")

OPS = [Op(
    name="{self.op}",
    targets=["{self.target}"],
    args=[
{"".join(f"        {a},{chr(10)}" for a in inputs + [out_arg])}    ],
    shapes={{{", ".join(f'"{o}": "{s}"' for o, s in shapes.items())}}},
    resize="{resize}",
    dispatches=[Dispatch(
        params={{"num_words": u32("{words}")}},
        bindings=[
{"".join(f"            {b},{chr(10)}" for b in binds)}        ],
        routes=[Route(KERNEL, Elementwise("{words}"))]{foreach},
    )],
    cases=[
        {case},
    ],
)]
'''

    def _out_dtype(self, name: str) -> str:
        results = self.results
        r = results[0] if self.list_output or name == "out" else results[int(name[3:])]
        return graph_dtype(_dtype(r))

    def wgsl(self) -> str:
        outs = ["item"] if self.list_output else \
            (["out"] if len(self.results) == 1 else [f"out{i}" for i in range(len(self.results))])
        writes = [f"  if (i < arrayLength(&{o}_data)) {{\n"
                  f"    {o}_data[i] = {PLACEHOLDER_WORD[self._out_dtype(o)]};\n  }}"
                  for o in outs]
        return f"""// {self.op}: {self.target}
// The kernel body. `opgen generate` composes the complete module around it (the Params
// struct, the bindings, WORKGROUP_SIZE_*, linear_index) from the spec: see
// generated/ops/{self.op}/{self.op}.wgsl.

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) num_workgroups: vec3<u32>) {{
  let i = linear_index(gid, num_workgroups);
  if (i >= params.num_words) {{
    return;
  }}
  // Not written yet: a placeholder (NaN, or an impossible integer) in every output makes
  // the op's cases fail until this body computes the op.
{chr(10).join(writes)}
}}
"""


def _import_line(module: str, names: list[str]) -> str:
    """`from module import a, b, ...`, wrapped at 99 columns under the parenthesis."""
    head = f"from {module} import "
    if len(head) + len(", ".join(names)) <= 99:
        return head + ", ".join(names)
    lines, line = [], head + "("
    for i, name in enumerate(names):
        piece = name + (", " if i < len(names) - 1 else ")")
        if len(line) + len(piece.rstrip()) > 99:
            lines.append(line.rstrip())
            line = " " * (len(head) + 1)
        line += piece
    return "\n".join(lines + [line])


def _dtype(t) -> str:
    return str(t.dtype).replace("torch.", "")


def _run_sample(target: str, schema, sample: samples.SampleCall) -> tuple[list, list]:
    """The sample's value of every schema argument (defaults filled in) and torch's
    result tensors, flattened."""
    args, kwargs = samples.materialize_call(sample, target)
    result = shape_run(torch_op(target), args, kwargs)  # the shapes bind_call will take
    values = []
    for i, a in enumerate(schema.arguments):
        if i < len(args):
            values.append(args[i])
        else:
            values.append(kwargs.get(a.name, a.default_value if a.has_default_value() else None))
    results = list(result) if isinstance(result, (list, tuple)) else [result]
    return values, [r for r in results if hasattr(r, "shape")]
