// webgpu_llm_runner: greedy text generation with an LLM that ExecuTorch's own export
// wrote (`python -m executorch.examples.models.llama.export_llama ... -kv
// --use_sdpa_with_kv_cache --vulkan`), on the WebGPU delegate.
//
//   webgpu_llm_runner MODEL.pte --prompt-ids 1,2,3 [--new-tokens N] [--out DIR]
//                     [--warmup N] [--profile] [--dispatches-per-submit N]
//   webgpu_llm_runner --build-stamp   (the hash of the generated sources it was built from)
//
// The model's `forward(tokens [1, S], input_pos [1]) -> logits [1, vocab]` (the logits of
// the last token) runs once per prompt chunk (the prefill: chunks of at most the exported
// sequence length, input_pos the chunk's first position) and then once per generated
// token (a decode step: S = 1, input_pos the token's position); the KV caches live in the
// delegate between calls. The next token is the argmax of the logits. Prints the token ids
// and the prefill and decode rates (tokens per second, host clock, each call including its
// logits' readback), the dispatches a decode step records and the compute pipelines the
// device created at load and after the loop (the loop must create none). With --out,
// writes DIR/manifest.json:
//   {"device", "prompt": [...], "tokens": [...], "prefill_ms", "prefill_tok_s",
//    "decode_ms": [...], "decode_tok_s", "dispatches_per_token", "pipelines_at_load",
//    "pipelines_after", "vocab", "max_seq_len", "decode_host_ms": {...},
//    "kernel_times": {...}, "dispatch_times": {...}, "prefill_kernel_times": {...},
//    "prefill_dispatch_times": {...} (--profile)}
// decode_host_ms: the median decode step's delegate execute on the host (the resize for
// the new position, uniform uploads, recording, submission, waiting for the GPU, reading
// the logits back); kernel_times: GPU time per decode step by
// kernel, dispatch_times by kernel and grid (each dispatch timed in a pass of its own);
// the prefill_ pair: the same for the timed prefill.
// and DIR/logits.bin: float32 [new_tokens, vocab], the logits each generated token was
// chosen from (the prefill's, then each decode step's but the last).
// Exit status: 0 success; 1 an error (message on stderr and in DIR/error.txt); 2 bad
// command line.
#include <executorch/extension/module/module.h>
#include <executorch/extension/tensor/tensor.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "backend.h"
#include "webgpu_delegate/build_stamp.h"

namespace {

namespace fs = std::filesystem;
using executorch::aten::ScalarType;
using executorch::extension::Module;
using nlohmann::json;
namespace backend = webgpu_delegate::executorch_backend;

struct Failure {
  std::string message;
};

int usage(const std::string& why) {
  std::cerr << "webgpu_llm_runner: " << why << "\n"
            << "usage: webgpu_llm_runner MODEL.pte --prompt-ids 1,2,3 [--new-tokens N]\n"
            << "                         [--out DIR] [--warmup N] [--profile]\n"
            << "                         [--dispatches-per-submit N]\n"
            << "       webgpu_llm_runner --build-stamp\n";
  return 2;
}

std::vector<int64_t> parse_ids(const std::string& text) {
  std::vector<int64_t> ids;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    size_t used = 0;
    const long long v = std::stoll(item, &used);
    if (used != item.size() || v < 0) throw std::invalid_argument(item);
    ids.push_back(v);
  }
  if (ids.empty()) throw std::invalid_argument(text);
  return ids;
}

std::string what_failed(const std::string& step, executorch::runtime::Error e) {
  const std::string& detail = backend::last_error();
  return step + " failed (ExecuTorch error " + std::to_string(static_cast<int>(e)) + ")" +
         (detail.empty() ? "" : ": " + detail);
}

// An int method of the export's metadata (get_max_seq_len, ...); `fallback` when absent.
int64_t metadata(Module& module, const std::string& name, int64_t fallback) {
  auto names = module.method_names();
  if (!names.ok() || !names->count(name)) return fallback;
  auto result = module.execute(name);
  if (!result.ok() || result->empty() || !(*result)[0].isInt()) return fallback;
  return (*result)[0].toInt();
}

