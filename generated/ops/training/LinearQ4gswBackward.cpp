// @generated from codegen/specs/training/q4gsw.py - DO NOT EDIT.
// Op linear_q4gsw_backward: et_vk.linear_q4gsw_backward.default

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ops/training/q4gsw_backward_wgsl.h"
#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "linear_q4gsw_backward";

struct LinearQ4gswBackwardParams {
  uint32_t M;
  uint32_t N;
  uint32_t K;
  uint32_t group_size;
  uint32_t num_pairs;
  uint32_t _pad0[3];
};
static_assert(offsetof(LinearQ4gswBackwardParams, M) == 0,
              "LinearQ4gswBackwardParams.M must sit at WGSL offset 0");
static_assert(offsetof(LinearQ4gswBackwardParams, N) == 4,
              "LinearQ4gswBackwardParams.N must sit at WGSL offset 4");
static_assert(offsetof(LinearQ4gswBackwardParams, K) == 8,
              "LinearQ4gswBackwardParams.K must sit at WGSL offset 8");
static_assert(offsetof(LinearQ4gswBackwardParams, group_size) == 12,
              "LinearQ4gswBackwardParams.group_size must sit at WGSL offset 12");
static_assert(offsetof(LinearQ4gswBackwardParams, num_pairs) == 16,
              "LinearQ4gswBackwardParams.num_pairs must sit at WGSL offset 16");
static_assert(sizeof(LinearQ4gswBackwardParams) == 32,
              "LinearQ4gswBackwardParams must match the WGSL struct size 32");

const KernelSource kQ4gswBackwardKernel{
    "q4gsw_backward",
    kQ4gswBackwardWGSL,
    "main",
    {kQ4gswBackwardWorkgroupSizeX, kQ4gswBackwardWorkgroupSizeY, kQ4gswBackwardWorkgroupSizeZ},
    kQ4gswBackwardBindings,
    kQ4gswBackwardBindingCount};

// The argument values, checked and turned into what each dispatch needs.
struct LinearQ4gswBackwardPlan {
  LinearQ4gswBackwardParams params0{};
  utils::Grid grid0;
  std::vector<OverrideValue> overrides0;
};

LinearQ4gswBackwardPlan plan_linear_q4gsw_backward(WebGPUGraph& graph,
                                                   const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 5);
  const Tensor& d_out = graph.get_tensor(args[0]);
  const Tensor& weights = graph.get_tensor(args[1]);
  const Tensor& weight_scales = graph.get_tensor(args[2]);
  const int64_t group_size = utils::read_int(graph, args[3], kOp, "group_size", false);
  const Tensor& out = graph.get_tensor(args[4]);
  utils::check_dtype(kOp, "d_out", d_out, {DType::Float32});
  utils::check_rank(kOp, "d_out", d_out, 1, 4);
  utils::check_dtype(kOp, "weights", weights, {DType::UInt8});
  utils::check_rank(kOp, "weights", weights, 2, 2);
  utils::check_dtype(kOp, "weight_scales", weight_scales, {DType::Float32});
  utils::check_rank(kOp, "weight_scales", weight_scales, 2, 2);
  utils::check_dtype(kOp, "out", out, {DType::Float32});
  utils::check_rank(kOp, "out", out, 1, 4);
  const int64_t N =
      utils::let(kOp, "N = weights.dims[0]", [&]() -> int64_t { return weights.dim(0); });
  const int64_t K = utils::let(kOp, "K = weights.dims[1] * 2",
                               [&]() -> int64_t { return utils::mul(weights.dim(1), 2); });
  const int64_t M = utils::let(kOp, "M = d_out.numel // max(d_out.dims[-1], 1)", [&]() -> int64_t {
    return utils::floordiv(d_out.numel(), utils::max_of(d_out.dim(-1), 1));
  });
  if (d_out.dim(-1) != N) {
    utils::fail(kOp, "d_out", "does not hold one gradient per output feature",
                utils::format_value(d_out.dims()), "[..., " + utils::format_value(N) + "]");
  }
  if ((group_size <= 0) || (utils::floormod(K, group_size) != 0)) {
    utils::fail(kOp, "group_size", "does not divide the input features",
                utils::format_value(group_size), "a divisor of " + utils::format_value(K));
  }
  if (weight_scales.dims() != std::vector<int64_t>{utils::floordiv(K, group_size), N}) {
    utils::fail(kOp, "weight_scales", "does not hold one scale per group of each output feature",
                utils::format_value(weight_scales.dims()),
                "[" + utils::format_value(utils::floordiv(K, group_size)) + ", " +
                    utils::format_value(N) + "]");
  }
  utils::check_output_dims(
      kOp, "out", out, utils::concat(utils::slice(d_out.dims(), 0, -1), std::vector<int64_t>{K}));

  LinearQ4gswBackwardPlan plan;
  plan.params0.M = utils::to_u32(M, kOp, "M");
  plan.params0.N = utils::to_u32(N, kOp, "N");
  plan.params0.K = utils::to_u32(K, kOp, "K");
  plan.params0.group_size = utils::to_u32(group_size, kOp, "group_size");
  plan.params0.num_pairs = utils::to_u32(utils::floordiv(utils::mul(M, K), 2), kOp, "num_pairs");
  plan.grid0 = utils::elementwise_grid(utils::floordiv(utils::mul(M, K), 2),
                                       kQ4gswBackwardKernel.workgroup_size[0],
                                       graph.limits().max_workgroups_per_dimension);
  return plan;
}

void add_linear_q4gsw_backward(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const LinearQ4gswBackwardPlan built = plan_linear_q4gsw_backward(graph, args);
  graph.add_dispatch(kQ4gswBackwardKernel, built.overrides0,
                     {Binding::params(), Binding::of(args[0]), Binding::of(args[1]),
                      Binding::of(args[2]), Binding::of(args[4])},
                     &built.params0, sizeof(built.params0), built.grid0);
  // Static shapes only: a resized input is an error, never a silent run at the built shape.
  graph.add_resize_hook([args](WebGPUGraph& graph) {
    utils::check_not_resized(kOp, "d_out", graph.get_tensor(args[0]));
    utils::check_not_resized(kOp, "weights", graph.get_tensor(args[1]));
    utils::check_not_resized(kOp, "weight_scales", graph.get_tensor(args[2]));
  });
}

}  // namespace
}  // namespace webgpu_delegate

WEBGPU_REGISTER_OP(et_vk.linear_q4gsw_backward.default, webgpu_delegate::add_linear_q4gsw_backward,
                   None);
