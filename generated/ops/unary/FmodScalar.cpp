// @generated from codegen/specs/unary/fmod.py - DO NOT EDIT.
// Op fmod_scalar: aten.fmod.Scalar

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ops/unary/fmod_scalar_half_f16_packed_wgsl.h"
#include "ops/unary/fmod_scalar_half_f16_wgsl.h"
#include "ops/unary/fmod_scalar_i32_wgsl.h"
#include "ops/unary/fmod_scalar_wgsl.h"
#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "fmod_scalar";

struct FmodScalarFloat32Params {
  uint32_t num_vec4;
  float divisor;
  uint32_t _pad0[2];
};
static_assert(offsetof(FmodScalarFloat32Params, num_vec4) == 0,
              "FmodScalarFloat32Params.num_vec4 must sit at WGSL offset 0");
static_assert(offsetof(FmodScalarFloat32Params, divisor) == 4,
              "FmodScalarFloat32Params.divisor must sit at WGSL offset 4");
static_assert(sizeof(FmodScalarFloat32Params) == 16,
              "FmodScalarFloat32Params must match the WGSL struct size 16");

struct FmodScalarFloat16Params {
  uint32_t num_vec4;
  float divisor;
  uint32_t _pad0[2];
};
static_assert(offsetof(FmodScalarFloat16Params, num_vec4) == 0,
              "FmodScalarFloat16Params.num_vec4 must sit at WGSL offset 0");
static_assert(offsetof(FmodScalarFloat16Params, divisor) == 4,
              "FmodScalarFloat16Params.divisor must sit at WGSL offset 4");
static_assert(sizeof(FmodScalarFloat16Params) == 16,
              "FmodScalarFloat16Params must match the WGSL struct size 16");

struct FmodScalarInt32Params {
  uint32_t num_vec4;
  int32_t divisor;
  uint32_t _pad0[2];
};
static_assert(offsetof(FmodScalarInt32Params, num_vec4) == 0,
              "FmodScalarInt32Params.num_vec4 must sit at WGSL offset 0");
static_assert(offsetof(FmodScalarInt32Params, divisor) == 4,
              "FmodScalarInt32Params.divisor must sit at WGSL offset 4");
static_assert(sizeof(FmodScalarInt32Params) == 16,
              "FmodScalarInt32Params must match the WGSL struct size 16");

const KernelSource kFmodScalarKernel{
    "fmod_scalar",
    kFmodScalarWGSL,
    "main",
    {kFmodScalarWorkgroupSizeX, kFmodScalarWorkgroupSizeY, kFmodScalarWorkgroupSizeZ},
    kFmodScalarBindings,
    kFmodScalarBindingCount};
const KernelSource kFmodScalarHalfF16Kernel{
    "fmod_scalar_half_f16",
    kFmodScalarHalfF16WGSL,
    "main",
    {kFmodScalarHalfF16WorkgroupSizeX, kFmodScalarHalfF16WorkgroupSizeY,
     kFmodScalarHalfF16WorkgroupSizeZ},
    kFmodScalarHalfF16Bindings,
    kFmodScalarHalfF16BindingCount,
    kFmodScalarHalfF16Features};
const KernelSource kFmodScalarHalfF16PackedKernel{
    "fmod_scalar_half_f16_packed",
    kFmodScalarHalfF16PackedWGSL,
    "main",
    {kFmodScalarHalfF16PackedWorkgroupSizeX, kFmodScalarHalfF16PackedWorkgroupSizeY,
     kFmodScalarHalfF16PackedWorkgroupSizeZ},
    kFmodScalarHalfF16PackedBindings,
    kFmodScalarHalfF16PackedBindingCount};
const KernelSource kFmodScalarI32Kernel{
    "fmod_scalar_i32",
    kFmodScalarI32WGSL,
    "main",
    {kFmodScalarI32WorkgroupSizeX, kFmodScalarI32WorkgroupSizeY, kFmodScalarI32WorkgroupSizeZ},
    kFmodScalarI32Bindings,
    kFmodScalarI32BindingCount};
