// @generated from codegen/specs/copy/copy.py - DO NOT EDIT.
// Op view_copy: aten.view_copy.default

#include <cstddef>
#include <cstdint>
#include <vector>

#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "view_copy";

// The argument values, checked and turned into what each dispatch needs.
struct ViewCopyPlan {
  uint64_t nbytes0 = 0;
};

ViewCopyPlan plan_view_copy(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 3);
  const Tensor& self = graph.get_tensor(args[0]);
  const std::vector<int64_t> size = utils::read_int_list(graph, args[1], kOp, "size");
  const Tensor& out = graph.get_tensor(args[2]);
  utils::check_dtype(kOp, "self", self,
                     {DType::Float32, DType::Float16, DType::Int32, DType::Bool});
  utils::check_dtype(kOp, "out", out, {DType::Float32, DType::Float16, DType::Int32, DType::Bool});
  if ((utils::prod(utils::infer_size(size, self.numel())) != self.numel()) ||
      ((utils::length(size) != 0) && (utils::min_of(utils::infer_size(size, self.numel())) < 0))) {
    utils::fail(kOp, "size", "does not match the input's element count", utils::format_value(size),
                "sizes whose product is " + utils::format_value(self.numel()));
  }
  utils::check_output_dims(kOp, "out", out, utils::infer_size(size, self.numel()));

  ViewCopyPlan plan;
  plan.nbytes0 = utils::mul(
      (out.dtype == DType::Bool) ? 1 : ((out.dtype == DType::Float16) ? 2 : 4), out.numel());
  return plan;
}

// Gives the outputs the shape the op's formula computes from the live inputs.
void resize_view_copy_outputs(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const Tensor& self = graph.get_tensor(args[0]);
  const std::vector<int64_t> size = utils::read_int_list(graph, args[1], kOp, "size");
  Tensor& out = graph.get_tensor(args[2]);
  utils::resize_output(kOp, "out", out, utils::infer_size(size, self.numel()));
}

void add_view_copy(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const ViewCopyPlan built = plan_view_copy(graph, args);
  // A dispatch cannot read and write one buffer; an aliased output needs no copy.
  const bool copy0 = !graph.same_buffer(args[0], args[2]);
  const DispatchId dispatch0 = copy0 ? graph.add_copy(args[0], args[2], built.nbytes0) : 0;
  graph.add_resize_hook([args, dispatch0, copy0](WebGPUGraph& graph) {
    resize_view_copy_outputs(graph, args);
    const ViewCopyPlan plan = plan_view_copy(graph, args);
    if (copy0) {
      graph.update_copy(dispatch0, plan.nbytes0);
    }
  });
}

}  // namespace
}  // namespace webgpu_delegate

WEBGPU_REGISTER_OP(aten.view_copy.default, webgpu_delegate::add_view_copy, OutputMayShareInput);
