// The loader's buffer plan (src/memory_plan.h): no device needed.
#include <cstdint>

#include "memory_plan.h"
#include "throws.h"

using webgpu_delegate::Error;
using webgpu_delegate::kNotPlanned;
using webgpu_delegate::MemoryPlan;
using webgpu_delegate::OpAliasing;
using webgpu_delegate::plan_memory;
using webgpu_delegate::PlanGraph;
using webgpu_delegate::PlanNode;

namespace {

using Buffers = std::vector<size_t>;
using Bytes = std::vector<uint64_t>;

// An op that reads `in` and writes `out`.
PlanNode op(std::vector<size_t> in, size_t out) {
  PlanNode node;
  node.tensors = std::move(in);
  node.tensors.push_back(out);
  return node;
}

// A view of `in` as `out` (e.g. view_copy).
PlanNode view(size_t in, size_t out) {
  PlanNode node = op({in}, out);
  node.aliasing = OpAliasing::OutputMayShareInput;
  node.input = in;
  node.output = out;
  return node;
}

// An op that writes `written` in place (e.g. a KV cache update) and reads `read`.
PlanNode in_place(std::vector<size_t> written, std::vector<size_t> read = {}) {
  PlanNode node;
  node.aliasing = OpAliasing::WritesInputs;
  node.tensors = read;
  node.tensors.insert(node.tensors.end(), written.begin(), written.end());
  node.written = std::move(written);
  return node;
}

}  // namespace

TEST(MemoryPlan, tensors_with_disjoint_lives_share_a_buffer) {
  // input 0 -> 1 -> 2 -> output 3: a node's input and output never share; 2 reuses 0's
  // buffer, 3 reuses 1's
  const PlanGraph graph{{64, 64, 32, 32}, {0}, {3}, {op({0}, 1), op({1}, 2), op({2}, 3)}};
  const MemoryPlan plan = plan_memory(graph);
  ASSERT_TRUE(plan.buffer_of == (Buffers{0, 1, 0, 1}));
  ASSERT_TRUE(plan.buffer_bytes == (Bytes{64, 64}));
}

TEST(MemoryPlan, graph_inputs_and_outputs_live_through_the_whole_graph) {
  // input 0 is first read at node 1, yet tensor 1 (node 0 only) may not take its buffer;
  // output 2 is last written at node 1, yet tensor 3 (node 2 only) may not take its buffer
  const PlanGraph graph{{16, 16, 16, 16}, {0}, {2}, {op({}, 1), op({0}, 2), op({}, 3)}};
  const MemoryPlan plan = plan_memory(graph);
  ASSERT_TRUE(plan.buffer_of == (Buffers{0, 1, 1, 0}));
}

TEST(MemoryPlan, a_view_shares_its_input_buffer_over_both_lives) {
  // 1 = f(0); 2 = view(1); 3 = g(0); 4 = h(2, 3). Without the view's sharing, 3 would
  // take 1's buffer (free once the view has read it); with it, 1's buffer holds 2 until
  // node 3 reads it.
  const PlanGraph graph{
      {48, 48, 48, 48, 48}, {0}, {4}, {op({0}, 1), view(1, 2), op({0}, 3), op({2, 3}, 4)}};
  const MemoryPlan plan = plan_memory(graph);
  ASSERT_TRUE(plan.buffer_of[1] == plan.buffer_of[2]);
  ASSERT_TRUE(plan.buffer_of[3] != plan.buffer_of[1]);
  ASSERT_TRUE(plan.buffer_of[3] != plan.buffer_of[0]);
  ASSERT_TRUE(plan.buffer_bytes.size() == 3);

  PlanGraph copies = graph;
  copies.nodes[1] = op({1}, 2);  // a copy, not a view
  const MemoryPlan copied = plan_memory(copies);
  ASSERT_TRUE(copied.buffer_of[1] != copied.buffer_of[2]);
}

TEST(MemoryPlan, chained_views_form_one_group_sized_by_its_largest_member) {
  // 0 -> view 1 -> view 2 -> 3 = f(2); 4 = g(3) comes after the group and reuses it
  const PlanGraph graph{
      {40, 40, 44, 8, 8}, {0}, {4}, {view(0, 1), view(1, 2), op({2}, 3), op({3}, 4)}};
  const MemoryPlan plan = plan_memory(graph);
  ASSERT_TRUE(plan.buffer_of == (Buffers{0, 0, 0, 1, 0}));
  ASSERT_TRUE(plan.buffer_bytes == (Bytes{44, 8}));
}