// Dispatch 1's kernels, in route order.
const KernelSource* const kDispatch1Kernels[] = {&kFmodScalarHalfF16Kernel,
                                                 &kFmodScalarHalfF16PackedKernel};

// The argument values, checked and turned into what each dispatch needs.
struct FmodScalarPlan {
  bool run0 = true;
  FmodScalarFloat32Params params0{};
  utils::Grid grid0;
  std::vector<OverrideValue> overrides0;
  bool run1 = true;
  size_t route1 = 0;
  FmodScalarFloat16Params params1{};
  utils::Grid grid1;
  std::vector<OverrideValue> overrides1;
  bool run2 = true;
  FmodScalarInt32Params params2{};
  utils::Grid grid2;
  std::vector<OverrideValue> overrides2;
};

FmodScalarPlan plan_fmod_scalar(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 3);
  const Tensor& self = graph.get_tensor(args[0]);
  const double other = graph.get_scalar(args[1]);
  const Tensor& out = graph.get_tensor(args[2]);
  utils::check_dtype(kOp, "self", self, {DType::Float32, DType::Float16, DType::Int32});
  utils::check_dtype(kOp, "out", out, {DType::Float32, DType::Float16, DType::Int32});
  if (out.dtype != self.dtype) {
    utils::fail(kOp, "out", "has a different dtype from self", utils::format_value(out.dtype),
                utils::format_value(self.dtype) +
                    "; torch gives float32 for an integer tensor and a float divisor, which is not "
                    "implemented");
  }
  if ((self.dtype == DType::Float32) && !(utils::abs_value(other) <= 3.4028234663852886e+38) &&
      (utils::abs_value(other) <= 1.7976931348623157e+308)) {
    utils::fail(kOp, "other", "overflows float32", utils::format_value(other),
                "a divisor within +-3.4028234663852886e+38, inf or nan");
  }
  if ((self.dtype == DType::Int32) && (other == 0.0)) {
    utils::fail(kOp, "other", "is zero for an integer tensor (torch raises ZeroDivisionError)",
                utils::format_value(other), "a non-zero divisor");
  }
  if ((self.dtype == DType::Int32) && (!(other >= -2147483648.0) || !(other <= 2147483647.0))) {
    utils::fail(kOp, "other", "does not fit int32 (int64 tensors are int32 on the GPU)",
                utils::format_value(other), "a divisor in -2147483648..2147483647");
  }
  utils::check_output_dims(kOp, "out", out, self.dims());

  FmodScalarPlan plan;
  plan.run0 = self.dtype == DType::Float32;
  if (plan.run0) {
    plan.params0.num_vec4 = utils::to_u32(utils::ceil_div(out.numel(), 4), kOp, "num_vec4");
    plan.params0.divisor = utils::to_f32(other);
    plan.grid0 = utils::elementwise_grid(utils::ceil_div(out.numel(), 4),
                                         kFmodScalarKernel.workgroup_size[0] * 4,
                                         graph.limits().max_workgroups_per_dimension);
  }
  plan.run1 = self.dtype == DType::Float16;
  if (plan.run1) {
    plan.params1.num_vec4 = utils::to_u32(utils::ceil_div(out.numel(), 4), kOp, "num_vec4");
    plan.params1.divisor = utils::to_f32(other);
    if (graph.has_feature(Feature::ShaderF16) && (self.dtype == DType::Float16)) {
      plan.route1 = 0;  // fmod_scalar_half_f16
      plan.grid1 = utils::elementwise_grid(utils::ceil_div(out.numel(), 4),
                                           kFmodScalarHalfF16Kernel.workgroup_size[0] * 4,
                                           graph.limits().max_workgroups_per_dimension);
    } else {
      plan.route1 = 1;  // fmod_scalar_half_f16_packed
      plan.grid1 = utils::elementwise_grid(utils::ceil_div(out.numel(), 4),
                                           kFmodScalarHalfF16PackedKernel.workgroup_size[0] * 4,
                                           graph.limits().max_workgroups_per_dimension);
    }
  }
  plan.run2 = self.dtype == DType::Int32;
  if (plan.run2) {
    plan.params2.num_vec4 = utils::to_u32(utils::ceil_div(out.numel(), 4), kOp, "num_vec4");
    plan.params2.divisor = utils::to_i32(utils::floor_to_int(other), kOp, "divisor");
    plan.grid2 = utils::elementwise_grid(utils::ceil_div(out.numel(), 4),
                                         kFmodScalarI32Kernel.workgroup_size[0] * 4,
                                         graph.limits().max_workgroups_per_dimension);
  }
  return plan;
}

