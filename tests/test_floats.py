"""float16 in the spec language (codegen/language/floats.py, half.py): views and their
accessors in each storage, the float16 twins of routes, the same-dtype guard, storage-only
WGSL types, and `half_bits` (codegen/specs/common/half_bits.wgsl) rounding every value as
torch's `.half()` does, run on the wgpu adapter."""

import struct

import numpy as np
import pytest

from codegen.executors.call import catalog
from codegen.executors.wgpu_device import device
from codegen.language import (Bind, Elementwise, Kernel, Route, SpecError, half_routes,
                              half_variants, same_dtype)
from codegen.language.layout import parse_type
from codegen.lower.wgsl_module import compose, storage_dummy_bytes
from codegen.paths import SPECS_DIR

K = Kernel("probe", overrides={}, features=("subgroups",))


def test_views_and_floats_are_checked():
    with pytest.raises(SpecError, match="view must be one of scalar, vec2, vec4"):
        Bind("x", "self", view="vec8")
    with pytest.raises(SpecError, match="without an elem"):
        Bind("x", "self", view="vec4", elem="vec4<f32>")
    with pytest.raises(SpecError, match="floats must be one of f32, f16, f16_packed, with the "
                                        "features that storage needs"):
        Kernel("k", floats="f16")  # shader-f16 missing
    Kernel("k", floats="f16", features=("shader-f16",))


def test_half_routes_are_the_twins_of_each_route_in_order():
    routes = [Route(K, Elementwise("1"), when="n > 4"), Route(Kernel("plain"), Elementwise("1"))]
    twins = half_routes(routes, "self")
    assert [r.kernel.name for r in twins] == ["probe_f16", "probe_f16_packed", "plain_f16",
                                               "plain_f16_packed"]
    assert [r.when for r in twins] == ["self.dtype == 'float16' and (n > 4)"] * 2 + [
        "self.dtype == 'float16'"] * 2
    f16, packed = half_variants(K)
    assert f16.features == ("subgroups", "shader-f16") and f16.floats == "f16"
    assert packed.features == ("subgroups",) and packed.floats == "f16_packed"
    assert f16.filename == packed.filename == K.filename  # one body
    with pytest.raises(SpecError, match="already stores floats as 'f16'"):
        half_variants(f16)


def test_same_dtype_guard_reads_optional_tensors_when_present():
    g = same_dtype("input", ["weight"], optional=["bias"])
    assert g.check == ("weight.dtype == input.dtype and (not bias.present or bias.dtype == "
                       "input.dtype)")
    assert g.what == "does not share its dtype with weight and bias"


def test_storage_only_types():
    assert parse_type("vec4<f16>", uniform=False).stride == 8
    assert parse_type("f16", uniform=False).stride == 2
    assert parse_type("atomic<u32>", uniform=False).stride == 4
    with pytest.raises(Exception, match="unsupported Params type"):
        parse_type("f16")  # never in Params


def _module(op: str, kernel: str):
    bound = next(b for b in catalog().ops if b.op.name == op)
    for d in bound.dispatches:
        for r in d.routes:
            if r.route.kernel.name == kernel:
                return bound, d, compose(bound, d, r.route.kernel)
    raise KeyError(kernel)


def test_each_storage_declares_its_arrays_and_accessors():
    # layer norm: vec4 views of input and output, scalar views of weight, bias, mean, rstd
    _, _, f32 = _module("layer_norm", "norm_rows_vec4")
    assert "var<storage, read> input: array<vec4<f32>>;" in f32.text
    assert "fn input_load(i: u32) -> vec4<f32> {\n  return input[i];\n}" in f32.text
    assert "half_bits" not in f32.text
    bound, d, f16 = _module("layer_norm", "norm_rows_vec4_f16")
    assert f16.text.split("\n")[1] == "enable f16;"
    assert "var<storage, read_write> mean: array<f16>;" in f16.text
    assert "output[i] = rounded_halves(v);" in f16.text and "fn half_bits(" in f16.text
    _, _, packed = _module("layer_norm", "norm_rows_vec4_f16_packed")
    assert "enable" not in packed.text
    # a writable scalar view of halves: its half of a word, with atomics
    assert "var<storage, read_write> mean: array<atomic<u32>>;" in packed.text
    assert "atomicAnd(&mean[i >> 1u], ~(0xffffu << shift));" in packed.text
    assert "return unpack_halves(input[i]);" in packed.text
    assert packed.text.count("fn half_bits(") == 1
    # the binding table follows the storage: a vec4 of halves is 8 bytes, a word pair too
    strides = {b.name: b.stride for b in packed.bindings}
    assert strides["input"] == 8 and strides["weight"] == 4
    assert storage_dummy_bytes(bound, d, f16.kernel)[0] == 16
    # an accessor the body calls counts as reading its binding (no dummy bound there)
    assert {b.name: b.read for b in packed.bindings}["weight"]


HALF_BITS = (SPECS_DIR / "common" / "half_bits.wgsl").read_text()
SHADER = HALF_BITS + """
@group(0) @binding(0) var<storage, read> values: array<vec4<f32>>;
@group(0) @binding(1) var<storage, read_write> bits: array<vec4<u32>>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  if (gid.x < arrayLength(&values)) {
    bits[gid.x] = half_bits(values[gid.x]);
  }
}
"""


# rounded_halves (the shader-f16 stores): the rounded value as a stored half
ROUNDED_SHADER = "enable f16;\n" + (SPECS_DIR / "common" / "half_rounded.wgsl").read_text() + """
@group(0) @binding(0) var<storage, read> values: array<vec4<f32>>;
@group(0) @binding(1) var<storage, read_write> halves: array<vec4<f16>>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  if (gid.x < arrayLength(&values)) {
    halves[gid.x] = rounded_halves(values[gid.x]);
  }
}
"""


