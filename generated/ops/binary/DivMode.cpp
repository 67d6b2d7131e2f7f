// @generated from codegen/specs/binary/div_mode.py - DO NOT EDIT.
// Op div_mode: aten.div.Tensor_mode

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "ops/binary/binary_broadcast_f16_packed_wgsl.h"
#include "ops/binary/binary_broadcast_f16_wgsl.h"
#include "ops/binary/binary_broadcast_i32_wgsl.h"
#include "ops/binary/binary_broadcast_wgsl.h"
#include "ops/binary/div_rounding_f16_packed_wgsl.h"
#include "ops/binary/div_rounding_f16_wgsl.h"
#include "ops/binary/div_rounding_wgsl.h"
#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "div_mode";

struct DivModeFloat32Params {
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
static_assert(offsetof(DivModeFloat32Params, out_dims) == 0,
              "DivModeFloat32Params.out_dims must sit at WGSL offset 0");
static_assert(offsetof(DivModeFloat32Params, self_strides) == 32,
              "DivModeFloat32Params.self_strides must sit at WGSL offset 32");
static_assert(offsetof(DivModeFloat32Params, other_strides) == 64,
              "DivModeFloat32Params.other_strides must sit at WGSL offset 64");
static_assert(offsetof(DivModeFloat32Params, alpha) == 96,
              "DivModeFloat32Params.alpha must sit at WGSL offset 96");
static_assert(offsetof(DivModeFloat32Params, num_elements) == 100,
              "DivModeFloat32Params.num_elements must sit at WGSL offset 100");
static_assert(offsetof(DivModeFloat32Params, num_vec4) == 104,
              "DivModeFloat32Params.num_vec4 must sit at WGSL offset 104");
static_assert(offsetof(DivModeFloat32Params, rank) == 108,
              "DivModeFloat32Params.rank must sit at WGSL offset 108");
static_assert(offsetof(DivModeFloat32Params, same_shape) == 112,
              "DivModeFloat32Params.same_shape must sit at WGSL offset 112");
static_assert(sizeof(DivModeFloat32Params) == 128,
              "DivModeFloat32Params must match the WGSL struct size 128");

struct DivModeInt32Params {
  uint32_t out_dims[2][4];
  uint32_t self_strides[2][4];
  uint32_t other_strides[2][4];
  int32_t alpha;
  uint32_t num_elements;
  uint32_t num_vec4;
  uint32_t rank;
  uint32_t same_shape;
  uint32_t _pad0[3];
};
static_assert(offsetof(DivModeInt32Params, out_dims) == 0,
              "DivModeInt32Params.out_dims must sit at WGSL offset 0");
static_assert(offsetof(DivModeInt32Params, self_strides) == 32,
              "DivModeInt32Params.self_strides must sit at WGSL offset 32");
static_assert(offsetof(DivModeInt32Params, other_strides) == 64,
              "DivModeInt32Params.other_strides must sit at WGSL offset 64");
static_assert(offsetof(DivModeInt32Params, alpha) == 96,
              "DivModeInt32Params.alpha must sit at WGSL offset 96");
static_assert(offsetof(DivModeInt32Params, num_elements) == 100,
              "DivModeInt32Params.num_elements must sit at WGSL offset 100");
static_assert(offsetof(DivModeInt32Params, num_vec4) == 104,
              "DivModeInt32Params.num_vec4 must sit at WGSL offset 104");
static_assert(offsetof(DivModeInt32Params, rank) == 108,
              "DivModeInt32Params.rank must sit at WGSL offset 108");
static_assert(offsetof(DivModeInt32Params, same_shape) == 112,
              "DivModeInt32Params.same_shape must sit at WGSL offset 112");
static_assert(sizeof(DivModeInt32Params) == 128,
              "DivModeInt32Params must match the WGSL struct size 128");

const KernelSource kDivRoundingF16Kernel{
    "div_rounding_f16",
    kDivRoundingF16WGSL,
    "main",
    {kDivRoundingF16WorkgroupSizeX, kDivRoundingF16WorkgroupSizeY, kDivRoundingF16WorkgroupSizeZ},
    kDivRoundingF16Bindings,
    kDivRoundingF16BindingCount,
    kDivRoundingF16Features};
const KernelSource kDivRoundingF16PackedKernel{
    "div_rounding_f16_packed",
    kDivRoundingF16PackedWGSL,
    "main",
    {kDivRoundingF16PackedWorkgroupSizeX, kDivRoundingF16PackedWorkgroupSizeY,
     kDivRoundingF16PackedWorkgroupSizeZ},
    kDivRoundingF16PackedBindings,
    kDivRoundingF16PackedBindingCount};
const KernelSource kBinaryBroadcastF16Kernel{
    "binary_broadcast_f16",
    kBinaryBroadcastF16WGSL,
    "main",
    {kBinaryBroadcastF16WorkgroupSizeX, kBinaryBroadcastF16WorkgroupSizeY,
     kBinaryBroadcastF16WorkgroupSizeZ},
    kBinaryBroadcastF16Bindings,
    kBinaryBroadcastF16BindingCount,
    kBinaryBroadcastF16Features};
const KernelSource kBinaryBroadcastF16PackedKernel{
    "binary_broadcast_f16_packed",
    kBinaryBroadcastF16PackedWGSL,
    "main",
    {kBinaryBroadcastF16PackedWorkgroupSizeX, kBinaryBroadcastF16PackedWorkgroupSizeY,
     kBinaryBroadcastF16PackedWorkgroupSizeZ},
    kBinaryBroadcastF16PackedBindings,
    kBinaryBroadcastF16PackedBindingCount};
const KernelSource kDivRoundingKernel{
    "div_rounding",
    kDivRoundingWGSL,
    "main",
    {kDivRoundingWorkgroupSizeX, kDivRoundingWorkgroupSizeY, kDivRoundingWorkgroupSizeZ},
    kDivRoundingBindings,
    kDivRoundingBindingCount};
const KernelSource kBinaryBroadcastKernel{
    "binary_broadcast",
    kBinaryBroadcastWGSL,
    "main",
    {kBinaryBroadcastWorkgroupSizeX, kBinaryBroadcastWorkgroupSizeY,
     kBinaryBroadcastWorkgroupSizeZ},
    kBinaryBroadcastBindings,
    kBinaryBroadcastBindingCount};
const KernelSource kBinaryBroadcastI32Kernel{
    "binary_broadcast_i32",
    kBinaryBroadcastI32WGSL,
    "main",
    {kBinaryBroadcastI32WorkgroupSizeX, kBinaryBroadcastI32WorkgroupSizeY,
     kBinaryBroadcastI32WorkgroupSizeZ},
    kBinaryBroadcastI32Bindings,
    kBinaryBroadcastI32BindingCount};
// Dispatch 0's kernels, in route order.
const KernelSource* const kDispatch0Kernels[] = {
    &kDivRoundingF16Kernel,           &kDivRoundingF16PackedKernel, &kBinaryBroadcastF16Kernel,
    &kBinaryBroadcastF16PackedKernel, &kDivRoundingKernel,          &kBinaryBroadcastKernel};

// The argument values, checked and turned into what each dispatch needs.
struct DivModePlan {
  bool run0 = true;
  size_t route0 = 0;
  DivModeFloat32Params params0{};
  utils::Grid grid0;
  std::vector<OverrideValue> overrides0;
  bool run1 = true;
  DivModeInt32Params params1{};
  utils::Grid grid1;
  std::vector<OverrideValue> overrides1;
};

DivModePlan plan_div_mode(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 4);
  const Tensor& self = graph.get_tensor(args[0]);
  const Tensor& other = graph.get_tensor(args[1]);
  const bool rounding_mode_is_null = graph.is_null(args[2]);
  const std::string rounding_mode = rounding_mode_is_null ? "" : graph.get_string(args[2]);
  if (rounding_mode != "trunc" && rounding_mode != "floor" && rounding_mode != "") {
    utils::fail(kOp, "rounding_mode", "is not supported", rounding_mode, "trunc or floor");
  }
  const Tensor& out = graph.get_tensor(args[3]);
  utils::check_dtype(kOp, "self", self, {DType::Float32, DType::Float16, DType::Int32});
  utils::check_rank(kOp, "self", self, 0, 8);
  utils::check_dtype(kOp, "other", other, {DType::Float32, DType::Float16, DType::Int32});
  utils::check_rank(kOp, "other", other, 0, 8);
  utils::check_dtype(kOp, "out", out, {DType::Float32, DType::Float16, DType::Int32});
  utils::check_rank(kOp, "out", out, 0, 8);
  if (!utils::broadcasts(self.dims(), other.dims())) {
    utils::fail(kOp, "other", "does not broadcast with self", utils::format_value(other.dims()),
                "dims equal to or 1 where " + utils::format_value(self.dims()) + " differs");
  }
  if (other.dtype != self.dtype) {
    utils::fail(kOp, "other", "has a different dtype from self", utils::format_value(other.dtype),
                utils::format_value(self.dtype));
  }
  if ((self.dtype == DType::Int32) && rounding_mode_is_null) {
    utils::fail(
        kOp, "rounding_mode",
        "is None for int32 tensors (torch divides them into float32, which is not implemented)",
        utils::format_value("None"), "trunc or floor");
  }
  utils::check_output_dims(kOp, "out", out, utils::broadcast_shape(self.dims(), other.dims()));