TEST(MemoryPlan, a_view_of_a_tensor_written_in_place_keeps_its_own_buffer) {
  // 1 = view(cache 0) is read after an in-place update of 0: sharing would show the update
  // through 1; and 5 = view(4), updated in place, must not change 4, read afterwards. The
  // update only reads 3 = view(2) (the new keys): that view shares its input's buffer.
  const PlanGraph graph{
      {32, 32, 32, 32, 32, 32, 32},
      {0, 2, 4},
      {6},
      {view(0, 1), view(2, 3), view(4, 5), in_place({0}, {3}), in_place({5}), op({1, 2, 4}, 6)}};
  const MemoryPlan plan = plan_memory(graph);
  ASSERT_TRUE(plan.buffer_of[1] != plan.buffer_of[0]);
  ASSERT_TRUE(plan.buffer_of[5] != plan.buffer_of[4]);
  ASSERT_TRUE(plan.buffer_of[3] == plan.buffer_of[2]);
}

TEST(MemoryPlan, the_largest_tensors_are_placed_first_and_size_their_buffers) {
  // 200 bytes over nodes 2..3 open buffer 0 and 100 bytes over 0..1 fit beside them; 30
  // bytes over 0..2 overlap both and open buffer 1, which 20 bytes over 3 then share
  const PlanGraph graph{
      {100, 30, 200, 20}, {}, {}, {op({}, 0), op({0}, 1), op({1}, 2), op({2}, 3)}};
  const MemoryPlan plan = plan_memory(graph);
  ASSERT_TRUE(plan.buffer_of == (Buffers{0, 1, 0, 1}));
  ASSERT_TRUE(plan.buffer_bytes == (Bytes{200, 30}));
}

TEST(MemoryPlan, an_unused_tensor_takes_no_life_of_its_own) {
  const PlanGraph graph{{16, 64, 32}, {}, {1}, {op({}, 0), op({0}, 1)}};
  const MemoryPlan plan = plan_memory(graph);
  ASSERT_TRUE(plan.buffer_bytes == (Bytes{64, 16}));
  ASSERT_TRUE(plan.buffer_of[2] == 0);
}

TEST(MemoryPlan, lives_never_overlap_in_a_buffer_on_a_long_chain_with_views) {
  // a residual stream: node i reads the output of node i - 1 and of node i - 3, and every
  // 4th node is a view
  PlanGraph graph;
  for (size_t i = 0; i < 60; ++i) {
    graph.bytes.push_back(16 * (1 + i % 7));
    if (i % 4 == 3) {
      graph.nodes.push_back(view(i - 1, i));
    } else {
      graph.nodes.push_back(op(i >= 3 ? std::vector<size_t>{i - 1, i - 3}
                                      : (i ? std::vector<size_t>{i - 1} : std::vector<size_t>{}),
                               i));
    }
  }
  graph.outputs = {59};
  const MemoryPlan plan = plan_memory(graph);
  // lives, by the nodes that name each tensor
  std::vector<std::pair<size_t, size_t>> life(60, {60, 0});
  for (size_t i = 0; i < 60; ++i) {
    for (size_t t : graph.nodes[i].tensors) life[t] = {std::min(life[t].first, i), i};
  }
  life[59].second = 60;
  auto root = [&](size_t t) {
    while (t % 4 == 3) --t;  // a view's output is its input's
    return t;
  };
  for (size_t a = 0; a < 60; ++a) {
    for (size_t b = a + 1; b < 60; ++b) {
      if (root(a) == root(b)) {
        ASSERT_TRUE(plan.buffer_of[a] == plan.buffer_of[b]);
      } else if (plan.buffer_of[a] == plan.buffer_of[b]) {
        // the two groups' lives are apart
        size_t first_a = 60, last_a = 0, first_b = 60, last_b = 0;
        for (size_t t = 0; t < 60; ++t) {
          if (root(t) == root(a))
            first_a = std::min(first_a, life[t].first), last_a = std::max(last_a, life[t].second);
          if (root(t) == root(b))
            first_b = std::min(first_b, life[t].first), last_b = std::max(last_b, life[t].second);
        }
        ASSERT_TRUE(last_a < first_b || last_b < first_a);
      }
    }
  }
  ASSERT_TRUE(plan.buffer_bytes.size() <= 6);
}

TEST(MemoryPlan, a_tensor_beyond_the_planned_ones_is_an_error) {
  ASSERT_THROWS_WITH(Error, plan_memory(PlanGraph{{4}, {}, {}, {op({0}, 3)}}),
                     "WebGPU memory plan: node 0 names tensor 3, beyond the 1 planned");
  ASSERT_THROWS_WITH(Error, plan_memory(PlanGraph{{4}, {2}, {}, {}}),
                     "a graph input names tensor 2, beyond the 1 planned");
}
