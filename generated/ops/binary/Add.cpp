// @generated from codegen/specs/binary/binary.py - DO NOT EDIT.
// Op add: aten.add.Tensor

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ops/binary/binary_broadcast_f16_packed_wgsl.h"
#include "ops/binary/binary_broadcast_f16_wgsl.h"
#include "ops/binary/binary_broadcast_i32_wgsl.h"
#include "ops/binary/binary_broadcast_wgsl.h"
#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "add";

struct AddFloat32Params {
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
static_assert(offsetof(AddFloat32Params, out_dims) == 0,
              "AddFloat32Params.out_dims must sit at WGSL offset 0");
static_assert(offsetof(AddFloat32Params, self_strides) == 32,
              "AddFloat32Params.self_strides must sit at WGSL offset 32");
static_assert(offsetof(AddFloat32Params, other_strides) == 64,
              "AddFloat32Params.other_strides must sit at WGSL offset 64");
static_assert(offsetof(AddFloat32Params, alpha) == 96,
              "AddFloat32Params.alpha must sit at WGSL offset 96");
static_assert(offsetof(AddFloat32Params, num_elements) == 100,
              "AddFloat32Params.num_elements must sit at WGSL offset 100");
static_assert(offsetof(AddFloat32Params, num_vec4) == 104,
              "AddFloat32Params.num_vec4 must sit at WGSL offset 104");
static_assert(offsetof(AddFloat32Params, rank) == 108,
              "AddFloat32Params.rank must sit at WGSL offset 108");
static_assert(offsetof(AddFloat32Params, same_shape) == 112,
              "AddFloat32Params.same_shape must sit at WGSL offset 112");
static_assert(sizeof(AddFloat32Params) == 128,
              "AddFloat32Params must match the WGSL struct size 128");

struct AddInt32Params {
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
static_assert(offsetof(AddInt32Params, out_dims) == 0,
              "AddInt32Params.out_dims must sit at WGSL offset 0");
static_assert(offsetof(AddInt32Params, self_strides) == 32,
              "AddInt32Params.self_strides must sit at WGSL offset 32");
static_assert(offsetof(AddInt32Params, other_strides) == 64,
              "AddInt32Params.other_strides must sit at WGSL offset 64");
static_assert(offsetof(AddInt32Params, alpha) == 96,
              "AddInt32Params.alpha must sit at WGSL offset 96");
static_assert(offsetof(AddInt32Params, num_elements) == 100,
              "AddInt32Params.num_elements must sit at WGSL offset 100");
static_assert(offsetof(AddInt32Params, num_vec4) == 104,
              "AddInt32Params.num_vec4 must sit at WGSL offset 104");
static_assert(offsetof(AddInt32Params, rank) == 108,
              "AddInt32Params.rank must sit at WGSL offset 108");
static_assert(offsetof(AddInt32Params, same_shape) == 112,
              "AddInt32Params.same_shape must sit at WGSL offset 112");
static_assert(sizeof(AddInt32Params) == 128, "AddInt32Params must match the WGSL struct size 128");

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
    &kBinaryBroadcastF16Kernel, &kBinaryBroadcastF16PackedKernel, &kBinaryBroadcastKernel};

// The argument values, checked and turned into what each dispatch needs.
struct AddPlan {
  bool run0 = true;
  size_t route0 = 0;
  AddFloat32Params params0{};
  utils::Grid grid0;
  std::vector<OverrideValue> overrides0;
  bool run1 = true;
  AddInt32Params params1{};
  utils::Grid grid1;
  std::vector<OverrideValue> overrides1;
};

AddPlan plan_add(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 4);
  const Tensor& self = graph.get_tensor(args[0]);
  const Tensor& other = graph.get_tensor(args[1]);
  const double alpha = graph.get_scalar(args[2]);
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
  if ((self.dtype == DType::Int32) && (static_cast<double>(utils::floor_to_int(alpha)) != alpha)) {
    utils::fail(kOp, "alpha", "is not an integer for int32 tensors", utils::format_value(alpha),
                "an integral alpha");
  }
  utils::check_output_dims(kOp, "out", out, utils::broadcast_shape(self.dims(), other.dims()));

