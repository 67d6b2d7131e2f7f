// Which buffer each planned tensor of a loaded graph lives in. Tensors whose lives do not
// overlap share a buffer, and a view (an op registered OutputMayShareInput) puts its output
// in its input's buffer, so its handler records no copy. Device-free, so the rule is
// unit-tested on its own (tests/native/test_memory_plan.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "webgpu_delegate/graph.h"

namespace webgpu_delegate {

constexpr size_t kNotPlanned = std::numeric_limits<size_t>::max();

// One node of the chain, by the planned tensors it names (indices into PlanGraph::bytes).
struct PlanNode {
  OpAliasing aliasing = OpAliasing::None;
  std::vector<size_t> tensors;  // every planned tensor it names: arguments, list items
  std::vector<size_t> written;  // WritesInputs: the planned tensors it writes in place
  // An OutputMayShareInput op's first and last arguments, where the loader lets them share
  // (both planned, one dtype); kNotPlanned otherwise.
  size_t input = kNotPlanned;
  size_t output = kNotPlanned;
};

struct PlanGraph {
  std::vector<uint64_t> bytes;  // per planned tensor
  std::vector<size_t> inputs;   // planned tensors the host writes before the first node
  std::vector<size_t> outputs;  // planned tensors the host reads after the last node
  std::vector<PlanNode> nodes;
};

struct MemoryPlan {
  std::vector<size_t> buffer_of;       // per planned tensor
  std::vector<uint64_t> buffer_bytes;  // per buffer: its largest tensor
};

// A tensor lives from its first use to its last (a graph input from before the first node,
// a graph output to after the last). A view's input and output form one group, living over
// both lives, unless a node writes either of them in place (OpAliasing::WritesInputs,
// PlanNode::written): that write must not show through the other. (Tensors such a node
// only reads or outputs may be views.) Groups are placed
// largest first (ties in tensor order), each in the first buffer whose groups all live
// apart from it, else in a new buffer of its size (ExecuTorch's greedy plan, over groups).
MemoryPlan plan_memory(const PlanGraph& graph);

}  // namespace webgpu_delegate
