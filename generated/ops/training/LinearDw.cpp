// @generated from codegen/specs/training/linear_dw.py - DO NOT EDIT.
// Op linear_dw: et_vk.linear_dW.default

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ops/training/linear_dw_wgsl.h"
#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "linear_dw";

struct LinearDwParams {
  uint32_t N;
  uint32_t K;
  uint32_t R;
  uint32_t _pad0;
};
static_assert(offsetof(LinearDwParams, N) == 0, "LinearDwParams.N must sit at WGSL offset 0");
static_assert(offsetof(LinearDwParams, K) == 4, "LinearDwParams.K must sit at WGSL offset 4");
static_assert(offsetof(LinearDwParams, R) == 8, "LinearDwParams.R must sit at WGSL offset 8");
static_assert(sizeof(LinearDwParams) == 16, "LinearDwParams must match the WGSL struct size 16");

const KernelSource kLinearDwKernel{
    "linear_dw",
    kLinearDwWGSL,
    "main",
    {kLinearDwWorkgroupSizeX, kLinearDwWorkgroupSizeY, kLinearDwWorkgroupSizeZ},
    kLinearDwBindings,
    kLinearDwBindingCount};

// The argument values, checked and turned into what each dispatch needs.
struct LinearDwPlan {
  LinearDwParams params0{};
  utils::Grid grid0;
  std::vector<OverrideValue> overrides0;
};

LinearDwPlan plan_linear_dw(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 3);
  const Tensor& d_out = graph.get_tensor(args[0]);
  const Tensor& x = graph.get_tensor(args[1]);
  const Tensor& out = graph.get_tensor(args[2]);
  utils::check_dtype(kOp, "d_out", d_out, {DType::Float32});
  utils::check_rank(kOp, "d_out", d_out, 1, 4);
  utils::check_dtype(kOp, "x", x, {DType::Float32});
  utils::check_rank(kOp, "x", x, 1, 4);
  utils::check_dtype(kOp, "out", out, {DType::Float32});
  utils::check_rank(kOp, "out", out, 2, 2);
  const int64_t N =
      utils::let(kOp, "N = d_out.dims[-1]", [&]() -> int64_t { return d_out.dim(-1); });
  const int64_t K = utils::let(kOp, "K = x.dims[-1]", [&]() -> int64_t { return x.dim(-1); });
  const int64_t R = utils::let(kOp, "R = d_out.numel // max(d_out.dims[-1], 1)", [&]() -> int64_t {
    return utils::floordiv(d_out.numel(), utils::max_of(d_out.dim(-1), 1));
  });
  if ((N <= 0) || (K <= 0)) {
    utils::fail(kOp, "d_out", "or x has no features",
                utils::format_value(std::vector<int64_t>{N, K}),
                "at least one output and one input feature");
  }
  if (utils::floordiv(x.numel(), K) != R) {
    utils::fail(kOp, "x", "does not have d_out's rows", utils::format_value(x.dims()),
                utils::format_value(R) + " rows of " + utils::format_value(K) + " features");
  }
  utils::check_output_dims(kOp, "out", out, std::vector<int64_t>{N, K});

  LinearDwPlan plan;
  plan.params0.N = utils::to_u32(N, kOp, "N");
  plan.params0.K = utils::to_u32(K, kOp, "K");
  plan.params0.R = utils::to_u32(R, kOp, "R");
  plan.grid0 = utils::tiles_grid(K, N, 1, 16, 16, graph.limits().max_workgroups_per_dimension);
  return plan;
}

void add_linear_dw(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const LinearDwPlan built = plan_linear_dw(graph, args);
  graph.add_dispatch(
      kLinearDwKernel, built.overrides0,
      {Binding::params(), Binding::of(args[0]), Binding::of(args[1]), Binding::of(args[2])},
      &built.params0, sizeof(built.params0), built.grid0);
  // Static shapes only: a resized input is an error, never a silent run at the built shape.
  graph.add_resize_hook([args](WebGPUGraph& graph) {
    utils::check_not_resized(kOp, "d_out", graph.get_tensor(args[0]));
    utils::check_not_resized(kOp, "x", graph.get_tensor(args[1]));
  });
}

}  // namespace
}  // namespace webgpu_delegate

WEBGPU_REGISTER_OP(et_vk.linear_dW.default, webgpu_delegate::add_linear_dw, None);
