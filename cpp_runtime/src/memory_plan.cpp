#include "memory_plan.h"

#include <algorithm>
#include <numeric>
#include <set>
#include <string>

namespace webgpu_delegate {
namespace {

// The steps over which a tensor, or a group of them, is live (none while first > last).
struct Life {
  int64_t first = std::numeric_limits<int64_t>::max();
  int64_t last = std::numeric_limits<int64_t>::min();
  void add(int64_t step) {
    first = std::min(first, step);
    last = std::max(last, step);
  }
  void add(const Life& other) {
    first = std::min(first, other.first);
    last = std::max(last, other.last);
  }
  bool apart_from(const Life& other) const { return last < other.first || other.last < first; }
};

// Tensors that live in one buffer.
struct Group {
  uint64_t bytes = 0;
  Life life;
  std::vector<size_t> members;
};

size_t find_root(std::vector<size_t>& parent, size_t i) {
  while (parent[i] != i) i = parent[i] = parent[parent[i]];
  return i;
}

// `where()` names what refers to tensor t, built only for the error.
template <typename Where>
void check_tensor(const PlanGraph& graph, size_t t, Where where) {
  if (t >= graph.bytes.size()) {
    throw Error(utils::message("WebGPU memory plan: ", where(), " names tensor ", t,
                               ", beyond the ", graph.bytes.size(), " planned"));
  }
}

// Each tensor's life: -1 for a graph input, nodes.size() for an output.
std::vector<Life> lives(const PlanGraph& graph) {
  std::vector<Life> lives(graph.bytes.size());
  for (size_t t : graph.inputs) {
    check_tensor(graph, t, [] { return std::string("a graph input"); });
    lives[t].add(-1);
  }
  const int64_t end = static_cast<int64_t>(graph.nodes.size());
  for (size_t t : graph.outputs) {
    check_tensor(graph, t, [] { return std::string("a graph output"); });
    lives[t].add(end);
  }
  for (int64_t i = 0; i < end; ++i) {
    for (size_t t : graph.nodes[i].tensors) {
      check_tensor(graph, t, [i] { return utils::message("node ", i); });
      lives[t].add(i);
    }
  }
  return lives;
}

// Each view's input and output in one group, unless a node writes either in place.
std::vector<Group> groups_of(const PlanGraph& graph) {
  std::set<size_t> written_in_place;
  for (const PlanNode& node : graph.nodes) {
    if (node.aliasing == OpAliasing::WritesInputs) {
      written_in_place.insert(node.written.begin(), node.written.end());
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
    for (size_t t : {node.input, node.output}) {
      check_tensor(graph, t, [i] { return utils::message("node ", i, "'s view"); });
    }
    const size_t a = find_root(parent, node.input), b = find_root(parent, node.output);
    parent[std::max(a, b)] = std::min(a, b);
  }
  const std::vector<Life> life = lives(graph);
  std::vector<Group> groups;
  std::vector<size_t> group_of_root(graph.bytes.size(), kNotPlanned);
  for (size_t t = 0; t < graph.bytes.size(); ++t) {
    size_t& g = group_of_root[find_root(parent, t)];
    if (g == kNotPlanned) {
      g = groups.size();
      groups.emplace_back();
    }
    Group& group = groups[g];
    group.bytes = std::max(group.bytes, graph.bytes[t]);
    group.life.add(life[t]);
    group.members.push_back(t);
  }
  return groups;
}

}  // namespace

MemoryPlan plan_memory(const PlanGraph& graph) {
  const std::vector<Group> groups = groups_of(graph);
  std::vector<size_t> order(groups.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return groups[a].bytes > groups[b].bytes; });

  MemoryPlan plan;
  plan.buffer_of.assign(graph.bytes.size(), 0);
  std::vector<std::vector<const Group*>> held;  // per buffer: the groups placed in it
  for (size_t g : order) {
    const Group& group = groups[g];
    auto apart = [&](const Group* other) { return group.life.apart_from(other->life); };
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
