"""`opgen bench` runs on the CI adapter (a smoke run: figures are printed, not judged), and
the ONNX models it times on ORT's WebGPU EP compute the op (checked on ORT's CPU EP)."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from codegen.bench.checks import BenchError

ROOT = Path(__file__).resolve().parents[1]


def test_bench_smoke_suite(tmp_path):
    out, png = tmp_path / "bench.json", tmp_path / "bench.png"
    res = subprocess.run([sys.executable, "-m", "codegen", "bench", "--suite", "smoke",
                          "--iters", "2", "--warmup", "1", "--no-ort", "--no-torch",
                          "--peak", "GB/s=50", "--json", str(out), "--png", str(png)], cwd=ROOT,
                         capture_output=True, text=True, env=dict(os.environ, XDG_RUNTIME_DIR="/tmp"))
    assert res.returncode == 0, res.stderr
    data = json.loads(out.read_text())
    assert data["adapter"]
    assert data["peaks"] == {"GB/s": 50.0}
    relu = next(line for line in res.stdout.splitlines() if line.startswith("relu 64K"))
    rate, of_peak = relu.split()[4], relu.split()[6]
    assert of_peak == f"{100 * float(rate) / 50:.1f}%"
    assert [r["route"] for r in data["results"]] == ["relu", "constant_pad_nd"]
    for r in data["results"]:
        assert r["ours_ms"] > 0 and r["work"] > 0 and r["unit"] == "GB/s"
    assert "GB/s" in res.stdout
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("name", ["gemm", "conv_stems"])
def test_bench_suite_runs_at_its_quick_shapes(name, tmp_path, capsys, monkeypatch):
    # the H200 suites at CI shapes, with the same ops and routes (GEMV, split K, stems)
    from codegen.bench import suites
    from codegen.cli.main import main

    monkeypatch.setenv("XDG_RUNTIME_DIR", "/tmp")
    out = tmp_path / f"{name}.json"
    assert main(["bench", "--suite", name, "--quick", "--iters", "1", "--warmup", "0",
                 "--no-ort", "--no-torch", "--json", str(out)]) == 0
    rows = json.loads(out.read_text())["results"]
    assert [r["name"] for r in rows] == [entry[0] for entry in suites.QUICK[name]]
    assert all(r["unit"] == "TFLOP/s" and r["ours_ms"] > 0 for r in rows)
    routes = {r["name"]: r["route"] for r in rows}
    printed = capsys.readouterr().out
    # the table is printed once: one head, each row once, as it is timed
    assert printed.count("ours/torch") == 1, printed
    assert all(len(re.findall(rf"^{re.escape(r['name'])} +(?!\[)", printed, re.M)) == 1
               for r in rows), printed
    if name == "gemm":
        assert routes["linear 1x64x256"] == "gemv_rows_subgroup"  # lavapipe has subgroups
        assert routes["mm 9x256x16"] == "gemm_vec4_m32+gemm_split_sum"
        assert routes["mm 1x64x256"] == "gemv_nn+gemm_split_sum"
        assert routes["bmm 4x1x64x32"] == "gemv_nn+gemm_split_sum"
        assert rows[0]["work"] == 2 * 48 ** 3
        # the GEMV shape also reads as bandwidth: weight, input and output bytes once
        gemv = next(r for r in rows if r["name"] == "linear 1x64x256")
        assert gemv["extra"] == {"bytes": 4 * (64 + 256 * 64 + 256)}
        assert "linear 1x64x256 [GB/s]" in printed and "mm 48x48x48 [GB/s]" not in printed
    else:
        stems = ["conv B1 3->8 20x20 7x7 s2", "patch embed B1 3->16 32x32 16x16 s16",
                 "conv B1 3->8 24x24 7x7 s4"]
        assert all("conv2d_stem_gemm" in routes[n].split("+") for n in stems)
        assert "conv2d_gemm" in routes["conv B2 C16 6x6 3x3"].split("+")
        assert routes["transposed B1 8->4 6x6 4x4 s2"] == ("conv2d_pack_weights+"
                                                            "conv_transpose2d_gemm")


def test_bench_quick_needs_a_suite_with_quick_shapes():
    from codegen.bench import bench
    from codegen.cli.main import main

    for argv in (["bench", "--quick"], ["bench", "--suite", "smoke", "--quick"]):
        assert main(argv) == 2
    with pytest.raises(BenchError, match=r"--quick runs a suite at small shapes: give --suite "
                                           r"with one of conv_anchors, conv_f16, conv_stems, gemm, "
                                           r"gemm_f16 \(got --suite 'smoke'\)"):
        bench._jobs(bench_args(["--suite", "smoke", "--quick"]))


def test_focus_suites_are_rows_of_their_suites_with_float16_twins():
    from codegen.bench import suites

    for focus, full, rows in (("gemm_focus", "gemm", suites.GEMM_FOCUS),
                              ("conv_focus", "conv_anchors", suites.CONV_FOCUS)):
        assert [e[0] for e in suites.SUITES[focus]] == [e[0] for e in suites.SUITES[full]
                                                         if e[0] in rows]
        assert len(suites.SUITES[focus]) == len(rows)  # every named row exists
        assert suites.SUITES[f"{focus}_f16"] == suites.as_float16(suites.SUITES[focus])


@pytest.mark.parametrize("name, twin", [("gemm_f16", "gemm"), ("conv_f16", "conv_anchors")])
def test_float16_suites_are_their_float32_twins_in_half(name, twin):
    from codegen.bench import suites

    for table in (suites.SUITES, suites.QUICK):
        half, single = table[name], table[twin]
        assert [e[0] for e in half] == [e[0] for e in single]  # row names join the two
        for (_, _, h_args, *_), (_, _, s_args, *_) in zip(half, single):
            tensors = [(h, s) for h, s in zip(h_args, s_args) if hasattr(h, "dtype")]
            assert tensors and all(h.dtype == "float16" and s.dtype == "float32"
                                   and h.shape == s.shape for h, s in tensors)


@pytest.mark.parametrize("name", ["gemm_f16", "conv_f16"])
def test_float16_suites_run_checked_at_their_quick_shapes(name, tmp_path, capsys,
                                                         monkeypatch):
    # lavapipe has shader-f16: every row runs a float16 kernel, checked against torch
    from codegen.bench import f16_report, suites
    from codegen.cli.main import main

    monkeypatch.setenv("XDG_RUNTIME_DIR", "/tmp")
    twin = {"gemm_f16": "gemm", "conv_f16": "conv_anchors"}[name]
    out16, out32 = tmp_path / f"{name}.json", tmp_path / f"{twin}.json"
    # the float16 suite asks for ORT: its float32 one-node models are never timed for it
    for suite, out, flags in ((name, out16, []), (twin, out32, ["--no-ort"])):
        assert main(["bench", "--suite", suite, "--quick", "--iters", "1", "--warmup", "0",
                     "--no-torch", "--json", str(out), *flags]) == 0
    rows = json.loads(out16.read_text())["results"]
    assert [r["name"] for r in rows] == [e[0] for e in suites.QUICK[name]]
    assert all(r["ours_ms"] > 0 and r["ort_ms"] is None for r in rows)  # no float32 ORT row
    assert all(any(k.endswith("_f16") for k in r["route"].split("+")) for r in rows), rows
    capsys.readouterr()
    assert f16_report.main([str(out32), str(out16), "--markdown"]) == 0
    table = capsys.readouterr().out
    assert table.count("\n| ") == len(rows) + 1, table  # the head and one line per row
    assert all(f"| {r['name']} | {r['route']} |" in table for r in rows), table


def test_float16_rows_are_checked_at_the_float16_tolerance(monkeypatch):
    import torch

    from codegen.bench import bench
    from codegen.bench.checks import BENCH_TOLERANCE, BENCH_TOLERANCE_F16, bench_tolerance
    from codegen.executors import harness
    from codegen.graph.inputs import materialize, randn

    args = materialize((randn(37, 64, dtype="float16"), randn(64, 24, dtype="float16")),
                       "bench-f16-check")
    assert args[0].dtype == args[1].dtype == torch.float16
    assert bench_tolerance(args) == BENCH_TOLERANCE_F16 > BENCH_TOLERANCE
    assert bench_tolerance((args[0].float(), args[1].float())) == BENCH_TOLERANCE
    bench.bench_call("mm", "aten.mm.default", args, iters=1, warmup=0, with_torch=False,
                     with_ort=False)  # one rounding to half: within the tolerance
    real_run = harness.Node.run
    # a result off by 4e-3 of the largest value (a sum kept in half would be): fails
    monkeypatch.setattr(harness.Node, "run", lambda self: (lambda y: (
        y.float() + 4e-3 * y.float().abs().max()).half())(real_run(self)))
    with pytest.raises(BenchError, match=r"mm: output 0 of gemm\w*_f16\S* does not match torch "
                                           r"at these shapes \(error 0.00[45]\d* relative to the "
                                           r"largest value, allowed 0.002;"):
        bench.bench_call("mm", "aten.mm.default", args, iters=1, warmup=0, with_torch=False,
                         with_ort=False)


def bench_args(argv):
    import argparse

    from codegen.bench import bench

    sub = argparse.ArgumentParser().add_subparsers(dest="command")
    bench.add_parser(sub)
    return sub.choices["bench"].parse_args(argv)


def test_bench_reports_conv_flops_and_forced_routes(tmp_path):
    from codegen.bench import bench

    from codegen.graph.inputs import materialize, randn

    args = materialize((randn(1, 8, 10, 10), randn(8, 4, 3, 3), randn(8), [1, 1], [1, 1],
                        [1, 1], False, [0, 0], 2), "bench-conv")
    rows = bench.bench_call("conv", "aten.convolution.default", args, iters=2, warmup=1,
                            with_torch=False, with_ort=False, force=("conv2d",))
    assert [r.route for r in rows] == ["conv2d_vec4", "conv2d"]
    assert rows[0].unit == "TFLOP/s" and rows[0].work == 2 * 8 * 100 * 4 * 9


def test_bench_times_the_transposed_gather_beside_the_phase_gemm():
    # the gather kernel is the phase GEMM's fallback route in one dispatch, so --force
    # reaches it (after the weight pack, which runs either way); both are checked vs torch
    from codegen.bench import bench

    from codegen.graph.inputs import materialize, randn

    args = materialize((randn(1, 6, 5, 4), randn(6, 5, 4, 4), randn(5), [2, 2], [1, 1],
                        [1, 1], True, [1, 0], 1), "bench-conv-transposed")
    rows = bench.bench_call("tconv", "aten.convolution.default", args, iters=1, warmup=0,
                            with_torch=False, with_ort=False, force=("conv_transpose2d",))
    assert [r.route for r in rows] == [
        "conv2d_pack_weights+conv_transpose2d_gemm",
        "conv2d_pack_weights+conv_transpose2d"]


def test_constant_steps_are_those_that_read_only_the_constant_arguments():
    """The Python twin of the native rule (cpp_runtime/src/constant_plan.h): the conv's
    weight pack, once the weight is a constant; a clone of a constant; nothing else."""
    from codegen.executors import harness
    from codegen.executors.call import bind_call
    from codegen.executors.constants import constant_steps
    from codegen.graph.inputs import materialize, randn

    conv = materialize((randn(1, 16, 6, 6), randn(8, 16, 3, 3), randn(8), [1, 1], [1, 1],
                        [1, 1], False, [0, 0], 1), "constant-steps-conv")
    node = harness.EXECUTOR.build(bind_call("aten.convolution.default", conv, {}))
    kernels = {i: p.kernel.name for i, p in enumerate(node.plans) if p.run}
    assert sorted(kernels.values()) == ["conv2d_gemm", "conv2d_pack_weights"]
    pack = next(i for i, k in kernels.items() if k == "conv2d_pack_weights")
    assert constant_steps(node, {"weight", "bias"}) == {pack}
    assert constant_steps(node, {"weight"}) == {pack}
    assert constant_steps(node, {"bias", "input"}) == set()
    assert constant_steps(node, set()) == set()
    assert constant_steps(node, {"mat2"}) == set()  # not an argument of this op

    depthwise = materialize((randn(1, 8, 6, 6), randn(8, 1, 3, 3), randn(8), [1, 1], [1, 1],
                             [1, 1], False, [0, 0], 8), "constant-steps-depthwise")
    node = harness.EXECUTOR.build(bind_call("aten.convolution.default", depthwise, {}))
    assert constant_steps(node, {"weight", "bias"}) == set()  # its one pass reads the input

    clone = materialize((randn(64),), "constant-steps-clone")
    node = harness.EXECUTOR.build(bind_call("aten.clone.default", clone, {}))
    assert constant_steps(node, {"self"}) == {0}


def test_bench_times_a_conv_without_its_constant_weight_pack():
    from codegen.bench import bench
    from codegen.graph.inputs import materialize, randn

    args = materialize((randn(1, 16, 6, 6), randn(8, 16, 3, 3), randn(8), [1, 1], [1, 1],
                        [1, 1], False, [0, 0], 1), "bench-conv-constants")
    rows = bench.bench_call("conv", "aten.convolution.default", args, iters=2, warmup=1,
                            with_torch=False, with_ort=False, constants=("weight", "bias"))
    assert [(r.name, r.route) for r in rows] == [
        ("conv", "conv2d_pack_weights+conv2d_gemm"), ("conv [constants]", "conv2d_gemm")]
    assert rows[1].ours_ms > 0 and rows[1].work == rows[0].work
    assert bench_args(["--constants", "weight,bias"]).constants == "weight,bias"


def test_bench_rejects_an_unknown_forced_kernel():
    res = subprocess.run([sys.executable, "-m", "codegen", "bench", "--suite", "smoke",
                          "--force", "conv2d_gemm,conv2d_gemm_wide"], capture_output=True,
                         text=True)
    assert res.returncode != 0
    assert "--force names unknown kernels conv2d_gemm_wide (known: " in res.stderr


def test_bench_says_when_a_forced_kernel_does_not_apply(capsys):
    from codegen.bench import bench

    from codegen.graph.inputs import materialize, randn

    # groups == 1: the GEMM dispatches run, the direct one (conv2d_vec4's) does not
    args = materialize((randn(1, 8, 6, 6), randn(8, 8, 3, 3), None, [1, 1], [1, 1], [1, 1],
                        False, [0, 0], 1), "bench-conv-gemm")
    rows = bench.bench_call("conv", "aten.convolution.default", args, iters=1, warmup=0,
                            with_torch=False, with_ort=False, force=("conv2d_vec4",))
    assert [r.route for r in rows] == ["conv2d_pack_weights+conv2d_stem_gemm"]
    assert "conv: --force conv2d_vec4 does not apply" in capsys.readouterr().err


def test_bench_forces_the_padded_k_conv_gemm_on_a_stem():
    from codegen.bench import bench

    from codegen.graph.inputs import materialize, randn

    # 3 input channels take conv2d_stem_gemm; conv2d_gemm (K padded to 16 channels per tap)
    # stays reachable beside it, with the same pack and split, and both match torch
    args = materialize((randn(1, 3, 20, 20), randn(8, 3, 7, 7), randn(8), [2, 2], [3, 3],
                        [1, 1], False, [0, 0], 1), "bench-conv-stem")
    rows = bench.bench_call("stem", "aten.convolution.default", args, iters=1, warmup=0,
                            with_torch=False, with_ort=False, force=("conv2d_gemm",))
    assert [r.route for r in rows] == ["conv2d_pack_weights+conv2d_stem_gemm",
                                       "conv2d_pack_weights+conv2d_gemm"]


def test_bench_forces_the_tiled_route_on_gemv_shapes_and_gemv_past_eight_rows():
    # mm's GEMV route shares its dispatch and K split with gemm_vec4, so either can be
    # timed at the other's shapes; gemv_nn takes rows in blocks of 8 (3 blocks here).
    # bench_call checks every run against torch.
    from codegen.bench import bench

    from codegen.graph.inputs import materialize, randn

    def routes(shape, kernel):
        m, k, n = shape
        args = materialize((randn(m, k), randn(k, n)), f"bench-mm-{m}")
        return [r.route for r in bench.bench_call("mm", "aten.mm.default", args, iters=1,
                                                  warmup=0, with_torch=False, with_ort=False,
                                                  force=(kernel,))]

    assert routes((2, 64, 12), "gemm_vec4") == ["gemv_nn+gemm_split_sum",
                                                "gemm_vec4+gemm_split_sum"]
    assert routes((19, 64, 12), "gemv_nn") == ["gemm_vec4_m32+gemm_split_sum",
                                               "gemv_nn+gemm_split_sum"]


def test_bench_times_an_op_that_is_only_a_buffer_copy():
    from codegen.bench import bench

    from codegen.graph.inputs import materialize, randn

    # a same-dtype clone is a Copy step alone; when copies were copyBufferToBuffer its time
    # was read from unwritten timestamp queries (garbage on lavapipe, a hang on the H200)
    args = materialize((randn(1 << 16),), "bench-clone")
    (row,) = bench.bench_call("clone", "aten.clone.default", args, iters=3, warmup=1,
                              with_torch=False, with_ort=False)
    assert row.route == "copy"
    assert 0 < row.ours_ms < 1e3


@pytest.mark.parametrize("target,shapes", [
    ("aten.mm.default", ((9, 512), (512, 2176))),  # 32-row tiles, split K, then split_sum
    ("aten.clone.default", ((3, 1000),)),  # a Copy step alone
])
def test_back_to_back_calls_in_one_pass_leave_one_calls_result(target, shapes):
    # opgen bench times BACK_TO_BACK calls recorded in one compute pass: what it times must
    # be the op, so that pass alone (output zeroed first) leaves exactly one call's result
    from codegen.bench import bench
    from codegen.executors import harness
    from codegen.executors.call import bind_call
    from codegen.graph.inputs import materialize, randn

    args = materialize(tuple(randn(*s) for s in shapes), f"one-pass-{target}")
    node = harness.EXECUTOR.build(bind_call(target, args, {}))
    want = node.run().clone()
    out = node.buffers[id(node.call.outputs[0])]
    node.dev.queue.write_buffer(out, 0, bytes(4 * want.numel()))  # zeros
    encoder = node.dev.create_command_encoder()
    keep: list = []
    node.encode_all(encoder, keep, calls=bench.BACK_TO_BACK)
    node.dev.queue.submit([encoder.finish()])
    got = node._read(out, node.call.outputs[0])
    assert bool((got == want).all()), (target, node.routes)
    if target == "aten.mm.default":
        assert node.routes == ["gemm_vec4_m32", "gemm_split_sum"]


def test_bench_times_ops_in_the_browser_and_checks_their_result(monkeypatch):
    """`opgen bench --browser`: the same op timed in Chromium's WebGPU (a conv with its
    pack, GEMM and split passes, and a copy), each result checked against torch first."""
    from codegen.bench import bench
    from codegen.executors import browser_planned as browser
    from codegen.graph.inputs import materialize, randn

    conv = materialize((randn(1, 8, 9, 9), randn(16, 8, 3, 3), randn(16), [1, 1], [1, 1],
                        [1, 1], False, [0, 0], 1), "bench-browser-conv")
    (row,) = bench.bench_call("conv", "aten.convolution.default", conv, iters=2, warmup=1,
                              with_torch=False, with_ort=False, executor=browser.EXECUTOR)
    assert "conv2d_stem_gemm" in row.route
    assert row.timer in ("timestamp", "wall") and row.ours_ms > 0
    (row,) = bench.bench_call("clone", "aten.clone.default", materialize((randn(4096),), "bc"),
                              iters=2, warmup=1, with_torch=False, with_ort=False,
                              executor=browser.EXECUTOR)
    assert row.route == "copy" and row.ours_ms > 0
    real_run = browser.PlannedBrowserNode.run
    monkeypatch.setattr(browser.PlannedBrowserNode, "run", lambda self: -real_run(self))
    with pytest.raises(BenchError, match="does not match torch"):
        bench.bench_call("clone", "aten.clone.default", materialize((randn(4096),), "bc"),
                         iters=1, warmup=0, with_torch=False, with_ort=False,
                         executor=browser.EXECUTOR)


def test_bench_peaks_come_from_the_adapter_or_the_command_line():
    from codegen.bench.bench import peaks_for

    assert peaks_for("NVIDIA H200 (Vulkan, DiscreteGPU)") == {"TFLOP/s": 67.0, "GB/s": 4800.0}
    assert peaks_for("llvmpipe (LLVM 15.0.6, 256 bits) (Vulkan, CPU)") == {}
    assert peaks_for("llvmpipe (Vulkan, CPU)", ["TFLOP/s=0.5"]) == {"TFLOP/s": 0.5}
    for bad in ("GB=4800", "GB/s=fast", "GB/s=-1", "4800"):
        with pytest.raises(SystemExit, match="--peak expects UNIT=VALUE with UNIT one of "
                                             "TFLOP/s, GB/s and a positive VALUE"):
            peaks_for("llvmpipe", [bad])


def _conv(x, w, b, stride, pad, groups, transposed=False, out_pad=0):
    return (x, w, b, [stride, stride], [pad, pad], [1, 1], transposed, [out_pad, out_pad], groups)


def _ort_cases():
    import torch

    g = torch.Generator().manual_seed(8)
    r = lambda *shape: torch.randn(*shape, generator=g)  # noqa: E731
    return {
        "conv_s2_groups2": ("aten.convolution.default",
                            _conv(r(2, 4, 9, 9), r(6, 2, 3, 3), r(6), 2, 1, 2)),
        "depthwise": ("aten.convolution.default", _conv(r(1, 8, 7, 7), r(8, 1, 3, 3), None, 1, 1, 8)),
        "transposed_s2_outpad": ("aten.convolution.default",
                                 _conv(r(1, 4, 5, 5), r(4, 3, 4, 4), r(3), 2, 1, 1, True, 1)),
        "relu": ("aten.relu.default", (r(3, 40),)),
        "sigmoid": ("aten.sigmoid.default", (r(3, 40),)),
        "leaky_relu": ("aten.leaky_relu.default", (r(3, 40), 0.2)),
        "add_broadcast": ("aten.add.Tensor", (r(2, 3, 4, 4), r(1, 3, 1, 1))),
        "sub": ("aten.sub.Tensor", (r(5, 6), r(5, 6))),
        "mul": ("aten.mul.Tensor", (r(5, 6), r(6))),
        "mm": ("aten.mm.default", (r(5, 7), r(7, 9))),
        "linear": ("aten.linear.default", (r(2, 5, 7), r(9, 7), None)),
        "linear_bias": ("aten.linear.default", (r(5, 7), r(9, 7), r(9))),  # Gemm, transB
    }


@pytest.mark.parametrize("case", sorted(_ort_cases()))
def test_each_ort_comparison_model_computes_the_op(case):
    # ORT's CPU EP runs the same one-node model `opgen bench` times on its WebGPU EP
    from codegen.bench import ort as bench_ort

    target, args = _ort_cases()[case]
    bench_ort.check_mapping(target, args, provider="CPUExecutionProvider")


def test_ort_gemm_chains_feed_each_output_to_the_next_node():
    # a wider output (N > K) chains in pairs: the node, then one mapping N back to K
    # (ORT would fold a Slice of the output into the constant weight). The chain computes
    # what torch does step by step.
    import numpy as np
    import onnxruntime as ort
    import torch

    from codegen.bench import ort as bench_ort
    from codegen.executors.call import torch_op

    g = torch.Generator().manual_seed(5)
    x, w, b = torch.randn(3, 4, generator=g), torch.randn(6, 4, generator=g) / 2, torch.randn(6, generator=g)
    for target, args in (("aten.mm.default", (x, w.t().contiguous())),
                         ("aten.linear.default", (x, w, b))):
        op_type, attrs, inits = bench_ort._node_spec(target, args)
        assert bench_ort.chain_glue(op_type, (3, 4), (3, 6)) == "pair"
        back = [torch.from_numpy(v) for v in bench_ort.narrowing_inits(inits)]
        assert [tuple(v.shape) for v in back] == \
            ([(6, 4)] if op_type == "MatMul" else [(4, 6), (4,)])
        model = bench_ort._model(op_type, attrs, inits, (3, 4), (3, 6), 11, pairs=True)
        session = ort.InferenceSession(model, providers=["CPUExecutionProvider"])
        (got,) = session.run(None, {"x": x.numpy()})
        want = x
        for _ in range(11):
            want = torch_op(target)(torch_op(target)(want, *args[1:]), *back)
        assert got.shape == (3, 4)
        np.testing.assert_allclose(got, want.numpy(), rtol=1e-4, atol=1e-4)
    assert bench_ort.chain_glue("MatMul", (3, 6), (3, 4)) is None  # N < K: Identity path
    assert bench_ort.chain_glue("Conv", (1, 4, 5, 5), (1, 6, 5, 5)) is None


def test_ort_times_gemms_through_the_chain(monkeypatch):
    import torch

    from codegen.bench import ort as bench_ort

    lengths = []
    real_model = bench_ort._model
    monkeypatch.setattr(bench_ort, "_model",
                        lambda *a: lengths.append(a[5:]) or real_model(*a))
    g = torch.Generator().manual_seed(4)
    square = (torch.randn(64, 32, generator=g), torch.randn(32, 32, generator=g) / 6)
    got = bench_ort.time_ort("aten.mm.default", square, iters=3, warmup=1,
                             provider="CPUExecutionProvider")
    assert got is not None and got.ms > 0 and got.spread_ms >= 0
    # the mapping check, then the chains of 1 and 21
    assert lengths == [(1,), (1, False), (21, False)]
    lengths.clear()
    wide = (square[0], torch.randn(32, 96, generator=g))
    assert bench_ort.time_ort("aten.mm.default", wide, iters=3, warmup=1,
                              provider="CPUExecutionProvider") is not None
    assert lengths == [(1,), (1, True), (11, True)]  # chains of 1 and 11 pairs


def test_a_wrong_ort_mapping_fails_loud(monkeypatch):
    import torch

    from codegen.bench import ort as bench_ort

    right = bench_ort._node_spec

    def wrong_alpha(target, args):
        op_type, attrs, inits = right(target, args)
        return op_type, {**attrs, "alpha": 0.3}, inits

    monkeypatch.setattr(bench_ort, "_node_spec", wrong_alpha)
    with pytest.raises(BenchError, match=r"ORT's LeakyRelu for aten.leaky_relu.default does "
                                           r"not compute torch's result \(error 0.29 relative"):
        bench_ort.check_mapping("aten.leaky_relu.default", (-torch.ones(8), 0.01),
                                provider="CPUExecutionProvider")


def test_ort_falling_back_to_another_provider_fails_loud():
    from codegen.bench import ort as bench_ort

    class CpuSession:
        def get_providers(self):
            return ["CPUExecutionProvider"]

    with pytest.raises(BenchError, match="ORT runs the benchmark model on CPUExecutionProvider, "
                                           "not WebGpuExecutionProvider .*pass --no-ort"):
        bench_ort.require_provider(CpuSession(), bench_ort.WEBGPU)


def test_bench_fails_when_our_result_differs_from_torch(monkeypatch):
    from codegen.bench import bench
    from codegen.executors import harness
    from codegen.graph.inputs import materialize, randn

    args = materialize((randn(4096),), "bench-check")
    real_run = harness.Node.run
    monkeypatch.setattr(harness.Node, "run", lambda self: -real_run(self))  # one output
    with pytest.raises(BenchError, match=r"relu: output 0 of relu does not match "
                                           r"torch at these shapes \(error 2 relative"):
        bench.bench_call("relu", "aten.relu.default", args, iters=1, warmup=0,
                         with_torch=False, with_ort=False)


def test_ort_timing_pairs_chains_and_reports_a_spread():
    # the timing path of the WebGPU comparison, run on ORT's CPU EP with convs heavy
    # enough that the per-op estimate stands clear of the noise
    import torch

    from codegen.bench import ort as bench_ort

    g = torch.Generator().manual_seed(3)
    x = torch.randn(1, 32, 64, 64, generator=g)
    same_shape = _conv(x, torch.randn(32, 32, 3, 3, generator=g), None, 1, 1, 1)  # 1 vs 10
    new_shape = _conv(x, torch.randn(64, 32, 3, 3, generator=g), None, 1, 1, 1)  # vs Identity
    for args in (same_shape, new_shape):
        got = bench_ort.time_ort("aten.convolution.default", args, iters=5, warmup=1,
                                 provider="CPUExecutionProvider")
        assert got is not None and got.ms > 0 and got.spread_ms >= 0
    assert bench_ort.time_ort("aten.clone.default", (x,), iters=1, warmup=0,
                              provider="CPUExecutionProvider") is None  # no ORT mapping


def test_relative_error_is_the_one_measure_for_ours_and_ort():
    import torch

    from codegen.bench.checks import relative_error

    inf, nan = float("inf"), float("nan")
    want = torch.tensor([4.0, -inf, nan, 0.0])
    assert relative_error(want.clone(), want) == 0.0  # equal infinities, NaN against NaN
    assert relative_error(torch.tensor([4.0, -inf, nan, 0.25]), want) == 0.25 / 4
    assert relative_error(torch.tensor([4.0, -inf, 1.0, 0.0]), want) == inf  # number for NaN
    assert relative_error(torch.tensor([nan, -inf, nan, 0.0]), want) == inf  # NaN for number
    assert relative_error(torch.tensor([0.5]), torch.tensor([0.0])) == 0.5  # scale at least 1
    assert relative_error(want[:3], want) == inf  # shapes differ
    assert relative_error(torch.tensor([1, 2]), torch.tensor([1, 3])) == inf
    assert relative_error(torch.tensor([1, 2]), torch.tensor([1, 2])) == 0.0


def test_f16_report_needs_each_row_twin_and_one_adapter(tmp_path):
    from codegen.bench import f16_report

    def row(name, ms, torch_ms=None):
        return {"name": name, "route": "r", "ours_ms": ms, "work": 2e9, "unit": "TFLOP/s",
                "torch_ms": torch_ms}

    f32 = {"mm 4096x4096x4096": row("mm 4096x4096x4096", 3.0)}
    rows = f16_report.join(f32, {"mm 4096x4096x4096": row("mm 4096x4096x4096", 2.0, 1.0)})
    assert rows[0]["f32_over_f16"] == 1.5 and rows[0]["torch_over_f16"] == 0.5
    assert rows[0]["f16_tflops"] == pytest.approx(1.0)
    assert "1.50x, NOT met" in f16_report.render(rows)
    with pytest.raises(SystemExit, match=r"float16 rows without a float32 twin: mm 1x2x3"):
        f16_report.join(f32, {"mm 1x2x3": row("mm 1x2x3", 1.0)})
    for name, adapter in (("a", "GPU A"), ("b", "GPU B")):
        (tmp_path / f"{name}.json").write_text(json.dumps({"adapter": adapter, "results": []}))
    with pytest.raises(SystemExit, match=r"the files come from two adapters"):
        f16_report.main([str(tmp_path / "a.json"), str(tmp_path / "b.json")])