  AddPlan plan;
  plan.run0 = self.dtype != DType::Int32;
  if (plan.run0) {
    utils::pack(plan.params0.out_dims, 4, utils::right_align(out.dims(), 8, 1), kOp, "out_dims");
    utils::pack(plan.params0.self_strides, 4,
                utils::broadcast_strides(self.dims(), utils::right_align(out.dims(), 8, 1)), kOp,
                "self_strides");
    utils::pack(plan.params0.other_strides, 4,
                utils::broadcast_strides(other.dims(), utils::right_align(out.dims(), 8, 1)), kOp,
                "other_strides");
    plan.params0.alpha = utils::to_f32(alpha);
    plan.params0.num_elements = utils::to_u32(out.numel(), kOp, "num_elements");
    plan.params0.num_vec4 = utils::to_u32(utils::ceil_div(out.numel(), 4), kOp, "num_vec4");
    plan.params0.rank = utils::to_u32(out.rank(), kOp, "rank");
    plan.params0.same_shape = (self.dims() == other.dims()) ? 1 : 0;
    if (graph.has_feature(Feature::ShaderF16) && (self.dtype == DType::Float16)) {
      plan.route0 = 0;  // binary_broadcast_f16
      plan.grid0 = utils::elementwise_grid(utils::ceil_div(out.numel(), 4),
                                           kBinaryBroadcastF16Kernel.workgroup_size[0] * 4,
                                           graph.limits().max_workgroups_per_dimension);
      plan.overrides0 = {{"OP", 0.0}};
    } else if (self.dtype == DType::Float16) {
      plan.route0 = 1;  // binary_broadcast_f16_packed
      plan.grid0 = utils::elementwise_grid(utils::ceil_div(out.numel(), 4),
                                           kBinaryBroadcastF16PackedKernel.workgroup_size[0] * 4,
                                           graph.limits().max_workgroups_per_dimension);
      plan.overrides0 = {{"OP", 0.0}};
    } else {
      plan.route0 = 2;  // binary_broadcast
      plan.grid0 = utils::elementwise_grid(utils::ceil_div(out.numel(), 4),
                                           kBinaryBroadcastKernel.workgroup_size[0] * 4,
                                           graph.limits().max_workgroups_per_dimension);
      plan.overrides0 = {{"OP", 0.0}};
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
    plan.params1.alpha = utils::to_i32(utils::floor_to_int(alpha), kOp, "alpha");
    plan.params1.num_elements = utils::to_u32(out.numel(), kOp, "num_elements");
    plan.params1.num_vec4 = utils::to_u32(utils::ceil_div(out.numel(), 4), kOp, "num_vec4");
    plan.params1.rank = utils::to_u32(out.rank(), kOp, "rank");
    plan.params1.same_shape = (self.dims() == other.dims()) ? 1 : 0;
    plan.grid1 = utils::elementwise_grid(utils::ceil_div(out.numel(), 4),
                                         kBinaryBroadcastI32Kernel.workgroup_size[0] * 4,
                                         graph.limits().max_workgroups_per_dimension);
    plan.overrides1 = {{"OP", 0.0}};
  }
  return plan;
}

// Gives the outputs the shape the op's formula computes from the live inputs.
void resize_add_outputs(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const Tensor& self = graph.get_tensor(args[0]);
  const Tensor& other = graph.get_tensor(args[1]);
  Tensor& out = graph.get_tensor(args[3]);
  utils::resize_output(kOp, "out", out, utils::broadcast_shape(self.dims(), other.dims()));
}

void add_add(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const AddPlan built = plan_add(graph, args);
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
    resize_add_outputs(graph, args);
    const AddPlan plan = plan_add(graph, args);
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

WEBGPU_REGISTER_OP(aten.add.Tensor, webgpu_delegate::add_add, None);
