// @generated from codegen/specs/constant_pad_nd/constant_pad_nd.py - DO NOT EDIT.
// Op constant_pad_nd: aten.constant_pad_nd.default

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ops/constant_pad_nd/constant_pad_nd_f16_packed_wgsl.h"
#include "ops/constant_pad_nd/constant_pad_nd_f16_wgsl.h"
#include "ops/constant_pad_nd/constant_pad_nd_wgsl.h"
#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "constant_pad_nd";

struct ConstantPadNdParams {
  uint32_t out_dims[4];
  uint32_t in_dims[4];
  uint32_t left[4];
  float value;
  uint32_t num_elements;
  uint32_t _pad0[2];
};
static_assert(offsetof(ConstantPadNdParams, out_dims) == 0,
              "ConstantPadNdParams.out_dims must sit at WGSL offset 0");
static_assert(offsetof(ConstantPadNdParams, in_dims) == 16,
              "ConstantPadNdParams.in_dims must sit at WGSL offset 16");
static_assert(offsetof(ConstantPadNdParams, left) == 32,
              "ConstantPadNdParams.left must sit at WGSL offset 32");
static_assert(offsetof(ConstantPadNdParams, value) == 48,
              "ConstantPadNdParams.value must sit at WGSL offset 48");
static_assert(offsetof(ConstantPadNdParams, num_elements) == 52,
              "ConstantPadNdParams.num_elements must sit at WGSL offset 52");
static_assert(sizeof(ConstantPadNdParams) == 64,
              "ConstantPadNdParams must match the WGSL struct size 64");

const KernelSource kConstantPadNdF16Kernel{
    "constant_pad_nd_f16",
    kConstantPadNdF16WGSL,
    "main",
    {kConstantPadNdF16WorkgroupSizeX, kConstantPadNdF16WorkgroupSizeY,
     kConstantPadNdF16WorkgroupSizeZ},
    kConstantPadNdF16Bindings,
    kConstantPadNdF16BindingCount,
    kConstantPadNdF16Features};
const KernelSource kConstantPadNdF16PackedKernel{
    "constant_pad_nd_f16_packed",
    kConstantPadNdF16PackedWGSL,
    "main",
    {kConstantPadNdF16PackedWorkgroupSizeX, kConstantPadNdF16PackedWorkgroupSizeY,
     kConstantPadNdF16PackedWorkgroupSizeZ},
    kConstantPadNdF16PackedBindings,
    kConstantPadNdF16PackedBindingCount};
const KernelSource kConstantPadNdKernel{
    "constant_pad_nd",
    kConstantPadNdWGSL,
    "main",
    {kConstantPadNdWorkgroupSizeX, kConstantPadNdWorkgroupSizeY, kConstantPadNdWorkgroupSizeZ},
    kConstantPadNdBindings,
    kConstantPadNdBindingCount};
// Dispatch 0's kernels, in route order.
const KernelSource* const kDispatch0Kernels[] = {
    &kConstantPadNdF16Kernel, &kConstantPadNdF16PackedKernel, &kConstantPadNdKernel};

// The argument values, checked and turned into what each dispatch needs.
struct ConstantPadNdPlan {
  size_t route0 = 0;
  ConstantPadNdParams params0{};
  utils::Grid grid0;
  std::vector<OverrideValue> overrides0;
};

