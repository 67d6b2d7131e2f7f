// host_io.h: the host dtype rule and the narrowing / half conversions of graph IO.
#include "webgpu_delegate/host_io.h"

#include <cstdint>
#include <limits>
#include <vector>

#include "webgpu_delegate/half.h"
#include "webgpu_delegate/message.h"

namespace webgpu_delegate {
namespace {

bool narrows(DType host, DType graph) { return host == DType::Int64 && graph == DType::Int32; }
bool halves(DType host, DType graph) { return host == DType::Float32 && graph == DType::Float16; }

}  // namespace

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
    for (size_t i = 0; i < numel; ++i) half[i] = half_from_float(src[i]);
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
    for (size_t i = 0; i < numel; ++i) dst[i] = float_from_half(half[i]);
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
