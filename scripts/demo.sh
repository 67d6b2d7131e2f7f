#!/usr/bin/env bash
# The main job end to end, set-up included: regenerate every op from its spec, check
# nothing drifted, build the native delegate, and validate every case on both
# executors against PyTorch on this machine's WebGPU adapter.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-/tmp}"
PY=.venv/bin/python
$PY -m codegen generate
$PY -m codegen check
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DPython3_EXECUTABLE="$PWD/$PY" >/dev/null
cmake --build build -j"$(nproc)"
$PY -m codegen validate
