"""Whole models in the browser: a CNN, a vision transformer and a 2-layer Llama exported
with `opgen export`, written into a site by `opgen web`, loaded and run by that site's
page in headless Chromium (WebGPU on SwiftShader) through the WebAssembly delegate, with
no Python in the inference path; compared with the native delegate (webgpu_pte_runner) and
with eager PyTorch, and run the same way in the same page on onnxruntime-web's WebGPU
execution provider. A model the page cannot load fails there with the native message.

Needs the browser build (scripts/build_web.sh: build-web/web, or OPGEN_WEB_BUILD), the
native build with the ExecuTorch backend (build/webgpu_pte_runner), Chromium, playwright,
the executorch package, onnxscript and onnxruntime-web (.ort_web/: scripts/setup.sh).
"""

from __future__ import annotations

import base64
import struct
import sys

import numpy as np
import pytest
import torch

pytest.importorskip("executorch")

from codegen.et.export import export  # noqa: E402
from codegen.et.pte import PteError, run_pte  # noqa: E402
from codegen.executors.browser_device import BrowserError  # noqa: E402
from codegen.paths import REPO_ROOT  # noqa: E402
from codegen.web.model import read_web_model  # noqa: E402
from codegen.web.page import Page  # noqa: E402
from codegen.web.site import module_dir, write_site  # noqa: E402

sys.path.insert(0, str(REPO_ROOT / "tests"))
import e2e_models  # noqa: E402

MODELS = ["hf_resnet", "hf_vit", "hf_llama"]  # a CNN, a vision transformer, a 2-layer Llama
NATIVE_AGREEMENT = 1e-5  # max |web - native| over max |native|
WIDE = 1 << 30  # elements of the intermediate tensor of WideIntermediate (4 GiB as float32)


class WithLog10(torch.nn.Module):
    """relu (has a handler) then log10 (Vulkan takes it; our op table has no spec)."""

    def forward(self, x):
        return torch.log10(torch.relu(x) + 1.0)