def _gpu_half_bits(values: np.ndarray, shader: str = SHADER, word=np.uint32) -> np.ndarray:
    """The halves `shader` makes of `values` (their bits; 4 values per invocation), which
    it stores as `word`s: u32 holding the bits (SHADER) or the halves themselves (uint16:
    ROUNDED_SHADER's vec4<f16>)."""
    import wgpu

    _, dev = device()
    n = len(values) // 4
    out_bytes = 4 * np.dtype(word).itemsize
    src = dev.create_buffer_with_data(data=values.astype(np.float32).tobytes(),
                                      usage=wgpu.BufferUsage.STORAGE)
    dst = dev.create_buffer(size=n * out_bytes, usage=wgpu.BufferUsage.STORAGE |
                            wgpu.BufferUsage.COPY_SRC)
    pipe = dev.create_compute_pipeline(layout="auto", compute={
        "module": dev.create_shader_module(code=shader), "entry_point": "main"})
    group = dev.create_bind_group(layout=pipe.get_bind_group_layout(0), entries=[
        {"binding": 0, "resource": {"buffer": src}}, {"binding": 1, "resource": {"buffer": dst}}])
    encoder = dev.create_command_encoder()
    cpass = encoder.begin_compute_pass()
    cpass.set_pipeline(pipe)
    cpass.set_bind_group(0, group)
    cpass.dispatch_workgroups(-(-n // 64))
    cpass.end()
    dev.queue.submit([encoder.finish()])
    return np.frombuffer(dev.queue.read_buffer(dst), dtype=word).astype(np.uint16)


def _rounding_probes() -> np.ndarray:
    """Every finite half, the midpoints between neighbours (ties to even), values past
    65504 and below the smallest subnormal, float32 subnormals; both signs, a multiple
    of 4 long."""
    halves = np.arange(0x10000, dtype=np.uint32).astype(np.uint16).view(np.float16)
    finite = halves[np.isfinite(halves)].astype(np.float32)
    ordered = np.unique(finite)
    mids = ((ordered[:-1].astype(np.float64) + ordered[1:]) / 2).astype(np.float32)
    # a float32 ulp either side of each midpoint
    near = np.concatenate([np.nextafter(mids, np.float32(np.inf)),
                           np.nextafter(mids, np.float32(-np.inf))])
    edges = np.array([65504.0, 65519.99, 65520.0, 1e6, 3.4e38, 2.0 ** -25, 2.0 ** -25 * 1.001,
                      2.0 ** -26, 1e-45, -1e-45, 5.96e-8, 6.1e-5, np.inf, -np.inf],
                     dtype=np.float32)
    values = np.concatenate([finite, mids, near, edges, -edges])
    return np.concatenate([values, np.zeros(-len(values) % 4, np.float32)])


def test_rounded_halves_rounds_as_torch_does():
    """rounded_halves (float arithmetic: scale to the half ulp, round, scale back) stores
    the half numpy's float16 conversion gives (round to nearest even, IEEE overflow,
    subnormal halves) for every probe, and NaN as NaN."""
    _, dev = device()
    if "shader-f16" not in dev.features:
        pytest.skip("the adapter has no shader-f16")
    values = _rounding_probes()
    got = _gpu_half_bits(values, ROUNDED_SHADER, np.uint16)
    with np.errstate(over="ignore"):
        want = values.astype(np.float16).view(np.uint16)
    wrong = np.nonzero(got != want)[0]
    assert not len(wrong), [(float(values[i]), hex(got[i]), hex(want[i])) for i in wrong[:8]]
    nan = _gpu_half_bits(np.array([np.nan, -np.nan, struct.unpack("<f", b"\x01\x00\x80\x7f")[0],
                                   0.0], dtype=np.float32), ROUNDED_SHADER, np.uint16)
    assert all((h & 0x7c00) == 0x7c00 and (h & 0x3ff) for h in nan[:3])


def test_half_bits_rounds_as_torch_does():
    """Every half, the midpoints between neighbouring halves (ties to even), values past
    65504 and below the smallest subnormal, and float32 subnormals: numpy's float16
    conversion (round to nearest even, IEEE) is the reference."""
    halves = np.arange(0x10000, dtype=np.uint32).astype(np.uint16).view(np.float16)
    finite = halves[np.isfinite(halves)].astype(np.float32)
    ordered = np.unique(finite)
    mids = ((ordered[:-1].astype(np.float64) + ordered[1:]) / 2).astype(np.float32)
    edges = np.array([65504.0, 65519.99, 65520.0, 1e6, 3.4e38, 2.0 ** -25, 2.0 ** -25 * 1.001,
                      2.0 ** -26, 1e-45, -1e-45, 5.96e-8, 6.1e-5, np.inf, -np.inf],
                     dtype=np.float32)
    values = np.concatenate([finite, mids, edges, -edges])
    values = np.concatenate([values, np.zeros(-len(values) % 4, np.float32)])
    got = _gpu_half_bits(values)
    with np.errstate(over="ignore"):  # past 65504: inf, as expected
        want = values.astype(np.float16).view(np.uint16)
    wrong = np.nonzero(got != want)[0]
    assert not len(wrong), [(float(values[i]), hex(got[i]), hex(want[i])) for i in wrong[:8]]
    nan = _gpu_half_bits(np.array([np.nan, -np.nan, struct.unpack("<f", b"\x01\x00\x80\x7f")[0],
                                   0.0], dtype=np.float32))
    assert all((h & 0x7c00) == 0x7c00 and (h & 0x3ff) for h in nan[:3])  # NaN stays NaN
