"""How a kernel stores float tensors: the one table of float storage kinds, and the WGSL
accessors the generator writes for a binding that views a float tensor.

A `Bind(..., view="scalar" | "vec2" | "vec4")` reads and writes its tensor through
generated functions, `<name>_load(i)` and `<name>_store(i, v)`, always in f32 (`f32`,
`vec2<f32>` or `vec4<f32>`: element i, or elements 2i, 2i+1, or 4i..4i+3), whatever the
tensor holds. The kernel's
`floats` decides what that is (`Kernel(floats=...)`; a kernel's float16 twins come from
`codegen.language.half`):

- "f32": float32 tensors, `array<f32>` / `array<vec4<f32>>`; the accessors are plain
  indexing.
- "f16": float16 tensors on a device with `shader-f16`: `array<f16>` / `array<vec2<f16>>` /
  `array<vec4<f16>>`, widened to f32 on load.
- "f16_packed": float16 tensors on any device: pairs of halves in u32 words (a vec2 is
  one word, a vec4 two), `unpack2x16float` on load; a scalar store writes its half of the
  word with atomicAnd and atomicOr on `array<atomic<u32>>` (the other half may be another
  invocation's).

Stores of both half kinds round in integer arithmetic (`half_bits`), as torch's `.half()`
rounds: to nearest even, an infinity at 65520 and above, subnormals kept, NaN quiet
(WGSL leaves the conversion of an out-of-range value undefined, and `pack2x16float` too;
Vulkan lets a device round f32 -> f16 conversions toward zero). The shader-f16 kind then
converts the exactly rounded value (naga 29 cannot bitcast u32 words to f16 vectors).
So a kernel computes in f32 whatever its tensors hold: GEMM, conv, norm and softmax
accumulators stay f32, and each result is rounded to half once, when it is stored.
"""

from __future__ import annotations

from dataclasses import dataclass

VIEWS = ("scalar", "vec2", "vec4")
TYPES = {"scalar": "f32", "vec2": "vec2<f32>", "vec4": "vec4<f32>"}  # what accessors carry


@dataclass(frozen=True)
class Floats:
    name: str
    features: tuple[str, ...]  # WebGPU features the storage needs
    scalar: str  # element of a scalar view's array
    scalar_write: str  # ... of a writable scalar view
    vec2: str  # element of a vec2 view's array
    vec4: str  # element of a vec4 view's array
    # (view, write) -> the accessors' bodies over `{n}` (the binding's name)
    load: dict
    store: dict
    # files of WGSL functions the accessors call (in codegen/specs/common), composed into
    # the module before the dispatch's helpers
    helpers: tuple[str, ...] = ()
    # a read-only vec4 view's storage element widened to vec4<f32> (`Bind(raw=True)`): the
    # body over `v`
    widen: str = "return v;"

    def elem(self, view: str, write: bool) -> str:
        if view != "scalar":
            return getattr(self, view)
        return self.scalar_write if write else self.scalar

    def accessors(self, name: str, view: str, write: bool) -> list[str]:
        """The WGSL accessor functions of binding `name`."""
        t = TYPES[view]
        lines = [f"fn {name}_load(i: u32) -> {t} {{",
                 f"  {self.load[(view, write)].format(n=name)}", "}"]
        if write:
            lines += [f"fn {name}_store(i: u32, v: {t}) {{",
                      *(f"  {s}" for s in self.store[view].format(n=name).split("\n")), "}"]
        return lines

    def raw_accessors(self, name: str) -> list[str]:
        """A read-only vec4 view's storage form (`Bind(raw=True)`): `<name>_raw` (the
        array's element type), `<name>_load_raw(i)` and `<name>_widen(v)`, so a kernel can
        hold loads in flight in their storage registers (half as many for float16) and
        widen them where it uses them."""
        return [f"alias {name}_raw = {self.vec4};",
                f"fn {name}_load_raw(i: u32) -> {name}_raw {{", f"  return {name}[i];", "}",
                f"fn {name}_widen(v: {name}_raw) -> vec4<f32> {{",
                f"  {self.widen}", "}"]


_HALF_STORE = """\
let shift = (i & 1u) * 16u;
atomicAnd(&{n}[i >> 1u], ~(0xffffu << shift));
atomicOr(&{n}[i >> 1u], half_bits(vec4<f32>(v)).x << shift);"""

FLOATS = {f.name: f for f in (
    Floats("f32", (), "f32", "f32", "vec2<f32>", "vec4<f32>",
           load={(v, w): "return {n}[i];" for v in VIEWS for w in (False, True)},
           store={v: "{n}[i] = v;" for v in VIEWS}),
    Floats("f16", ("shader-f16",), "f16", "f16", "vec2<f16>", "vec4<f16>",
           load={(v, w): f"return {TYPES[v]}({{n}}[i]);" for v in VIEWS for w in (False, True)},
           store={"scalar": "{n}[i] = rounded_halves(vec4<f32>(v)).x;",
                  "vec2": "{n}[i] = rounded_halves(vec4<f32>(v, v)).xy;",
                  "vec4": "{n}[i] = rounded_halves(v);"},
           helpers=("half_bits.wgsl", "half_rounded.wgsl"), widen="return vec4<f32>(v);"),
    Floats("f16_packed", (), "u32", "atomic<u32>", "u32", "vec2<u32>",
           load={("scalar", False): "return unpack2x16float({n}[i >> 1u])[i & 1u];",
                 ("scalar", True): "return unpack2x16float(atomicLoad(&{n}[i >> 1u]))[i & 1u];",
                 **{("vec2", w): "return unpack2x16float({n}[i]);" for w in (False, True)},
                 **{("vec4", w): "return unpack_halves({n}[i]);" for w in (False, True)}},
           store={"scalar": _HALF_STORE, "vec2": "{n}[i] = pack_halves(vec4<f32>(v, v)).x;",
                  "vec4": "{n}[i] = pack_halves(v);"},
           helpers=("half_bits.wgsl",), widen="return unpack_halves(v);"),
)}
