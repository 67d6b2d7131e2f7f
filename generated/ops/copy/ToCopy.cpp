// @generated from codegen/specs/copy/copy.py - DO NOT EDIT.
// Op to_copy: aten._to_copy.default

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ops/copy/convert_wgsl.h"
#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "to_copy";

struct ToCopyParams {
  uint32_t num_elements;
  uint32_t _pad0[3];
};
static_assert(offsetof(ToCopyParams, num_elements) == 0,
              "ToCopyParams.num_elements must sit at WGSL offset 0");
static_assert(sizeof(ToCopyParams) == 16, "ToCopyParams must match the WGSL struct size 16");

const KernelSource kConvertKernel{
    "convert",        kConvertWGSL,
    "main",           {kConvertWorkgroupSizeX, kConvertWorkgroupSizeY, kConvertWorkgroupSizeZ},
    kConvertBindings, kConvertBindingCount};

// The argument values, checked and turned into what each dispatch needs.
struct ToCopyPlan {
  bool run0 = true;
  uint64_t nbytes0 = 0;
  bool run1 = true;
  ToCopyParams params1{};
  utils::Grid grid1;
  std::vector<OverrideValue> overrides1;
};

ToCopyPlan plan_to_copy(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 8);
  const Tensor& self = graph.get_tensor(args[0]);
  const Tensor& out = graph.get_tensor(args[7]);
  utils::check_dtype(kOp, "self", self,
                     {DType::Float32, DType::Float16, DType::Int32, DType::Bool});
  utils::check_dtype(kOp, "out", out, {DType::Float32, DType::Float16, DType::Int32, DType::Bool});
  utils::check_output_dims(kOp, "out", out, self.dims());

  ToCopyPlan plan;
  plan.run0 = self.dtype == out.dtype;
  plan.nbytes0 = utils::mul(
      (out.dtype == DType::Bool) ? 1 : ((out.dtype == DType::Float16) ? 2 : 4), out.numel());
  plan.run1 = self.dtype != out.dtype;
  if (plan.run1) {
    plan.params1.num_elements = utils::to_u32(out.numel(), kOp, "num_elements");
    plan.grid1 =
        utils::elementwise_grid(utils::ceil_div(out.numel(), 4), kConvertKernel.workgroup_size[0],
                                graph.limits().max_workgroups_per_dimension);
    plan.overrides1 = {
        {"IN_KIND",
         static_cast<double>(
             (self.dtype == DType::Float32)
                 ? 0
                 : ((self.dtype == DType::Int32) ? 1 : ((self.dtype == DType::Float16) ? 3 : 2)))},
        {"OUT_KIND",
         static_cast<double>(
             (out.dtype == DType::Float32)
                 ? 0
                 : ((out.dtype == DType::Int32) ? 1 : ((out.dtype == DType::Float16) ? 3 : 2)))}};
  }
  return plan;
}

// Gives the outputs the shape the op's formula computes from the live inputs.
void resize_to_copy_outputs(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const Tensor& self = graph.get_tensor(args[0]);
  Tensor& out = graph.get_tensor(args[7]);
  utils::resize_output(kOp, "out", out, self.dims());
}

void add_to_copy(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const ToCopyPlan built = plan_to_copy(graph, args);
  // A dispatch cannot read and write one buffer; an aliased output needs no copy.
  const bool copy0 = built.run0 && !graph.same_buffer(args[0], args[7]);
  const DispatchId dispatch0 = copy0 ? graph.add_copy(args[0], args[7], built.nbytes0) : 0;
  const DispatchId dispatch1 =
      built.run1
          ? graph.add_dispatch(kConvertKernel, built.overrides1,
                               {Binding::params(), Binding::of(args[0]), Binding::of(args[7])},
                               &built.params1, sizeof(built.params1), built.grid1)
          : 0;
  graph.add_resize_hook([args, built, dispatch0, copy0, dispatch1](WebGPUGraph& graph) {
    resize_to_copy_outputs(graph, args);
    const ToCopyPlan plan = plan_to_copy(graph, args);
    if (plan.run0 != built.run0) {
      utils::fail(kOp, "inputs", "were resized into a different set of dispatches",
                  utils::format_value(plan.run0), utils::format_value(built.run0));
    }
    if (copy0) {
      graph.update_copy(dispatch0, plan.nbytes0);
    }
    if (plan.run1 != built.run1) {
      utils::fail(kOp, "inputs", "were resized into a different set of dispatches",
                  utils::format_value(plan.run1), utils::format_value(built.run1));
    }
    if (built.run1) {
      graph.update_dispatch(dispatch1, &plan.params1, sizeof(plan.params1), plan.grid1);
    }
  });
}

}  // namespace
}  // namespace webgpu_delegate

WEBGPU_REGISTER_OP(aten._to_copy.default, webgpu_delegate::add_to_copy, None);
