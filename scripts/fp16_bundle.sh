#!/usr/bin/env bash
# The float16 benchmarks' one GPU run, packed to travel (docs/performance.md, "float16"):
#   scripts/fp16_bundle.sh PACK DEST [WHEELS]
# PACK: a `benchmarks/model_latency.py pack PACK --realistic --fp16` folder. DEST (e.g.
# .gpu/fp16/ of the checkout the device tool sends) gets bundle.tar.xz (the tracked tree;
# .runner/: build/webgpu_pte_runner and the ExecuTorch libraries it links; .latency16/:
# PACK without the float32 TorchScript and ONNX files, which only the `latency` step reads)
# and .whl/ (the wheels of WHEELS, default .whl/, but onnx, which only ORT's one-node bench models need:
# the f16 suites have none and the run passes --no-ort to the f32 ones), so that with .gl
# it fits the device tool's 64 MiB.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
pack=$(realpath "$1") dest=$(realpath -m "$2") wheels=$(realpath "${3:-$root/.whl}")
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
cd "$root"
git ls-files -z | xargs -0 cp --parents -t "$stage"
mkdir -p "$stage/.runner" "$stage/.latency16" "$dest/.whl"
cp build/webgpu_pte_runner "$stage/.runner/"
ldd build/webgpu_pte_runner | awk '/site-packages\/executorch/ {print $3}' \
  | xargs -I{} cp -L {} "$stage/.runner/"
cp "$pack"/* "$stage/.latency16/"
python3 - "$stage/.latency16" <<'EOF'
import json, sys
from pathlib import Path
folder = Path(sys.argv[1])
for manifest in folder.glob("*.weights.json"):
    model = manifest.name.removesuffix(".weights.json")
    data = json.loads(manifest.read_text())
    for ext in (".pt", ".onnx"):
        data["files"].pop(f"{model}{ext}", None)
        (folder / f"{model}{ext}.kept").unlink(missing_ok=True)
    manifest.write_text(json.dumps(data, indent=1))
EOF
tar -C "$stage" -cJf "$dest/bundle.tar.xz" .
find "$wheels/" -maxdepth 1 -type f -name '*.whl' ! -name 'onnx-[0-9]*' -exec cp {} "$dest/.whl/" \;
du -sh "$dest/bundle.tar.xz" "$dest/.whl"