  DivModePlan plan;
  plan.run0 = self.dtype != DType::Int32;
  if (plan.run0) {
    utils::pack(plan.params0.out_dims, 4, utils::right_align(out.dims(), 8, 1), kOp, "out_dims");
    utils::pack(plan.params0.self_strides, 4,
                utils::broadcast_strides(self.dims(), utils::right_align(out.dims(), 8, 1)), kOp,
                "self_strides");
    utils::pack(plan.params0.other_strides, 4,
                utils::broadcast_strides(other.dims(), utils::right_align(out.dims(), 8, 1)), kOp,
                "other_strides");
    plan.params0.alpha = utils::to_f32(1.0);
    plan.params0.num_elements = utils::to_u32(out.numel(), kOp, "num_elements");
    plan.params0.num_vec4 = utils::to_u32(utils::ceil_div(out.numel(), 4), kOp, "num_vec4");
    plan.params0.rank = utils::to_u32(out.rank(), kOp, "rank");
    plan.params0.same_shape = (self.dims() == other.dims()) ? 1 : 0;
    if (graph.has_feature(Feature::ShaderF16) &&
        ((self.dtype == DType::Float16) && !rounding_mode_is_null)) {
      plan.route0 = 0;  // div_rounding_f16
      plan.grid0 = utils::elementwise_grid(utils::ceil_div(out.numel(), 4),
                                           kDivRoundingF16Kernel.workgroup_size[0] * 4,
                                           graph.limits().max_workgroups_per_dimension);
      plan.overrides0 = {{"FLOOR", (rounding_mode == "floor") ? 1.0 : 0.0}};
    } else if ((self.dtype == DType::Float16) && !rounding_mode_is_null) {
      plan.route0 = 1;  // div_rounding_f16_packed
      plan.grid0 = utils::elementwise_grid(utils::ceil_div(out.numel(), 4),
                                           kDivRoundingF16PackedKernel.workgroup_size[0] * 4,
                                           graph.limits().max_workgroups_per_dimension);
      plan.overrides0 = {{"FLOOR", (rounding_mode == "floor") ? 1.0 : 0.0}};
    } else if (graph.has_feature(Feature::ShaderF16) && (self.dtype == DType::Float16)) {
      plan.route0 = 2;  // binary_broadcast_f16
      plan.grid0 = utils::elementwise_grid(utils::ceil_div(out.numel(), 4),
                                           kBinaryBroadcastF16Kernel.workgroup_size[0] * 4,
                                           graph.limits().max_workgroups_per_dimension);
      plan.overrides0 = {{"OP", 3.0}};
    } else if (self.dtype == DType::Float16) {
      plan.route0 = 3;  // binary_broadcast_f16_packed
      plan.grid0 = utils::elementwise_grid(utils::ceil_div(out.numel(), 4),
                                           kBinaryBroadcastF16PackedKernel.workgroup_size[0] * 4,
                                           graph.limits().max_workgroups_per_dimension);
      plan.overrides0 = {{"OP", 3.0}};
    } else if (!rounding_mode_is_null) {
      plan.route0 = 4;  // div_rounding
      plan.grid0 = utils::elementwise_grid(utils::ceil_div(out.numel(), 4),
                                           kDivRoundingKernel.workgroup_size[0] * 4,
                                           graph.limits().max_workgroups_per_dimension);
      plan.overrides0 = {{"FLOOR", (rounding_mode == "floor") ? 1.0 : 0.0}};
    } else {
      plan.route0 = 5;  // binary_broadcast
      plan.grid0 = utils::elementwise_grid(utils::ceil_div(out.numel(), 4),
                                           kBinaryBroadcastKernel.workgroup_size[0] * 4,
                                           graph.limits().max_workgroups_per_dimension);
      plan.overrides0 = {{"OP", 3.0}};
    }
  }
  plan.run1 = self.dtype == DType::Int32;
  if (plan.run1) {
    utils::pack(plan.params1.out_dims, 4, utils::right_align(out.dims(), 8, 1), kOp, "out_dims");
    utils::pack(plan.params1.self_strides, 4,
                utils::broadcast_strides(self.dims(), utils::right_align(out.dims(), 8, 1)), kOp,
                "self_strides");
    utils::pack(plan.params1.other_strides, 4,
                utils::broadcast_strides(other.dims(), utils::right_align(out.dims(), 8, 1)), kOp,
                "other_strides");
    plan.params1.alpha = utils::to_i32(1, kOp, "alpha");
    plan.params1.num_elements = utils::to_u32(out.numel(), kOp, "num_elements");
    plan.params1.num_vec4 = utils::to_u32(utils::ceil_div(out.numel(), 4), kOp, "num_vec4");
    plan.params1.rank = utils::to_u32(out.rank(), kOp, "rank");
    plan.params1.same_shape = (self.dims() == other.dims()) ? 1 : 0;
    plan.grid1 = utils::elementwise_grid(utils::ceil_div(out.numel(), 4),
                                         kBinaryBroadcastI32Kernel.workgroup_size[0] * 4,
                                         graph.limits().max_workgroups_per_dimension);
    plan.overrides1 = {{"OP", static_cast<double>((rounding_mode == "floor") ? 7 : 6)}};
  }
  return plan;
}

