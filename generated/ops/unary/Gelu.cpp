// @generated from codegen/specs/unary/unary.py - DO NOT EDIT.
// Op gelu: aten.gelu.default

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "ops/unary/gelu_f16_packed_wgsl.h"
#include "ops/unary/gelu_f16_wgsl.h"
#include "ops/unary/gelu_wgsl.h"
#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "gelu";

struct GeluParams {
  uint32_t num_vec4;
  uint32_t tanh_approximation;
  uint32_t _pad0[2];
};
static_assert(offsetof(GeluParams, num_vec4) == 0, "GeluParams.num_vec4 must sit at WGSL offset 0");
static_assert(offsetof(GeluParams, tanh_approximation) == 4,
              "GeluParams.tanh_approximation must sit at WGSL offset 4");
static_assert(sizeof(GeluParams) == 16, "GeluParams must match the WGSL struct size 16");

const KernelSource kGeluF16Kernel{
    "gelu_f16",       kGeluF16WGSL,
    "main",           {kGeluF16WorkgroupSizeX, kGeluF16WorkgroupSizeY, kGeluF16WorkgroupSizeZ},
    kGeluF16Bindings, kGeluF16BindingCount,
    kGeluF16Features};
const KernelSource kGeluF16PackedKernel{
    "gelu_f16_packed",
    kGeluF16PackedWGSL,
    "main",
    {kGeluF16PackedWorkgroupSizeX, kGeluF16PackedWorkgroupSizeY, kGeluF16PackedWorkgroupSizeZ},
    kGeluF16PackedBindings,
    kGeluF16PackedBindingCount};
const KernelSource kGeluKernel{
    "gelu",        kGeluWGSL,
    "main",        {kGeluWorkgroupSizeX, kGeluWorkgroupSizeY, kGeluWorkgroupSizeZ},
    kGeluBindings, kGeluBindingCount};
// Dispatch 0's kernels, in route order.
const KernelSource* const kDispatch0Kernels[] = {&kGeluF16Kernel, &kGeluF16PackedKernel,
                                                 &kGeluKernel};

// The argument values, checked and turned into what each dispatch needs.
struct GeluPlan {
  size_t route0 = 0;
  GeluParams params0{};
  utils::Grid grid0;
  std::vector<OverrideValue> overrides0;
};

GeluPlan plan_gelu(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 3);
  const Tensor& self = graph.get_tensor(args[0]);
  const std::string approximate = graph.is_null(args[1]) ? "none" : graph.get_string(args[1]);
  if (approximate != "none" && approximate != "tanh") {
    utils::fail(kOp, "approximate", "is not supported", approximate, "none or tanh");
  }
  const Tensor& out = graph.get_tensor(args[2]);
  utils::check_dtype(kOp, "self", self, {DType::Float32, DType::Float16});
  utils::check_dtype(kOp, "out", out, {DType::Float32, DType::Float16});
  utils::check_output_dims(kOp, "out", out, self.dims());

  GeluPlan plan;
  plan.params0.num_vec4 = utils::to_u32(utils::ceil_div(out.numel(), 4), kOp, "num_vec4");
  plan.params0.tanh_approximation = (approximate == "tanh") ? 1 : 0;
  if (graph.has_feature(Feature::ShaderF16) && (self.dtype == DType::Float16)) {
    plan.route0 = 0;  // gelu_f16
    plan.grid0 = utils::elementwise_grid(utils::ceil_div(out.numel(), 4),
                                         kGeluF16Kernel.workgroup_size[0] * 4,
                                         graph.limits().max_workgroups_per_dimension);
  } else if (self.dtype == DType::Float16) {
    plan.route0 = 1;  // gelu_f16_packed
    plan.grid0 = utils::elementwise_grid(utils::ceil_div(out.numel(), 4),
                                         kGeluF16PackedKernel.workgroup_size[0] * 4,
                                         graph.limits().max_workgroups_per_dimension);
  } else {
    plan.route0 = 2;  // gelu
    plan.grid0 =
        utils::elementwise_grid(utils::ceil_div(out.numel(), 4), kGeluKernel.workgroup_size[0] * 4,
                                graph.limits().max_workgroups_per_dimension);
  }
  return plan;
}

// Gives the outputs the shape the op's formula computes from the live inputs.
void resize_gelu_outputs(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const Tensor& self = graph.get_tensor(args[0]);
  Tensor& out = graph.get_tensor(args[2]);
  utils::resize_output(kOp, "out", out, self.dims());
}

void add_gelu(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const GeluPlan built = plan_gelu(graph, args);
  const DispatchId dispatch0 =
      graph.add_dispatch(*kDispatch0Kernels[built.route0], built.overrides0,
                         {Binding::params(), Binding::of(args[0]), Binding::of(args[2])},
                         &built.params0, sizeof(built.params0), built.grid0);
  graph.add_resize_hook([args, built, dispatch0](WebGPUGraph& graph) {
    resize_gelu_outputs(graph, args);
    const GeluPlan plan = plan_gelu(graph, args);
    if (plan.route0 != built.route0) {
      utils::fail(kOp, "inputs", "were resized into a different kernel route",
                  kDispatch0Kernels[plan.route0]->name, kDispatch0Kernels[built.route0]->name);
    }
    graph.update_dispatch(dispatch0, &plan.params0, sizeof(plan.params0), plan.grid0);
  });
}

}  // namespace
}  // namespace webgpu_delegate

WEBGPU_REGISTER_OP(aten.gelu.default, webgpu_delegate::add_gelu, None);
