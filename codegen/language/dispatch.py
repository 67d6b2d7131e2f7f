"""What a spec's `dispatches` hold: Params fields and blocks, storage bindings, kernels,
scratch tensors, routes, compute dispatches and copies. The grid kinds live in
`codegen.language.grids`."""

from __future__ import annotations

import dataclasses
import sys
from dataclasses import field
from pathlib import Path
from typing import Mapping, Sequence, Union

from codegen.language.checked import SpecError, expr_text, ident, spec_class
from codegen.graph.dtypes import WGSL_ELEM
from codegen.language.features import FEATURES
from codegen.language.floats import FLOATS, VIEWS
from codegen.language.grids import Grid
from codegen.language.layout import LayoutError, parse_type

MAX_WORKGROUP_INVOCATIONS = 256  # WebGPU's default limit: valid on every adapter

WGSL_RESERVED = frozenset(
    "alias array atomic bitcast bool break case const continue continuing default diagnostic "
    "discard else enable f16 f32 false fn for i32 if let loop mat2x2 mat3x3 mat4x4 override ptr "
    "return sampler self struct switch texture_2d true u32 var vec2 vec3 vec4 while "
    "module namespace package public private static template this typedef typename using "
    "virtual void volatile where yield".split())

# the spec-model modules a Kernel(...) call passes through before the declaring spec file
_MODEL_FILES = {__file__, str(Path(__file__).with_name("checked.py")), "<string>"}


def pascal(name: str) -> str:
    return "".join(p[:1].upper() + p[1:] for p in name.split("_") if p)


def _declaring_folder() -> Path:
    frame = sys._getframe(1)
    while frame and (frame.f_code.co_filename in _MODEL_FILES
                     or frame.f_code.co_filename.endswith("dataclasses.py")):
        frame = frame.f_back
    return Path(frame.f_code.co_filename).resolve().parent


@spec_class
class Param:
    """One Params field: its WGSL type and the expression that gives its value."""

    type: str
    value: str

    def __post_init__(self) -> None:
        try:
            parse_type(self.type)
        except LayoutError as e:
            raise SpecError(f"Param type: {e}") from None
        expr_text(self.value, "Param value")


def u32(value: str) -> Param:
    """A u32 Params field with the value of expression `value` (checked to fit u32)."""
    return Param("u32", value)


def i32(value: str) -> Param:
    """An i32 Params field with the value of expression `value` (checked to fit i32)."""
    return Param("i32", value)


def f32(value: str) -> Param:
    """An f32 Params field with the value of expression `value`."""
    return Param("f32", value)

@spec_class
class Params:
    """A Params block that several dispatches share: one C++ struct and one WGSL struct,
    packed once per call (before the dispatches). `name` is part of the C++ struct's
    name (`<Op><Name>Params`; `<Op>Params` when empty). A dispatch whose `params` is a
    plain dict has a block of its own."""

    fields: Mapping[str, Param]
    name: str = ""

    def __post_init__(self) -> None:
        if self.name:
            ident(self.name, "Params name")
        if not self.fields:
            raise SpecError("Params fields must hold at least one field; a dispatch without "
                            "params writes params={}")
        _check_param_fields(self.fields)


def _check_param_fields(fields: Mapping) -> None:
    for k, v in fields.items():
        ident(k, "Params field name")
        if not isinstance(v, Param):
            raise SpecError(f"Params field {k!r} must be u32(...), i32(...), f32(...) or "
                            f"Param(type, value) (got {v!r})")



@spec_class
class Bind:
    """A storage binding: WGSL variable `name` bound to tensor argument `arg`.

    `elem` is the WGSL element type of the runtime-sized array (default: from the
    tensor's dtype); `write=True` makes it read_write. `view` ("scalar", "vec2", "vec4") reads
    and writes a float tensor through generated accessors in f32, `<name>_load(i)` and
    `<name>_store(i, v)`, whatever the kernel's `floats` stores it as
    (codegen.language.floats); the array's element type then follows from those."""

    name: str
    arg: str
    write: bool = False
    elem: str = ""
    item: int = -1  # for a TensorList argument: which entry to bind
    view: str = ""
    # a read-only vec4 view also gets its storage form: `<name>_raw`, `<name>_load_raw(i)`
    # and `<name>_widen(v)` (codegen.language.floats)
    raw: bool = False

    def __post_init__(self) -> None:
        ident(self.name, "Bind name")
        if self.name in WGSL_RESERVED:
            raise SpecError(f"Bind name {self.name!r} is a WGSL keyword or reserved word; "
                            f"write e.g. {self.name + '_data'!r}")
        ident(self.arg, f"Bind {self.name!r} arg")
        if self.elem:
            try:
                parse_type(self.elem, uniform=False)
            except LayoutError as e:
                raise SpecError(f"Bind {self.name!r} elem: {e}") from None
        if self.view and (self.view not in VIEWS or self.elem):
            raise SpecError(f"Bind {self.name!r} view must be one of {', '.join(VIEWS)}, without "
                            f"an elem (the kernel's floats give it) (got view={self.view!r}"
                            f"{f', elem={self.elem!r}' if self.elem else ''})")
        if self.raw and (self.view != "vec4" or self.write):
            raise SpecError(f"Bind {self.name!r} raw needs a read-only vec4 view (got "
                            f"view={self.view!r}, write={self.write})")


