"""The browser device layer against Chromium's real WebGPU (Dawn + Tint on SwiftShader).

No skips: without Chromium or playwright these tests fail, naming the install step."""

import os
import re
import struct

import pytest

from codegen.executors import wgpu_device
from codegen.executors.browser_device import (MAX_UPLOAD_BYTES, BrowserDevice, BrowserError,
                                              device)
from codegen.graph.errors import OpError
from codegen.language.grids import elementwise_grid
from codegen.executors.shader_check import (browser_shader_errors, catalog_modules,
                                            tint_compilable)
from codegen.lower.wgsl_module import Module, Segment
from codegen.language.loader import load

# y[i] = x[i] * scale + bias for i < n; binding 2 is declared but never read, so only an
# explicit bind group layout keeps it (the step binds a dummy there).
SCALE = """struct Params {
  n: u32,
  scale: f32,
  bias: f32,
};
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> x: array<f32>;
@group(0) @binding(2) var<storage, read> unused: array<f32>;
@group(0) @binding(3) var<storage, read_write> y: array<f32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  if (gid.x < params.n) {
    y[gid.x] = x[gid.x] * params.scale + params.bias;
  }
}
"""
SCALE_KERNEL = {"name": "test_scale", "code": SCALE, "entry": "main", "overrides": {},
                "layout": ["uniform", "read-only-storage", "read-only-storage", "storage"]}


@pytest.fixture(scope="module")
def dev() -> BrowserDevice:
    return device()


def floats(data: bytes) -> list[float]:
    return list(struct.unpack(f"<{len(data) // 4}f", data))


