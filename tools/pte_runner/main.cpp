// webgpu_pte_runner: runs an ExecuTorch .pte on the WebGPU delegate (its
// VulkanBackend partitions) through the ExecuTorch runtime of the pip wheel.
//
//   webgpu_pte_runner MODEL.pte [--input FILE]... [--seed N] [--iters N]
//                     [--warmup N] [--method NAME] [--out DIR] [--rerun-constants]
//                     [--copy-views] [--profile]
//   webgpu_pte_runner --build-stamp   (the hash of the generated sources it was built
//                                      from, tools/generated_stamp.cmake)
//
// Inputs: one raw little-endian file per method input, in order (its byte size
// must match the input's dtype and shape); without --input, random inputs from
// --seed (normal floats, integers in [0, 10)), written to DIR/input<i>.bin.
// Runs --warmup untimed and --iters timed executions (default 1 and 10) and
// prints the latency and what the delegates ran: dispatches that compute constants of
// the graph (a conv's weight pack) run once, at load, unless --rerun-constants runs
// them on every execute too (the behaviour before; for timing both), and the buffers
// only they touch (a conv's or linear's raw weights) are then freed. A view's output
// shares its input's buffer and the view runs nothing, unless --copy-views gives each
// view a buffer of its own and a copy on every execute (ExecuTorch's memory plan; for
// timing both). --profile times
// every dispatch with GPU timestamps, each in a compute pass of its own (so the latency
// it prints is a profiled run's), and prints the GPU time per execute of each kernel,
// largest first ("kernel_times" in the manifest: per kernel, dispatches and GPU ms per
// execute). With --out,
// writes DIR/output<i>.bin (the last run's outputs) and DIR/manifest.json:
//   {"device": ..., "inputs": [{"dtype", "dims", "file"}], "outputs": [...],
//    "latency_ms": {"min", "median", "mean"}, "iters": N,
//    "dispatches": {"executes": warmup + iters, "constant": K, "freed_constant_bytes": F,
//                   "last_execute": D,
//                   "kernel_runs": {kernel: runs at load and in every execute}}}
// Exit status: 0 success; 1 an error (load or run; the message, naming the op or
// value, goes to stderr and DIR/error.txt); 2 bad command line.
#include <executorch/extension/module/module.h>
#include <executorch/extension/tensor/tensor.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <iterator>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "backend.h"
#include "webgpu_delegate/build_stamp.h"