ConstantPadNdPlan plan_constant_pad_nd(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 4);
  const Tensor& self = graph.get_tensor(args[0]);
  const std::vector<int64_t> pad = utils::read_int_list(graph, args[1], kOp, "pad");
  const double value = graph.get_scalar(args[2]);
  const Tensor& out = graph.get_tensor(args[3]);
  utils::check_dtype(kOp, "self", self, {DType::Float32, DType::Float16});
  utils::check_rank(kOp, "self", self, 1, 4);
  utils::check_dtype(kOp, "out", out, {DType::Float32, DType::Float16});
  utils::check_rank(kOp, "out", out, 1, 4);
  const int64_t pairs = utils::let(kOp, "pairs = len(pad) // 2", [&]() -> int64_t {
    return utils::floordiv(utils::length(pad), 2);
  });
  const std::vector<int64_t> in4 =
      utils::let(kOp, "in4 = right_align(self.dims, 4, 1)",
                 [&]() -> std::vector<int64_t> { return utils::right_align(self.dims(), 4, 1); });
  const std::vector<int64_t> left4 =
      utils::let(kOp,
                 "left4 = [pad[6] if pairs > 3 else 0, pad[4] if pairs > 2 else 0, pad[2] if pairs "
                 "> 1 else 0, pad[0] if pairs > 0 else 0]",
                 [&]() -> std::vector<int64_t> {
                   return std::vector<int64_t>{
                       (pairs > 3) ? utils::at(pad, 6) : 0, (pairs > 2) ? utils::at(pad, 4) : 0,
                       (pairs > 1) ? utils::at(pad, 2) : 0, (pairs > 0) ? utils::at(pad, 0) : 0};
                 });
  const std::vector<int64_t> right4 =
      utils::let(kOp,
                 "right4 = [pad[7] if pairs > 3 else 0, pad[5] if pairs > 2 else 0, pad[3] if "
                 "pairs > 1 else 0, pad[1] if pairs > 0 else 0]",
                 [&]() -> std::vector<int64_t> {
                   return std::vector<int64_t>{
                       (pairs > 3) ? utils::at(pad, 7) : 0, (pairs > 2) ? utils::at(pad, 5) : 0,
                       (pairs > 1) ? utils::at(pad, 3) : 0, (pairs > 0) ? utils::at(pad, 1) : 0};
                 });
  const std::vector<int64_t> out4 = utils::let(
      kOp,
      "out4 = [in4[0] + left4[0] + right4[0], in4[1] + left4[1] + right4[1], in4[2] + left4[2] + "
      "right4[2], in4[3] + left4[3] + right4[3]]",
      [&]() -> std::vector<int64_t> {
        return std::vector<int64_t>{
            utils::add(utils::add(utils::at(in4, 0), utils::at(left4, 0)), utils::at(right4, 0)),
            utils::add(utils::add(utils::at(in4, 1), utils::at(left4, 1)), utils::at(right4, 1)),
            utils::add(utils::add(utils::at(in4, 2), utils::at(left4, 2)), utils::at(right4, 2)),
            utils::add(utils::add(utils::at(in4, 3), utils::at(left4, 3)), utils::at(right4, 3))};
      });
  if (utils::floormod(utils::length(pad), 2) != 0) {
    utils::fail(kOp, "pad", "must hold (left, right) pairs",
                utils::format_value(utils::length(pad)), "an even number of values");
  }
  if (utils::length(pad) > utils::mul(2, self.rank())) {
    utils::fail(kOp, "pad", "pads more dims than the input has",
                utils::format_value(utils::length(pad)),
                "at most " + utils::format_value(utils::mul(2, self.rank())) + " values");
  }
  if ((utils::length(pad) != 0) && (utils::min_of(pad) < 0)) {
    utils::fail(kOp, "pad", "holds a negative pad (cropping)", utils::format_value(pad),
                "non-negative values");
  }
  utils::check_output_dims(kOp, "out", out,
                           utils::slice(out4, utils::sub(4, self.rank()), INT64_MAX));

  ConstantPadNdPlan plan;
  utils::pack(plan.params0.out_dims, out4, kOp, "out_dims");
  utils::pack(plan.params0.in_dims, in4, kOp, "in_dims");
  utils::pack(plan.params0.left, left4, kOp, "left");
  plan.params0.value = utils::to_f32(value);
  plan.params0.num_elements = utils::to_u32(out.numel(), kOp, "num_elements");
  if (graph.has_feature(Feature::ShaderF16) && (self.dtype == DType::Float16)) {
    plan.route0 = 0;  // constant_pad_nd_f16
    plan.grid0 = utils::elementwise_grid(utils::ceil_div(out.numel(), 4),
                                         kConstantPadNdF16Kernel.workgroup_size[0],
                                         graph.limits().max_workgroups_per_dimension);
  } else if (self.dtype == DType::Float16) {
    plan.route0 = 1;  // constant_pad_nd_f16_packed
    plan.grid0 = utils::elementwise_grid(utils::ceil_div(out.numel(), 4),
                                         kConstantPadNdF16PackedKernel.workgroup_size[0],
                                         graph.limits().max_workgroups_per_dimension);
  } else {
    plan.route0 = 2;  // constant_pad_nd
    plan.grid0 = utils::elementwise_grid(utils::ceil_div(out.numel(), 4),
                                         kConstantPadNdKernel.workgroup_size[0],
                                         graph.limits().max_workgroups_per_dimension);
  }
  return plan;
}

