// @generated from codegen/specs/copy/copy.py - DO NOT EDIT.
// Op unsqueeze_copy: aten.unsqueeze_copy.default

#include <cstddef>
#include <cstdint>
#include <vector>

#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "unsqueeze_copy";

// The argument values, checked and turned into what each dispatch needs.
struct UnsqueezeCopyPlan {
  uint64_t nbytes0 = 0;
};

UnsqueezeCopyPlan plan_unsqueeze_copy(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 3);
  const Tensor& self = graph.get_tensor(args[0]);
  const int64_t dim = utils::read_int(graph, args[1], kOp, "dim", false);
  const Tensor& out = graph.get_tensor(args[2]);
  utils::check_dtype(kOp, "self", self,
                     {DType::Float32, DType::Float16, DType::Int32, DType::Bool});
  utils::check_dtype(kOp, "out", out, {DType::Float32, DType::Float16, DType::Int32, DType::Bool});
  const int64_t at = utils::let(
      kOp, "at = dim + self.rank + 1 if dim < 0 else dim",
      [&]() -> int64_t { return (dim < 0) ? utils::add(utils::add(dim, self.rank()), 1) : dim; });
  if ((dim < utils::sub(-self.rank(), 1)) || (dim > self.rank())) {
    utils::fail(
        kOp, "dim", "is out of range", utils::format_value(dim),
        utils::format_value(utils::sub(-self.rank(), 1)) + ".." + utils::format_value(self.rank()));
  }
  utils::check_output_dims(
      kOp, "out", out,
      utils::concat(utils::concat(utils::slice(self.dims(), 0, at), std::vector<int64_t>{1}),
                    utils::slice(self.dims(), at, INT64_MAX)));

  UnsqueezeCopyPlan plan;
  plan.nbytes0 = utils::mul(
      (out.dtype == DType::Bool) ? 1 : ((out.dtype == DType::Float16) ? 2 : 4), out.numel());
  return plan;
}

// Gives the outputs the shape the op's formula computes from the live inputs.
void resize_unsqueeze_copy_outputs(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const Tensor& self = graph.get_tensor(args[0]);
  const int64_t dim = utils::read_int(graph, args[1], kOp, "dim", false);
  Tensor& out = graph.get_tensor(args[2]);
  const int64_t at = utils::let(
      kOp, "at = dim + self.rank + 1 if dim < 0 else dim",
      [&]() -> int64_t { return (dim < 0) ? utils::add(utils::add(dim, self.rank()), 1) : dim; });
  utils::resize_output(
      kOp, "out", out,
      utils::concat(utils::concat(utils::slice(self.dims(), 0, at), std::vector<int64_t>{1}),
                    utils::slice(self.dims(), at, INT64_MAX)));
}

void add_unsqueeze_copy(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const UnsqueezeCopyPlan built = plan_unsqueeze_copy(graph, args);
  // A dispatch cannot read and write one buffer; an aliased output needs no copy.
  const bool copy0 = !graph.same_buffer(args[0], args[2]);
  const DispatchId dispatch0 = copy0 ? graph.add_copy(args[0], args[2], built.nbytes0) : 0;
  graph.add_resize_hook([args, dispatch0, copy0](WebGPUGraph& graph) {
    resize_unsqueeze_copy_outputs(graph, args);
    const UnsqueezeCopyPlan plan = plan_unsqueeze_copy(graph, args);
    if (copy0) {
      graph.update_copy(dispatch0, plan.nbytes0);
    }
  });
}

}  // namespace
}  // namespace webgpu_delegate

WEBGPU_REGISTER_OP(aten.unsqueeze_copy.default, webgpu_delegate::add_unsqueeze_copy,
                   OutputMayShareInput);