namespace {

namespace fs = std::filesystem;
using executorch::aten::ScalarType;
using executorch::extension::Module;
using nlohmann::json;
using webgpu_delegate::utils::message;

struct Failure {
  std::string message;
};

int usage(const std::string& why) {
  std::cerr << "webgpu_pte_runner: " << why << "\n"
            << "usage: webgpu_pte_runner MODEL.pte [--input FILE]... [--seed N] [--iters N]\n"
            << "                         [--warmup N] [--method NAME] [--out DIR]\n"
            << "                         [--rerun-constants] [--copy-views] [--profile]\n"
            << "       webgpu_pte_runner --build-stamp\n";
  return 2;
}

const char* dtype_name(ScalarType t) {
  switch (t) {
    case ScalarType::Float:
      return "float32";
    case ScalarType::Int:
      return "int32";
    case ScalarType::Long:
      return "int64";
    case ScalarType::Half:
      return "float16";
    case ScalarType::Byte:
      return "uint8";
    case ScalarType::Char:
      return "int8";
    case ScalarType::Bool:
      return "bool";
    default:
      return nullptr;
  }
}

std::string what_failed(const char* step, executorch::runtime::Error e) {
  const std::string& detail = webgpu_delegate::executorch_backend::last_error();
  return message(step, " failed (ExecuTorch error ", static_cast<int>(e), ")",
                 detail.empty() ? "" : ": " + detail);
}

void write_file(const fs::path& path, const void* data, size_t n) {
  std::ofstream out(path, std::ios::binary);
  out.write(static_cast<const char*>(data), static_cast<std::streamsize>(n));
  if (!out) throw Failure{"cannot write " + path.string()};
}

struct Input {
  std::vector<uint8_t> bytes;
  std::vector<executorch::aten::SizesType> sizes;
  ScalarType type;
};

Input make_input(const executorch::runtime::TensorInfo& info, size_t i,
                 const std::vector<std::string>& files, std::mt19937& rng) {
  Input in;
  in.type = info.scalar_type();
  in.sizes.assign(info.sizes().begin(), info.sizes().end());
  const size_t nbytes = info.nbytes();
  if (!dtype_name(in.type)) throw Failure{message("input ", i, " has an unsupported dtype")};
  if (!files.empty()) {
    std::ifstream f(files[i], std::ios::binary);
    if (!f) throw Failure{"cannot read input file " + files[i]};
    in.bytes.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
    if (in.bytes.size() != nbytes) {
      throw Failure{message("input ", i, ": ", files[i], " holds ", in.bytes.size(),
                            " bytes, the model expects ", nbytes, " (", dtype_name(in.type), ")")};
    }
    return in;
  }
  in.bytes.resize(nbytes);
  const size_t numel = nbytes / executorch::runtime::elementSize(in.type);
  std::normal_distribution<float> normal;
  std::uniform_int_distribution<int> small(0, 9);
  for (size_t k = 0; k < numel; ++k) {
    switch (in.type) {
      case ScalarType::Float: {
        const float v = normal(rng);
        std::memcpy(in.bytes.data() + 4 * k, &v, 4);
        break;
      }
      case ScalarType::Int: {
        const int32_t v = small(rng);
        std::memcpy(in.bytes.data() + 4 * k, &v, 4);
        break;
      }
      case ScalarType::Long: {
        const int64_t v = small(rng);
        std::memcpy(in.bytes.data() + 8 * k, &v, 8);
        break;
      }
      default:
        in.bytes[k * executorch::runtime::elementSize(in.type)] =
            static_cast<uint8_t>(small(rng) & 1);
    }
  }
  return in;
}

int run(int argc, char** argv) {
  std::string model, method = "forward", out_dir;
  std::vector<std::string> files;
  unsigned seed = 0;
  int iters = 10, warmup = 1;
  bool profile = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) throw Failure{"usage: " + a + " needs a value"};
      return argv[++i];
    };
    if (a == "--input")
      files.push_back(next());
    else if (a == "--seed")
      seed = static_cast<unsigned>(std::stoul(next()));
    else if (a == "--iters")
      iters = std::stoi(next());
    else if (a == "--warmup")
      warmup = std::stoi(next());
    else if (a == "--method")
      method = next();
    else if (a == "--out")
      out_dir = next();
    else if (a == "--rerun-constants")
      webgpu_delegate::executorch_backend::set_constant_dispatches_once(false);
    else if (a == "--copy-views")
      webgpu_delegate::executorch_backend::set_views_share_buffers(false);
    else if (a == "--profile")
      profile = true;
    else if (a == "--build-stamp") {
      std::cout << webgpu_delegate::generated_stamp() << "\n";
      return 0;
    }
    else if (!a.empty() && a[0] != '-' && model.empty())
      model = a;
    else
      return usage("unexpected argument " + a);
  }
  if (model.empty()) return usage("no .pte given");
  webgpu_delegate::executorch_backend::set_profiling(profile);
  if (iters < 1 || warmup < 0) return usage("--iters must be >= 1 and --warmup >= 0");
  if (!webgpu_delegate::executorch_backend::registered()) {
    throw Failure{std::string("the ") + webgpu_delegate::executorch_backend::kBackendId +
                  " backend could not be registered (another backend holds the id)"};
  }
  if (!out_dir.empty()) fs::create_directories(out_dir);

  Module module(model, Module::LoadMode::File);
  if (const auto e = module.load_method(method); e != executorch::runtime::Error::Ok) {
    throw Failure{what_failed(("loading " + model + " method " + method).c_str(), e)};
  }
  auto meta = module.method_meta(method);
  if (!meta.ok()) throw Failure{what_failed("method_meta", meta.error())};
  const size_t n_inputs = meta->num_inputs();
  if (!files.empty() && files.size() != n_inputs) {
    throw Failure{message("the model has ", n_inputs, " inputs, ", files.size(),
                          " --input files were given")};
  }
  std::mt19937 rng(seed);
  std::vector<Input> inputs;
  std::vector<executorch::extension::TensorPtr> tensors;
  std::vector<executorch::runtime::EValue> args;
  json in_json = json::array();
  for (size_t i = 0; i < n_inputs; ++i) {
    auto info = meta->input_tensor_meta(i);
    if (!info.ok()) throw Failure{message("input ", i, " is not a tensor")};
    inputs.push_back(make_input(*info, i, files, rng));
    Input& in = inputs.back();
    tensors.push_back(executorch::extension::make_tensor_ptr(in.sizes, in.bytes.data(), in.type));
    args.emplace_back(tensors.back());
    const std::string name = message("input", i, ".bin");
    if (!out_dir.empty() && files.empty())
      write_file(fs::path(out_dir) / name, in.bytes.data(), in.bytes.size());
    in_json.push_back({{"dtype", dtype_name(in.type)},
                       {"dims", in.sizes},
                       {"file", files.empty() ? name : files[i]}});
  }

  std::vector<double> ms;
  std::vector<executorch::runtime::EValue> outputs;
  for (int k = 0; k < warmup + iters; ++k) {
    const auto t0 = std::chrono::steady_clock::now();
    auto result = module.execute(method, args);
    const auto t1 = std::chrono::steady_clock::now();
    if (!result.ok()) throw Failure{what_failed("execute", result.error())};
    if (k >= warmup) ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
    outputs = std::move(result.get());
  }
  std::vector<double> sorted = ms;
  std::sort(sorted.begin(), sorted.end());
  double mean = 0;
  for (double v : ms) mean += v / static_cast<double>(ms.size());
  const double median = sorted[sorted.size() / 2];

  json out_json = json::array();
  for (size_t j = 0; j < outputs.size(); ++j) {
    if (!outputs[j].isTensor()) throw Failure{message("output ", j, " is not a tensor")};
    const auto& t = outputs[j].toTensor();
    const char* dt = dtype_name(t.scalar_type());
    if (!dt) throw Failure{message("output ", j, " has an unsupported dtype")};
    const std::string name = message("output", j, ".bin");
    if (!out_dir.empty()) write_file(fs::path(out_dir) / name, t.const_data_ptr(), t.nbytes());
    out_json.push_back({{"dtype", dt},
                        {"dims", std::vector<int64_t>(t.sizes().begin(), t.sizes().end())},
                        {"file", name}});
  }
  const std::string device = webgpu_delegate::executorch_backend::device_description();
  std::cout << "webgpu_pte_runner: " << model << " on " << device << ": " << outputs.size()
            << " outputs; latency over " << iters << " iterations: min " << sorted.front()
            << " ms, median " << median << " ms, mean " << mean << " ms\n";
  const auto counts = webgpu_delegate::executorch_backend::dispatch_counts();
  const json runs_json = counts.kernel_runs;
  std::cout << "webgpu_pte_runner: " << counts.graphs << " delegate graphs, " << counts.last_execute
            << " dispatches per execute, " << counts.constant_dispatches
            << " constant dispatches run once at load (" << counts.freed_constant_bytes
            << " bytes only they touch freed); runs over " << warmup + iters
            << " executes: " << runs_json.dump() << "\n";
  json times_json = json::object();
  if (profile) {
    const double executes = warmup + iters;
    std::vector<std::pair<std::string, webgpu_delegate::KernelTime>> by_time(
        counts.kernel_times.begin(), counts.kernel_times.end());
    std::sort(by_time.begin(), by_time.end(),
              [](const auto& a, const auto& b) { return a.second.gpu_ms > b.second.gpu_ms; });
    double total = 0;
    for (const auto& [kernel, time] : by_time) total += time.gpu_ms / executes;
    std::cout << std::fixed << std::setprecision(3) << "webgpu_pte_runner: GPU time per execute "
              << total << " ms (profiled: each dispatch in its own pass), by kernel:\n";
    for (const auto& [kernel, time] : by_time) {
      const double ms = time.gpu_ms / executes;
      std::cout << "  " << kernel << ": " << std::setprecision(3) << ms << " ms ("
                << std::setprecision(1) << (total > 0 ? 100 * ms / total : 0) << " %), "
                << std::setprecision(0) << time.dispatches / executes << " dispatches\n";
      times_json[kernel] = {{"dispatches", time.dispatches / executes}, {"gpu_ms", ms}};
    }
  }
  if (!out_dir.empty()) {
    json manifest = {{"device", device},
                     {"iters", iters},
                     {"inputs", in_json},
                     {"outputs", out_json},
                     {"latency_ms", {{"min", sorted.front()}, {"median", median}, {"mean", mean}}},
                     {"dispatches",
                      {{"executes", warmup + iters},
                       {"constant", counts.constant_dispatches},
                       {"freed_constant_bytes", counts.freed_constant_bytes},
                       {"last_execute", counts.last_execute},
                       {"kernel_runs", runs_json}}}};
    if (profile) manifest["kernel_times"] = times_json;
    std::ofstream m(fs::path(out_dir) / "manifest.json");
    m << manifest.dump(2) << "\n";
    if (!m) throw Failure{"cannot write the manifest in " + out_dir};
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::string out_dir;
  for (int i = 1; i + 1 < argc; ++i) {
    if (std::strcmp(argv[i], "--out") == 0) out_dir = argv[i + 1];
  }
  try {
    return run(argc, argv);
  } catch (const Failure& f) {
    std::cerr << "webgpu_pte_runner: " << f.message << "\n";
    if (!out_dir.empty()) {
      std::error_code ec;
      fs::create_directories(out_dir, ec);
      std::ofstream(fs::path(out_dir) / "error.txt") << f.message << "\n";
    }
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "webgpu_pte_runner: " << e.what() << "\n";
    return 1;
  }
}
