"""The op spec model: what an operator author writes in `codegen/specs/<op>/<op>.py`.

Frozen dataclasses checked on construction (local facts: names, kinds, values) and
again by `bind()` against the whole op (expressions type-checked in the op's scope,
kernels, bindings, routes). Every problem is a `SpecError` naming the field and the fix;
the loader adds the spec file.
"""

from __future__ import annotations

import collections.abc
import functools
import inspect
import keyword
import re
import sys
import typing
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, Mapping, Sequence, Union

from codegen.spec import expr as E
from codegen.spec.layout import LayoutError, StructLayout, layout_struct, parse_type

F32, I32, I64, BOOL, U8 = "float32", "int32", "int64", "bool", "uint8"
DTYPES = (F32, I32, I64, BOOL, "float16", U8)
WGSL_ELEM = {F32: "f32", I32: "i32"}
MAX_WORKGROUP_INVOCATIONS = 256  # WebGPU's default limit: valid on every adapter

WGSL_RESERVED = frozenset(
    "alias array atomic bitcast bool break case const continue continuing default diagnostic "
    "discard else enable f16 f32 false fn for i32 if let loop mat2x2 mat3x3 mat4x4 override ptr "
    "return sampler self struct switch texture_2d true u32 var vec2 vec3 vec4 while "
    "module namespace package public private static template this typedef typename using "
    "virtual void volatile where yield".split())

_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


class SpecError(ValueError):
    """An invalid spec. The message names the field, what is wrong and what to write."""


def _label(obj_or_cls: Any, name: Any = None) -> str:
    cls = obj_or_cls if isinstance(obj_or_cls, type) else type(obj_or_cls)
    name = getattr(obj_or_cls, "name", None) if name is None else name
    return f"{cls.__name__} {name!r}" if isinstance(name, str) and name else cls.__name__


_EXAMPLES = {str: "'...'", bool: "True", int: "1", float: "1.0"}


def _plural(text: str) -> str:
    return {"a string": "strings", "an int": "ints", "a number": "numbers",
            "True or False": "bools"}.get(text, text + " values" if text.endswith(")") else text)


