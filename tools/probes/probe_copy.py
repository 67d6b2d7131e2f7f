"""A 256 MB same-dtype copy two ways on the selected adapter: copyBufferToBuffer and a
vec4 compute kernel (4 vec4s per invocation), each timed with GPU timestamps (median of
20) and with wall clock over 20 back-to-back repetitions in one submit.

Which is faster depends on the adapter; the runtime runs every spec `Copy(...)` as a
compute pass (docs/decisions.md). Usage: python tools/probes/probe_copy.py [num_floats]
(lavapipe's 128 MB binding limit needs a smaller count, e.g. 4194304); step `copy` of
scripts/gpu_run.sh.
"""

import sys
import time
from pathlib import Path

import numpy as np
import wgpu

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from codegen.executors.wgpu_device import device  # noqa: E402
from codegen.language.grids import elementwise_grid  # noqa: E402

KERNEL = """
@group(0) @binding(0) var<storage, read> src: array<vec4<f32>>;
@group(0) @binding(1) var<storage, read_write> dst: array<vec4<f32>>;

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_index) lane: u32,
        @builtin(num_workgroups) nwg: vec3<u32>) {
  let first = (wg.y * nwg.x + wg.x) * 1024u + lane;
  for (var k = 0u; k < 4u; k++) {
    let i = first + k * 256u;
    if (i < arrayLength(&dst)) {
      dst[i] = src[i];
    }
  }
}
"""


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 64 * 1024 * 1024
    _, dev = device()
    usage = wgpu.BufferUsage.STORAGE | wgpu.BufferUsage.COPY_SRC | wgpu.BufferUsage.COPY_DST
    src = dev.create_buffer(size=4 * n, usage=usage)
    dst = dev.create_buffer(size=4 * n, usage=usage)
    dev.queue.write_buffer(src, 0, np.random.rand(n).astype(np.float32))
    module = dev.create_shader_module(code=KERNEL)
    pipe = dev.create_compute_pipeline(layout="auto",
                                       compute={"module": module, "entry_point": "main"})
    group = dev.create_bind_group(layout=pipe.get_bind_group_layout(0), entries=[
        {"binding": 0, "resource": {"buffer": src}}, {"binding": 1, "resource": {"buffer": dst}}])
    grid = elementwise_grid(-(-n // 16), 256, dev.limits["max-compute-workgroups-per-dimension"])

    def buffer_copy(encoder, ts=None):
        if ts:  # a copy cannot carry timestamps: empty passes on either side
            encoder.begin_compute_pass(timestamp_writes={
                "query_set": ts[0], "beginning_of_pass_write_index": ts[1]}).end()
        encoder.copy_buffer_to_buffer(src, 0, dst, 0, 4 * n)
        if ts:
            encoder.begin_compute_pass(timestamp_writes={
                "query_set": ts[0], "end_of_pass_write_index": ts[2]}).end()

    def kernel_copy(encoder, ts=None):
        writes = {"timestamp_writes": {"query_set": ts[0], "beginning_of_pass_write_index": ts[1],
                                       "end_of_pass_write_index": ts[2]}} if ts else {}
        cpass = encoder.begin_compute_pass(**writes)
        cpass.set_pipeline(pipe)
        cpass.set_bind_group(0, group)
        cpass.dispatch_workgroups(*grid)
        cpass.end()

    def timestamp_ms(record, iters=20):
        query_set = dev.create_query_set(type=wgpu.QueryType.timestamp, count=2 * iters)
        resolve = dev.create_buffer(size=16 * iters, usage=wgpu.BufferUsage.QUERY_RESOLVE
                                    | wgpu.BufferUsage.COPY_SRC)
        encoder = dev.create_command_encoder()
        for i in range(iters):
            record(encoder, (query_set, 2 * i, 2 * i + 1))
        encoder.resolve_query_set(query_set, 0, 2 * iters, resolve, 0)
        dev.queue.submit([encoder.finish()])
        ticks = np.frombuffer(bytes(dev.queue.read_buffer(resolve)), dtype=np.uint64)
        return float(np.median(ticks[1::2].astype(np.int64) - ticks[0::2].astype(np.int64))) * 1e-6

    def wall_ms(record, reps=20):
        encoder = dev.create_command_encoder()
        for _ in range(reps):
            record(encoder)
        t0 = time.perf_counter()
        dev.queue.submit([encoder.finish()])
        dev.queue.read_buffer(dst, 0, 16)
        return (time.perf_counter() - t0) * 1e3 / reps

    moved = 2 * 4 * n  # bytes read + written
    for name, record in (("copyBufferToBuffer", buffer_copy), ("vec4 compute kernel", kernel_copy)):
        timestamp_ms(record, 3)  # warm-up
        t, w = timestamp_ms(record), wall_ms(record)
        print(f"{name:20} timestamps {t:.4f} ms ({moved / t / 1e6:.0f} GB/s)   "
              f"wall/20 {w:.4f} ms ({moved / w / 1e6:.0f} GB/s)")
    same = bytes(dev.queue.read_buffer(dst)) == bytes(dev.queue.read_buffer(src))
    print("copies match:", same)
    if not same:
        raise SystemExit("the copy kernel did not reproduce its source")


if __name__ == "__main__":
    main()