@spec_class
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


@spec_class
class Kernel:
    """A WGSL kernel: the body in one authored file of the spec's folder, with one compute
    entry point. `opgen generate` composes its complete module (generated/ops/<folder>/
    <name>.wgsl): the interface the spec declares, then the helpers, then the body.

    Variants: `kernel.variant("name_vec4", consts={"LANES": "4u"}, aliases={"Word":
    "vec4<u32>"})` is another kernel compiled from the same body, with its own constants,
    type aliases, helpers or workgroup; routes and cases name it as any kernel."""

    name: str
    file: str = ""  # default: <name>.wgsl
    entry: str = "main"
    workgroup: tuple[int, int, int] = (256, 1, 1)
    overrides: Mapping[str, Override] = field(default_factory=dict)
    # WebGPU features the kernel needs (codegen.language.features): its routes run only on a
    # device that has them, and its module enables their WGSL extensions
    features: tuple[str, ...] = ()
    # files of WGSL functions this kernel alone needs, emitted after its dispatch's helpers;
    # relative to the kernel's folder, so "../matmul/gemm_tile.wgsl" reuses another spec's
    helpers: tuple[str, ...] = ()
    # False: the shader module is created without the implementation's runtime checks
    # (wgpu-native: naga's clamp of every array index and its loop bounding; measured
    # 13 % of the GEMM tile's time on the H200). Only for kernels whose every index is
    # in range by construction; Dawn (the browser) keeps its robustness checks.
    runtime_checks: bool = True
    # compile-time constants and type aliases declared in the module before the helpers
    # and the body (`const LANES = 4u;`, `alias Word = vec4<u32>;`): what the variants of
    # one body differ in (element type, vector width)
    consts: Mapping[str, str] = field(default_factory=dict)
    aliases: Mapping[str, str] = field(default_factory=dict)
    # how the float tensors its bindings view are stored (codegen.language.floats): "f32",
    # "f16" (needs the shader-f16 feature) or "f16_packed"
    floats: str = "f32"
    # the spec folder that declares the kernel (filled in from the declaring file)
    folder: Path = field(default=None, compare=True, repr=False)

    def __post_init__(self) -> None:
        if self.folder is None:
            object.__setattr__(self, "folder", _declaring_folder())
        ident(self.name, "Kernel name")
        ident(self.entry, f"Kernel {self.name!r} entry")
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
            ident(k, f"Kernel {self.name!r} override name")
            if not isinstance(v, Override):
                raise SpecError(f"Kernel {self.name!r} override {k!r} must be Override(type, "
                                f"default) (got {v!r})")
        if self.file and not self.file.endswith(".wgsl"):
            raise SpecError(f"Kernel {self.name!r} file must end in .wgsl (got {self.file!r})")
        if not all(h.endswith(".wgsl") for h in self.helpers):
            raise SpecError(f"Kernel {self.name!r} helpers must name .wgsl files "
                            f"(got {self.helpers!r})")
        if not isinstance(self.features, tuple) or not all(f in FEATURES for f in self.features):
            raise SpecError(f"Kernel {self.name!r} features must be a tuple of WebGPU feature "
                            f"names out of {', '.join(FEATURES)} (got {self.features!r})")
        for k, v in self.consts.items():
            ident(k, f"Kernel {self.name!r} const name")
            if not isinstance(v, str) or not v.strip():
                raise SpecError(f"Kernel {self.name!r} const {k!r} must be a WGSL constant "
                                f"expression string, e.g. '4u' (got {v!r})")
        for k, v in self.aliases.items():
            ident(k, f"Kernel {self.name!r} alias name")
            try:
                parse_type(v, uniform=False)
            except LayoutError as e:
                raise SpecError(f"Kernel {self.name!r} alias {k!r}: {e}") from None
        if self.floats not in FLOATS or not set(FLOATS[self.floats].features) <= set(
                self.features):
            raise SpecError(f"Kernel {self.name!r} floats must be one of {', '.join(FLOATS)}, "
                            f"with the features that storage needs (got {self.floats!r}, "
                            f"features {self.features!r})")
        clash = set(self.consts) & set(self.aliases)
        if clash:
            raise SpecError(f"Kernel {self.name!r} declares {', '.join(sorted(clash))} both as a "
                            f"const and as an alias; give each its own name")

    def variant(self, name: str, **changes) -> "Kernel":
        """A kernel compiled from this one's body (the same authored file) under another
        name, with `changes` to its other fields (consts, aliases, helpers, ...)."""
        return dataclasses.replace(self, name=name, file=self.filename, **changes)

    @property
    def filename(self) -> str:
        return self.file or f"{self.name}.wgsl"

    @property
    def path(self) -> Path:
        return self.folder / self.filename

    @property
    def pascal(self) -> str:
        return pascal(self.name)