class Generator {
 public:
  explicit Generator(const std::string& path) : module_(path, Module::LoadMode::File) {
    if (const auto e = module_.load_method("forward"); e != executorch::runtime::Error::Ok) {
      throw Failure{what_failed("loading " + path + " method forward", e)};
    }
    auto meta = module_.method_meta("forward");
    if (!meta.ok()) throw Failure{what_failed("method_meta", meta.error())};
    if (meta->num_inputs() != 2) {
      throw Failure{"forward takes " + std::to_string(meta->num_inputs()) +
                    " inputs; an LLM export with a KV cache takes (tokens, input_pos)"};
    }
    auto tokens = meta->input_tensor_meta(0);
    if (!tokens.ok() || tokens->sizes().size() != 2) {
      throw Failure{"forward's first input is not a [1, S] token tensor"};
    }
    max_chunk_ = tokens->sizes()[1];
    max_seq_len_ = metadata(module_, "get_max_context_len",
                            metadata(module_, "get_max_seq_len", max_chunk_ + 1));
  }

  int64_t max_seq_len() const { return max_seq_len_; }

  // Runs tokens at positions pos .. pos + n - 1; the logits of the last one.
  std::vector<float> forward(const int64_t* ids, int64_t n, int64_t pos) {
    std::vector<int64_t> tokens(ids, ids + n);
    std::vector<int64_t> position = {pos};
    auto t = executorch::extension::make_tensor_ptr({1, static_cast<int32_t>(n)}, tokens.data(),
                                                    ScalarType::Long);
    auto p = executorch::extension::make_tensor_ptr({1}, position.data(), ScalarType::Long);
    auto result = module_.execute("forward", {t, p});
    if (!result.ok()) {
      throw Failure{what_failed("forward at position " + std::to_string(pos), result.error())};
    }
    const auto& out = (*result)[0].toTensor();
    if (out.scalar_type() != ScalarType::Float) throw Failure{"the logits are not float32"};
    const float* data = out.const_data_ptr<float>();
    const int64_t vocab = out.size(out.dim() - 1);
    return std::vector<float>(data + out.numel() - vocab, data + out.numel());
  }

  // The prompt in chunks of at most the exported length; the last chunk's logits.
  std::vector<float> prefill(const std::vector<int64_t>& prompt) {
    std::vector<float> logits;
    for (int64_t at = 0; at < static_cast<int64_t>(prompt.size()); at += max_chunk_) {
      const int64_t n = std::min<int64_t>(max_chunk_, static_cast<int64_t>(prompt.size()) - at);
      logits = forward(prompt.data() + at, n, at);
    }
    return logits;
  }

 private:
  Module module_;
  int64_t max_chunk_ = 0;
  int64_t max_seq_len_ = 0;
};

int64_t argmax(const std::vector<float>& v) {
  return std::max_element(v.begin(), v.end()) - v.begin();
}

// The host's parts of a decode step's execute, in the order they happen (decode_host_ms).
constexpr std::pair<const char*, double webgpu_delegate::ExecuteStats::*> kHostParts[] = {
    {"resize", &webgpu_delegate::ExecuteStats::resize_seconds},
    {"upload", &webgpu_delegate::ExecuteStats::upload_seconds},
    {"record", &webgpu_delegate::ExecuteStats::record_seconds},
    {"submit", &webgpu_delegate::ExecuteStats::submit_seconds},
    {"wait", &webgpu_delegate::ExecuteStats::wait_seconds},
    {"read", &webgpu_delegate::ExecuteStats::read_seconds}};

double median(std::vector<double> v) {
  if (v.empty()) return 0.0;
  std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
  return v[v.size() / 2];
}

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

