#!/usr/bin/env bash
# The whole test suite, set-up included: generated files up to date, the native
# delegate built (stale generated files fail the build), Python harness + native
# cases, native unit tests, and the sanitizer run of the native tests.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-/tmp}"
PY=.venv/bin/python

$PY -m codegen check
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DPython3_EXECUTABLE="$PWD/$PY" >/dev/null
cmake --build build -j"$(nproc)"
ctest --test-dir build --output-on-failure -j2
$PY -m pytest -q tests
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DWEBGPU_SANITIZE=ON \
  -DPython3_EXECUTABLE="$PWD/$PY" >/dev/null
cmake --build build-asan -j"$(nproc)"
ctest --test-dir build-asan --output-on-failure -j2
