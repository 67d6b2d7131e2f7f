// @generated from codegen/specs/copy/copy.py - DO NOT EDIT.
// Op alias_copy: aten.alias_copy.default

#include <cstddef>
#include <cstdint>
#include <vector>

#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "alias_copy";

// The argument values, checked and turned into what each dispatch needs.
struct AliasCopyPlan {
  uint64_t nbytes0 = 0;
};

AliasCopyPlan plan_alias_copy(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 2);
  const Tensor& self = graph.get_tensor(args[0]);
  const Tensor& out = graph.get_tensor(args[1]);
  utils::check_dtype(kOp, "self", self,
                     {DType::Float32, DType::Float16, DType::Int32, DType::Bool});
  utils::check_dtype(kOp, "out", out, {DType::Float32, DType::Float16, DType::Int32, DType::Bool});
  utils::check_output_dims(kOp, "out", out, self.dims());

  AliasCopyPlan plan;
  plan.nbytes0 = utils::mul(
      (out.dtype == DType::Bool) ? 1 : ((out.dtype == DType::Float16) ? 2 : 4), out.numel());
  return plan;
}

// Gives the outputs the shape the op's formula computes from the live inputs.
void resize_alias_copy_outputs(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const Tensor& self = graph.get_tensor(args[0]);
  Tensor& out = graph.get_tensor(args[1]);
  utils::resize_output(kOp, "out", out, self.dims());
}

void add_alias_copy(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const AliasCopyPlan built = plan_alias_copy(graph, args);
  // A dispatch cannot read and write one buffer; an aliased output needs no copy.
  const bool copy0 = !graph.same_buffer(args[0], args[1]);
  const DispatchId dispatch0 = copy0 ? graph.add_copy(args[0], args[1], built.nbytes0) : 0;
  graph.add_resize_hook([args, dispatch0, copy0](WebGPUGraph& graph) {
    resize_alias_copy_outputs(graph, args);
    const AliasCopyPlan plan = plan_alias_copy(graph, args);
    if (copy0) {
      graph.update_copy(dispatch0, plan.nbytes0);
    }
  });
}

}  // namespace
}  // namespace webgpu_delegate

WEBGPU_REGISTER_OP(aten.alias_copy.default, webgpu_delegate::add_alias_copy, OutputMayShareInput);
