// webgpu_runtime_bench: what the runtime costs, not what the kernels cost.
//   1. compile-once: a graph that instantiates one op 50 times, and how many
//      shader modules / pipelines the device created for it;
//   2. host cost per recorded dispatch: a 200-dispatch graph executed
//      repeatedly, timing command recording + submission (and, separately,
//      the wait for the queue).
// Uses the hand-written test.scale op (tests/native/fixtures), or with
// --unary-target any registered op called as (Tensor self, Tensor out), e.g. the
// generated aten.relu.default.
//
//   webgpu_runtime_bench [--ops 50] [--dispatches 200] [--iterations 50] [--numel 1024]
//                        [--unary-target aten.relu.default]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "webgpu_delegate/device.h"
#include "webgpu_delegate/graph.h"

using namespace webgpu_delegate;

namespace {

// A chain x -> op -> t1 -> op -> t2 ... of `n` nodes of `target`:
// test.scale.default(x, alpha, out), or a unary op(self, out).
ValueRef build_chain(WebGPUGraph& g, const std::string& target, int n, int64_t numel,
                     ValueRef* input) {
  ValueRef cur = g.add_tensor(DType::Float32, {numel});
  *input = cur;
  const ValueRef alpha = g.add_double(1.0);
  for (int i = 0; i < n; ++i) {
    const ValueRef next = g.add_tensor(DType::Float32, {numel});
    if (target == "test.scale.default") {
      g.add_node(target, {cur, alpha, next});
    } else {
      g.add_node(target, {cur, next});
    }
    cur = next;
  }
  return cur;
}

double mean(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x;
  return v.empty() ? 0 : s / static_cast<double>(v.size());
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  int ops = 50, dispatches = 200, iterations = 50;
  int64_t numel = 1024;
  std::string target = "test.scale.default";
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string a = argv[i];
    if (a == "--unary-target") {
      target = argv[i + 1];
      continue;
    }
    const long v = std::atol(argv[i + 1]);
    if (v <= 0) {
      std::fprintf(stderr, "webgpu_runtime_bench: %s needs a positive number\n", a.c_str());
      return 2;
    }
    if (a == "--ops")
      ops = static_cast<int>(v);
    else if (a == "--dispatches")
      dispatches = static_cast<int>(v);
    else if (a == "--iterations")
      iterations = static_cast<int>(v);
    else if (a == "--numel")
      numel = v;
    else {
      std::fprintf(stderr, "webgpu_runtime_bench: unknown argument %s\n", a.c_str());
      return 2;
    }
  }
  try {
    Device device;
    std::printf("device: %s\n", device.describe().c_str());

    // 1. compile-once
    {
      ValueRef input = -1;
      WebGPUGraph g(device);
      const auto t0 = std::chrono::steady_clock::now();
      build_chain(g, target, ops, numel, &input);
      const double build_ms =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
      std::printf("\n[compile-once] one op (%s) instantiated %zu times\n", target.c_str(),
                  g.num_nodes());
      std::printf("  ops instantiated:        %zu\n", g.num_nodes());
      std::printf("  dispatches recorded:     %zu\n", g.num_dispatches());
      std::printf("  shader modules created:  %zu\n", device.shader_modules_created());
      std::printf("  pipelines created:       %zu\n", device.pipelines_created());
      std::printf(
          "  graph build time:        %.2f ms (%.1f us per op, first op compiles the shader)\n",
          build_ms, 1000.0 * build_ms / ops);
    }

    // 2. host cost per recorded dispatch
    {
      ValueRef input = -1;
      WebGPUGraph g(device);
      build_chain(g, target, dispatches, numel, &input);
      std::vector<float> x(static_cast<size_t>(numel), 1.0f);
      g.copy_in(input, x.data(), x.size() * sizeof(float));
      for (int i = 0; i < 3; ++i) g.execute();  // warm-up
      std::vector<double> record, submit, wait, total;
      for (int i = 0; i < iterations; ++i) {
        const auto t0 = std::chrono::steady_clock::now();
        g.execute();
        total.push_back(
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
        const ExecuteStats& s = g.last_execute_stats();
        record.push_back(s.record_seconds);
        submit.push_back(s.submit_seconds);
        wait.push_back(s.wait_seconds);
      }
      std::vector<double> host(record.size());
      for (size_t i = 0; i < host.size(); ++i) host[i] = record[i] + submit[i];
      const double per = 1e6 / static_cast<double>(g.num_dispatches());
      std::printf(
          "\n[dispatch cost] %zu-dispatch graph of %s (%lld floats per tensor), %d executes\n",
          g.num_dispatches(), target.c_str(), static_cast<long long>(numel), iterations);
      std::printf("  record + submit per dispatch: mean %.3f us, median %.3f us\n",
                  mean(host) * per, median(host) * per);
      std::printf("    recording only:             mean %.3f us\n", mean(record) * per);
      std::printf("    finish + submit:            mean %.3f us\n", mean(submit) * per);
      std::printf(
          "  queue wait per dispatch:      mean %.3f us (GPU work; on lavapipe the CPU runs it)\n",
          mean(wait) * per);
      std::printf("  whole execute per dispatch:   mean %.3f us\n", mean(total) * per);
    }
  } catch (const Error& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
  return 0;
}
