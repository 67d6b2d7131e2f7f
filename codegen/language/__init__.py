"""The spec model: what an operator author writes in `codegen/specs/<op>/<op>.py`.

Spec files import everything they use from here (`from codegen.language import Op, Tensor,
...`); the modules behind it are the validation framework (`checked`), the dtype
registry (`dtypes`), argument kinds (`args`), dispatches (`dispatch`), grid kinds
(`grids`), the op (`op`) and binding (`bind`).
"""

from codegen.language.args import (Arg, DoubleList, IntList, Output, OutputList, Outputs,
                                   SymIntOutput, Tensor, TensorList)
from codegen.language.checked import SpecError
from codegen.language.dispatch import (Bind, Copy, Dispatch, Kernel, Override, Param, Params, Route,
                                   Scratch, f32, i32, u32)
from codegen.graph.dtypes import BOOL, F16, F32, I8, I32, I64, U8
from codegen.language.grids import Elementwise, Rows, Tiles
from codegen.language.half import half_routes, half_variants, same_dtype
from codegen.language.constant_args import ANY, Device, Ignored, Layout, MemoryFormat, ScalarType
from codegen.language.op import Case, Guard, Op
from codegen.language.scalar_args import Bool, Double, Int, Scalar, Str

# every argument kind, in the order `opgen new` tries their schema types
ARG_KINDS = (Tensor, TensorList, IntList, DoubleList, Int, Double, Scalar, Bool, Str, ScalarType,
             MemoryFormat, Layout, Device, Ignored)

__all__ = [
    "Arg", "Bool", "Double", "DoubleList", "Ignored", "Int", "IntList", "Output", "OutputList",
    "Outputs", "Scalar", "SymIntOutput", "Tensor", "TensorList", "SpecError", "Bind", "Copy", "Dispatch",
    "Kernel", "Override", "Param", "Params", "Route", "Scratch", "f32", "i32", "u32", "BOOL",
    "F16", "F32", "I8", "I32", "I64", "U8", "Elementwise", "Rows", "Tiles", "Case", "Guard", "Op",
    "ARG_KINDS", "ANY", "Device", "Layout", "MemoryFormat", "ScalarType", "Str", "half_routes",
    "half_variants", "same_dtype",
]
