#!/usr/bin/env bash
# Installs everything the toolkit needs on a fresh Debian machine: the CPU WebGPU
# adapter (lavapipe), a C++ toolchain, flatbuffers (the VK00 reader), nlohmann/json (the
# tools), GoogleTest (the native tests), Chromium (the browser executor's WebGPU, driven
# by the pinned playwright; never a browser download), emscripten + binaryen + node (the
# browser build, scripts/build_web.sh), and a venv with the pinned packages.
set -euo pipefail
cd "$(dirname "$0")/.."

SUDO=""
[ "$(id -u)" = 0 ] || SUDO="sudo"
need=()
for pkg in mesa-vulkan-drivers libvulkan1 g++ libflatbuffers-dev flatbuffers-compiler \
           nlohmann-json3-dev libgtest-dev chromium emscripten binaryen; do
  dpkg -s "$pkg" >/dev/null 2>&1 || need+=("$pkg")
done
command -v node >/dev/null 2>&1 || need+=(nodejs)
command -v npm >/dev/null 2>&1 || need+=(npm)
if [ ${#need[@]} -gt 0 ]; then
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}"
fi

if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
# torch is pinned (a bare `torch` would pull a multi-GB CUDA build)
.venv/bin/pip install -q --disable-pip-version-check -e '.[test,executorch]'
# onnxruntime-web for the same-page comparison (opgen web --ort, tests/test_web.py), from
# the npm registry: keep in step with codegen/web/ort.py's ORT_WEB_PIN
if [ ! -f .ort_web/node_modules/onnxruntime-web/dist/ort.webgpu.min.js ]; then
  npm install --prefix .ort_web --no-audit --no-fund --silent onnxruntime-web@1.30.0
fi
