// Float tensors in and out of a test graph, and a ramp of values to fill them with.
#pragma once

#include <vector>

#include "webgpu_delegate/graph.h"

inline std::vector<float> iota(size_t n, float start = 0.0f, float step = 1.0f) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = start + step * static_cast<float>(i);
  return v;
}

inline std::vector<float> read(webgpu_delegate::WebGPUGraph& g, webgpu_delegate::ValueRef t) {
  std::vector<float> out(static_cast<size_t>(g.get_tensor(t).numel()));
  g.copy_out(t, out.data(), out.size() * sizeof(float));
  return out;
}

inline void write(webgpu_delegate::WebGPUGraph& g, webgpu_delegate::ValueRef t,
                  const std::vector<float>& v) {
  g.copy_in(t, v.data(), v.size() * sizeof(float));
}
