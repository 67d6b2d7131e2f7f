// Constants of a WebGPUGraph and the commands that compute constants from them: which
// commands those are (constant_plan.h), running them once, and counting runs.
#include "graph_impl.h"

namespace webgpu_delegate {

void WebGPUGraph::Impl::plan_constants() {
  if (constant_plan_valid) return;
  if (!released.empty()) {
    throw Error(utils::message(
        "WebGPU graph: the constant dispatches would be planned again (a buffer they "
        "touch was written, or a dispatch was added), but ",
        released.size(),
        " buffers only they touched were freed after load (release_consumed_constants)"));
  }
  std::vector<CommandAccess> accesses;
  accesses.reserve(commands.size());
  for (const Command& c : commands) accesses.push_back(c.access);
  const std::vector<bool> constant = constants_once
                                         ? plan_constant_commands(accesses, constants, host_written)
                                         : std::vector<bool>(commands.size(), false);
  constant_touched.clear();
  for (size_t i = 0; i < commands.size(); ++i) {
    Command& c = commands[i];
    c.constant = constant[i] && !c.per_execute;
    c.stale = true;  // a new plan may rest on changed inputs: run once more
    if (!c.constant) continue;
    constant_touched.insert(c.access.reads.begin(), c.access.reads.end());
    constant_touched.insert(c.access.writes.begin(), c.access.writes.end());
  }
  constant_plan_valid = true;
}

void WebGPUGraph::Impl::note_host_write(BufferId buffer) {
  host_written.insert(buffer);
  if (constant_touched.count(buffer)) constant_plan_valid = false;
}

void WebGPUGraph::mark_constant(ValueRef tensor) {
  impl_->check_not_released(tensor, "mark_constant");
  impl_->constants.insert(get_tensor(tensor).buffer);
  impl_->constant_plan_valid = false;
}

bool WebGPUGraph::is_constant(ValueRef tensor) const {
  return impl_->constants.count(get_tensor(tensor).buffer) > 0;
}

void WebGPUGraph::set_constant_dispatches_once(bool once) {
  if (impl_->constants_once == once) return;
  if (!impl_->released.empty()) {
    throw Error(
        "WebGPU graph: set_constant_dispatches_once after release_consumed_constants "
        "(the constant dispatches cannot run again: their inputs were freed)");
  }
  impl_->constants_once = once;
  impl_->constant_plan_valid = false;
}

void WebGPUGraph::Impl::check_not_released(ValueRef tensor, const char* what) const {
  const Tensor& t = get_as<Tensor>(tensor, ValueType::Tensor);
  if (released.count(t.buffer)) {
    throw Error(utils::message("WebGPU graph: ", what, " of value ", tensor, " (",
                               describe_tensor(t),
                               "): its buffer was freed after load (release_consumed_constants)"));
  }
}

uint64_t WebGPUGraph::release_consumed_constants(const std::vector<ValueRef>& keep) {
  Impl& g = *impl_;
  g.plan_constants();
  std::set<BufferId> kept;
  for (ValueRef r : keep) kept.insert(get_tensor(r).buffer);
  // per buffer the commands touch: whether every one of them is constant and has run
  std::map<BufferId, bool> only_constant;
  for (const Command& c : g.commands) {
    for (const auto* list : {&c.access.reads, &c.access.writes}) {
      for (BufferId b : *list) {
        auto it = only_constant.emplace(b, true).first;
        it->second = it->second && c.constant && !c.stale;
      }
    }
  }
  uint64_t freed = 0;
  for (const auto& [b, only] : only_constant) {
    if (!only || kept.count(b) || g.released.count(b)) continue;
    WGPUBuffer buffer = static_cast<WGPUBuffer>(const_cast<void*>(b));
    freed += wgpuBufferGetSize(buffer);
    wgpuBufferDestroy(buffer);
    g.released.insert(b);
  }
  g.released_bytes += freed;
  return freed;
}

uint64_t WebGPUGraph::released_constant_bytes() const {
  return impl_->released_bytes;
}

size_t WebGPUGraph::num_constant_dispatches() {
  impl_->plan_constants();
  size_t n = 0;
  for (const Command& c : impl_->commands) n += c.constant ? 1 : 0;
  return n;
}

std::map<std::string, uint64_t> WebGPUGraph::kernel_runs() const {
  std::map<std::string, uint64_t> runs;
  for (const Command& c : impl_->commands) runs[c.pipeline->shader->name] += c.runs;
  return runs;
}

}  // namespace webgpu_delegate
