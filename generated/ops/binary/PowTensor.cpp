// @generated from codegen/specs/binary/binary.py - DO NOT EDIT.
// Op pow_tensor: aten.pow.Tensor_Tensor

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ops/binary/pow_tensor_f16_packed_wgsl.h"
#include "ops/binary/pow_tensor_f16_wgsl.h"
#include "ops/binary/pow_tensor_i32_f16_packed_wgsl.h"
#include "ops/binary/pow_tensor_i32_f16_wgsl.h"
#include "ops/binary/pow_tensor_i32_wgsl.h"
#include "ops/binary/pow_tensor_wgsl.h"
#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "pow_tensor";

struct PowTensorFloat32Params {
  uint32_t out_dims[2][4];
  uint32_t self_strides[2][4];
  uint32_t other_strides[2][4];
  float alpha;
  uint32_t num_elements;
  uint32_t num_vec4;
  uint32_t rank;
  uint32_t same_shape;
  uint32_t _pad0[3];
};
static_assert(offsetof(PowTensorFloat32Params, out_dims) == 0,
              "PowTensorFloat32Params.out_dims must sit at WGSL offset 0");
static_assert(offsetof(PowTensorFloat32Params, self_strides) == 32,
              "PowTensorFloat32Params.self_strides must sit at WGSL offset 32");
static_assert(offsetof(PowTensorFloat32Params, other_strides) == 64,
              "PowTensorFloat32Params.other_strides must sit at WGSL offset 64");
static_assert(offsetof(PowTensorFloat32Params, alpha) == 96,
              "PowTensorFloat32Params.alpha must sit at WGSL offset 96");
static_assert(offsetof(PowTensorFloat32Params, num_elements) == 100,
              "PowTensorFloat32Params.num_elements must sit at WGSL offset 100");
static_assert(offsetof(PowTensorFloat32Params, num_vec4) == 104,
              "PowTensorFloat32Params.num_vec4 must sit at WGSL offset 104");
static_assert(offsetof(PowTensorFloat32Params, rank) == 108,
              "PowTensorFloat32Params.rank must sit at WGSL offset 108");
static_assert(offsetof(PowTensorFloat32Params, same_shape) == 112,
              "PowTensorFloat32Params.same_shape must sit at WGSL offset 112");
static_assert(sizeof(PowTensorFloat32Params) == 128,
              "PowTensorFloat32Params must match the WGSL struct size 128");

struct PowTensorInt32Params {
  uint32_t out_dims[2][4];
  uint32_t self_strides[2][4];
  uint32_t other_strides[2][4];
  float alpha;
  uint32_t num_elements;
  uint32_t num_vec4;
  uint32_t rank;
  uint32_t same_shape;
  uint32_t _pad0[3];
};
static_assert(offsetof(PowTensorInt32Params, out_dims) == 0,
              "PowTensorInt32Params.out_dims must sit at WGSL offset 0");
static_assert(offsetof(PowTensorInt32Params, self_strides) == 32,
              "PowTensorInt32Params.self_strides must sit at WGSL offset 32");
static_assert(offsetof(PowTensorInt32Params, other_strides) == 64,
              "PowTensorInt32Params.other_strides must sit at WGSL offset 64");
static_assert(offsetof(PowTensorInt32Params, alpha) == 96,
              "PowTensorInt32Params.alpha must sit at WGSL offset 96");
static_assert(offsetof(PowTensorInt32Params, num_elements) == 100,
              "PowTensorInt32Params.num_elements must sit at WGSL offset 100");
static_assert(offsetof(PowTensorInt32Params, num_vec4) == 104,
              "PowTensorInt32Params.num_vec4 must sit at WGSL offset 104");
static_assert(offsetof(PowTensorInt32Params, rank) == 108,
              "PowTensorInt32Params.rank must sit at WGSL offset 108");
static_assert(offsetof(PowTensorInt32Params, same_shape) == 112,
              "PowTensorInt32Params.same_shape must sit at WGSL offset 112");
static_assert(sizeof(PowTensorInt32Params) == 128,
              "PowTensorInt32Params must match the WGSL struct size 128");

const KernelSource kPowTensorF16Kernel{
    "pow_tensor_f16",
    kPowTensorF16WGSL,
    "main",
    {kPowTensorF16WorkgroupSizeX, kPowTensorF16WorkgroupSizeY, kPowTensorF16WorkgroupSizeZ},
    kPowTensorF16Bindings,
    kPowTensorF16BindingCount,
    kPowTensorF16Features};
const KernelSource kPowTensorF16PackedKernel{
    "pow_tensor_f16_packed",
    kPowTensorF16PackedWGSL,
    "main",
    {kPowTensorF16PackedWorkgroupSizeX, kPowTensorF16PackedWorkgroupSizeY,
     kPowTensorF16PackedWorkgroupSizeZ},
    kPowTensorF16PackedBindings,
    kPowTensorF16PackedBindingCount};