def _describe(hint: Any) -> tuple[str, str]:
    """What a field of type `hint` must be, in words, and an example to write."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if hint in (str, bool, int, float):
        return {str: "a string", bool: "True or False", int: "an int",
                float: "a number"}[hint], _EXAMPLES[hint]
    if origin is Union:
        parts = [_describe(a) for a in args if a is not type(None)]
        text = " or ".join(p[0] for p in parts) + (" or None" if type(None) in args else "")
        return text, parts[0][1]
    if origin is tuple or hint is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            inner, ex = _describe(args[0])
            return f"a tuple of {_plural(inner)}", f"({ex},)"
        if args:
            parts = [_describe(a) for a in args]
            kinds = {p[0] for p in parts}
            text = (f"{len(args)} {_plural(parts[0][0])}" if len(kinds) == 1
                    else ", ".join(p[0] for p in parts))
            return f"a tuple of {text}", f"({', '.join(p[1] for p in parts)})"
        return "a tuple", "(...)"
    if origin is collections.abc.Sequence:
        inner, ex = _describe(args[0])
        return f"a list of {_plural(inner)}", f"[{ex}]"
    if origin is collections.abc.Mapping:
        key, kex = _describe(args[0])
        val, vex = _describe(args[1])
        return f"a dict from {_plural(key)} to {_plural(val)}", f"{{{kex}: {vex}}}"
    if hint is Any:
        return "anything", "..."
    if isinstance(hint, type):
        return f"{hint.__name__}(...)", f"{hint.__name__}(...)"
    return str(hint), "..."


def _conforms(value: Any, hint: Any) -> bool:
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if hint is Any:
        return True
    if hint is type(None):
        return value is None
    if hint is bool:
        return isinstance(value, bool)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if hint is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if origin is Union:
        return any(_conforms(value, a) for a in args)
    if origin is tuple or hint is tuple:
        if not isinstance(value, tuple):
            return False
        if len(args) == 2 and args[1] is Ellipsis:
            return all(_conforms(v, args[0]) for v in value)
        return not args or (len(value) == len(args) and all(map(_conforms, value, args)))
    if origin is collections.abc.Sequence:
        return (isinstance(value, (list, tuple))
                and all(_conforms(v, args[0]) for v in value))
    if origin is collections.abc.Mapping:
        return isinstance(value, collections.abc.Mapping) and all(
            _conforms(k, args[0]) and _conforms(v, args[1]) for k, v in value.items())
    if isinstance(hint, type):
        return isinstance(value, hint)
    return True


@functools.lru_cache(maxsize=None)
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _check_fields(obj: Any) -> None:
    """Every field holds a value of its declared type (checked before the class's own
    checks, so those never trip over a wrong type)."""
    hints = _hints(type(obj))
    for f in fields(obj):
        value = getattr(obj, f.name)
        if f.name == "folder" or _conforms(value, hints[f.name]):
            continue
        text, example = _describe(hints[f.name])
        raise SpecError(f"{_label(obj)} field {f.name!r} must be {text} (got {value!r}); "
                        f"write e.g. {f.name}={example}")


def _spec(cls: type) -> type:
    """A frozen spec dataclass whose construction errors are SpecErrors: a missing or
    unknown field, too many positional values, or a field of the wrong type."""
    post = getattr(cls, "__post_init__", None)
    cls.__post_init__ = lambda self: None  # so the dataclass __init__ calls it
    cls = dataclass(frozen=True)(cls)
    init = cls.__init__
    signature = inspect.signature(init)
    names = [f.name for f in fields(cls) if f.init and f.name != "folder"]

    @functools.wraps(init)
    def __init__(self, *args, **kwargs):
        try:
            signature.bind(self, *args, **kwargs)
        except TypeError as e:
            label = _label(cls, args[0] if args else kwargs.get("name"))
            reason = str(e)
            missing = re.search(r"missing a required argument: '(\w+)'", reason)
            unknown = re.search(r"unexpected keyword argument '(\w+)'", reason)
            if missing:
                text, example = _describe(_hints(cls)[missing.group(1)])
                fix = (f"is missing the required field {missing.group(1)!r} ({text}); write "
                       f"e.g. {missing.group(1)}={example}")
            elif unknown:
                fix = (f"got an unexpected keyword argument {unknown.group(1)!r}; its fields "
                       f"are {', '.join(names)}: remove it or use one of those")
            elif "too many positional" in reason:
                fix = (f"takes at most {len(names)} positional values ({', '.join(names)}); "
                       f"pass the others by name")
            else:
                fix = f"cannot be built from these values ({reason}); its fields are {', '.join(names)}"
            raise SpecError(f"{label} {fix}") from None
        init(self, *args, **kwargs)

    def __post_init__(self):
        _check_fields(self)
        if post is not None:
            post(self)

    cls.__init__ = __init__
    cls.__post_init__ = __post_init__
    return cls


def _ident(value: Any, what: str) -> str:
    if not isinstance(value, str) or not _IDENT.match(value) or keyword.iskeyword(value):
        raise SpecError(f"{what} must be an identifier (got {value!r}); write e.g. 'input'")
    return value


def _expr_text(value: Any, what: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise SpecError(f"{what} must be an expression string (got {value!r}); write e.g. "
                        f"'input.dims[0]'")
    return value


# --- arguments -----------------------------------------------------------------------

@_spec
class Arg:
    name: str

    def __post_init__(self) -> None:
        _ident(self.name, f"{type(self).__name__} name")

    def expr_type(self) -> str:
        raise NotImplementedError


@_spec
class Tensor(Arg):
    """An input tensor. `rank` is an int, a (lo, hi) range, or None for any.
    `mutable=True` marks a schema `Tensor(a!)` the op writes in place (e.g. a KV cache):
    only mutable inputs may be bound with write=True, and the harness copies their new
    contents back into the caller's tensor, as torch does."""

    dtypes: tuple[str, ...] = (F32,)
    rank: Union[int, tuple[int, int], None] = None
    optional: bool = False
    mutable: bool = False

    def __post_init__(self) -> None:
        super().__post_init__()
        _check_dtypes(self.dtypes, f"Tensor {self.name!r} dtypes")
        _check_rank(self.rank, f"Tensor {self.name!r} rank")

    def expr_type(self) -> str:
        return E.OPT_TENSOR if self.optional else E.TENSOR


@_spec
class Output(Tensor):
    """An output tensor (the op's last argument, or an item of its `Outputs` list).
    `placeholder=True`: the reference leaves its contents unspecified (e.g. a
    `torch.empty` returned by an in-place op); cases check its shape, not its values.
    `unused=True`: the op neither reads nor writes it and its shape is not checked (what
    exporters allocate for it varies, e.g. batch norm's save_mean: [C] or [0])."""

    placeholder: bool = False
    unused: bool = False


@_spec
class Outputs(Arg):
    """A multi-output op's ValueList: one Output per returned tensor, in order."""

    items: tuple[Output, ...] = ()

    def __post_init__(self) -> None:
        super().__post_init__()
        if not self.items or not all(isinstance(i, Output) for i in self.items):
            raise SpecError(f"Outputs {self.name!r} items must be a non-empty tuple of "
                            f"Output(...) (got {self.items!r})")


@_spec
class TensorList(Arg):
    """A list of tensors (`Tensor[]`, or `Tensor?[]` with optional_items=True, whose
    entries may be None). Expressions read `len(name)` and `name[k]` (an optional tensor:
    `name[k].present`, `name[k].dims`); `Bind(..., item=k)` binds entry k (a dummy when
    the list is shorter or the entry is None). At most `max_items` entries."""

    dtypes: tuple[str, ...] = (F32,)
    rank: Union[int, tuple[int, int], None] = None
    optional_items: bool = False
    max_items: int = 4

    def __post_init__(self) -> None:
        super().__post_init__()
        _check_dtypes(self.dtypes, f"TensorList {self.name!r} dtypes")
        _check_rank(self.rank, f"TensorList {self.name!r} rank")
        if not isinstance(self.max_items, int) or self.max_items < 1:
            raise SpecError(f"TensorList {self.name!r} max_items must be a positive int "
                            f"(got {self.max_items!r})")

    def expr_type(self) -> str:
        return E.TENSOR_LIST


