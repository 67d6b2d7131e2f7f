// @generated from codegen/specs/unary/fmod.py - DO NOT EDIT.
// Op fmod_scalar: aten.fmod.Scalar

#include <cstddef>
#include <cstdint>
#include <vector>

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
const KernelSource kFmodScalarI32Kernel{
    "fmod_scalar_i32",
    kFmodScalarI32WGSL,
    "main",
    {kFmodScalarI32WorkgroupSizeX, kFmodScalarI32WorkgroupSizeY, kFmodScalarI32WorkgroupSizeZ},
    kFmodScalarI32Bindings,
    kFmodScalarI32BindingCount};

// The argument values, checked and turned into what each dispatch needs.
struct FmodScalarPlan {
  bool run0 = true;
  FmodScalarFloat32Params params0{};
  utils::Grid grid0;
  std::vector<OverrideValue> overrides0;
  bool run1 = true;
  FmodScalarInt32Params params1{};
  utils::Grid grid1;
  std::vector<OverrideValue> overrides1;
};

FmodScalarPlan plan_fmod_scalar(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 3);
  const Tensor& self = graph.get_tensor(args[0]);
  const double other = graph.get_scalar(args[1]);
  const Tensor& out = graph.get_tensor(args[2]);
  utils::check_dtype(kOp, "self", self, {DType::Float32, DType::Int32});
  utils::check_dtype(kOp, "out", out, {DType::Float32, DType::Int32});
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
  plan.run1 = self.dtype == DType::Int32;
  if (plan.run1) {
    plan.params1.num_vec4 = utils::to_u32(utils::ceil_div(out.numel(), 4), kOp, "num_vec4");
    plan.params1.divisor = utils::to_i32(utils::floor_to_int(other), kOp, "divisor");
    plan.grid1 = utils::elementwise_grid(utils::ceil_div(out.numel(), 4),
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
          ? graph.add_dispatch(kFmodScalarI32Kernel, built.overrides1,
                               {Binding::params(), Binding::of(args[0]), Binding::of(args[2])},
                               &built.params1, sizeof(built.params1), built.grid1)
          : 0;
  graph.add_resize_hook([args, built, dispatch0, dispatch1](WebGPUGraph& graph) {
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
    if (built.run1) {
      graph.update_dispatch(dispatch1, &plan.params1, sizeof(plan.params1), plan.grid1);
    }
  });
}

}  // namespace
}  // namespace webgpu_delegate

WEBGPU_REGISTER_OP(aten.fmod.Scalar, webgpu_delegate::add_fmod_scalar, None);
