#!/usr/bin/env bash
# The main job end to end, set-up included: regenerate every op from its spec, check
# nothing drifted, build the native delegate with its ExecuTorch backend, export a model
# with ExecuTorch's Vulkan partitioner (restricted to our op table), run the .pte on the
# native WebGPU delegate, and print the max abs error vs PyTorch eager and the latency.
#
#   DEMO_MODEL=<factory in tests/e2e_models.py>   (default: detect_head)
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-/tmp}"
export PYTHONWARNINGS="${PYTHONWARNINGS:-ignore}"  # torch/executorch deprecation chatter
PY=.venv/bin/python
# The executorch CMake package needs CMake >= 3.28: the venv's (PyPI) cmake.
CMAKE=.venv/bin/cmake
MODEL="tests/e2e_models.py:${DEMO_MODEL:-detect_head}"

$PY -m codegen generate
$PY -m codegen check
$CMAKE -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DPython3_EXECUTABLE="$PWD/$PY" \
  -DWEBGPU_EXECUTORCH=ON >/dev/null
$CMAKE --build build -j"$(nproc)"
echo "== export $MODEL"
$PY -m codegen export "$MODEL" -o build/demo.pte
echo "== run build/demo.pte on the native WebGPU delegate"
$PY -m codegen run build/demo.pte --reference "$MODEL"