@_spec
class OutputList(Arg):
    """A `Tensor[]` return: a ValueList holding a variable number of like outputs.

    `item` describes each output; `count` (an expression) is how many there must be.
    Expressions that name the item or `index` are evaluated once per output: the item's
    shape formula and the dispatches declared with `foreach=<this name>`."""

    item: Output = None
    count: str = ""
    index: str = "i"

    def __post_init__(self) -> None:
        super().__post_init__()
        if not isinstance(self.item, Output):
            raise SpecError(f"OutputList {self.name!r} item must be Output(...) (got "
                            f"{self.item!r})")
        _expr_text(self.count, f"OutputList {self.name!r} count")
        _ident(self.index, f"OutputList {self.name!r} index")


def _check_default(arg: Arg, kinds: tuple) -> None:
    d = getattr(arg, "default")
    if isinstance(d, str):
        _expr_text(d, f"{type(arg).__name__} {arg.name!r} default")
    elif d is not None and (isinstance(d, bool) != (bool in kinds) or not isinstance(d, kinds)):
        raise SpecError(f"{type(arg).__name__} {arg.name!r} default must be "
                        f"{' or '.join(k.__name__ for k in kinds)} or an expression over the "
                        f"arguments before it (got {d!r})")


@_spec
class IntList(Arg):
    """An int list (`int[]`, `int[N]`, `SymInt[]`). `hw=True` accepts one or two values
    and broadcasts one to both spatial dims. An optional list that arrives as None
    reads as []."""

    hw: bool = False
    optional: bool = False

    def expr_type(self) -> str:
        return E.INT_LIST


@_spec
class DoubleList(Arg):
    optional: bool = False

    def expr_type(self) -> str:
        return E.FLOAT_LIST


class _Nullable:
    """Scalar arguments that may arrive as None: `optional` mirrors the schema's `?`;
    `default` is what a None reads as: a literal, or an expression over the arguments
    before it (it also makes a non-optional argument accept None). Expressions test a
    nullable argument with `name is None`."""

    @property
    def nullable(self) -> bool:
        return self.optional or self.default is not None

    @property
    def fallback(self) -> str:
        """The expression an argument that is None reads as."""
        if isinstance(self.default, str):
            return self.default
        if self.default is not None:
            return repr(self.default)
        return {E.INT: "0", E.FLOAT: "0.0", E.BOOL: "False"}[self.expr_type()]


@_spec
class Int(_Nullable, Arg):
    """`int` (build-time) or, with symbolic=True, `SymInt` (Int or runtime SymInt; a
    runtime SymInt may change between runs, so the op must be resize="dynamic").
    An integral Double is accepted too (checked, never truncated)."""

    symbolic: bool = False
    optional: bool = False
    default: Union[int, str, None] = None

    def __post_init__(self) -> None:
        super().__post_init__()
        _check_default(self, (int,))

    def expr_type(self) -> str:
        return E.INT


@_spec
class Double(_Nullable, Arg):
    optional: bool = False
    default: Union[float, int, str, None] = None

    def __post_init__(self) -> None:
        super().__post_init__()
        _check_default(self, (float, int))

    def expr_type(self) -> str:
        return E.FLOAT


@_spec
class Scalar(_Nullable, Arg):
    """A `Scalar` that may arrive as Int or Double; reads as a float."""

    optional: bool = False
    default: Union[float, int, str, None] = None

    def __post_init__(self) -> None:
        super().__post_init__()
        _check_default(self, (float, int))

    def expr_type(self) -> str:
        return E.FLOAT


@_spec
class Bool(_Nullable, Arg):
    optional: bool = False
    default: Union[bool, str, None] = None

    def __post_init__(self) -> None:
        super().__post_init__()
        _check_default(self, (bool,))

    def expr_type(self) -> str:
        return E.BOOL


@_spec
class Ignored(Arg):
    """An argument of the schema the op does not read (e.g. memory_format)."""

    def expr_type(self) -> str:
        return ""


def _declaring_folder() -> Path:
    frame = sys._getframe(1)
    while frame and (frame.f_code.co_filename in (__file__, "<string>")
                     or frame.f_code.co_filename.endswith("dataclasses.py")):
        frame = frame.f_back
    return Path(frame.f_code.co_filename).resolve().parent


def _check_dtypes(dtypes: Any, what: str) -> None:
    if not isinstance(dtypes, tuple) or not dtypes or any(d not in DTYPES for d in dtypes):
        raise SpecError(f"{what} must be a non-empty tuple of {', '.join(DTYPES)} "
                        f"(got {dtypes!r})")


def _check_rank(rank: Any, what: str) -> None:
    ok = rank is None or (isinstance(rank, int) and not isinstance(rank, bool) and rank >= 0) or (
        isinstance(rank, tuple) and len(rank) == 2 and all(isinstance(r, int) for r in rank)
        and 0 <= rank[0] <= rank[1])
    if not ok:
        raise SpecError(f"{what} must be None, an int or a (lo, hi) tuple (got {rank!r})")


# --- params, bindings, kernels, grids, routes -----------------------------------------

