#include "memory_plan.h"

#include <algorithm>
#include <numeric>
#include <set>
#include <string>

namespace webgpu_delegate {
namespace {

// A set of tensors that live in one buffer, and the steps over which it is live (none
// when first > last).
struct Group {
  uint64_t bytes = 0;
  int64_t first = std::numeric_limits<int64_t>::max();
  int64_t last = std::numeric_limits<int64_t>::min();
  std::vector<size_t> members;
};

size_t find_root(std::vector<size_t>& parent, size_t i) {
  while (parent[i] != i) i = parent[i] = parent[parent[i]];
  return i;
}

void check_tensor(const PlanGraph& graph, size_t t, const std::string& where) {
  if (t >= graph.bytes.size()) {
    throw Error("WebGPU memory plan: " + where + " names tensor " + std::to_string(t) +
                ", beyond the " + std::to_string(graph.bytes.size()) + " planned");
  }
}

// Each tensor's first and last step: -1 for a graph input, nodes.size() for an output.
std::vector<Group> lives(const PlanGraph& graph) {
  std::vector<Group> tensors(graph.bytes.size());
  auto use = [&](size_t t, int64_t step, const std::string& where) {
    check_tensor(graph, t, where);
    tensors[t].first = std::min(tensors[t].first, step);
    tensors[t].last = std::max(tensors[t].last, step);
  };
  for (size_t t : graph.inputs) use(t, -1, "a graph input");
  const int64_t end = static_cast<int64_t>(graph.nodes.size());
  for (size_t t : graph.outputs) use(t, end, "a graph output");
  for (int64_t i = 0; i < end; ++i) {
    for (size_t t : graph.nodes[i].tensors) use(t, i, "node " + std::to_string(i));
  }
  for (size_t t = 0; t < tensors.size(); ++t) {
    tensors[t].bytes = graph.bytes[t];
    tensors[t].members = {t};
  }
  return tensors;
}

// The tensors joined by views, as groups.
std::vector<Group> groups_of(const PlanGraph& graph) {
  std::set<size_t> written_in_place;
  for (const PlanNode& node : graph.nodes) {
    if (node.aliasing == OpAliasing::WritesInputs) {
      written_in_place.insert(node.tensors.begin(), node.tensors.end());
    }
  }
  std::vector<size_t> parent(graph.bytes.size());
  std::iota(parent.begin(), parent.end(), size_t{0});
  for (size_t i = 0; i < graph.nodes.size(); ++i) {
    const PlanNode& node = graph.nodes[i];
    if (node.aliasing != OpAliasing::OutputMayShareInput || node.input == kNotPlanned ||
        node.output == kNotPlanned || written_in_place.count(node.input) ||
        written_in_place.count(node.output)) {
      continue;
    }
    check_tensor(graph, node.input, "node " + std::to_string(i) + "'s input");
    check_tensor(graph, node.output, "node " + std::to_string(i) + "'s output");
    const size_t a = find_root(parent, node.input), b = find_root(parent, node.output);
    parent[std::max(a, b)] = std::min(a, b);
  }
  const std::vector<Group> tensors = lives(graph);
  std::vector<Group> groups;
  std::vector<size_t> group_of_root(tensors.size(), kNotPlanned);
  for (size_t t = 0; t < tensors.size(); ++t) {
    size_t& g = group_of_root[find_root(parent, t)];
    if (g == kNotPlanned) {
      g = groups.size();
      groups.emplace_back();
    }
    Group& group = groups[g];
    group.bytes = std::max(group.bytes, tensors[t].bytes);
    group.first = std::min(group.first, tensors[t].first);
    group.last = std::max(group.last, tensors[t].last);
    group.members.push_back(t);
  }
  return groups;
}

}  // namespace

MemoryPlan plan_memory(const PlanGraph& graph) {
  const std::vector<Group> groups = groups_of(graph);
  std::vector<size_t> order(groups.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return groups[a].bytes > groups[b].bytes;
  });

  MemoryPlan plan;
  plan.buffer_of.assign(graph.bytes.size(), 0);
  std::vector<std::vector<const Group*>> held;  // per buffer: the groups placed in it
  for (size_t g : order) {
    const Group& group = groups[g];
    auto apart = [&](const Group* other) {
      return other->last < group.first || group.last < other->first;
    };
    size_t buffer = 0;
    while (buffer < held.size() && !std::all_of(held[buffer].begin(), held[buffer].end(), apart)) {
      ++buffer;
    }
    if (buffer == held.size()) {
      held.emplace_back();
      plan.buffer_bytes.push_back(group.bytes);  // its largest: groups come largest first
    }
    held[buffer].push_back(&group);
    for (size_t t : group.members) plan.buffer_of[t] = buffer;
  }
  return plan;
}

}  // namespace webgpu_delegate
