"""`opgen new`: a new op's spec, shader and case, pre-filled from the torch schema.

The scaffold generates and passes `opgen check` at once; its kernel writes NaN, so its
case fails until the author writes the body.
"""

from __future__ import annotations

import argparse
import re

from codegen.emit.generate import generate
from codegen.emit.wgsl_sync import BEGIN, END
from codegen.spec import ARG_KINDS
from codegen.spec.loader import SPECS_DIR, SpecFileError, rel
from codegen.spec.schema import query_torch

def add_parser(sub) -> None:
    p = sub.add_parser("new", help="scaffold a new op spec from its torch schema")
    p.add_argument("op", help="the op's name (a folder under codegen/specs/)")
    p.add_argument("--target", required=True, help="ns.op.overload, e.g. aten.tanh.default")


def _arg(name: str, stype: str) -> tuple[str, str]:
    """The spec text and case value of a schema argument: the first argument kind whose
    schema types include it (Ignored when none does)."""
    for kind in ARG_KINDS:
        for s in kind.SCHEMA:
            if re.match(s.pattern, stype):
                return s.ctor.format(name=name), s.value
    return f"Ignored({name!r})", "None"


def spec_text(op: str, target: str, schema: dict) -> str:
    args, values, tensors = [], [], []
    for name, stype, *_default in schema["args"]:
        ctor, value = _arg(name, stype)
        args.append(ctor)
        values.append(value)
        if ctor.startswith("Tensor("):
            tensors.append(name)
    if schema["returns"] == 1:
        out = 'Output("out")'
        outputs = ["out"]
    else:
        outputs = [f"out{i}" for i in range(schema["returns"])]
        out = 'Outputs("out", (' + ", ".join(f'Output("{o}")' for o in outputs) + ",))"
    first = tensors[0] if tensors else None
    shapes = ", ".join(f'"{o}": "{first}.dims"' for o in outputs) if first else \
        ", ".join(f'"{o}": "[1]"' for o in outputs)
    binds = [f'Bind("{t}_data", "{t}")' for t in tensors] + \
        [f'Bind("{o}_data", "{o}", write=True)' for o in outputs]
    imports = sorted({"Bind", "Case", "Dispatch", "Elementwise", "Kernel", "Op", "Route", "u32",
                      "Output"} | {a.split("(")[0] for a in args}
                     | ({"Outputs"} if schema["returns"] > 1 else set()))
    case_args = ", ".join(values) + ("," if len(values) == 1 else "")
    return f'''"""{op}: {target}

{schema["schema"]}

Scaffolded by `opgen new`: adjust the arguments' dtypes and ranks, the output shape,
guards, routes and cases, then write the kernel body in {op}.wgsl.
"""

from codegen.spec.inputs import randn
from codegen.spec import {", ".join(imports)}

KERNEL = Kernel("{op}")

OPS = [Op(
    name="{op}",
    targets=["{target}"],
    args=[{", ".join(args + [out])}],
    shapes={{{shapes}}},
    resize="static",
    dispatches=[Dispatch(
        params={{"num_elements": u32("{outputs[0]}.numel")}},
        bindings=[{", ".join(binds)}],
        routes=[Route(KERNEL, Elementwise("{outputs[0]}.numel"))],
    )],
    cases=[
        Case("basic", ({case_args}), route="{op}"),
    ],
)]
'''


def wgsl_text(op: str, target: str, outputs: list[str]) -> str:
    writes = "\n".join(f"  {o}_data[i] = bitcast<f32>(0x7fc00000u);" for o in outputs)
    return f"""// {op}: {target}

{BEGIN}
{END}

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) num_workgroups: vec3<u32>) {{
  let i = linear_index(gid, num_workgroups);
  if (i >= params.num_elements) {{
    return;
  }}
  // Not written yet: NaN makes the op's cases fail until this body computes the op.
{writes}
}}
"""


def cmd_new(args: argparse.Namespace) -> int:
    op, target = args.op, args.target
    if not re.match(r"^[a-z][a-z0-9_]*$", op):
        raise SpecFileError(f"opgen new: op name must be lower_snake_case (got {op!r})")
    if target.count(".") != 2:
        raise SpecFileError(f"opgen new: --target must be ns.op.overload (got {target!r})")
    folder = SPECS_DIR / op
    if folder.exists():
        raise SpecFileError(f"opgen new: {rel(folder)} already exists; pick another op name")
    schema = query_torch([target])[target]
    outputs = ["out"] if schema["returns"] == 1 else [f"out{i}" for i in range(schema["returns"])]
    folder.mkdir(parents=True)
    (folder / f"{op}.py").write_text(spec_text(op, target, schema))
    (folder / f"{op}.wgsl").write_text(wgsl_text(op, target, outputs))
    print(f"created {rel(folder / (op + '.py'))} and {rel(folder / (op + '.wgsl'))}")
    _, changed = generate()
    print(f"opgen: {len(changed)} files changed")
    return 0