@_spec
class Param:
    """One Params field: its WGSL type and the expression that gives its value."""

    type: str
    value: str

    def __post_init__(self) -> None:
        try:
            parse_type(self.type)
        except LayoutError as e:
            raise SpecError(f"Param type: {e}") from None
        _expr_text(self.value, "Param value")


def u32(value: str) -> Param:
    return Param("u32", value)


def i32(value: str) -> Param:
    return Param("i32", value)


def f32(value: str) -> Param:
    return Param("f32", value)


@_spec
class Bind:
    """A storage binding: WGSL variable `name` bound to tensor argument `arg`.

    `elem` is the WGSL element type of the runtime-sized array (default: from the
    tensor's dtype); `write=True` makes it read_write."""

    name: str
    arg: str
    write: bool = False
    elem: str = ""
    item: int = -1  # for a TensorList argument: which entry to bind

    def __post_init__(self) -> None:
        _ident(self.name, "Bind name")
        if self.name in WGSL_RESERVED:
            raise SpecError(f"Bind name {self.name!r} is a WGSL keyword or reserved word; "
                            f"write e.g. {self.name + '_data'!r}")
        _ident(self.arg, f"Bind {self.name!r} arg")
        if self.elem:
            try:
                parse_type(self.elem, uniform=False)
            except LayoutError as e:
                raise SpecError(f"Bind {self.name!r} elem: {e}") from None


@_spec
class Override:
    """A pipeline-overridable constant a kernel declares (WGSL `override`)."""

    type: str  # bool | u32 | i32 | f32
    default: Union[bool, int, float]

    def __post_init__(self) -> None:
        if self.type not in ("bool", "u32", "i32", "f32"):
            raise SpecError(f"Override type must be bool, u32, i32 or f32 (got {self.type!r})")

    def wgsl_default(self) -> str:
        if self.type == "bool":
            return "true" if self.default else "false"
        if self.type == "f32":
            return repr(float(self.default))
        return f"{int(self.default)}{'u' if self.type == 'u32' else 'i'}"


@_spec
class Kernel:
    """A WGSL kernel: one file in the spec's folder with one compute entry point."""

    name: str
    file: str = ""  # default: <name>.wgsl
    entry: str = "main"
    workgroup: tuple[int, int, int] = (256, 1, 1)
    overrides: Mapping[str, Override] = field(default_factory=dict)
    # the spec folder that declares the kernel (filled in from the declaring file)
    folder: Path = field(default=None, compare=True, repr=False)

    def __post_init__(self) -> None:
        if self.folder is None:
            object.__setattr__(self, "folder", _declaring_folder())
        _ident(self.name, "Kernel name")
        _ident(self.entry, f"Kernel {self.name!r} entry")
        wg = self.workgroup
        if (not isinstance(wg, tuple) or len(wg) != 3 or
                not all(isinstance(v, int) and v >= 1 for v in wg)):
            raise SpecError(f"Kernel {self.name!r} workgroup must be three positive ints "
                            f"(got {wg!r})")
        if wg[0] * wg[1] * wg[2] > MAX_WORKGROUP_INVOCATIONS:
            raise SpecError(f"Kernel {self.name!r} workgroup {wg} has {wg[0] * wg[1] * wg[2]} "
                            f"invocations; WebGPU guarantees {MAX_WORKGROUP_INVOCATIONS}: "
                            f"use a smaller workgroup")
        for k, v in self.overrides.items():
            _ident(k, f"Kernel {self.name!r} override name")
            if not isinstance(v, Override):
                raise SpecError(f"Kernel {self.name!r} override {k!r} must be Override(type, "
                                f"default) (got {v!r})")
        if self.file and not self.file.endswith(".wgsl"):
            raise SpecError(f"Kernel {self.name!r} file must end in .wgsl (got {self.file!r})")

    @property
    def filename(self) -> str:
        return self.file or f"{self.name}.wgsl"

    @property
    def path(self) -> Path:
        return self.folder / self.filename

    @property
    def pascal(self) -> str:
        return pascal(self.name)


@_spec
class Scratch:
    """A tensor the op allocates for itself (e.g. an intermediate that one dispatch writes
    and the next reads): dtype and a shape expression, evaluated after the guards. Bind
    it by name like an argument. The handler allocates it once at the build shape with
    `graph.add_tensor` and resizes it with the live shape; the harness does the same."""

    name: str
    dtype: str
    shape: str

    def __post_init__(self) -> None:
        _ident(self.name, "Scratch name")
        if self.dtype not in WGSL_ELEM:
            raise SpecError(f"Scratch {self.name!r} dtype must be one of "
                            f"{', '.join(WGSL_ELEM)} (got {self.dtype!r})")
        _expr_text(self.shape, f"Scratch {self.name!r} shape")

    @property
    def dtypes(self) -> tuple[str, ...]:
        return (self.dtype,)

    @property
    def optional(self) -> bool:
        return False


MAX_ITEMS_PER_INVOCATION = 16


