// @generated from codegen/specs/copy/copy.py - DO NOT EDIT.
// Op clone_dim_order: dim_order_ops._clone_dim_order.default

#include <cstddef>
#include <cstdint>
#include <vector>

#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "clone_dim_order";

// The argument values, checked and turned into what each dispatch needs.
struct CloneDimOrderPlan {
  uint64_t nbytes0 = 0;
};

CloneDimOrderPlan plan_clone_dim_order(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 4);
  const Tensor& self = graph.get_tensor(args[0]);
  const std::vector<int64_t> dim_order =
      graph.is_null(args[2]) ? std::vector<int64_t>{}
                             : utils::read_int_list(graph, args[2], kOp, "dim_order");
  const Tensor& out = graph.get_tensor(args[3]);
  utils::check_dtype(kOp, "self", self,
                     {DType::Float32, DType::Float16, DType::Int32, DType::Bool});
  utils::check_dtype(kOp, "out", out, {DType::Float32, DType::Float16, DType::Int32, DType::Bool});
  if ((utils::length(dim_order) != 0) && (dim_order != utils::range(self.rank()))) {
    utils::fail(kOp, "dim_order", "is not the contiguous order", utils::format_value(dim_order),
                "None or " + utils::format_value(utils::range(self.rank())));
  }
  utils::check_output_dims(kOp, "out", out, self.dims());

  CloneDimOrderPlan plan;
  plan.nbytes0 = utils::mul(
      (out.dtype == DType::Bool) ? 1 : ((out.dtype == DType::Float16) ? 2 : 4), out.numel());
  return plan;
}

// Gives the outputs the shape the op's formula computes from the live inputs.
void resize_clone_dim_order_outputs(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const Tensor& self = graph.get_tensor(args[0]);
  Tensor& out = graph.get_tensor(args[3]);
  utils::resize_output(kOp, "out", out, self.dims());
}

void add_clone_dim_order(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const CloneDimOrderPlan built = plan_clone_dim_order(graph, args);
  // A dispatch cannot read and write one buffer; an aliased output needs no copy.
  const bool copy0 = !graph.same_buffer(args[0], args[3]);
  const DispatchId dispatch0 = copy0 ? graph.add_copy(args[0], args[3], built.nbytes0) : 0;
  graph.add_resize_hook([args, dispatch0, copy0](WebGPUGraph& graph) {
    resize_clone_dim_order_outputs(graph, args);
    const CloneDimOrderPlan plan = plan_clone_dim_order(graph, args);
    if (copy0) {
      graph.update_copy(dispatch0, plan.nbytes0);
    }
  });
}

}  // namespace
}  // namespace webgpu_delegate

WEBGPU_REGISTER_OP(dim_order_ops._clone_dim_order.default, webgpu_delegate::add_clone_dim_order,
                   OutputMayShareInput);
