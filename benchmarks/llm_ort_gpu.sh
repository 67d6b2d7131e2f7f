#!/usr/bin/env bash
# ORT WebGPU's side of the LLM benchmark on the GPU machine (the device tool's H200): the
# Vulkan driver set-up and wheel install of scripts/gpu_run.sh, then benchmarks/llm_ort.py
# run. Carries .gl (Vulkan loader debs), .whl (onnxruntime-webgpu) and a folder from
# `llm_ort.py pack` (each model's graph, its stripped data file and manifest).
#   bash benchmarks/llm_ort_gpu.sh PACK_DIR      # results in $OUT (llm_ort.json)
set -uo pipefail
for f in .gl/*.deb; do dpkg -x "$f" /; done
ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
export __EGL_VENDOR_LIBRARY_FILENAMES=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
  --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=/tmp/site XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
nvidia-smi -L
python3 "$(dirname "$0")/llm_ort.py" run "$1" "$OUT" 2>&1 | tee "$OUT/llm_ort.log"