class WideIntermediate(torch.nn.Module):
    """A 4 GiB intermediate (x broadcast over 2^30 rows, then summed away): more than a
    device's maxBufferSize; the model file holds no such buffer, the loader asks for it."""

    def forward(self, x):
        return (x.expand(WIDE // 4, 4) * 2.0).sum(dim=0)


def _corrupt(pte: bytes, what: str) -> bytes:
    """The .pte with its delegate blob damaged in place (same length, so the program still
    loads and the delegate's loader meets the damage)."""
    at = pte.index(b"VH00") - 4
    data = bytearray(pte)
    (fb_offset,) = struct.unpack_from("<I", data, at + 10)
    if what == "identifier":  # the flatbuffer's file identifier, VK00
        data[at + fb_offset + 4:at + fb_offset + 8] = b"VKXX"
    elif what == "region":  # a flatbuffer size beyond the blob
        struct.pack_into("<I", data, at + 14, 1 << 30)
    return bytes(data)


@pytest.fixture(scope="module")
def built():
    module_dir()  # InputError with the build command when the module is missing
    return True


@pytest.fixture(scope="module")
def site(tmp_path_factory, built):
    """The three models and the ones that must fail, exported once, in one site; each
    model's native outputs and native load error; the page, started once."""
    folder = tmp_path_factory.mktemp("web")
    ptes, references, native = [], [], {}
    for name in MODELS:
        model, inputs = getattr(e2e_models, name)()
        path = folder / f"{name}.pte"
        export(model, inputs, path)
        native[name], _ = run_pte(path, inputs, iters=1, warmup=0)
        ptes.append(path)
        references.append(f"tests/e2e_models.py:{name}")
    failing = {}
    x = torch.randn(2, 8)
    export(WithLog10(), (x,), folder / "log10.pte", allow_unsupported=True)
    failing["log10"] = (folder / "log10.pte", [x])
    export(WideIntermediate(), (torch.randn(1, 4),), folder / "wide.pte")
    failing["wide"] = (folder / "wide.pte", [torch.randn(1, 4)])
    for what in ("identifier", "region"):
        path = folder / f"bad_{what}.pte"
        path.write_bytes(_corrupt((folder / "hf_vit.pte").read_bytes(), what))
        failing[f"bad_{what}"] = (path, [torch.randn(1, 3, 32, 32)])
    site = write_site(ptes, folder / "site", references, ort=True)
    write_site([p for p, _ in failing.values()], folder / "failing")
    page = Page([folder / "site"], "index.html?manual", ready="opgenPage.ready")
    failing_page = Page([folder / "failing"], "index.html?manual", ready="opgenPage.ready")
    yield {"site": site, "native": native, "failing": failing, "page": page,
           "failing_page": failing_page}
    page.close()
    failing_page.close()


def _tensor(o: dict) -> torch.Tensor:
    raw = base64.b64decode(o["data"])
    return torch.from_numpy(np.frombuffer(raw, dtype=o["dtype"]).copy()).reshape(o["dims"])


@pytest.mark.parametrize("name", MODELS)
def test_model_runs_in_the_page_like_native_and_eager(site, name):
    run = site["page"].evaluate("([n]) => opgenPage.run(n, {iters: 3, ort: true})", name)
    outputs = [_tensor(o) for o in run["outputs"]]
    model, inputs = getattr(e2e_models, name)()
    with torch.no_grad():
        expected = model(*inputs)
    expected = expected if isinstance(expected, (tuple, list)) else (expected,)
    native = site["native"][name]
    assert len(outputs) == len(native) == len(expected)
    for i, (got, nat, want) in enumerate(zip(outputs, native, expected)):
        assert tuple(got.shape) == tuple(nat.shape) == tuple(want.shape)
        scale = max(nat.abs().max().item(), 1e-30)
        relative = (got.double() - nat.double()).abs().max().item() / scale
        assert relative <= NATIVE_AGREEMENT, f"{name} output {i}: {relative:.3g} of scale off native"
        error, why = e2e_models.eager_mismatch(got, want)
        assert why is None, f"{name} output {i} against eager: {why}"
        # the page's own comparison with the reference outputs says the same
        assert run["errors"][i]["max_abs_error"] == pytest.approx(error, rel=1e-6, abs=1e-12)
    # the weights went from the fetched file to GPU buffers: only the VH00 header and the
    # flatbuffer entered wasm memory
    load, web = run["load"], read_web_model(site["site"].parent / f"{name}.pte")
    fb_offset, fb_size = struct.unpack_from("<II", web.blob, 10)
    assert load["wasm_bytes"] == fb_offset + fb_size < load["file_bytes"]
    # onnxruntime-web on the same inputs, in the same page: its outputs are eager's too
    ort = run["ort"]
    for i, (o, want) in enumerate(zip(ort["outputs"], expected)):
        got = _tensor(dict(o, dtype="float32"))
        error, why = e2e_models.eager_mismatch(got, want)
        assert why is None, f"{name} output {i} on onnxruntime-web against eager: {why}"
    print(f"\n{name}: {run['graph']['ops']} ops, {run['graph']['dispatches']} dispatches; load "
          f"{load['load_ms']:.0f} ms ({load['wait_ms']:.0f} ms of it in WebGPU waits: shader "
          f"compiles), first run {run['first_run_ms']:.1f} ms, median {run['median_ms']:.1f} ms; "
          f"onnxruntime-web {ort['version']}: session {ort['load_ms']:.0f} ms, first run "
          f"{ort['first_run_ms']:.1f} ms, median {ort['median_ms']:.1f} ms; on SwiftShader (a "
          f"CPU device); max error relative to native {relative:.2g}")


@pytest.mark.parametrize("name", ["log10", "wide", "bad_identifier", "bad_region"])
def test_load_error_in_the_page_is_the_native_message(site, name):
    """An unsupported operator, a damaged VK00 blob and a buffer beyond the device's
    maxBufferSize fail the page's load with the message native gives (the limit's value is
    each device's own)."""
    path, inputs = site["failing"][name]
    with pytest.raises(PteError) as native:
        run_pte(path, inputs, iters=1, warmup=0)
    with pytest.raises(BrowserError) as web:
        site["failing_page"].evaluate("([n]) => opgenPage.load(n)", name)
    native_message = str(native.value).split("): ", 1)[1]  # after "... (ExecuTorch error N)"
    web_message = str(web.value)
    if name == "wide":
        limit = site["failing_page"].evaluate("opgenPage.ready")["device"]["limits"]["maxBufferSize"]
        native_message = native_message.rsplit(" ", 1)[0] + f" {limit}"
        assert "more than the device's maxBufferSize" in web_message
    assert web_message == native_message


HALF_NATIVE_AGREEMENT = 1e-2  # float16 intermediates: Chromium runs the packed-word route


@pytest.fixture(scope="module")
def half_site(tmp_path_factory, built):
    """The vision transformer exported with force_fp16 (float32 inputs and outputs, float16
    inside), its native outputs, and a site of it with its eager reference."""
    folder = tmp_path_factory.mktemp("web_half")
    model, inputs = e2e_models.hf_vit()
    path = folder / "hf_vit_fp16.pte"
    export(model, inputs, path, fp16=True)
    native, _ = run_pte(path, inputs, iters=1, warmup=0)
    write_site([path], folder / "site", ["tests/e2e_models.py:hf_vit"])
    page = Page([folder / "site"], "index.html?manual", ready="opgenPage.ready")
    yield {"native": native, "page": page, "inputs": inputs, "model": model}
    page.close()


def test_float16_model_runs_in_the_page(half_site):
    """A force_fp16 program in the page: the loader converts its float32 inputs to the
    graph's float16 and its float16 outputs back (host_io.h, as the ExecuTorch backend does);
    SwiftShader has no shader-f16, so every float16 tensor is stored in u32 words. The page's
    outputs are float32, within the float16 criterion of eager and close to native (which
    lavapipe runs on its shader-f16 routes)."""
    page = half_site["page"]
    info = page.evaluate("([n]) => opgenPage.load(n)", "hf_vit_fp16")
    assert "shader-f16" not in page.evaluate("opgenPage.ready")["device"]["features"]
    run = page.evaluate("([n]) => opgenPage.run(n, {iters: 1})", "hf_vit_fp16")
    outputs = [_tensor(o) for o in run["outputs"]]
    with torch.no_grad():
        expected = half_site["model"](*half_site["inputs"])
    expected = expected if isinstance(expected, (tuple, list)) else (expected,)
    assert len(outputs) == len(half_site["native"]) == len(expected), info
    for i, (got, nat, want) in enumerate(zip(outputs, half_site["native"], expected)):
        assert got.dtype == torch.float32 and tuple(got.shape) == tuple(want.shape)
        scale = max(nat.abs().max().item(), 1e-30)
        relative = (got.double() - nat.double()).abs().max().item() / scale
        assert relative <= HALF_NATIVE_AGREEMENT, f"output {i}: {relative:.3g} of scale off native"
        error, why = e2e_models.eager_mismatch(got, want, half=True)
        assert why is None, f"output {i} against eager: {why}"


def test_opgen_web_refuses_a_model_that_is_not_one_whole_delegate(tmp_path, built):
    """A .pte whose program also runs CPU kernels (a pool the spec's guard keeps off the
    delegate) cannot become a web model: the page has no ExecuTorch runtime to run them."""
    from codegen.web.model import WebModelError

    model, inputs = e2e_models.pool_ceil_mode()
    export(model, inputs, tmp_path / "pool.pte")
    with pytest.raises(WebModelError, match=r"runs \d+ delegate calls and KernelCall\w* instructions: "
                                            r"the page runs a model that is one whole"):
        write_site([tmp_path / "pool.pte"], tmp_path / "site")
