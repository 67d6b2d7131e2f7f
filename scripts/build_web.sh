#!/usr/bin/env bash
# The browser build (web/README.md): the runtime and the generated handlers compiled to
# WebAssembly by Debian's emscripten 3.1.6, linked with the project's JS binding of
# webgpu.h, into build-web/web/webgpu_delegate.{js,wasm}. `opgen web` copies them into a site.
set -euo pipefail
cd "$(dirname "$0")/.."
# Debian's emcc runs acorn from node-acorn (/usr/share/nodejs), which a node that is not
# Debian's own (e.g. nodesource's) does not search: "Cannot find module 'acorn'".
export NODE_PATH="${NODE_PATH:+$NODE_PATH:}/usr/share/nodejs"
CMAKE="${CMAKE:-.venv/bin/cmake}"
emcmake "$CMAKE" -S . -B build-web -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DPython3_EXECUTABLE="$PWD/.venv/bin/python" >/dev/null
"$CMAKE" --build build-web -j"$(nproc)"
ls -l build-web/web/webgpu_delegate.js build-web/web/webgpu_delegate.wasm
