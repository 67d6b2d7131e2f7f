// @generated from codegen/specs/symint/symint.py - DO NOT EDIT.
// Op sym_size: aten.sym_size.int

#include <cstddef>
#include <cstdint>
#include <vector>

#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "sym_size";

// The argument values, checked and turned into what each dispatch needs.
struct SymSizePlan {};

SymSizePlan plan_sym_size(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 3);
  const Tensor& self = graph.get_tensor(args[0]);
  const int64_t dim = utils::read_int(graph, args[1], kOp, "dim", false);
  utils::check_dtype(kOp, "self", self,
                     {DType::Float32, DType::Float16, DType::Int32, DType::Int64, DType::Bool,
                      DType::UInt8, DType::Int8});
  if ((dim < -self.rank()) || (dim >= self.rank())) {
    utils::fail(kOp, "dim", "is out of range", utils::format_value(dim),
                "-" + utils::format_value(self.rank()) + ".." +
                    utils::format_value(utils::sub(self.rank(), 1)));
  }

  SymSizePlan plan;
  graph.set_symint(args[2], self.dim(dim));
  return plan;
}

void add_sym_size(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  plan_sym_size(graph, args);
  graph.add_resize_hook([args](WebGPUGraph& graph) { plan_sym_size(graph, args); });
}

}  // namespace
}  // namespace webgpu_delegate

WEBGPU_REGISTER_OP(aten.sym_size.int, webgpu_delegate::add_sym_size, None);
