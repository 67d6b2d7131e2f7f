// Tensors an op reads on the host (select_as_symint): their elements kept from copy_in,
// so the SymInts computed from them follow the host's data without a GPU readback.
#include <algorithm>
#include <cstring>

#include "graph_impl.h"

namespace webgpu_delegate {

const Tensor& WebGPUGraph::read_on_host(ValueRef tensor, const char* op, const char* arg) {
  Impl& g = *impl_;
  Tensor& t = get_tensor(tensor);
  if (g.host_read.count(tensor)) return t;
  if (g.device_written.count(tensor)) {
    throw Error(std::string("WebGPU ") + op + ": " + arg +
                " is written by a device command, and reading it on the host would wait for "
                "the GPU on every execute (got a computed tensor, expected a graph input or a "
                "constant)");
  }
  const int64_t n = utils::prod(t.max_dims);
  t.host_values.assign(static_cast<size_t>(n), 0);
  // A constant was uploaded at load: read it once, now. int32 only (the graph's int64
  // too); the handler's dtype check rejects anything else.
  if (t.dtype == DType::Int32 && is_constant(tensor) && n > 0) {
    std::vector<int32_t> data(static_cast<size_t>(t.numel()));
    copy_out(tensor, data.data(), data.size() * sizeof(int32_t));
    for (size_t i = 0; i < data.size(); ++i) t.host_values[i] = data[i];
  }
  g.host_read.insert(tensor);
  return t;
}

bool WebGPUGraph::host_values_pending() const {
  const auto& pending = impl_->resize_pending;
  return std::any_of(pending.begin(), pending.end(),
                     [&](ValueRef ref) { return impl_->host_read.count(ref) != 0; });
}

void WebGPUGraph::Impl::note_host_values(ValueRef ref, const void* data, size_t nbytes) {
  if (!host_read.count(ref)) return;
  Tensor& t = std::get<Tensor>(value(ref).data);
  if (t.dtype != DType::Int32) return;
  const size_t n = nbytes / sizeof(int32_t);
  t.host_values.assign(n, 0);
  for (size_t i = 0; i < n; ++i) {
    int32_t v;
    std::memcpy(&v, static_cast<const uint8_t*>(data) + i * sizeof v, sizeof v);
    t.host_values[i] = v;
  }
  resize_pending.insert(ref);
}

}  // namespace webgpu_delegate