@_spec
class Elementwise:
    """A 1-D grid of `count` items, spilling into y past the per-dimension limit.

    Each invocation takes `per_invocation` items, WORKGROUP_SIZE_X apart so that every
    access is coalesced across the workgroup; the kernel gets ITEMS_PER_INVOCATION and
    first_item() to find them (item k of an invocation is first + k * WORKGROUP_SIZE_X)."""

    count: str
    per_invocation: int = 1

    def __post_init__(self) -> None:
        if not 1 <= self.per_invocation <= MAX_ITEMS_PER_INVOCATION:
            raise SpecError(f"Elementwise per_invocation must be 1..{MAX_ITEMS_PER_INVOCATION} "
                            f"(got {self.per_invocation})")


@_spec
class Rows:
    """One workgroup per row, spilling into y past the per-dimension limit."""

    count: str


@_spec
class Tiles:
    """A 2-D (x3 batches) grid of tiles: x items per tile across, y down."""

    x: str
    y: str
    tile: tuple[int, int]
    z: str = "1"


Grid = Union[Elementwise, Rows, Tiles]


@_spec
class Route:
    """Run `kernel` when `when` holds (the last route of a dispatch has no `when`)."""

    kernel: Kernel
    grid: Grid
    when: str = ""
    overrides: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not isinstance(self.kernel, Kernel):
            raise SpecError(f"Route kernel must be a Kernel(...) object (got {self.kernel!r}); "
                            f"declare the kernel once and reference it")
        if not isinstance(self.grid, (Elementwise, Rows, Tiles)):
            raise SpecError(f"Route {self.kernel.name!r} grid must be Elementwise(...), "
                            f"Rows(...) or Tiles(...) (got {self.grid!r})")
        for k in self.overrides:
            if k not in self.kernel.overrides:
                raise SpecError(f"Route {self.kernel.name!r} sets override {k!r}, which the "
                                f"kernel does not declare (declared: "
                                f"{', '.join(self.kernel.overrides) or 'none'})")


@_spec
class Dispatch:
    """One compute dispatch: its Params struct, bindings and the routes that pick a
    kernel. Params is binding 0 when present; `bindings` follow in order (the ABI)."""

    params: Mapping[str, Param]
    bindings: Sequence[Bind]
    routes: Sequence[Route]
    name: str = ""
    when: str = ""  # skip the dispatch when this is false
    # an OutputList's name: one dispatch per output, its item and index in scope
    foreach: str = ""
    # files of WGSL functions every kernel of the dispatch shares (beside the kernels);
    # they are emitted into each kernel's declaration block, since WGSL has no includes
    helpers: Sequence[str] = ()

    def __post_init__(self) -> None:
        if not self.routes:
            raise SpecError("Dispatch routes must hold at least one Route(...)")
        if isinstance(self.helpers, str):
            raise SpecError(f"Dispatch helpers must be a list of .wgsl files, e.g. "
                            f"helpers=[{self.helpers!r}] (got the string {self.helpers!r})")
        for h in self.helpers:
            if not h.endswith(".wgsl"):
                raise SpecError(f"Dispatch helpers must name .wgsl files (got {h!r})")
        if self.helpers and len({r.kernel.folder for r in self.routes}) > 1:
            raise SpecError(f"Dispatch helpers {list(self.helpers)}: the dispatch's kernels live "
                            f"in several folders; helpers need them in one")
        for r in self.routes[:-1]:
            if not r.when:
                raise SpecError(f"Route {r.kernel.name!r} has no 'when' but is not the last "
                                f"route: the routes after it could never run")
        if self.routes[-1].when:
            raise SpecError(f"the last route ({self.routes[-1].kernel.name!r}) must have no "
                            f"'when': it is the fallback")
        names = [b.name for b in self.bindings] + ["params"]
        dup = {n for n in names if names.count(n) > 1}
        if dup:
            raise SpecError(f"Dispatch binding names must be unique (duplicated: "
                            f"{', '.join(sorted(dup))}; 'params' is reserved for the uniform)")
        for k, v in self.params.items():
            _ident(k, "Params field name")
            if not isinstance(v, Param):
                raise SpecError(f"Params field {k!r} must be u32(...), i32(...), f32(...) or "
                                f"Param(type, value) (got {v!r})")


@_spec
class Copy:
    """A flat copy of `nbytes` from tensor `src` to tensor `dst`, run by both runtimes as
    their copy kernel (cpp_runtime/src/copy_words.wgsl); skipped when both are the same
    buffer (an aliased output already holds the bytes)."""

    src: str
    dst: str
    nbytes: str
    when: str = ""


@_spec
class Guard:
    """A runtime check. Fails with
    `WebGPU <op>: <arg> <what> (got <got>, expected <expected>)`; `got` is an
    expression, `expected` a text where {expr} is replaced by its value."""

    check: str
    arg: str
    what: str
    got: str
    expected: str


@_spec
class Case:
    """A test case: torch-style call arguments plus what must happen."""

    name: str
    args: tuple = ()
    kwargs: Mapping[str, Any] = field(default_factory=dict)
    route: str = ""  # the kernel this case must run
    raises: str = ""  # substring of the expected error message
    # arg -> live dims (tuple) of a tensor, or new value (int) of a SymInt, after build
    resize: Mapping[str, Union[tuple, int]] = field(default_factory=dict)
    atol: float = 1e-3
    rtol: float = 1e-3
    exact: bool = False  # compare bit for bit with float32 torch (copies, gathers)
    absent_outputs: tuple = ()  # optional outputs the graph does not request (bound Null)

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not re.match(r"^[a-z0-9_]+$", self.name):
            raise SpecError(f"Case name must be lower_snake_case (got {self.name!r})")
        if not isinstance(self.args, tuple):
            raise SpecError(f"Case {self.name!r} args must be a tuple (got {type(self.args).__name__})")


