// @generated from codegen/specs/symint/symint.py - DO NOT EDIT.
// Op sym_sub: aten.sub.int

#include <cstddef>
#include <cstdint>
#include <vector>

#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "sym_sub";

// The argument values, checked and turned into what each dispatch needs.
struct SymSubPlan {};

SymSubPlan plan_sym_sub(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 3);
  const int64_t a = utils::read_int(graph, args[0], kOp, "a", true);
  const int64_t b = utils::read_int(graph, args[1], kOp, "b", true);

  SymSubPlan plan;
  graph.set_symint(args[2], utils::sub(a, b));
  return plan;
}

void add_sym_sub(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  plan_sym_sub(graph, args);
  graph.add_resize_hook([args](WebGPUGraph& graph) { plan_sym_sub(graph, args); });
}

}  // namespace
}  // namespace webgpu_delegate

WEBGPU_REGISTER_OP(aten.sub.int, webgpu_delegate::add_sym_sub, None);