int run(int argc, char** argv) {
  std::string model, out_dir;
  std::vector<int64_t> prompt;
  int64_t new_tokens = 16, warmup = 0, per_submit = -1;  // -1: the backend's default
  bool profile = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) throw Failure{"usage: " + a + " needs a value"};
      return argv[++i];
    };
    try {
      if (a == "--prompt-ids")
        prompt = parse_ids(next());
      else if (a == "--new-tokens")
        new_tokens = std::stoll(next());
      else if (a == "--out")
        out_dir = next();
      else if (a == "--warmup")
        warmup = std::stoll(next());
      else if (a == "--profile")
        profile = true;
      else if (a == "--dispatches-per-submit")
        per_submit = std::stoll(next());
      else if (a == "--build-stamp") {
        std::cout << webgpu_delegate::generated_stamp() << "\n";
        return 0;
      } else if (!a.empty() && a[0] != '-' && model.empty())
        model = a;
      else
        return usage("unexpected argument " + a);
    } catch (const std::invalid_argument&) {
      return usage(a + " needs a number (a comma-separated list of token ids for --prompt-ids)");
    }
  }
  if (model.empty()) return usage("no .pte given");
  if (prompt.empty()) return usage("no --prompt-ids given");
  if (new_tokens < 1) return usage("--new-tokens must be >= 1");
  if (warmup < 0) return usage("--warmup must be >= 0");
  if (per_submit < -1) return usage("--dispatches-per-submit must be >= 0");
  if (!backend::registered()) throw Failure{"the VulkanBackend id is taken by another backend"};
  backend::set_profiling(profile);
  if (per_submit >= 0) backend::set_dispatches_per_submit(static_cast<size_t>(per_submit));

  Generator gen(model);
  const int64_t total = static_cast<int64_t>(prompt.size()) + new_tokens - 1;
  if (total > gen.max_seq_len()) {
    throw Failure{"the prompt (" + std::to_string(prompt.size()) + " tokens) and " +
                  std::to_string(new_tokens) + " new tokens need " + std::to_string(total) +
                  " positions; the model was exported for " + std::to_string(gen.max_seq_len())};
  }
  const size_t pipelines_at_load = backend::pipelines_created();
  for (int64_t i = 0; i < warmup; ++i) gen.prefill(prompt);
  std::vector<int64_t> tokens;
  std::vector<float> all_logits;
  const auto before_prefill = backend::dispatch_counts();  // --profile: the prefill's share
  auto t0 = std::chrono::steady_clock::now();
  std::vector<float> logits = gen.prefill(prompt);
  const double prefill_ms = ms_since(t0);
  std::vector<double> decode_ms;
  size_t dispatches = 0;
  const auto prefill_counts = backend::dispatch_counts();  // --profile: the decode's share
  std::map<std::string, std::vector<double>> host_ms;      // by kHostParts name, per step
  for (int64_t i = 0; i < new_tokens; ++i) {
    tokens.push_back(argmax(logits));
    all_logits.insert(all_logits.end(), logits.begin(), logits.end());
    if (i + 1 == new_tokens) break;
    t0 = std::chrono::steady_clock::now();
    logits = gen.forward(&tokens.back(), 1, static_cast<int64_t>(prompt.size()) + i);
    decode_ms.push_back(ms_since(t0));
    const auto counts = backend::dispatch_counts();
    dispatches = counts.last_execute;
    for (const auto& [part, seconds] : kHostParts) {
      host_ms[part].push_back(counts.last_stats.*seconds * 1e3);
    }
  }
  const size_t pipelines_after = backend::pipelines_created();
  double decode_total = 0;
  for (double v : decode_ms) decode_total += v;
  const double prefill_tok_s = 1000.0 * static_cast<double>(prompt.size()) / prefill_ms;
  const double decode_tok_s =
      decode_ms.empty() ? 0.0 : 1000.0 * static_cast<double>(decode_ms.size()) / decode_total;

  json host = json::object();  // the median of each part
  std::string host_line;
  for (const auto& [part, seconds] : kHostParts) {
    host[part] = median(host_ms[part]);
    host_line += (host_line.empty() ? "" : ", ") + std::string(part) + " " +
                 std::to_string(host[part].get<double>());
  }
  const std::string device = backend::device_description();
  std::cout << "webgpu_llm_runner: " << model << " on " << device << "\n"
            << "tokens: " << json(tokens).dump() << "\n"
            << "prefill: " << prompt.size() << " tokens in " << prefill_ms << " ms ("
            << prefill_tok_s << " tok/s)\n"
            << "decode: " << decode_ms.size() << " tokens, " << decode_tok_s << " tok/s; "
            << dispatches << " dispatches per token\n"
            << "pipelines: " << pipelines_at_load << " after the load, " << pipelines_after
            << " after generating\n"
            << "decode step on the host (median ms): " << host_line << "\n";
  if (out_dir.empty()) return 0;
  fs::create_directories(out_dir);
  std::ofstream bin(fs::path(out_dir) / "logits.bin", std::ios::binary);
  bin.write(reinterpret_cast<const char*>(all_logits.data()),
            static_cast<std::streamsize>(all_logits.size() * sizeof(float)));
  // GPU time between two counts, divided by `steps` (the decode steps, or the one prefill)
  const double decode_steps = static_cast<double>(std::max<size_t>(decode_ms.size(), 1));
  auto per_step = [](const std::map<std::string, webgpu_delegate::KernelTime>& after,
                     const std::map<std::string, webgpu_delegate::KernelTime>& before,
                     double steps) {
    json times = json::object();
    for (const auto& [kernel, t] : after) {
      auto b = before.find(kernel);
      const double n =
          static_cast<double>(t.dispatches - (b == before.end() ? 0 : b->second.dispatches));
      const double ms = t.gpu_ms - (b == before.end() ? 0.0 : b->second.gpu_ms);
      if (n > 0) times[kernel] = {{"dispatches", n / steps}, {"gpu_ms", ms / steps}};
    }
    return times;
  };
  const auto final_counts = backend::dispatch_counts();
  const json manifest = {
      {"device", device},
      {"prompt", prompt},
      {"tokens", tokens},
      {"prefill_ms", prefill_ms},
      {"prefill_tok_s", prefill_tok_s},
      {"decode_ms", decode_ms},
      {"decode_tok_s", decode_tok_s},
      {"dispatches_per_token", dispatches},
      {"pipelines_at_load", pipelines_at_load},
      {"pipelines_after", pipelines_after},
      {"vocab", all_logits.size() / static_cast<size_t>(new_tokens)},
      {"max_seq_len", gen.max_seq_len()},
      {"decode_host_ms", host},
      {"kernel_times",
       per_step(final_counts.kernel_times, prefill_counts.kernel_times, decode_steps)},
      {"dispatch_times",
       per_step(final_counts.kernel_grid_times, prefill_counts.kernel_grid_times, decode_steps)},
      {"prefill_kernel_times",
       per_step(prefill_counts.kernel_times, before_prefill.kernel_times, 1.0)},
      {"prefill_dispatch_times",
       per_step(prefill_counts.kernel_grid_times, before_prefill.kernel_grid_times, 1.0)}};
  std::ofstream out(fs::path(out_dir) / "manifest.json");
  out << manifest.dump(1) << "\n";
  if (!bin || !out) throw Failure{"cannot write " + out_dir};
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::string out_dir;
  for (int i = 1; i + 1 < argc; ++i) {
    if (std::string(argv[i]) == "--out") out_dir = argv[i + 1];
  }
  try {
    return run(argc, argv);
  } catch (const Failure& f) {
    std::cerr << "webgpu_llm_runner: " << f.message << "\n";
    if (!out_dir.empty()) {
      fs::create_directories(out_dir);
      std::ofstream(fs::path(out_dir) / "error.txt") << f.message << "\n";
    }
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "webgpu_llm_runner: " << e.what() << "\n";
    return 1;
  }
}
