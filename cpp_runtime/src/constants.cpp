// Constants of a WebGPUGraph and the commands that compute constants from them: which
// commands those are (constant_plan.h), running them once, and counting runs.
#include "graph_impl.h"

namespace webgpu_delegate {

void WebGPUGraph::Impl::plan_constants() {
  if (constant_plan_valid) return;
  std::vector<CommandAccess> accesses;
  accesses.reserve(commands.size());
  for (const Command& c : commands) accesses.push_back(c.access);
  const std::vector<bool> constant = constants_once
                                         ? plan_constant_commands(accesses, constants, host_written)
                                         : std::vector<bool>(commands.size(), false);
  constant_touched.clear();
  for (size_t i = 0; i < commands.size(); ++i) {
    Command& c = commands[i];
    c.constant = constant[i];
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
  impl_->constants.insert(get_tensor(tensor).buffer);
  impl_->constant_plan_valid = false;
}

bool WebGPUGraph::is_constant(ValueRef tensor) const {
  return impl_->constants.count(get_tensor(tensor).buffer) > 0;
}

void WebGPUGraph::set_constant_dispatches_once(bool once) {
  if (impl_->constants_once == once) return;
  impl_->constants_once = once;
  impl_->constant_plan_valid = false;
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