// Gives the outputs the shape the op's formula computes from the live inputs.
void resize_constant_pad_nd_outputs(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const Tensor& self = graph.get_tensor(args[0]);
  const std::vector<int64_t> pad = utils::read_int_list(graph, args[1], kOp, "pad");
  Tensor& out = graph.get_tensor(args[3]);
  const int64_t pairs = utils::let(kOp, "pairs = len(pad) // 2", [&]() -> int64_t {
    return utils::floordiv(utils::length(pad), 2);
  });
  const std::vector<int64_t> in4 =
      utils::let(kOp, "in4 = right_align(self.dims, 4, 1)",
                 [&]() -> std::vector<int64_t> { return utils::right_align(self.dims(), 4, 1); });
  const std::vector<int64_t> left4 =
      utils::let(kOp,
                 "left4 = [pad[6] if pairs > 3 else 0, pad[4] if pairs > 2 else 0, pad[2] if pairs "
                 "> 1 else 0, pad[0] if pairs > 0 else 0]",
                 [&]() -> std::vector<int64_t> {
                   return std::vector<int64_t>{
                       (pairs > 3) ? utils::at(pad, 6) : 0, (pairs > 2) ? utils::at(pad, 4) : 0,
                       (pairs > 1) ? utils::at(pad, 2) : 0, (pairs > 0) ? utils::at(pad, 0) : 0};
                 });
  const std::vector<int64_t> right4 =
      utils::let(kOp,
                 "right4 = [pad[7] if pairs > 3 else 0, pad[5] if pairs > 2 else 0, pad[3] if "
                 "pairs > 1 else 0, pad[1] if pairs > 0 else 0]",
                 [&]() -> std::vector<int64_t> {
                   return std::vector<int64_t>{
                       (pairs > 3) ? utils::at(pad, 7) : 0, (pairs > 2) ? utils::at(pad, 5) : 0,
                       (pairs > 1) ? utils::at(pad, 3) : 0, (pairs > 0) ? utils::at(pad, 1) : 0};
                 });
  const std::vector<int64_t> out4 = utils::let(
      kOp,
      "out4 = [in4[0] + left4[0] + right4[0], in4[1] + left4[1] + right4[1], in4[2] + left4[2] + "
      "right4[2], in4[3] + left4[3] + right4[3]]",
      [&]() -> std::vector<int64_t> {
        return std::vector<int64_t>{
            utils::add(utils::add(utils::at(in4, 0), utils::at(left4, 0)), utils::at(right4, 0)),
            utils::add(utils::add(utils::at(in4, 1), utils::at(left4, 1)), utils::at(right4, 1)),
            utils::add(utils::add(utils::at(in4, 2), utils::at(left4, 2)), utils::at(right4, 2)),
            utils::add(utils::add(utils::at(in4, 3), utils::at(left4, 3)), utils::at(right4, 3))};
      });
  utils::resize_output(kOp, "out", out, utils::slice(out4, utils::sub(4, self.rank()), INT64_MAX));
}

void add_constant_pad_nd(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const ConstantPadNdPlan built = plan_constant_pad_nd(graph, args);
  const DispatchId dispatch0 =
      graph.add_dispatch(*kDispatch0Kernels[built.route0], built.overrides0,
                         {Binding::params(), Binding::of(args[0]), Binding::of(args[3])},
                         &built.params0, sizeof(built.params0), built.grid0);
  graph.add_resize_hook([args, built, dispatch0](WebGPUGraph& graph) {
    resize_constant_pad_nd_outputs(graph, args);
    const ConstantPadNdPlan plan = plan_constant_pad_nd(graph, args);
    if (plan.route0 != built.route0) {
      utils::fail(kOp, "inputs", "were resized into a different kernel route",
                  kDispatch0Kernels[plan.route0]->name, kDispatch0Kernels[built.route0]->name);
    }
    graph.update_dispatch(dispatch0, &plan.params0, sizeof(plan.params0), plan.grid0);
  });
}

}  // namespace
}  // namespace webgpu_delegate

WEBGPU_REGISTER_OP(aten.constant_pad_nd.default, webgpu_delegate::add_constant_pad_nd, None);
