#include <algorithm>

#include "webgpu_delegate/graph.h"

namespace webgpu_delegate {

OperatorRegistry& OperatorRegistry::instance() {
  static OperatorRegistry registry;
  return registry;
}

void OperatorRegistry::register_op(const std::string& target, OpHandler handler,
                                   const char* registrant, OpAliasing aliasing,
                                   std::vector<size_t> written_args) {
  const std::string who = registrant ? registrant : "<unnamed>";
  if (target.empty())
    throw Error(utils::message("WebGPU registry: ", who, " registers an empty target name"));
  if (handler == nullptr) {
    throw Error(utils::message("WebGPU registry: ", who, " registers a null handler for ", target));
  }
  if ((aliasing == OpAliasing::WritesInputs) == written_args.empty()) {
    throw Error(utils::message("WebGPU registry: ", who, " registers ", target,
                               aliasing == OpAliasing::WritesInputs
                                   ? " as writing its arguments in place, but names none"
                                   : " with arguments written in place, but not as WritesInputs"));
  }
  for (const auto& [name, entry] : entries_) {
    if (name == target) {
      throw Error(utils::message("WebGPU registry: ", target, " is registered twice, by ",
                                 entry.registrant, " and by ", who,
                                 " (one registration per target)"));
    }
  }
  entries_.emplace_back(target, Entry{handler, who, aliasing, std::move(written_args)});
}

bool OperatorRegistry::has_op(const std::string& target) const {
  return std::any_of(entries_.begin(), entries_.end(),
                     [&](const auto& e) { return e.first == target; });
}

const OperatorRegistry::Entry& OperatorRegistry::entry(const std::string& target) const {
  for (const auto& [name, entry] : entries_) {
    if (name == target) return entry;
  }
  throw Error(utils::message("WebGPU registry: no op registered for target '", target, "'"));
}

OpHandler OperatorRegistry::get_op(const std::string& target) const {
  return entry(target).handler;
}

OpAliasing OperatorRegistry::aliasing(const std::string& target) const {
  return entry(target).aliasing;
}

const std::vector<size_t>& OperatorRegistry::written_args(const std::string& target) const {
  return entry(target).written_args;
}

std::vector<std::string> OperatorRegistry::targets() const {
  std::vector<std::string> names;
  for (const auto& e : entries_) names.push_back(e.first);
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace webgpu_delegate
