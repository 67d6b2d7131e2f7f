// The operator chain of a VK00 graph as the delegate builds it: the Vulkan partitioner's
// calls in order, with the patterns a fused operator of the delegate computes in one
// dispatch (codegen/graph/fused_ops.py, a spec each) rewritten into a call of it. The
// .pte keeps the partitioner's operators (what `opgen coverage` counts); the rewrite
// happens at load, so every executor that builds the graph runs the same chain.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "webgpu_delegate/graph.h"

namespace vkgraph {
struct VkGraph;
}

namespace webgpu_delegate::vk {

struct ChainCall {
  uint32_t node = 0;          // its chain entry (a fused call: the pattern's last one)
  std::string name;           // the registry target (op_target of the serialized name)
  std::vector<int32_t> args;  // value ids, the output last
  // A fused op with several outputs: their value ids, passed as one value list after
  // `args` (the graph holds no list of them).
  std::vector<int32_t> outputs;
};

// The chain's calls. Rewritten, where each intermediate tensor has no reader outside the
// pattern and the operands have one shape and dtype:
//   sigmoid(x) -> s; mul(x, s) -> t; mul(t, u) -> y   (SiLU-gated product, any operand
//   order)  =>  webgpu.silu_mul(x, u) -> y, at the second mul's place;
//   add(x, r, alpha 1) -> h; rms_norm(h, w, eps) -> n, nothing between them reading h (h
//   may have later readers)  =>  webgpu.add_rms_norm(x, r, w, eps) -> [h, n], at the
//   norm's place;
//   three et_vk.linear_q4gsw of one input x, one group size, no bias (q, k, v), their
//   weights made before the first, x named by nothing else between them  =>
//   webgpu.linear_q4gsw_qkv(x, w_q, s_q, w_k, s_k, w_v, s_v, group_size) -> [q, k, v], at
//   the first's place, where the device binds kQkvStorageBuffers per shader stage
//   (WebGPU's default limit is 8);
// then, on that chain:
//   linear_q4gsw(x, w_g, s_g, gs) -> g; linear_q4gsw(x, w_u, s_u, gs) -> u (no bias), each
//   read only by silu_mul(g, u) -> y (directly or through an identity view_copy)  =>
//   webgpu.linear_q4gsw_silu_mul(x, w_g, s_g, w_u, s_u, gs) -> y, at the silu_mul's place.
std::vector<ChainCall> chain_calls(const vkgraph::VkGraph& graph, const Limits& limits);

// The storage buffers linear_q4gsw_qkv's GEMV binds: the input, three weights and
// scales, three outputs.
constexpr uint32_t kQkvStorageBuffers = 10;

}  // namespace webgpu_delegate::vk