# --- the op ------------------------------------------------------------------------------

RESIZE_POLICIES = ("dynamic", "static")


@_spec
class Op:
    name: str
    targets: Sequence[str]
    args: Sequence[Arg]
    dispatches: Sequence[Union[Dispatch, Copy]]
    shapes: Mapping[str, str]
    resize: str
    let: Mapping[str, str] = field(default_factory=dict)
    guards: Sequence[Guard] = ()
    cases: Sequence[Case] = ()
    golden: str = ""  # a torch target to compare with, when it is not the op's own
    scratch: Sequence[Scratch] = ()
    flops: str = ""  # work of one run, for `opgen bench` (TFLOP/s)
    bytes: str = ""  # bytes moved by one run, for `opgen bench` (default: all tensors once)

    def __post_init__(self) -> None:
        _ident(self.name, "Op name")
        if not self.targets or not all(isinstance(t, str) and t.count(".") == 2
                                       for t in self.targets):
            raise SpecError(f"Op targets must be a non-empty list of 'namespace.op.overload' "
                            f"names (got {self.targets!r})")
        if self.resize not in RESIZE_POLICIES:
            raise SpecError(f"Op resize must be one of {', '.join(RESIZE_POLICIES)} "
                            f"(got {self.resize!r})")
        if not self.args or not isinstance(self.args[-1], (Output, Outputs, OutputList)):
            raise SpecError("Op args must end with the output: Output(...), Outputs(...) or "
                            "OutputList(...)")
        names = [a.name for a in self.args] + list(self.let)
        dup = {n for n in names if names.count(n) > 1}
        if dup:
            raise SpecError(f"Op args and let names must be unique (duplicated: "
                            f"{', '.join(sorted(dup))})")
        if not self.dispatches:
            raise SpecError("Op dispatches must hold at least one Dispatch(...) or Copy(...)")
        symbolic = [a.name for a in self.args if isinstance(a, Int) and a.symbolic]
        if symbolic and self.resize != "dynamic":
            raise SpecError(f"SymInt args ({', '.join(symbolic)}) may change at run time: the op "
                            f"needs resize='dynamic' (got {self.resize!r})")
        for s in self.scratch:
            if not isinstance(s, Scratch):
                raise SpecError(f"Op scratch must hold Scratch(...) objects (got {s!r})")
            names.append(s.name)
        dup = {n for n in names if names.count(n) > 1}
        if dup:
            raise SpecError(f"Op args, let and scratch names must be unique (duplicated: "
                            f"{', '.join(sorted(dup))})")
        case_names = [c.name for c in self.cases]
        dup = {n for n in case_names if case_names.count(n) > 1}
        if dup:
            raise SpecError(f"Case names must be unique (duplicated: {', '.join(sorted(dup))})")

    @property
    def pascal(self) -> str:
        return pascal(self.name)

    @property
    def outputs(self) -> list[Output]:
        last = self.args[-1]
        if isinstance(last, OutputList):
            return [last.item]
        return list(last.items) if isinstance(last, Outputs) else [last]

    @property
    def inputs(self) -> list[Arg]:
        return list(self.args[:-1])

    def kernels(self) -> list[Kernel]:
        seen: dict[str, Kernel] = {}
        for d in self.dispatches:
            if isinstance(d, Dispatch):
                for r in d.routes:
                    seen.setdefault(r.kernel.name, r.kernel)
        return list(seen.values())


def pascal(name: str) -> str:
    return "".join(p[:1].upper() + p[1:] for p in name.split("_") if p)


# --- binding an op: expressions checked in the op's scope --------------------------------

@dataclass
class BoundRoute:
    route: Route
    when: E.Expr | None
    grid: dict[str, E.Expr]
    overrides: dict[str, E.Expr]


@dataclass
class BoundDispatch:
    index: int
    spec: Union[Dispatch, Copy]
    struct_name: str
    layout: StructLayout | None
    params: dict[str, E.Expr]
    routes: list[BoundRoute]
    when: E.Expr | None
    copy: dict[str, E.Expr]
    foreach: OutputList | None = None


@dataclass
class BoundGuard:
    guard: Guard
    check: E.Expr
    got: E.Expr
    expected: list[Union[str, E.Expr]]  # literal text pieces and interpolated exprs


@dataclass
class BoundOp:
    """An op whose expressions are parsed and type checked, ready to render or run."""

    op: Op
    spec_file: Path
    scope: dict[str, E.Sym]
    lets: dict[str, E.Expr]
    guards: list[BoundGuard]
    shapes: dict[str, E.Expr]
    dispatches: list[BoundDispatch]
    defaults: dict[str, E.Expr] = field(default_factory=dict)  # nullable scalar -> fallback
    scratch: dict[str, E.Expr] = field(default_factory=dict)  # scratch tensor -> shape
    output_list: OutputList | None = None
    count: E.Expr | None = None  # how many outputs the OutputList must hold
    flops: E.Expr | None = None
    bytes: E.Expr | None = None

    @property
    def folder(self) -> Path:
        return self.spec_file.parent