const KernelSource kPowTensorKernel{
    "pow_tensor",
    kPowTensorWGSL,
    "main",
    {kPowTensorWorkgroupSizeX, kPowTensorWorkgroupSizeY, kPowTensorWorkgroupSizeZ},
    kPowTensorBindings,
    kPowTensorBindingCount};
const KernelSource kPowTensorI32F16Kernel{
    "pow_tensor_i32_f16",
    kPowTensorI32F16WGSL,
    "main",
    {kPowTensorI32F16WorkgroupSizeX, kPowTensorI32F16WorkgroupSizeY,
     kPowTensorI32F16WorkgroupSizeZ},
    kPowTensorI32F16Bindings,
    kPowTensorI32F16BindingCount,
    kPowTensorI32F16Features};
const KernelSource kPowTensorI32F16PackedKernel{
    "pow_tensor_i32_f16_packed",
    kPowTensorI32F16PackedWGSL,
    "main",
    {kPowTensorI32F16PackedWorkgroupSizeX, kPowTensorI32F16PackedWorkgroupSizeY,
     kPowTensorI32F16PackedWorkgroupSizeZ},
    kPowTensorI32F16PackedBindings,
    kPowTensorI32F16PackedBindingCount};
const KernelSource kPowTensorI32Kernel{
    "pow_tensor_i32",
    kPowTensorI32WGSL,
    "main",
    {kPowTensorI32WorkgroupSizeX, kPowTensorI32WorkgroupSizeY, kPowTensorI32WorkgroupSizeZ},
    kPowTensorI32Bindings,
    kPowTensorI32BindingCount};
// Dispatch 0's kernels, in route order.
const KernelSource* const kDispatch0Kernels[] = {&kPowTensorF16Kernel, &kPowTensorF16PackedKernel,
                                                 &kPowTensorKernel};
// Dispatch 1's kernels, in route order.
const KernelSource* const kDispatch1Kernels[] = {
    &kPowTensorI32F16Kernel, &kPowTensorI32F16PackedKernel, &kPowTensorI32Kernel};

// The argument values, checked and turned into what each dispatch needs.
struct PowTensorPlan {
  bool run0 = true;
  size_t route0 = 0;
  PowTensorFloat32Params params0{};
  utils::Grid grid0;
  std::vector<OverrideValue> overrides0;
  bool run1 = true;
  size_t route1 = 0;
  PowTensorInt32Params params1{};
  utils::Grid grid1;
  std::vector<OverrideValue> overrides1;
};

