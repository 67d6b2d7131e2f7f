// @generated from codegen/specs/silu_mul/silu_mul.py - DO NOT EDIT.
// Op silu_mul: webgpu.silu_mul.default

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ops/silu_mul/silu_mul_f16_packed_wgsl.h"
#include "ops/silu_mul/silu_mul_f16_wgsl.h"
#include "ops/silu_mul/silu_mul_wgsl.h"
#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "silu_mul";

struct SiluMulParams {
  uint32_t num_vec4;
  uint32_t _pad0[3];
};
static_assert(offsetof(SiluMulParams, num_vec4) == 0,
              "SiluMulParams.num_vec4 must sit at WGSL offset 0");
static_assert(sizeof(SiluMulParams) == 16, "SiluMulParams must match the WGSL struct size 16");

const KernelSource kSiluMulF16Kernel{
    "silu_mul_f16",
    kSiluMulF16WGSL,
    "main",
    {kSiluMulF16WorkgroupSizeX, kSiluMulF16WorkgroupSizeY, kSiluMulF16WorkgroupSizeZ},
    kSiluMulF16Bindings,
    kSiluMulF16BindingCount,
    kSiluMulF16Features};
const KernelSource kSiluMulF16PackedKernel{
    "silu_mul_f16_packed",
    kSiluMulF16PackedWGSL,
    "main",
    {kSiluMulF16PackedWorkgroupSizeX, kSiluMulF16PackedWorkgroupSizeY,
     kSiluMulF16PackedWorkgroupSizeZ},
    kSiluMulF16PackedBindings,
    kSiluMulF16PackedBindingCount};
const KernelSource kSiluMulKernel{
    "silu_mul",       kSiluMulWGSL,
    "main",           {kSiluMulWorkgroupSizeX, kSiluMulWorkgroupSizeY, kSiluMulWorkgroupSizeZ},
    kSiluMulBindings, kSiluMulBindingCount};
// Dispatch 0's kernels, in route order.
const KernelSource* const kDispatch0Kernels[] = {&kSiluMulF16Kernel, &kSiluMulF16PackedKernel,
                                                 &kSiluMulKernel};

// The argument values, checked and turned into what each dispatch needs.
struct SiluMulPlan {
  size_t route0 = 0;
  SiluMulParams params0{};
  utils::Grid grid0;
  std::vector<OverrideValue> overrides0;
};

SiluMulPlan plan_silu_mul(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 3);
  const Tensor& gate = graph.get_tensor(args[0]);
  const Tensor& up = graph.get_tensor(args[1]);
  const Tensor& out = graph.get_tensor(args[2]);
  utils::check_dtype(kOp, "gate", gate, {DType::Float32, DType::Float16});
  utils::check_dtype(kOp, "up", up, {DType::Float32, DType::Float16});
  utils::check_dtype(kOp, "out", out, {DType::Float32, DType::Float16});
  if (up.dims() != gate.dims()) {
    utils::fail(kOp, "up", "does not have the gate's shape", utils::format_value(up.dims()),
                utils::format_value(gate.dims()));
  }
  if (up.dtype != gate.dtype) {
    utils::fail(kOp, "gate", "does not share its dtype with up", utils::format_value(gate.dtype),
                "the dtype of up");
  }
  utils::check_output_dims(kOp, "out", out, gate.dims());

  SiluMulPlan plan;
  plan.params0.num_vec4 = utils::to_u32(utils::ceil_div(out.numel(), 4), kOp, "num_vec4");
  if (graph.has_feature(Feature::ShaderF16) && (gate.dtype == DType::Float16)) {
    plan.route0 = 0;  // silu_mul_f16
    plan.grid0 = utils::elementwise_grid(utils::ceil_div(out.numel(), 4),
                                         kSiluMulF16Kernel.workgroup_size[0] * 4,
                                         graph.limits().max_workgroups_per_dimension);
  } else if (gate.dtype == DType::Float16) {
    plan.route0 = 1;  // silu_mul_f16_packed
    plan.grid0 = utils::elementwise_grid(utils::ceil_div(out.numel(), 4),
                                         kSiluMulF16PackedKernel.workgroup_size[0] * 4,
                                         graph.limits().max_workgroups_per_dimension);
  } else {
    plan.route0 = 2;  // silu_mul
    plan.grid0 = utils::elementwise_grid(utils::ceil_div(out.numel(), 4),
                                         kSiluMulKernel.workgroup_size[0] * 4,
                                         graph.limits().max_workgroups_per_dimension);
  }
  return plan;
}

// Gives the outputs the shape the op's formula computes from the live inputs.
void resize_silu_mul_outputs(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const Tensor& gate = graph.get_tensor(args[0]);
  Tensor& out = graph.get_tensor(args[2]);
  utils::resize_output(kOp, "out", out, gate.dims());
}

void add_silu_mul(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const SiluMulPlan built = plan_silu_mul(graph, args);
  const DispatchId dispatch0 = graph.add_dispatch(
      *kDispatch0Kernels[built.route0], built.overrides0,
      {Binding::params(), Binding::of(args[0]), Binding::of(args[1]), Binding::of(args[2])},
      &built.params0, sizeof(built.params0), built.grid0);
  graph.add_resize_hook([args, built, dispatch0](WebGPUGraph& graph) {
    resize_silu_mul_outputs(graph, args);
    const SiluMulPlan plan = plan_silu_mul(graph, args);
    if (plan.route0 != built.route0) {
      utils::fail(kOp, "inputs", "were resized into a different kernel route",
                  kDispatch0Kernels[plan.route0]->name, kDispatch0Kernels[built.route0]->name);
    }
    graph.update_dispatch(dispatch0, &plan.params0, sizeof(plan.params0), plan.grid0);
  });
}

}  // namespace
}  // namespace webgpu_delegate

WEBGPU_REGISTER_OP(webgpu.silu_mul.default, webgpu_delegate::add_silu_mul, None);