def scale_request(n: int, size: int, bindings, **extra) -> dict:
    return dict({
        "kernels": [SCALE_KERNEL],
        "buffers": [{"id": 1, "size": size, "data": struct.pack(f"<{n}f", *range(n))},
                    {"id": 2, "size": size, "data": struct.pack(f"<{size // 4}f", *[-1.0] * (size // 4))}],
        "steps": [{"kind": "dispatch", "kernel": "test_scale",
                   "params": struct.pack("<Iff", n, 2.0, 0.5), "bindings": bindings,
                   "dummy_bytes": [16] * len(bindings), "grid": [-(-n // 64), 1, 1]}],
        "read": [2]}, **extra)


def test_adapter_info(dev):
    info = dev.adapter_info()
    assert info["architecture"] == "swiftshader", info  # the flags ask for the CPU adapter
    assert info["vendor"]
    limits = info["limits"]
    assert limits["maxComputeWorkgroupsPerDimension"] >= 65535
    assert limits["maxStorageBufferBindingSize"] >= 128 << 20
    assert limits["maxBufferSize"] >= limits["maxStorageBufferBindingSize"]
    assert isinstance(info["features"], list)


def test_elementwise_kernel_with_params_and_dummy_binding(dev):
    n, size = 100, 512  # two workgroups, the second partly idle; 28 floats past n
    out = floats(dev.run(scale_request(n, size, [1, None, 2]))[2])
    assert out[:n] == [i * 2.0 + 0.5 for i in range(n)]
    assert out[n:] == [-1.0] * (size // 4 - n)  # the kernel stops at n


def test_timestamps_and_repeat(dev):
    result = dev.run(scale_request(100, 512, [1, None, 2], timestamps=True, repeat=3))
    assert len(result.wall_ms) == 3 and all(t >= 0 for t in result.wall_ms)
    # SwiftShader offers timestamp-query: one positive GPU time per run
    assert "timestamp-query" in dev.adapter_info()["features"]
    assert result.gpu_ms is not None and len(result.gpu_ms) == 3
    assert all(t > 0 for t in result.gpu_ms), result.gpu_ms


def test_calls_run_back_to_back_and_leave_one_calls_result(dev):
    # opgen bench --browser times 10 calls in one pass per run; the result is one call's
    one = floats(dev.run(scale_request(100, 512, [1, None, 2]))[2])
    result = dev.run(scale_request(100, 512, [1, None, 2], timestamps=True, calls=10))
    assert floats(result[2]) == one
    assert result.gpu_ms is not None and len(result.gpu_ms) == 1 and result.gpu_ms[0] > 0


def copy_request(src: bytes, size: int, nbytes: int) -> dict:
    return {"kernels": [], "buffers": [{"id": 10, "size": size, "data": src},
                                       {"id": 11, "size": size, "data": b"\xab" * size}],
            "steps": [{"kind": "copy", "src": 10, "dst": 11, "nbytes": nbytes}], "read": [11]}


# one copy workgroup moves WORKGROUP_SIZE * VEC4_PER_INVOCATION vec4s
COPY_GROUP_BYTES = wgpu_device.COPY_WORKGROUP_SIZE * wgpu_device.COPY_VEC4_PER_INVOCATION * 16


@pytest.mark.parametrize("nbytes", [16, 4096, 3 * COPY_GROUP_BYTES + 4096 + 48])
def test_copy_step_copies_nbytes(dev, nbytes):
    """The last size needs four copy workgroups, the last one partly idle: a grid that
    assumed more vec4s per invocation than the kernel takes would leave a gap."""
    size = nbytes + 1024
    src = os.urandom(size)
    out = dev.run(copy_request(src, size, nbytes))[11]
    assert out[:nbytes] == src[:nbytes]
    assert out[nbytes:] == b"\xab" * (size - nbytes)  # nothing past nbytes is written


def test_copy_step_moves_whole_vec4s(dev):
    """As in both runtimes, a copy of 20 bytes moves two whole vec4s (tensor buffers are
    whole 16-byte units) and nothing after them."""
    src = os.urandom(64)
    out = dev.run(copy_request(src, 64, 20))[11]
    assert out[:32] == src[:32] and out[32:] == b"\xab" * 32


def test_copy_step_of_one_buffer_onto_itself_does_nothing(dev):
    src = os.urandom(64)
    out = dev.run({"kernels": [], "buffers": [{"id": 1, "size": 64, "data": src}],
                   "steps": [{"kind": "copy", "src": 1, "dst": 1, "nbytes": 64}], "read": [1]})
    assert out[1] == src


@pytest.mark.parametrize("count", [0, 1, 255, 256, 257, 65535 * 256, 65535 * 256 + 1,
                                   65535 * 65535 * 256, 65535 * 65535 * 256 + 1])
def test_page_grid_rule_is_the_harness_rule(dev, count):
    """The page computes copy grids itself: its rule must be elementwise_grid,
    y-spill and limit included."""
    try:
        expected = list(elementwise_grid(count, 256, 65535))
    except OpError:
        with pytest.raises(BrowserError, match="exceed the 2-D dispatch limit"):
            dev.call("elementwiseGrid", count, 256, 65535)
        return
    assert dev.call("elementwiseGrid", count, 256, 65535) == expected


def test_compile_reports_errors_with_line_numbers(dev):
    bad = "fn helper() -> u32 {\n  return 1u;\n}\nfn other() {\n  let x: u32 = 1.5;\n}\n"
    good = "@compute @workgroup_size(1)\nfn main() {\n}\n"
    [broken, missing_entry, ok] = dev.compile([
        {"name": "bad", "code": bad, "entry": "main"},
        {"name": "good_wrong_entry", "code": good, "entry": "nope"},
        {"name": "good", "code": good, "entry": "main"}])
    errors = [m for m in broken["messages"] if m["type"] == "error"]
    assert errors and (errors[0]["lineNum"], errors[0]["linePos"]) == (5, 16), broken
    assert "abstract-float" in errors[0]["message"] and broken["error"]
    assert missing_entry["messages"] == [] and "nope" in missing_entry["error"]  # the pipeline's
    assert ok == {"name": "good", "messages": [], "error": None}


def test_wrong_binding_count_is_a_validation_error(dev):
    with pytest.raises(BrowserError, match=r"Number of entries \(3\) did not match the expected "
                                           r"number of entries \(4\)"):
        dev.run(scale_request(100, 512, [1, 2]))
    # the error stayed in its scope: the device still runs
    assert floats(dev.run(scale_request(4, 16, [1, None, 2]))[2]) == [0.5, 2.5, 4.5, 6.5]


def test_a_kernel_that_fails_to_build_reports_its_error_every_time(dev):
    broken = dict(SCALE_KERNEL, name="test_broken", code=SCALE.replace("params.bias", "params.bias2"))
    request = dict(scale_request(4, 16, [1, None, 2]), kernels=[broken])
    request["steps"][0]["kernel"] = "test_broken"
    for _ in range(2):  # the failed pipeline is not cached: the second run sees the same error
        with pytest.raises(BrowserError, match="bias2"):
            dev.run(request)


def test_request_mistakes_fail_loud(dev):
    with pytest.raises(BrowserError, match="unknown buffer id 7"):
        dev.run(scale_request(4, 16, [1, None, 7]))
    with pytest.raises(BrowserError, match="not a whole number of 16-byte units"):
        dev.run(dict(scale_request(4, 16, [1, None, 2]),
                     buffers=[{"id": 1, "size": 20}, {"id": 2, "size": 16}]))
    with pytest.raises(BrowserError, match="exceed"):
        dev.run(copy_request(bytes(32), 32, 48))
    with pytest.raises(BrowserError, match="calls must be a positive integer"):
        dev.run(scale_request(4, 16, [1, None, 2], calls=0))
    too_big = MAX_UPLOAD_BYTES + 16
    with pytest.raises(BrowserError, match="MiB of buffer data"):  # refused before sending
        dev.run(copy_request(bytes(too_big), too_big, 16))


def test_missing_chromium_names_the_install_step():
    with pytest.raises(BrowserError, match=r"apt-get install -y chromium"):
        BrowserDevice(executable="/nonexistent/chromium")


# naga accepts this; Tint's uniformity analysis rejects the barrier after a return that
# depends on a storage value (a tiled kernel's bounds check written before its barrier)
NONUNIFORM_BARRIER = """@group(0) @binding(0) var<storage, read_write> data: array<f32>;
var<workgroup> tile: array<f32, 64>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(local_invocation_id) lid: vec3<u32>) {
  if (data[gid.x] > 0.0) {
    return;
  }
  tile[lid.x] = 1.0;
  workgroupBarrier();
  data[gid.x] = tile[63u - lid.x];
}
"""


def test_every_shipped_kernel_compiles_in_chromium():
    """Tint compiles every kernel's composed module (and the copy kernel) without an error;
    the shader-f16 twins need a feature SwiftShader lacks (their packed twins run there)."""
    mods = catalog_modules(load())
    assert len(mods) > 20  # the catalog loaded
    errors = browser_shader_errors(mods)
    assert not errors, "Tint rejects:\n" + "\n".join(errors)
    _, lacking = tint_compilable(mods)
    assert all("shader-f16" in m.kernel.features for m in lacking), lacking
    print(f"\nTint: {len(mods) - len(lacking)} modules compiled, {len(lacking)} shader-f16 "
          f"modules left out (the device lacks shader-f16)")


def test_tint_errors_name_the_authored_file_line_and_column(tmp_path):
    """A kernel only naga accepts (a barrier after a non-uniform early return) is reported
    at the authored file's line and column, though Tint compiled the composed module."""
    header = "// two lines the generator wrote\n// above the authored text\n"
    text = header + NONUNIFORM_BARRIER
    authored = str(tmp_path / "bad.wgsl")

    class K:
        name, entry, overrides = "bad", "main", {}

    module = Module(K, "bad", text, (Segment(1, 2, None), Segment(3, text.count("\n"), authored)),
                    (), ())
    wgpu_device.device()[1].create_shader_module(code=text)  # naga: fine
    errors = browser_shader_errors([module])
    assert len(errors) == 1, errors
    found = re.match(rf"{re.escape(authored)}:(\d+):\d+: kernel bad \(Tint\)", errors[0])
    assert found, errors
    barrier = NONUNIFORM_BARRIER.split("\n").index("  workgroupBarrier();") + 1
    assert int(found.group(1)) == barrier, errors
