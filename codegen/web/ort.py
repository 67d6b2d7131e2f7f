"""`opgen web --ort`: the same models on onnxruntime-web's WebGPU execution provider, in the
same page (web/page/ort_compare.js), for a like-for-like comparison.

Each model's ONNX file comes from its --reference factory (torch.onnx.export, the
torch.export-based exporter; it needs onnxscript); the runtime is the npm package
`onnxruntime-web` (ORT_WEB_PIN), installed by scripts/setup.sh into .ort_web/ (or the
folder OPGEN_ORT_WEB names): the site gets its `ort.webgpu.min.js` and the WebGPU build it
loads (`ort-wasm-simd-threaded.asyncify.{mjs,wasm}`, single-threaded without cross-origin
isolation).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from codegen.et.errors import InputError
from codegen.et.factory import load_factory
from codegen.paths import REPO_ROOT

ORT_WEB_PIN = "onnxruntime-web@1.30.0"  # keep in step with scripts/setup.sh
ORT_FILES = ("ort.webgpu.min.js", "ort-wasm-simd-threaded.asyncify.mjs",
             "ort-wasm-simd-threaded.asyncify.wasm")


def ort_web_dir() -> Path:
    folder = Path(os.environ.get("OPGEN_ORT_WEB",
                                 REPO_ROOT / ".ort_web" / "node_modules" / "onnxruntime-web" / "dist"))
    missing = [f for f in ORT_FILES if not (folder / f).is_file()]
    if missing:
        raise InputError(f"onnxruntime-web is not installed ({', '.join(missing)} missing in "
                         f"{folder}): npm install --prefix .ort_web {ORT_WEB_PIN} (scripts/setup.sh "
                         f"does), or set OPGEN_ORT_WEB to its dist folder")
    return folder


def export_onnx(factory: str, path: Path) -> None:
    """The factory's model as ONNX, exported from the same module and example inputs."""
    import torch

    try:
        import onnxscript  # noqa: F401  (torch's exporter needs it)
    except ImportError:
        raise InputError("--ort exports ONNX with torch.onnx.export, which needs onnxscript: "
                         "pip install onnxscript==0.7.2 (the test extra pins it)") from None
    model, inputs = load_factory(factory)
    program = torch.onnx.export(model.eval(), tuple(inputs), dynamo=True, optimize=True)
    program.save(str(path))


def add_ort(site: Path, metas: dict[str, dict]) -> None:
    """Copies onnxruntime-web into site/ort/ and writes each model's ONNX beside it, named
    in its json (`onnx`); `metas`: model name -> its json object (changed here)."""
    dist = ort_web_dir()
    (site / "ort").mkdir(exist_ok=True)
    for name in ORT_FILES:
        shutil.copyfile(dist / name, site / "ort" / name)
    for name, meta in metas.items():
        if "reference" not in meta:
            raise InputError(f"--ort: model {name} has no --reference factory to export ONNX from")
        export_onnx(meta["reference"]["factory"], site / "models" / f"{name}.onnx")
        meta["onnx"] = f"{name}.onnx"
