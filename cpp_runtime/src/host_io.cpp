// host_io.h: the host dtype rule and the narrowing / half conversions of graph IO.
#include "webgpu_delegate/host_io.h"

#include <cstdint>
#include <limits>
#include <vector>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define WEBGPU_F16C 1
#endif

#include "webgpu_delegate/half.h"
#include "webgpu_delegate/message.h"

namespace webgpu_delegate {
namespace {

bool narrows(DType host, DType graph) {
  return host == DType::Int64 && graph == DType::Int32;
}
bool halves(DType host, DType graph) {
  return host == DType::Float32 && graph == DType::Float16;
}

#ifdef WEBGPU_F16C
bool has_f16c() {
  static const bool has = __builtin_cpu_supports("f16c") && __builtin_cpu_supports("avx");
  return has;
}

// The whole groups of eight; returns how many elements were converted.
__attribute__((target("avx,f16c"))) size_t halves_f16c(const float* src, uint16_t* dst, size_t n) {
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m128i h = _mm256_cvtps_ph(_mm256_loadu_ps(src + i), _MM_FROUND_TO_NEAREST_INT);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + i), h);
  }
  return i;
}

__attribute__((target("avx,f16c"))) size_t floats_f16c(const uint16_t* src, float* dst, size_t n) {
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m128i h = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i));
    _mm256_storeu_ps(dst + i, _mm256_cvtph_ps(h));
  }
  return i;
}
#endif

}  // namespace

void halves_from_floats(const float* src, uint16_t* dst, size_t n) {
  size_t i = 0;
#ifdef WEBGPU_F16C
  if (has_f16c()) i = halves_f16c(src, dst, n);
#endif
  for (; i < n; ++i) dst[i] = half_from_float(src[i]);
}

void floats_from_halves(const uint16_t* src, float* dst, size_t n) {
  size_t i = 0;
#ifdef WEBGPU_F16C
  if (has_f16c()) i = floats_f16c(src, dst, n);
#endif
  for (; i < n; ++i) dst[i] = float_from_half(src[i]);
}

bool host_dtype_fits(DType host, DType graph) {
  return host == graph || narrows(host, graph) || halves(host, graph);
}

void check_host_dtype(DType host, DType graph, const std::string& what) {
  if (!host_dtype_fits(host, graph)) {
    throw Error(utils::message("WebGPU delegate: ", what, " has dtype ", dtype_name(host),
                               ", the graph tensor is ", dtype_name(graph)));
  }
}

void copy_in_host(WebGPUGraph& graph, ValueRef ref, DType host, const void* data, size_t numel,
                  const std::string& what) {
  const DType gpu = graph.get_tensor(ref).dtype;
  check_host_dtype(host, gpu, what);
  if (halves(host, gpu)) {
    const float* src = static_cast<const float*>(data);
    std::vector<uint16_t> half(numel);
    halves_from_floats(src, half.data(), numel);
    graph.copy_in(ref, half.data(), half.size() * sizeof(uint16_t));
  } else if (narrows(host, gpu)) {
    const int64_t* src = static_cast<const int64_t*>(data);
    std::vector<int32_t> narrow(numel);
    for (size_t i = 0; i < numel; ++i) {
      if (src[i] < std::numeric_limits<int32_t>::min() ||
          src[i] > std::numeric_limits<int32_t>::max()) {
        throw Error(utils::message("WebGPU delegate: ", what, " element ", i, " = ", src[i],
                                   " does not fit the graph's int32"));
      }
      narrow[i] = static_cast<int32_t>(src[i]);
    }
    graph.copy_in(ref, narrow.data(), narrow.size() * sizeof(int32_t));
  } else {
    graph.copy_in(ref, data, numel * dtype_size(host));
  }
}

void copy_out_host(WebGPUGraph& graph, ValueRef ref, DType host, void* data,
                   const std::string& what) {
  const Tensor& g = graph.get_tensor(ref);
  check_host_dtype(host, g.dtype, what);
  const size_t numel = static_cast<size_t>(g.numel());
  if (halves(host, g.dtype)) {
    std::vector<uint16_t> half(numel);
    graph.copy_out(ref, half.data(), half.size() * sizeof(uint16_t));
    float* dst = static_cast<float*>(data);
    floats_from_halves(half.data(), dst, numel);
  } else if (narrows(host, g.dtype)) {
    std::vector<int32_t> narrow(numel);
    graph.copy_out(ref, narrow.data(), narrow.size() * sizeof(int32_t));
    int64_t* dst = static_cast<int64_t*>(data);
    for (size_t i = 0; i < numel; ++i) dst[i] = narrow[i];
  } else {
    graph.copy_out(ref, data, g.nbytes());
  }
}

}  // namespace webgpu_delegate