@spec_class
class Scratch:
    """A tensor the op allocates for itself (e.g. an intermediate that one dispatch writes
    and the next reads): dtype and a shape expression, evaluated after the guards. Bind
    it by name like an argument. The handler allocates it once at the build shape with
    `graph.add_tensor` and resizes it with the live shape; the harness does the same.
    `shared`: the graph lends every op's shared scratch of this name one buffer
    (`graph.add_shared_tensor`, grown to the largest asked for), for a scratch that no
    dispatch of another op reads: ops run one after another, so a model's many split-K
    partial sums take the memory of its largest."""

    name: str
    dtype: str
    shape: str
    shared: bool = False

    def __post_init__(self) -> None:
        ident(self.name, "Scratch name")
        if self.dtype not in WGSL_ELEM:
            raise SpecError(f"Scratch {self.name!r} dtype must be one of "
                            f"{', '.join(WGSL_ELEM)} (got {self.dtype!r})")
        expr_text(self.shape, f"Scratch {self.name!r} shape")

    @property
    def dtypes(self) -> tuple[str, ...]:
        return (self.dtype,)

    @property
    def optional(self) -> bool:
        return False


@spec_class
class Route:
    """Run `kernel` when `when` holds (the last route of a dispatch has no `when`) and
    the device has the kernel's features (a route whose kernel needs features may omit
    `when`: the features are then its only condition)."""

    kernel: Kernel
    grid: Grid
    when: str = ""
    overrides: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not isinstance(self.kernel, Kernel):
            raise SpecError(f"Route kernel must be a Kernel(...) object (got {self.kernel!r}); "
                            f"declare the kernel once and reference it")
        if not isinstance(self.grid, Grid):
            raise SpecError(f"Route {self.kernel.name!r} grid must be Elementwise(...), "
                            f"Rows(...) or Tiles(...) (got {self.grid!r})")
        for k in self.overrides:
            if k not in self.kernel.overrides:
                raise SpecError(f"Route {self.kernel.name!r} sets override {k!r}, which the "
                                f"kernel does not declare (declared: "
                                f"{', '.join(self.kernel.overrides) or 'none'})")


@spec_class
class Dispatch:
    """One compute dispatch: its Params struct, bindings and the routes that pick a
    kernel. Params is binding 0 when present; `bindings` follow in order (the ABI)."""

    params: Union[Mapping[str, Param], Params]
    bindings: Sequence[Bind]
    routes: Sequence[Route]
    name: str = ""
    when: str = ""  # skip the dispatch when this is false
    # an OutputList's name: one dispatch per output, its item and index in scope
    foreach: str = ""
    # runs only while this holds, and it may change on a resize: the dispatch is recorded
    # (its pipeline created) at build whatever its value, and each resize switches it on
    # or off (e.g. an LLM's decode GEMV and its prefill tiles, one graph for both); its
    # params and grid must be computable either way
    active: str = ""
    # files of WGSL functions every kernel of the dispatch shares (beside the kernels);
    # they are composed into each kernel's module, since WGSL has no includes
    helpers: Sequence[str] = ()

    def __post_init__(self) -> None:
        if not self.routes:
            raise SpecError("Dispatch routes must hold at least one Route(...)")
        if self.active and (self.foreach or self.when):
            raise SpecError("Dispatch active=... switches one dispatch on and off: give it no "
                            "foreach and no when")
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
            if not r.when and not r.kernel.features:
                raise SpecError(f"Route {r.kernel.name!r} has no 'when' but is not the last "
                                f"route: the routes after it could never run")
        last = self.routes[-1]
        if last.when:
            raise SpecError(f"the last route ({last.kernel.name!r}) must have no "
                            f"'when': it is the fallback")
        if last.kernel.features:
            raise SpecError(f"the last route ({last.kernel.name!r}) needs features "
                            f"{', '.join(last.kernel.features)}: the fallback must run on "
                            f"every device; add a route to a portable kernel after it")
        names = [b.name for b in self.bindings] + ["params"]
        dup = {n for n in names if names.count(n) > 1}
        if dup:
            raise SpecError(f"Dispatch binding names must be unique (duplicated: "
                            f"{', '.join(sorted(dup))}; 'params' is reserved for the uniform)")
        if not isinstance(self.params, Params):
            _check_param_fields(self.params)

    @property
    def param_fields(self) -> Mapping[str, Param]:
        return self.params.fields if isinstance(self.params, Params) else self.params


@spec_class
class Copy:
    """A flat copy of `nbytes` from tensor `src` to tensor `dst`, run by both runtimes as
    their copy kernel (cpp_runtime/src/copy_words.wgsl); skipped when both are the same
    buffer (an aliased output already holds the bytes)."""

    src: str
    dst: str
    nbytes: str
    when: str = ""


