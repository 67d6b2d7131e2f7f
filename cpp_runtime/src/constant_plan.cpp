#include "constant_plan.h"

#include <algorithm>
#include <map>

namespace webgpu_delegate {

std::vector<bool> plan_constant_commands(const std::vector<CommandAccess>& commands,
                                         const std::set<BufferId>& constants,
                                         const std::set<BufferId>& host_written) {
  std::map<BufferId, size_t> writers;
  std::map<BufferId, size_t> first_use;  // the first command that reads or writes it
  for (size_t i = 0; i < commands.size(); ++i) {
    for (BufferId b : commands[i].writes) ++writers[b];
    for (const auto* list : {&commands[i].reads, &commands[i].writes}) {
      for (BufferId b : *list) first_use.emplace(b, i);
    }
  }
  auto is_constant = [&](BufferId b) { return constants.count(b) && !writers.count(b); };

  std::vector<bool> constant(commands.size(), false);
  std::set<BufferId> produced;  // written by a constant command
  for (size_t i = 0; i < commands.size(); ++i) {
    const CommandAccess& c = commands[i];
    const bool reads_constants =
        !c.reads.empty() && std::all_of(c.reads.begin(), c.reads.end(), [&](BufferId b) {
          return is_constant(b) || produced.count(b);
        });
    const bool writes_own = !c.writes_dummy && !c.writes.empty() &&
                            std::all_of(c.writes.begin(), c.writes.end(), [&](BufferId b) {
                              return writers[b] == 1 && first_use[b] == i && !constants.count(b) &&
                                     !host_written.count(b);
                            });
    if (reads_constants && writes_own) {
      constant[i] = true;
      produced.insert(c.writes.begin(), c.writes.end());
    }
  }
  return constant;
}

}  // namespace webgpu_delegate
