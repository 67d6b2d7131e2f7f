// @generated from codegen/specs/binary/binary.py - DO NOT EDIT.
// Op sub: aten.sub.Tensor

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ops/binary/binary_broadcast_wgsl.h"
#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "sub";

struct SubParams {
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
static_assert(offsetof(SubParams, out_dims) == 0, "SubParams.out_dims must sit at WGSL offset 0");
static_assert(offsetof(SubParams, self_strides) == 32,
              "SubParams.self_strides must sit at WGSL offset 32");
static_assert(offsetof(SubParams, other_strides) == 64,
              "SubParams.other_strides must sit at WGSL offset 64");
static_assert(offsetof(SubParams, alpha) == 96, "SubParams.alpha must sit at WGSL offset 96");
static_assert(offsetof(SubParams, num_elements) == 100,
              "SubParams.num_elements must sit at WGSL offset 100");
static_assert(offsetof(SubParams, num_vec4) == 104,
              "SubParams.num_vec4 must sit at WGSL offset 104");
static_assert(offsetof(SubParams, rank) == 108, "SubParams.rank must sit at WGSL offset 108");
static_assert(offsetof(SubParams, same_shape) == 112,
              "SubParams.same_shape must sit at WGSL offset 112");
static_assert(sizeof(SubParams) == 128, "SubParams must match the WGSL struct size 128");

const KernelSource kBinaryBroadcastKernel{
    "binary_broadcast",
    kBinaryBroadcastWGSL,
    "main",
    {kBinaryBroadcastWorkgroupSizeX, kBinaryBroadcastWorkgroupSizeY,
     kBinaryBroadcastWorkgroupSizeZ}};

// The argument values, checked and turned into what each dispatch needs.
struct SubPlan {
  SubParams params0{};
  utils::Grid grid0;
  std::vector<OverrideValue> overrides0;
};

SubPlan plan_sub(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 4);
  const Tensor& self = graph.get_tensor(args[0]);
  const Tensor& other = graph.get_tensor(args[1]);
  const double alpha = graph.get_scalar(args[2]);
  const Tensor& out = graph.get_tensor(args[3]);
  utils::check_dtype(kOp, "self", self, {DType::Float32});
  utils::check_rank(kOp, "self", self, 0, 8);
  utils::check_dtype(kOp, "other", other, {DType::Float32});
  utils::check_rank(kOp, "other", other, 0, 8);
  utils::check_dtype(kOp, "out", out, {DType::Float32});
  utils::check_rank(kOp, "out", out, 0, 8);
  if (!(utils::broadcasts(self.dims(), other.dims()))) {
    utils::fail(kOp, "other", "does not broadcast with self", utils::format_value(other.dims()),
                "dims equal to or 1 where " + utils::format_value(self.dims()) + " differs");
  }
  utils::check_output_dims(kOp, "out", out, utils::broadcast_shape(self.dims(), other.dims()));

  SubPlan plan;
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
  plan.params0.same_shape = self.dims() == other.dims() ? 1 : 0;
  plan.grid0 = utils::elementwise_grid(utils::ceil_div(out.numel(), 4),
                                       kBinaryBroadcastKernel.workgroup_size[0] * 4,
                                       graph.limits().max_workgroups_per_dimension);
  plan.overrides0 = {{"OP", static_cast<double>(1)}};
  return plan;
}

// Gives the outputs the shape the op's formula computes from the live inputs.
void resize_sub_outputs(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const Tensor& self = graph.get_tensor(args[0]);
  const Tensor& other = graph.get_tensor(args[1]);
  Tensor& out = graph.get_tensor(args[3]);
  utils::resize_output(kOp, "out", out, utils::broadcast_shape(self.dims(), other.dims()));
}

void add_sub(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const SubPlan built = plan_sub(graph, args);
  const DispatchId dispatch0 = graph.add_dispatch(
      kBinaryBroadcastKernel, built.overrides0,
      {Binding::params(), Binding::of(args[0]), Binding::of(args[1]), Binding::of(args[3])},
      &built.params0, sizeof(built.params0), built.grid0);
  graph.add_resize_hook([args, built, dispatch0](WebGPUGraph& graph) {
    resize_sub_outputs(graph, args);
    const SubPlan plan = plan_sub(graph, args);
    graph.update_dispatch(dispatch0, &plan.params0, sizeof(plan.params0), plan.grid0);
  });
}

}  // namespace
}  // namespace webgpu_delegate

WEBGPU_REGISTER_OP(aten.sub.Tensor, webgpu_delegate::add_sub);