def bind(op: Op, spec_file: Path) -> BoundOp:
    scope: dict[str, E.Sym] = {}
    defaults: dict[str, E.Expr] = {}
    for a in op.args:
        if isinstance(a, Outputs):
            for item in a.items:
                scope[item.name] = E.Sym(item.expr_type(), item.name)
        elif isinstance(a, OutputList):
            pass  # its item and index are in scope per output only (item_scope below)
        elif not isinstance(a, Ignored):
            if getattr(a, "nullable", False):
                want = {E.FLOAT: (E.FLOAT, E.INT)}.get(a.expr_type(), (a.expr_type(),))
                try:  # a default reads only the arguments before it
                    defaults[a.name] = E.Expr(a.fallback, scope)
                except E.ExprError as err:
                    raise SpecError(f"{a.name!r} default: {err}") from None
                if defaults[a.name].type not in want:
                    raise SpecError(f"{a.name!r} default: {a.fallback!r} is "
                                    f"{defaults[a.name].type}, expected {a.expr_type()}")
            scope[a.name] = E.Sym(a.expr_type(), a.name, getattr(a, "nullable", False))
    out_list = op.args[-1] if isinstance(op.args[-1], OutputList) else None
    item_scope: dict[str, E.Sym] = {}

    def parse(text: str, what: str, want: tuple[str, ...] | None = None,
              per_item: bool = False) -> E.Expr:
        _expr_text(text, what)
        try:
            e = E.Expr(text, {**scope, **item_scope} if per_item else scope)
        except E.ExprError as err:
            raise SpecError(f"{what}: {err}") from None
        if want and e.type not in want:
            raise SpecError(f"{what}: {text!r} is {e.type}, expected {' or '.join(want)}")
        return e

    lets: dict[str, E.Expr] = {}
    for name, text in op.let.items():
        _ident(name, "let name")
        lets[name] = parse(text, f"let {name!r}")
        scope[name] = E.Sym(lets[name].type, name)
    count = None
    if out_list is not None:
        for n in (out_list.item.name, out_list.index):
            if n in scope:
                raise SpecError(f"OutputList {out_list.name!r}: {n!r} is already an argument or "
                                f"let name")
        item_scope = {out_list.item.name: E.Sym(E.TENSOR, out_list.item.name),
                      out_list.index: E.Sym(E.INT, out_list.index)}
        count = parse(out_list.count, f"OutputList {out_list.name!r} count", (E.INT,))

    guards = []
    for i, g in enumerate(op.guards):
        if not isinstance(g, Guard):
            raise SpecError(f"guards[{i}] must be Guard(check, arg, what, got, expected) "
                            f"(got {g!r})")
        pieces: list[Union[str, E.Expr]] = []
        for j, part in enumerate(re.split(r"\{([^{}]+)\}", g.expected)):
            pieces.append(parse(part, f"guards[{i}] expected {{{part}}}") if j % 2 else part)
        guards.append(BoundGuard(g, parse(g.check, f"guards[{i}] check", (E.BOOL,)),
                                 parse(g.got, f"guards[{i}] got"), pieces))

    out_names = [o.name for o in op.outputs]
    for name in op.shapes:
        if name not in out_names:
            raise SpecError(f"shapes names {name!r}, which is not an output (outputs: "
                            f"{', '.join(out_names)})")
    shapes = {}
    for o in op.outputs:
        if o.unused:
            if o.name in op.shapes:
                raise SpecError(f"output {o.name!r} is unused=True: give it no shapes formula")
            continue
        if o.name not in op.shapes:
            raise SpecError(f"shapes has no formula for output {o.name!r}; write e.g. "
                            f"shapes={{'{o.name}': 'self.dims'}}")
        shapes[o.name] = parse(op.shapes[o.name], f"shapes[{o.name!r}]", (E.INT_LIST,),
                               per_item=out_list is not None)

    scratch = {}
    for s in op.scratch:
        scratch[s.name] = parse(s.shape, f"scratch {s.name!r} shape", (E.INT_LIST,))
        scope[s.name] = E.Sym(E.TENSOR, s.name)

    tensors = {a.name: a for a in op.args if isinstance(a, (Tensor, TensorList))}
    tensors.update({o.name: o for o in op.outputs})
    tensors.update({s.name: s for s in op.scratch})
    dispatches = []
    for i, d in enumerate(op.dispatches):
        where = f"dispatches[{i}]"
        when = parse(d.when, f"{where} when", (E.BOOL,)) if d.when else None
        if isinstance(d, Copy):
            for t in (d.src, d.dst):
                if t not in tensors or (out_list is not None and t == out_list.item.name):
                    raise SpecError(f"{where} copies {t!r}, which is not a tensor argument")
            dispatches.append(BoundDispatch(i, d, "", None, {}, [], when, {
                "nbytes": parse(d.nbytes, f"{where} nbytes", (E.INT,))}))
            continue
        if not isinstance(d, Dispatch):
            raise SpecError(f"{where} must be Dispatch(...) or Copy(...) (got {d!r})")
        per_item = bool(d.foreach)
        if per_item and (out_list is None or d.foreach != out_list.name):
            raise SpecError(f"{where} foreach={d.foreach!r} must name the op's OutputList")
        if per_item and (d.when or len(d.routes) != 1 or d.routes[0].overrides):
            raise SpecError(f"{where}: a foreach dispatch takes one route, no overrides and no "
                            f"'when' (one kernel, run once per output)")
        for b in d.bindings:
            if out_list is not None and b.arg == out_list.item.name and not per_item:
                raise SpecError(f"{where} binding {b.name!r} binds the per-output item "
                                f"{b.arg!r}; declare the dispatch with foreach={out_list.name!r}")
            if b.arg not in tensors:
                raise SpecError(f"{where} binding {b.name!r} binds {b.arg!r}, which is not a "
                                f"tensor argument (tensors: {', '.join(tensors)})")
            t = tensors[b.arg]
            if isinstance(t, TensorList) != (b.item >= 0) or (
                    isinstance(t, TensorList) and b.item >= t.max_items):
                raise SpecError(f"{where} binding {b.name!r}: item=k (0 <= k < max_items) binds "
                                f"an entry of a TensorList argument and only of one (got "
                                f"item={b.item} for {type(t).__name__} {b.arg!r})")
            if b.write and isinstance(t, (Tensor, TensorList)) and not isinstance(t, Output) \
                    and not getattr(t, "mutable", False):
                raise SpecError(f"{where} binding {b.name!r} writes input {b.arg!r}; declare it "
                                f"Tensor({b.arg!r}, ..., mutable=True) (a schema Tensor(a!))")
            if not b.elem and not (len(t.dtypes) == 1 and t.dtypes[0] in WGSL_ELEM):
                raise SpecError(f"{where} binding {b.name!r}: tensor {b.arg!r} has dtypes "
                                f"{t.dtypes}; give the WGSL element type, e.g. elem='u32'")
        struct_name = op.pascal + pascal(d.name) + "Params"
        layout = None
        if d.params:
            try:
                layout = layout_struct(struct_name, [(k, p.type) for k, p in d.params.items()])
            except LayoutError as e:
                raise SpecError(f"{where} params: {e}") from None
        params = {}
        for k, p in d.params.items():
            t = parse_type(p.type)
            want = (E.INT_LIST,) if t.components > 1 else \
                (E.FLOAT, E.INT) if t.scalar == "f32" else (E.INT, E.BOOL)
            params[k] = parse(p.value, f"{where} params[{k!r}]", want, per_item)
        routes = []
        for r in d.routes:
            rwhere = f"{where} route {r.kernel.name!r}"
            g = r.grid
            grid = {k: parse(getattr(g, k), f"{rwhere} grid {k}", (E.INT,), per_item)
                    for k in ("count", "x", "y", "z") if hasattr(g, k)}
            ov = {}
            for k, text in r.overrides.items():
                kind = r.kernel.overrides[k].type
                ov[k] = parse(text, f"{rwhere} override {k!r}",
                              (E.BOOL,) if kind == "bool" else (E.INT, E.FLOAT, E.BOOL))
            routes.append(BoundRoute(r, parse(r.when, f"{rwhere} when", (E.BOOL,))
                                     if r.when else None, grid, ov))
        dispatches.append(BoundDispatch(i, d, struct_name, layout, params, routes, when, {},
                                        out_list if per_item else None))
    _check_names(op, out_list)
    return BoundOp(op, spec_file, scope, lets, guards, shapes, dispatches, defaults, scratch,
                   out_list, count,
                   parse(op.flops, "flops", (E.INT,)) if op.flops else None,
                   parse(op.bytes, "bytes", (E.INT,)) if op.bytes else None)


