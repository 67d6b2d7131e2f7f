// @generated from codegen/specs/symint/symint.py - DO NOT EDIT.
// Op sym_mul: aten.mul.int

#include <cstddef>
#include <cstdint>
#include <vector>

#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "sym_mul";

// The argument values, checked and turned into what each dispatch needs.
struct SymMulPlan {};

SymMulPlan plan_sym_mul(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 3);
  const int64_t a = utils::read_int(graph, args[0], kOp, "a", true);
  const int64_t b = utils::read_int(graph, args[1], kOp, "b", true);

  SymMulPlan plan;
  graph.set_symint(args[2], utils::mul(a, b));
  return plan;
}

void add_sym_mul(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  plan_sym_mul(graph, args);
  graph.add_resize_hook([args](WebGPUGraph& graph) { plan_sym_mul(graph, args); });
}

}  // namespace
}  // namespace webgpu_delegate

WEBGPU_REGISTER_OP(aten.mul.int, webgpu_delegate::add_sym_mul, None);
