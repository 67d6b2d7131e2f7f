"""The dtype registry: every fact about a tensor dtype, in one table.

A spec names dtypes by their torch name. The graph stores some narrower than torch does
(the ExecuTorch Vulkan serializer writes int64 tensors as int32 and float64 as float32),
so each entry says which graph dtype holds it, the runtime's `DType` enum member, the
numpy dtype of its buffer bytes, the WGSL element type a kernel binds it as (when it has
one) and its size in a graph buffer. A new dtype is one entry here (plus the C++ enum
member in cpp_runtime/include/webgpu_delegate/graph.h).
"""

from __future__ import annotations

from dataclasses import dataclass

F32, I32, I64, BOOL, F16, U8, I8 = ("float32", "int32", "int64", "bool", "float16", "uint8",
                                     "int8")


@dataclass(frozen=True)
class DType:
    name: str  # torch's name, as specs write it
    graph: str  # the dtype the graph holds it as
    cpp: str  # the runtime's DType enum member
    numpy: str  # numpy dtype of the graph buffer's bytes
    wgsl: str  # WGSL element type of a storage array of it ("" when a kernel must say)
    size: int  # bytes per element in a graph buffer
    in_specs: bool = True  # whether a spec may declare a tensor of it


REGISTRY: dict[str, DType] = {d.name: d for d in (
    DType(F32, F32, "Float32", "float32", "f32", 4),
    DType(I32, I32, "Int32", "int32", "i32", 4),
    DType(I64, I32, "Int64", "int64", "", 8),
    DType(BOOL, BOOL, "Bool", "uint8", "", 1),
    DType(F16, F16, "Float16", "float16", "", 2),
    DType(U8, U8, "UInt8", "uint8", "", 1),
    DType(I8, I8, "Int8", "int8", "", 1),
    DType("float64", F32, "Float32", "float32", "", 4, in_specs=False),
)}

SPEC_DTYPES = tuple(name for name, d in REGISTRY.items() if d.in_specs)
# dtypes a kernel can bind without naming the element type (`Bind(elem=...)`)
WGSL_ELEM = {name: d.wgsl for name, d in REGISTRY.items() if d.wgsl and d.in_specs}


def dtype(name: str) -> DType:
    if name not in REGISTRY:
        raise KeyError(f"unknown dtype {name!r} (known: {', '.join(REGISTRY)})")
    return REGISTRY[name]


def graph_dtype(torch_name: str) -> str:
    """The dtype the graph holds a torch dtype as (unknown names pass through)."""
    return REGISTRY[torch_name].graph if torch_name in REGISTRY else torch_name


def nbytes(dtype_name: str, dims) -> int:
    n = REGISTRY[dtype_name].size
    for d in dims:
        n *= d
    return n