def _check_names(op: Op, out_list: OutputList | None) -> None:
    """Guards and cases name arguments, outputs and kernels the op has."""
    args = [a.name for a in op.args] + [o.name for o in op.outputs]
    if out_list is not None:
        args.append(out_list.item.name)
    for i, g in enumerate(op.guards):
        if g.arg not in args:
            raise SpecError(f"guards[{i}] arg {g.arg!r} is not an argument or output of the op; "
                            f"write the one the check is about ({', '.join(args)})")
    kernels = [k.name for k in op.kernels()]
    inputs = [a.name for a in op.inputs]
    outputs = [o.name for o in op.outputs]
    for c in op.cases:
        where = f"Case {c.name!r}"
        if c.route and c.route not in kernels:
            raise SpecError(f"{where} route {c.route!r} is not a kernel of the op; write one of "
                            f"{', '.join(kernels) or '(none: the op only copies)'}")
        for k in c.kwargs:
            if k not in inputs:
                raise SpecError(f"{where} kwargs names {k!r}, which is not an input; write one of "
                                f"{', '.join(inputs)}")
        for k in c.resize:
            if k not in inputs:
                raise SpecError(f"{where} resize names {k!r}, which is not an input; write one of "
                                f"{', '.join(inputs)}")
        for k in c.absent_outputs:
            if k not in outputs:
                raise SpecError(f"{where} absent_outputs names {k!r}, which is not an output; "
                                f"write one of {', '.join(outputs)}")
