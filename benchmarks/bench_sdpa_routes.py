"""SDPA QK time for both routes (qk_per_row, qk_per_entry) on a channel-attention shape and
a standard shape, through the harness (the generated shader text).

Not a test. Times only the QK dispatch: GPU timestamp queries when the adapter offers
`timestamp-query`, the wall clock around a synchronous submit otherwise. The spec's
occupancy floor (codegen/specs/sdpa/sdpa.py, OCCUPANCY_FLOOR) should sit where the
winner flips.

    python benchmarks/bench_sdpa_routes.py            # GPU-sized shapes (H200)
    python benchmarks/bench_sdpa_routes.py --small    # shapes a CPU adapter runs quickly
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("XDG_RUNTIME_DIR", "/tmp")

import torch  # noqa: E402

from codegen.executors.wgpu_device import adapter_line  # noqa: E402
from codegen.executors import harness  # noqa: E402

TARGET = "et_vk.sdpa.default"
ROUTES = ("qk_per_row", "qk_per_entry")
# (label, B, H, S_q, S_kv, D). Channel attention (DaViT/Florence): tokens are the 32
# channels of a group and the dot product runs over the spatial positions.
SHAPES = {
    "gpu": [("channel_attn_davit", 1, 8, 32, 32, 3136), ("channel_attn_b8", 8, 8, 32, 32, 784),
            ("standard_llm_prefill", 1, 16, 1024, 1024, 64),
            ("standard_vit", 8, 12, 197, 197, 64),
            ("long_prefill", 1, 32, 4096, 512, 128),
            ("decode_batch", 16, 32, 1, 2048, 128)],
    "small": [("channel_attn_davit", 1, 2, 32, 32, 256), ("standard_llm_prefill", 1, 4, 1024, 32, 16)],
}


def qk_index(node) -> int:
    return next(i for i, p in enumerate(node.plans) if p.kernel is not None and p.kernel.name in ROUTES)


def time_gpu(node, index: int, iters: int) -> float | None:
    """Seconds per QK dispatch from timestamp queries, or None without the feature."""
    import wgpu

    dev = node.dev
    if "timestamp-query" not in dev.features:
        return None
    qs = dev.create_query_set(type=wgpu.QueryType.timestamp, count=2)
    resolve = dev.create_buffer(size=16, usage=wgpu.BufferUsage.QUERY_RESOLVE | wgpu.BufferUsage.COPY_SRC)
    encoder = dev.create_command_encoder()
    keep: list = []
    for i in range(iters):
        writes = {}  # the first pass stamps its start, the last its end; none in between
        if i == 0:
            writes["beginning_of_pass_write_index"] = 0
        if i == iters - 1:
            writes["end_of_pass_write_index"] = 1
        node.encode(encoder, index, keep,
                    timestamp_writes=dict(writes, query_set=qs) if writes else None)
    encoder.resolve_query_set(qs, 0, 2, resolve, 0)
    dev.queue.submit([encoder.finish()])
    t0, t1 = memoryview(dev.queue.read_buffer(resolve)).cast("Q")
    return (t1 - t0) * 1e-9 / iters  # WebGPU timestamps are nanoseconds


def time_wall(node, index: int, iters: int) -> float:
    dev = node.dev
    sync = next(iter(node.scratch.values()))
    samples = []
    for _ in range(3):
        encoder = dev.create_command_encoder()
        keep: list = []
        for _ in range(iters):
            node.encode(encoder, index, keep)
        start = time.perf_counter()
        dev.queue.submit([encoder.finish()])
        dev.queue.read_buffer(sync, 0, 4)  # a sync point
        samples.append((time.perf_counter() - start) / iters)
    return statistics.median(samples)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--small", action="store_true", help="CPU-adapter sized shapes")
    parser.add_argument("--iters", type=int, default=0, help="dispatches per sample")
    parser.add_argument("--wall", action="store_true", help="use the wall clock even with timestamps")
    args = parser.parse_args()
    iters = args.iters or (3 if args.small else 50)
    print(f"adapter: {adapter_line()}")
    g = torch.Generator().manual_seed(0)
    print(f"{'shape':<22} {'B,H,Sq,Skv,D':<22} {'rows':>7} {'route':<13} {'ms/QK':>9} {'GFLOP/s':>9} clock")
    for label, b, h, sq, skv, d in SHAPES["small" if args.small else "gpu"]:
        q = torch.randn(b, h, sq, d, generator=g)
        k = torch.randn(b, h, skv, d, generator=g)
        v = torch.randn(b, h, skv, d, generator=g)
        results = {}
        for kernel in ROUTES:
            node = harness.build_forced(TARGET, (kernel,), q, k, v)
            node.run()  # compile and warm up
            index = qk_index(node)
            seconds = None if args.wall else time_gpu(node, index, iters)
            clock = "gpu-timestamp"
            if seconds is None:
                seconds, clock = time_wall(node, index, iters), "wall"
            results[kernel] = seconds
            flops = 2.0 * b * h * sq * skv * d
            print(f"{label:<22} {f'{b},{h},{sq},{skv},{d}':<22} {b * h * sq:>7} {kernel:<13} "
                  f"{seconds * 1e3:>9.4f} {flops / seconds / 1e9:>9.2f} {clock}")
        picked = harness.build(TARGET, q, k, v).routes[0]
        winner = min(results, key=results.get)
        print(f"{'':<22} winner {winner}; spec routes to {picked}"
              f"{'' if winner == picked else '  <-- floor disagrees with this measurement'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
