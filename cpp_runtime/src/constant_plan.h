// Which recorded commands compute constants of the graph: those run once (at load, or
// again after their params change) instead of on every execute. Device-free, so the
// rule is unit-tested on its own (tests/native/test_constant_plan.cpp).
#pragma once

#include <set>
#include <vector>

namespace webgpu_delegate {

using BufferId = const void*;  // a WGPUBuffer, as an opaque identity

// The buffers a command binds, by the access its WGSL declares.
struct CommandAccess {
  std::vector<BufferId> reads;   // var<storage, read> tensors (dummies left out: never read)
  std::vector<BufferId> writes;  // var<storage, read_write> tensors
  bool writes_dummy = false;     // a dummy (shared by dispatches) at a read_write binding
};

// Command i is constant when
//  - it reads at least one tensor, and every tensor it reads is a constant (marked, and
//    written by no command) or written by an earlier constant command; and
//  - it writes at least one buffer and no dummy, and each buffer it writes is written by
//    no other command, touched by no earlier command, and neither a constant nor written
//    by the host (copy_in): its result then lives in a buffer nothing else disturbs.
// The same inputs give the same result, so running it again would change nothing.
std::vector<bool> plan_constant_commands(const std::vector<CommandAccess>& commands,
                                         const std::set<BufferId>& constants,
                                         const std::set<BufferId>& host_written);

}  // namespace webgpu_delegate
