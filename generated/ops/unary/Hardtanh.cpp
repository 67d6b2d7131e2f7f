// @generated from codegen/specs/unary/unary.py - DO NOT EDIT.
// Op hardtanh: aten.hardtanh.default

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ops/unary/clamp_f16_packed_wgsl.h"
#include "ops/unary/clamp_f16_wgsl.h"
#include "ops/unary/clamp_wgsl.h"
#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "hardtanh";

struct HardtanhParams {
  uint32_t num_vec4;
  float min_value;
  float max_value;
  uint32_t has_min;
  uint32_t has_max;
  uint32_t _pad0[3];
};
static_assert(offsetof(HardtanhParams, num_vec4) == 0,
              "HardtanhParams.num_vec4 must sit at WGSL offset 0");
static_assert(offsetof(HardtanhParams, min_value) == 4,
              "HardtanhParams.min_value must sit at WGSL offset 4");
static_assert(offsetof(HardtanhParams, max_value) == 8,
              "HardtanhParams.max_value must sit at WGSL offset 8");
static_assert(offsetof(HardtanhParams, has_min) == 12,
              "HardtanhParams.has_min must sit at WGSL offset 12");
static_assert(offsetof(HardtanhParams, has_max) == 16,
              "HardtanhParams.has_max must sit at WGSL offset 16");
static_assert(sizeof(HardtanhParams) == 32, "HardtanhParams must match the WGSL struct size 32");

const KernelSource kClampF16Kernel{
    "clamp_f16",
    kClampF16WGSL,
    "main",
    {kClampF16WorkgroupSizeX, kClampF16WorkgroupSizeY, kClampF16WorkgroupSizeZ},
    kClampF16Bindings,
    kClampF16BindingCount,
    kClampF16Features};
const KernelSource kClampF16PackedKernel{
    "clamp_f16_packed",
    kClampF16PackedWGSL,
    "main",
    {kClampF16PackedWorkgroupSizeX, kClampF16PackedWorkgroupSizeY, kClampF16PackedWorkgroupSizeZ},
    kClampF16PackedBindings,
    kClampF16PackedBindingCount};
const KernelSource kClampKernel{
    "clamp",        kClampWGSL,
    "main",         {kClampWorkgroupSizeX, kClampWorkgroupSizeY, kClampWorkgroupSizeZ},
    kClampBindings, kClampBindingCount};
// Dispatch 0's kernels, in route order.
const KernelSource* const kDispatch0Kernels[] = {&kClampF16Kernel, &kClampF16PackedKernel,
                                                 &kClampKernel};

// The argument values, checked and turned into what each dispatch needs.
struct HardtanhPlan {
  size_t route0 = 0;
  HardtanhParams params0{};
  utils::Grid grid0;
  std::vector<OverrideValue> overrides0;
};

HardtanhPlan plan_hardtanh(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 4);
  const Tensor& self = graph.get_tensor(args[0]);
  const double min_val = graph.is_null(args[1]) ? -1.0 : graph.get_scalar(args[1]);
  const double max_val = graph.is_null(args[2]) ? 1.0 : graph.get_scalar(args[2]);
  const Tensor& out = graph.get_tensor(args[3]);
  utils::check_dtype(kOp, "self", self, {DType::Float32, DType::Float16});
  utils::check_dtype(kOp, "out", out, {DType::Float32, DType::Float16});
  utils::check_output_dims(kOp, "out", out, self.dims());

  HardtanhPlan plan;
  plan.params0.num_vec4 = utils::to_u32(utils::ceil_div(out.numel(), 4), kOp, "num_vec4");
  plan.params0.min_value = utils::to_f32(min_val);
  plan.params0.max_value = utils::to_f32(max_val);
  plan.params0.has_min = utils::to_u32(1, kOp, "has_min");
  plan.params0.has_max = utils::to_u32(1, kOp, "has_max");
  if (graph.has_feature(Feature::ShaderF16) && (self.dtype == DType::Float16)) {
    plan.route0 = 0;  // clamp_f16
    plan.grid0 = utils::elementwise_grid(utils::ceil_div(out.numel(), 4),
                                         kClampF16Kernel.workgroup_size[0] * 4,
                                         graph.limits().max_workgroups_per_dimension);
  } else if (self.dtype == DType::Float16) {
    plan.route0 = 1;  // clamp_f16_packed
    plan.grid0 = utils::elementwise_grid(utils::ceil_div(out.numel(), 4),
                                         kClampF16PackedKernel.workgroup_size[0] * 4,
                                         graph.limits().max_workgroups_per_dimension);
  } else {
    plan.route0 = 2;  // clamp
    plan.grid0 =
        utils::elementwise_grid(utils::ceil_div(out.numel(), 4), kClampKernel.workgroup_size[0] * 4,
                                graph.limits().max_workgroups_per_dimension);
  }
  return plan;
}

// Gives the outputs the shape the op's formula computes from the live inputs.
void resize_hardtanh_outputs(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const Tensor& self = graph.get_tensor(args[0]);
  Tensor& out = graph.get_tensor(args[3]);
  utils::resize_output(kOp, "out", out, self.dims());
}

void add_hardtanh(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const HardtanhPlan built = plan_hardtanh(graph, args);
  const DispatchId dispatch0 =
      graph.add_dispatch(*kDispatch0Kernels[built.route0], built.overrides0,
                         {Binding::params(), Binding::of(args[0]), Binding::of(args[3])},
                         &built.params0, sizeof(built.params0), built.grid0);
  graph.add_resize_hook([args, built, dispatch0](WebGPUGraph& graph) {
    resize_hardtanh_outputs(graph, args);
    const HardtanhPlan plan = plan_hardtanh(graph, args);
    if (plan.route0 != built.route0) {
      utils::fail(kOp, "inputs", "were resized into a different kernel route",
                  kDispatch0Kernels[plan.route0]->name, kDispatch0Kernels[built.route0]->name);
    }
    graph.update_dispatch(dispatch0, &plan.params0, sizeof(plan.params0), plan.grid0);
  });
}

}  // namespace
}  // namespace webgpu_delegate

WEBGPU_REGISTER_OP(aten.hardtanh.default, webgpu_delegate::add_hardtanh, None);