// Gives the outputs the shape the op's formula computes from the live inputs.
void resize_fmod_scalar_outputs(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const Tensor& self = graph.get_tensor(args[0]);
  Tensor& out = graph.get_tensor(args[2]);
  utils::resize_output(kOp, "out", out, self.dims());
}

void add_fmod_scalar(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const FmodScalarPlan built = plan_fmod_scalar(graph, args);
  const DispatchId dispatch0 =
      built.run0
          ? graph.add_dispatch(kFmodScalarKernel, built.overrides0,
                               {Binding::params(), Binding::of(args[0]), Binding::of(args[2])},
                               &built.params0, sizeof(built.params0), built.grid0)
          : 0;
  const DispatchId dispatch1 =
      built.run1
          ? graph.add_dispatch(*kDispatch1Kernels[built.route1], built.overrides1,
                               {Binding::params(), Binding::of(args[0]), Binding::of(args[2])},
                               &built.params1, sizeof(built.params1), built.grid1)
          : 0;
  const DispatchId dispatch2 =
      built.run2
          ? graph.add_dispatch(kFmodScalarI32Kernel, built.overrides2,
                               {Binding::params(), Binding::of(args[0]), Binding::of(args[2])},
                               &built.params2, sizeof(built.params2), built.grid2)
          : 0;
  graph.add_resize_hook([args, built, dispatch0, dispatch1, dispatch2](WebGPUGraph& graph) {
    resize_fmod_scalar_outputs(graph, args);
    const FmodScalarPlan plan = plan_fmod_scalar(graph, args);
    if (plan.run0 != built.run0) {
      utils::fail(kOp, "inputs", "were resized into a different set of dispatches",
                  utils::format_value(plan.run0), utils::format_value(built.run0));
    }
    if (built.run0) {
      graph.update_dispatch(dispatch0, &plan.params0, sizeof(plan.params0), plan.grid0);
    }
    if (plan.run1 != built.run1) {
      utils::fail(kOp, "inputs", "were resized into a different set of dispatches",
                  utils::format_value(plan.run1), utils::format_value(built.run1));
    }
    if (plan.route1 != built.route1) {
      utils::fail(kOp, "inputs", "were resized into a different kernel route",
                  kDispatch1Kernels[plan.route1]->name, kDispatch1Kernels[built.route1]->name);
    }
    if (built.run1) {
      graph.update_dispatch(dispatch1, &plan.params1, sizeof(plan.params1), plan.grid1);
    }
    if (plan.run2 != built.run2) {
      utils::fail(kOp, "inputs", "were resized into a different set of dispatches",
                  utils::format_value(plan.run2), utils::format_value(built.run2));
    }
    if (built.run2) {
      graph.update_dispatch(dispatch2, &plan.params2, sizeof(plan.params2), plan.grid2);
    }
  });
}

}  // namespace
}  // namespace webgpu_delegate

WEBGPU_REGISTER_OP(aten.fmod.Scalar, webgpu_delegate::add_fmod_scalar, None);
