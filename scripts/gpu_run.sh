#!/usr/bin/env bash
# One GPU session (the device tool's H200). Steps (GPU_STEPS, default
# "validate e2e conv elementwise sdpa"):
#   validate      every spec case on the GPU adapter (benchmarks/gpu_validate.py)
#   e2e, e2e_prebuilt  the .pte models on the native delegate (benchmarks/gpu_e2e.py)
#   conv, elementwise, gemm, conv_stems  the `opgen bench` suites beside ORT WebGPU and
#                 torch CUDA (CONV_FORCE / GEMM_FORCE / STEMS_FORCE=k1,k2 add rows for
#                 kernels the routes did not choose; BENCH_FLAGS, e.g. --no-ort, is added
#                 to every suite's command)
#   gemm_f16, conv_f16  the gemm and conv (conv_anchors) suites in float16 beside torch
#                 CUDA fp16 (cuBLAS / cuDNN); no ORT column (its one-node models are
#                 float32). GEMM_SUITE=gemm_focus / CONV_SUITE=conv_focus: a few rows of
#                 each instead, in the gemm, gemm_f16, conv and conv_f16 steps
#   f16_report    ours f16 / ours f32 / torch fp16 per row (codegen/bench/f16_report.py),
#                 from gemm.json + gemm_f16.json and conv.json + conv_f16.json of this run:
#                 run it after those steps, e.g. GPU_STEPS="gemm gemm_f16 conv conv_f16 f16_report"
#   sdpa          the SDPA QK routes (benchmarks/bench_sdpa_routes.py)
#   gemm_routes   every GEMM tile and split-K count per shape (benchmarks/bench_gemm_routes.py)
#   latency       whole models, ours / ORT WebGPU / torch CUDA (benchmarks/model_latency.py)
#   latency_fp16  the same models in float16 (packed with `pack --fp16`): ours fp16 / ours
#                 fp32 / ORT WebGPU fp16 / torch CUDA fp16, rows also in $OUT/latency_fp16.json;
#                 LATENCY_PROFILE=1 adds our GPU time per kernel of both .pte files per model
#   sass, copy, ort_precision  the probes of tools/probes/ (the driver's compiled GEMM
#                 tile, buffer copy against a copy kernel, ORT MatMul's precision)
# Results land in $OUT. Needs .gl/ (Vulkan loader debs) and .whl/ (wgpu,
# onnxruntime-webgpu wheels) carried along; figures and commands in docs/performance.md.
set -uo pipefail
for f in .gl/*.deb; do dpkg -x "$f" /; done
ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
export __EGL_VENDOR_LIBRARY_FILENAMES=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
  --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=/tmp/site:$PWD XDG_RUNTIME_DIR=/tmp PYTHONUNBUFFERED=1 OPGEN_ADAPTER=gpu
OUT=${OUT:-/tmp/out}
nvidia-smi -L
python3 -c "from codegen.executors.wgpu_device import adapter_line; print('adapter:', adapter_line())"
# --png only where matplotlib is installed (else the chart is drawn from the JSON later)
png() { python3 -c "import matplotlib" 2>/dev/null && echo "--png $OUT/$1.png"; }
# the float16 twin of a suite: conv_anchors' is conv_f16, the others' <name>_f16
f16_suite() { [ "$1" = conv_anchors ] && echo conv_f16 || echo "$1_f16"; }
steps=${GPU_STEPS:-validate e2e conv elementwise sdpa}
for step in $steps; do
  echo "=== $step"
  case $step in
    validate) python3 benchmarks/gpu_validate.py run "$OUT" > "$OUT/validate.log" 2>&1; tail -3 "$OUT/validate.log" ;;
    # --constants: each conv also timed without its weight pack (run once at load in a model)
    conv) python3 -m codegen bench --suite "${CONV_SUITE:-conv_anchors}" --iters 20 --force "${CONV_FORCE:-}" --constants weight,bias ${BENCH_FLAGS:-} --json "$OUT/conv.json" --png "$OUT/conv.png" ;;
    conv_f16) python3 -m codegen bench --suite "$(f16_suite "${CONV_SUITE:-conv_anchors}")" --iters 20 --no-ort --constants weight,bias ${BENCH_FLAGS:-} --json "$OUT/conv_f16.json" ;;
    elementwise) python3 -m codegen bench --suite elementwise --iters 20 ${BENCH_FLAGS:-} --json "$OUT/elementwise.json" --png "$OUT/elementwise.png" ;;
    # --constants: linear also timed without its weight pack (run once at load in a model)
    gemm) python3 -m codegen bench --suite "${GEMM_SUITE:-gemm}" --iters 20 --force "${GEMM_FORCE:-}" --constants weight,bias ${BENCH_FLAGS:-} --json "$OUT/gemm.json" $(png gemm) ;;
    gemm_f16) python3 -m codegen bench --suite "$(f16_suite "${GEMM_SUITE:-gemm}")" --iters 20 --no-ort --constants weight,bias ${BENCH_FLAGS:-} --json "$OUT/gemm_f16.json" ;;
    f16_report) for pair in gemm:gemm_f16 conv:conv_f16; do
        f32="$OUT/${pair%%:*}.json" f16="$OUT/${pair##*:}.json"
        [ -f "$f32" ] && [ -f "$f16" ] && python3 -m codegen.bench.f16_report "$f32" "$f16" --markdown
      done ;;
    conv_stems) python3 -m codegen bench --suite conv_stems --iters 20 --force "${STEMS_FORCE:-}" --constants weight,bias ${BENCH_FLAGS:-} --json "$OUT/conv_stems.json" $(png conv_stems) ;;
    sdpa) python3 benchmarks/bench_sdpa_routes.py ;;
    gemm_routes) python3 benchmarks/bench_gemm_routes.py --ort --json "$OUT/gemm_routes.json" ;;
    sass) python3 tools/probes/probe_sass.py run "$OUT" ;;  # then here: probe_sass.py show DIR
    copy) python3 tools/probes/probe_copy.py ;;
    ort_precision) python3 tools/probes/probe_ort_precision.py ;;
    latency)  # benchmarks/model_latency.py's folder (LATENCY_DIR, default .latency): ours
      # through the carried runner (as e2e_prebuilt), ORT WebGPU and torch CUDA eager;
      # LATENCY_PROFILE=1 adds our GPU time per kernel of each model
      export LD_LIBRARY_PATH="$PWD/.runner:/tmp/site/wgpu/resources" OPGEN_PTE_RUNNER="$PWD/.runner/webgpu_pte_runner"
      python3 benchmarks/model_latency.py run "${LATENCY_DIR:-.latency}" ${LATENCY_PROFILE:+--profile} ;;
    latency_fp16)  # as latency, on the float16 twins (`model_latency.py pack --fp16`)
      export LD_LIBRARY_PATH="$PWD/.runner:/tmp/site/wgpu/resources" OPGEN_PTE_RUNNER="$PWD/.runner/webgpu_pte_runner"
      LATENCY_JSON="$OUT/latency_fp16.json" python3 benchmarks/model_latency.py run "${LATENCY_DIR:-.latency}" --fp16 ${LATENCY_PROFILE:+--profile} ;;
    e2e_prebuilt)  # webgpu_pte_runner built here (no ExecuTorch on the GPU machine) with the
      # ExecuTorch libraries it links, carried in .runner/; .pte files from .e2e/
      export LD_LIBRARY_PATH="$PWD/.runner:/tmp/site/wgpu/resources" OPGEN_PTE_RUNNER="$PWD/.runner/webgpu_pte_runner"
      python3 benchmarks/gpu_e2e.py run .e2e "$OUT" ;;
    e2e)  # the native delegate + ExecuTorch runner, built here; .pte files from .e2e/
      mkdir -p /tmp/fb && for f in .fb/*.deb; do dpkg -x "$f" /tmp/fb; done
      export PATH=/tmp/fb/usr/bin:$PATH
      cmake --version | head -1
      cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DPython3_EXECUTABLE="$(command -v python3)" \
        -DWEBGPU_EXECUTORCH=ON -DWEBGPU_CODEGEN_CHECK=OFF -DCMAKE_PREFIX_PATH=/tmp/fb/usr > "$OUT/cmake.log" 2>&1 \
        && cmake --build build -j16 --target webgpu_pte_runner >> "$OUT/cmake.log" 2>&1 \
        || { tail -20 "$OUT/cmake.log"; continue; }
      python3 benchmarks/gpu_e2e.py run .e2e "$OUT" ;;
  esac
done
