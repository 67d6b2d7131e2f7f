#!/usr/bin/env bash
# The whole test suite, set-up included: generated files up to date, the native
# delegate built with its ExecuTorch backend (stale generated files fail the build), the
# browser build (WebAssembly: the browser executor's op cases and tests/test_web.py run it),
# the sanitizer build (ASan + UBSan, with the ExecuTorch backend), Python harness + native
# cases, end-to-end .pte tests (tests/test_e2e.py), the .pte mutation fuzzer under the
# sanitizers (tests/test_pte_fuzz.py), native unit tests, and their sanitizer run.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-/tmp}"
PY=.venv/bin/python
# The executorch CMake package needs CMake >= 3.28: the venv's (PyPI) cmake and ctest.
CMAKE=.venv/bin/cmake
CTEST=.venv/bin/ctest

$PY -m codegen check
$CMAKE -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DPython3_EXECUTABLE="$PWD/$PY" \
  -DWEBGPU_EXECUTORCH=ON >/dev/null
$CMAKE --build build -j"$(nproc)"
$CTEST --test-dir build --output-on-failure -j2
./scripts/build_web.sh
# The sanitizer build includes the ExecuTorch backend: tests/test_pte_fuzz.py runs its
# webgpu_pte_runner on mutated .pte files, so it is built before pytest runs.
$CMAKE -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DWEBGPU_SANITIZE=ON \
  -DWEBGPU_EXECUTORCH=ON -DPython3_EXECUTABLE="$PWD/$PY" >/dev/null
$CMAKE --build build-asan -j"$(nproc)"
# two processes (tests/conftest.py: every module but test_ops stays on one worker)
$PY -m pytest -q -n "$(nproc)" --dist loadgroup tests
$CTEST --test-dir build-asan --output-on-failure -j2
