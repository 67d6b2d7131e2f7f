"""`opgen web`: a static folder that runs exported models in a browser's WebGPU through the
WebAssembly delegate (the same C++ runtime and generated handlers as natively), with no
Python behind it:

    opgen web model.pte [more.pte ...] -o site/ [--reference tests/e2e_models.py:hf_vit]
    python -m http.server -d site        # then open http://localhost:8000

The folder holds the page (web/page/: index.html, app.js, opgen.js), the module
(webgpu_delegate.{js,wasm}, built by scripts/build_web.sh) and `models/`: each model's
`<name>.json` + `<name>.bin` (codegen.web.model), and `models/index.json` listing them.
`--reference` (one per model, in order) stores the factory's example inputs and eager
PyTorch's outputs beside the model: the page then runs on those inputs and shows its error
against eager. `--ort` adds onnxruntime-web and each model's ONNX (codegen.web.ort): the
page then runs the same inputs on ORT's WebGPU execution provider, timed the same way.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

from codegen.et.errors import InputError
from codegen.et.factory import load_factory
from codegen.paths import REPO_ROOT, StaleBuildError, generated_stamp
from codegen.web.model import WebModel, read_web_model
from codegen.web.ort import add_ort

PAGE_DIR = REPO_ROOT / "web" / "page"
PAGE_FILES = ("index.html", "app.js", "opgen.js", "ort_compare.js")
MODULE_FILES = ("webgpu_delegate.js", "webgpu_delegate.wasm")
BUILD_HINT = "build it with scripts/build_web.sh (emcmake cmake -S . -B build-web)"


def module_dir() -> Path:
    """The folder of the built WebAssembly delegate (build-web/web, or $OPGEN_WEB_BUILD),
    refused (StaleBuildError) when it was built from other generated sources than
    generated/'s (its webgpu_delegate.stamp, written by the build: web/stamp.cmake)."""
    folder = Path(os.environ.get("OPGEN_WEB_BUILD", REPO_ROOT / "build-web" / "web"))
    missing = [f for f in MODULE_FILES if not (folder / f).is_file()]
    if missing:
        raise InputError(f"the WebAssembly delegate is not built ({', '.join(missing)} missing "
                         f"in {folder}): {BUILD_HINT}, or set OPGEN_WEB_BUILD")
    stamp = folder / "webgpu_delegate.stamp"
    built = stamp.read_text().strip() if stamp.is_file() else ""
    if built != generated_stamp():
        raise StaleBuildError(f"the WebAssembly delegate in {folder} was built from other "
                              f"generated sources than generated/'s (stamp "
                              f"{built[:12] or 'missing'}, generated/'s {generated_stamp()[:12]}): "
                              f"it would run old handlers and kernels; {BUILD_HINT}")
    return folder


def tensor_file(t) -> bytes:
    return t.detach().contiguous().cpu().numpy().tobytes()


def add_reference(model: WebModel, meta: dict, folder: Path, factory: str) -> None:
    """Writes the factory's example inputs and eager outputs beside the model and names them
    in its json (`reference`)."""
    import torch

    module, inputs = load_factory(factory)
    with torch.no_grad():
        expected = module.eval()(*inputs)
    expected = expected if isinstance(expected, (tuple, list)) else (expected,)
    if len(inputs) != len(meta["inputs"]) or len(expected) != len(meta["outputs"]):
        raise InputError(f"--reference {factory}: {len(inputs)} inputs and {len(expected)} "
                         f"outputs, the model has {len(meta['inputs'])} and "
                         f"{len(meta['outputs'])}")
    ref = {"factory": factory, "inputs": [], "outputs": []}
    for kind, tensors in (("inputs", inputs), ("outputs", expected)):
        for i, t in enumerate(tensors):
            name = f"{model.name}.{kind[:-1]}{i}.bin"
            (folder / name).write_bytes(tensor_file(t))
            ref[kind].append({"file": name, "dims": list(t.shape), "dtype": str(t.dtype)[6:]})
    meta["reference"] = ref


def write_site(ptes: list[str | Path], out: str | Path, references: list[str] | None = None,
               ort: bool = False) -> Path:
    """Writes the site folder; returns it. Refuses a .pte that is not one whole delegate.
    `ort`: also onnxruntime-web and each model's ONNX (codegen.web.ort; needs references)."""
    references = list(references or [])
    if references and len(references) != len(ptes):
        raise InputError(f"--reference: {len(references)} given for {len(ptes)} models "
                         f"(one per model, in order)")
    source = module_dir()
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise InputError(f"-o {out} is a file (expected a folder)")
    models_dir = out / "models"
    models_dir.mkdir(parents=True, exist_ok=True)
    listed, metas = [], {}
    for k, pte in enumerate(ptes):
        model = read_web_model(pte)
        if model.name in metas:
            raise InputError(f"two models are named {model.name!r} ({pte}): rename one .pte")
        meta, data = model.files()
        if references:
            add_reference(model, meta, models_dir, references[k])
        (models_dir / f"{model.name}.bin").write_bytes(data)
        metas[model.name] = meta
        listed.append({"name": model.name, "source": model.source, "bytes": len(data),
                       "reference": "reference" in meta})
    if ort:
        add_ort(out, metas)
    for name, meta in metas.items():
        (models_dir / f"{name}.json").write_text(json.dumps(meta, indent=1) + "\n")
    (models_dir / "index.json").write_text(json.dumps({"models": listed}, indent=1) + "\n")
    for name in PAGE_FILES:
        shutil.copyfile(PAGE_DIR / name, out / name)
    for name in MODULE_FILES:
        shutil.copyfile(source / name, out / name)
    return out


def add_parser(sub) -> None:
    w = sub.add_parser("web", help="write a static site that runs .pte models in the browser "
                                   "(WebAssembly delegate + WebGPU)")
    w.add_argument("pte", nargs="+", help="fully delegated .pte files (opgen export)")
    w.add_argument("-o", "--output", required=True, help="the folder to write")
    w.add_argument("--reference", action="append", metavar="MODULE:FACTORY",
                   help="per model, in order: store the factory's example inputs and eager "
                        "outputs, which the page runs and compares with")
    w.add_argument("--ort", action="store_true",
                   help="also run each model on onnxruntime-web's WebGPU EP in the same page "
                        "(its ONNX exported from the --reference factory)")


def cmd_web(args) -> int:
    out = write_site(args.pte, args.output, args.reference, ort=args.ort)
    index = json.loads((out / "models" / "index.json").read_text())
    for m in index["models"]:
        print(f"  models/{m['name']}.json + .bin ({m['bytes']} bytes) from {m['source']}"
              + (" with reference inputs and outputs" if m["reference"] else ""))
    wasm = (out / "webgpu_delegate.wasm").stat().st_size
    print(f"wrote {out} (webgpu_delegate.wasm {wasm} bytes); serve it with: "
          f"python -m http.server -d {out}")
    return 0
