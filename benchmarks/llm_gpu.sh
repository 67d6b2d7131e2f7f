#!/usr/bin/env bash
# The LLM benchmark on the GPU machine (the device tool's H200): the Vulkan driver set-up
# of scripts/gpu_run.sh, then benchmarks/llm_bench.py run. Carries .gl (Vulkan loader
# debs) and a folder from `llm_bench.py pack` (the stripped .pte, its manifest, the
# runner with its libraries); needs no wheels (the restore uses numpy only).
#   bash benchmarks/llm_gpu.sh PACK_DIR      # results in $OUT (llm.json, logs)
set -uo pipefail
for f in .gl/*.deb; do dpkg -x "$f" /; done
ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
export __EGL_VENDOR_LIBRARY_FILENAMES=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
export XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp/out}
nvidia-smi -L
python3 "$(dirname "$0")/llm_bench.py" run "$1" "$OUT"
