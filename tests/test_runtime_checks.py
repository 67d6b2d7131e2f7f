"""Kernels created without the implementation's shader runtime checks
(Kernel(runtime_checks=False)): the spec rule, what the generator writes for the runtime,
and the harness creating exactly those kernels' modules through the trusted call."""

import re

import pytest
import torch

from codegen.emit.render import header_path
from codegen.executors import harness, wgpu_device
from codegen.executors.call import bind_call, catalog
from codegen.language import Kernel, SpecError
from codegen.paths import REPO_ROOT

GENERATED = REPO_ROOT / "generated"


def all_kernels() -> dict[str, Kernel]:
    return {k.name: k for b in catalog().ops for k in b.op.kernels()}


def test_runtime_checks_must_be_a_bool():
    with pytest.raises(SpecError, match=r"Kernel 'k' field 'runtime_checks' must be True or "
                                        r"False \(got 'no'\)"):
        Kernel("k", runtime_checks="no")


def test_the_tile_and_decode_kernels_run_unchecked_and_the_rest_checked():
    """The GEMM tiles, an LLM decode step's GEMVs, attention and norms, and their float16
    twins (`_f16`, `_f16_packed`), nothing else (docs/decisions.md)."""
    unchecked = sorted(n for n, k in all_kernels().items() if not k.runtime_checks)
    tiles = ["conv2d_gemm128", "gemm_scalar", "gemm_small_scalar", "gemm_vec4",
             "gemm_vec4_m32", "gemm_vec4_m64"]
    decode = ["q4gsw_gemv", "q4gsw_gemv_subgroup", "q4gsw_gemv_dq8", "q4gsw_gemv_subgroup_dq8",
              *(k + s for k in ("q4gsw_gemv_rows", "q4gsw_gemv_rows4", "q4gsw_gemv_rows_dq8",
                                "q4gsw_gemv_rows4_dq8") for s in ("", "_subgroup")),
              "q4gsw_gemv_qkv",
              "q4gsw_gemv_qkv_subgroup", "q4gsw_gemv_silu_mul", "q4gsw_gemv_silu_mul_subgroup",
              "kv_attend", "kv_decode", "kv_combine", "rms_norm_rows", "add_rms_norm_rows"]
    assert unchecked == sorted(k + s for k in tiles + decode for s in ("", "_f16", "_f16_packed"))


def test_the_runtime_gets_the_flag_from_header_registry_and_handler():
    registry = (GENERATED / "shader_registry.cpp").read_text()
    for name, kernel in all_kernels().items():
        header = (GENERATED / header_path(kernel)).read_text()
        constant = f"k{kernel.pascal}RuntimeChecks"
        assert (f"inline constexpr bool {constant} = false;" in header) == \
            (not kernel.runtime_checks), name
        entry = re.search(r'\{"%s",.*?\}(,\n      \{"|,\n  \};)' % name, registry, re.S).group(0)
        assert (constant in entry) == (not kernel.runtime_checks), name
    handler = (GENERATED / "ops" / "matmul" / "Mm.cpp").read_text()
    assert "kGemmVec4RuntimeChecks};" in handler and "kGemvNnRuntimeChecks" not in handler


def test_the_harness_creates_only_unchecked_kernels_through_the_trusted_call(monkeypatch):
    created = []
    trusted = wgpu_device.unchecked_module

    def recording(dev, code, label):
        created.append(label)
        return trusted(dev, code, label)

    monkeypatch.setattr(wgpu_device, "unchecked_module", recording)
    monkeypatch.setattr(wgpu_device, "_PIPELINES", {})
    a, b = torch.randn(37, 29), torch.randn(29, 41)
    node = harness.EXECUTOR.build(bind_call("aten.mm.default", (a, b), {}))
    got = node.run()
    assert node.routes == ["gemm_scalar"] and created == ["gemm_scalar"]
    torch.testing.assert_close(got, a @ b, rtol=1e-4, atol=1e-4)
    created.clear()
    harness.EXECUTOR.build(bind_call("aten.relu.default", (a,), {})).run()
    assert created == []