PowTensorPlan plan_pow_tensor(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 3);
  const Tensor& self = graph.get_tensor(args[0]);
  const Tensor& exponent = graph.get_tensor(args[1]);
  const Tensor& out = graph.get_tensor(args[2]);
  utils::check_dtype(kOp, "self", self, {DType::Float32, DType::Float16});
  utils::check_rank(kOp, "self", self, 0, 8);
  utils::check_dtype(kOp, "exponent", exponent, {DType::Float32, DType::Float16, DType::Int32});
  utils::check_rank(kOp, "exponent", exponent, 0, 8);
  utils::check_dtype(kOp, "out", out, {DType::Float32, DType::Float16});
  utils::check_rank(kOp, "out", out, 0, 8);
  if (!utils::broadcasts(self.dims(), exponent.dims())) {
    utils::fail(kOp, "exponent", "does not broadcast with self",
                utils::format_value(exponent.dims()),
                "dims equal to or 1 where " + utils::format_value(self.dims()) + " differs");
  }
  if ((exponent.dtype != self.dtype) && (exponent.dtype != DType::Int32)) {
    utils::fail(kOp, "exponent", "has a float dtype other than self's",
                utils::format_value(exponent.dtype), utils::format_value(self.dtype) + " or int32");
  }
  utils::check_output_dims(kOp, "out", out, utils::broadcast_shape(self.dims(), exponent.dims()));

  PowTensorPlan plan;
  plan.run0 = exponent.dtype != DType::Int32;
  if (plan.run0) {
    utils::pack(plan.params0.out_dims, 4, utils::right_align(out.dims(), 8, 1), kOp, "out_dims");
    utils::pack(plan.params0.self_strides, 4,
                utils::broadcast_strides(self.dims(), utils::right_align(out.dims(), 8, 1)), kOp,
                "self_strides");
    utils::pack(plan.params0.other_strides, 4,
                utils::broadcast_strides(exponent.dims(), utils::right_align(out.dims(), 8, 1)),
                kOp, "other_strides");
    plan.params0.alpha = utils::to_f32(1.0);
    plan.params0.num_elements = utils::to_u32(out.numel(), kOp, "num_elements");
    plan.params0.num_vec4 = utils::to_u32(utils::ceil_div(out.numel(), 4), kOp, "num_vec4");
    plan.params0.rank = utils::to_u32(out.rank(), kOp, "rank");
    plan.params0.same_shape = (self.dims() == exponent.dims()) ? 1 : 0;
    if (graph.has_feature(Feature::ShaderF16) && (self.dtype == DType::Float16)) {
      plan.route0 = 0;  // pow_tensor_f16
      plan.grid0 = utils::elementwise_grid(utils::ceil_div(out.numel(), 4),
                                           kPowTensorF16Kernel.workgroup_size[0] * 4,
                                           graph.limits().max_workgroups_per_dimension);
    } else if (self.dtype == DType::Float16) {
      plan.route0 = 1;  // pow_tensor_f16_packed
      plan.grid0 = utils::elementwise_grid(utils::ceil_div(out.numel(), 4),
                                           kPowTensorF16PackedKernel.workgroup_size[0] * 4,
                                           graph.limits().max_workgroups_per_dimension);
    } else {
      plan.route0 = 2;  // pow_tensor
      plan.grid0 = utils::elementwise_grid(utils::ceil_div(out.numel(), 4),
                                           kPowTensorKernel.workgroup_size[0] * 4,
                                           graph.limits().max_workgroups_per_dimension);
    }
  }
  plan.run1 = exponent.dtype == DType::Int32;
  if (plan.run1) {
    utils::pack(plan.params1.out_dims, 4, utils::right_align(out.dims(), 8, 1), kOp, "out_dims");
    utils::pack(plan.params1.self_strides, 4,
                utils::broadcast_strides(self.dims(), utils::right_align(out.dims(), 8, 1)), kOp,
                "self_strides");
    utils::pack(plan.params1.other_strides, 4,
                utils::broadcast_strides(exponent.dims(), utils::right_align(out.dims(), 8, 1)),
                kOp, "other_strides");
    plan.params1.alpha = utils::to_f32(1.0);
    plan.params1.num_elements = utils::to_u32(out.numel(), kOp, "num_elements");
    plan.params1.num_vec4 = utils::to_u32(utils::ceil_div(out.numel(), 4), kOp, "num_vec4");
    plan.params1.rank = utils::to_u32(out.rank(), kOp, "rank");
    plan.params1.same_shape = (self.dims() == exponent.dims()) ? 1 : 0;
    if (graph.has_feature(Feature::ShaderF16) && (self.dtype == DType::Float16)) {
      plan.route1 = 0;  // pow_tensor_i32_f16
      plan.grid1 = utils::elementwise_grid(utils::ceil_div(out.numel(), 4),
                                           kPowTensorI32F16Kernel.workgroup_size[0] * 4,
                                           graph.limits().max_workgroups_per_dimension);
    } else if (self.dtype == DType::Float16) {
      plan.route1 = 1;  // pow_tensor_i32_f16_packed
      plan.grid1 = utils::elementwise_grid(utils::ceil_div(out.numel(), 4),
                                           kPowTensorI32F16PackedKernel.workgroup_size[0] * 4,
                                           graph.limits().max_workgroups_per_dimension);
    } else {
      plan.route1 = 2;  // pow_tensor_i32
      plan.grid1 = utils::elementwise_grid(utils::ceil_div(out.numel(), 4),
                                           kPowTensorI32Kernel.workgroup_size[0] * 4,
                                           graph.limits().max_workgroups_per_dimension);
    }
  }
  return plan;
}

// Gives the outputs the shape the op's formula computes from the live inputs.
void resize_pow_tensor_outputs(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const Tensor& self = graph.get_tensor(args[0]);
  const Tensor& exponent = graph.get_tensor(args[1]);
  Tensor& out = graph.get_tensor(args[2]);
  utils::resize_output(kOp, "out", out, utils::broadcast_shape(self.dims(), exponent.dims()));
}

void add_pow_tensor(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const PowTensorPlan built = plan_pow_tensor(graph, args);
  const DispatchId dispatch0 =
      built.run0 ? graph.add_dispatch(*kDispatch0Kernels[built.route0], built.overrides0,
                                      {Binding::params(), Binding::of(args[0]),
                                       Binding::of(args[1]), Binding::of(args[2])},
                                      &built.params0, sizeof(built.params0), built.grid0)
                 : 0;
  const DispatchId dispatch1 =
      built.run1 ? graph.add_dispatch(*kDispatch1Kernels[built.route1], built.overrides1,
                                      {Binding::params(), Binding::of(args[0]),
                                       Binding::of(args[1]), Binding::of(args[2])},
                                      &built.params1, sizeof(built.params1), built.grid1)
                 : 0;
  graph.add_resize_hook([args, built, dispatch0, dispatch1](WebGPUGraph& graph) {
    resize_pow_tensor_outputs(graph, args);
    const PowTensorPlan plan = plan_pow_tensor(graph, args);
    if (plan.run0 != built.run0) {
      utils::fail(kOp, "inputs", "were resized into a different set of dispatches",
                  utils::format_value(plan.run0), utils::format_value(built.run0));
    }
    if (plan.route0 != built.route0) {
      utils::fail(kOp, "inputs", "were resized into a different kernel route",
                  kDispatch0Kernels[plan.route0]->name, kDispatch0Kernels[built.route0]->name);
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
  });
}

}  // namespace
}  // namespace webgpu_delegate

WEBGPU_REGISTER_OP(aten.pow.Tensor_Tensor, webgpu_delegate::add_pow_tensor, None);