// Gives the outputs the shape the op's formula computes from the live inputs.
void resize_div_mode_outputs(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const Tensor& self = graph.get_tensor(args[0]);
  const Tensor& other = graph.get_tensor(args[1]);
  Tensor& out = graph.get_tensor(args[3]);
  utils::resize_output(kOp, "out", out, utils::broadcast_shape(self.dims(), other.dims()));
}

void add_div_mode(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const DivModePlan built = plan_div_mode(graph, args);
  const DispatchId dispatch0 =
      built.run0 ? graph.add_dispatch(*kDispatch0Kernels[built.route0], built.overrides0,
                                      {Binding::params(), Binding::of(args[0]),
                                       Binding::of(args[1]), Binding::of(args[3])},
                                      &built.params0, sizeof(built.params0), built.grid0)
                 : 0;
  const DispatchId dispatch1 =
      built.run1 ? graph.add_dispatch(kBinaryBroadcastI32Kernel, built.overrides1,
                                      {Binding::params(), Binding::of(args[0]),
                                       Binding::of(args[1]), Binding::of(args[3])},
                                      &built.params1, sizeof(built.params1), built.grid1)
                 : 0;
  graph.add_resize_hook([args, built, dispatch0, dispatch1](WebGPUGraph& graph) {
    resize_div_mode_outputs(graph, args);
    const DivModePlan plan = plan_div_mode(graph, args);
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
    if (built.run1) {
      graph.update_dispatch(dispatch1, &plan.params1, sizeof(plan.params1), plan.grid1);
    }
  });
}

}  // namespace
}  // namespace webgpu_delegate

WEBGPU_REGISTER_OP(aten.div.Tensor_mode, webgpu_delegate::add_div_mode, None);
