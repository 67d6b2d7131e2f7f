// @generated from codegen/specs/linear/linear.py - DO NOT EDIT.
// Op linear: aten.linear.default

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ops/linear/linear_rows_wgsl.h"
#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "linear";

struct LinearParams {
  uint32_t M;
  uint32_t N;
  uint32_t K;
  uint32_t has_bias;
};
static_assert(offsetof(LinearParams, M) == 0, "LinearParams.M must sit at WGSL offset 0");
static_assert(offsetof(LinearParams, N) == 4, "LinearParams.N must sit at WGSL offset 4");
static_assert(offsetof(LinearParams, K) == 8, "LinearParams.K must sit at WGSL offset 8");
static_assert(offsetof(LinearParams, has_bias) == 12,
              "LinearParams.has_bias must sit at WGSL offset 12");
static_assert(sizeof(LinearParams) == 16, "LinearParams must match the WGSL struct size 16");

const KernelSource kLinearRowsKernel{
    "linear_rows",
    kLinearRowsWGSL,
    "main",
    {kLinearRowsWorkgroupSizeX, kLinearRowsWorkgroupSizeY, kLinearRowsWorkgroupSizeZ}};

// The argument values, checked and turned into what each dispatch needs.
struct LinearPlan {
  LinearParams params0{};
  utils::Grid grid0;
  std::vector<OverrideValue> overrides0;
};

LinearPlan plan_linear(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 4);
  const Tensor& input = graph.get_tensor(args[0]);
  const Tensor& weight = graph.get_tensor(args[1]);
  const Tensor* bias = graph.is_null(args[2]) ? nullptr : &graph.get_tensor(args[2]);
  const Tensor& out = graph.get_tensor(args[3]);
  utils::check_dtype(kOp, "input", input, {DType::Float32});
  utils::check_rank(kOp, "input", input, 1, 8);
  utils::check_dtype(kOp, "weight", weight, {DType::Float32});
  utils::check_rank(kOp, "weight", weight, 2, 2);
  if (bias != nullptr) {
    utils::check_dtype(kOp, "bias", *bias, {DType::Float32});
    utils::check_rank(kOp, "bias", *bias, 1, 1);
  }
  utils::check_dtype(kOp, "out", out, {DType::Float32});
  const int64_t K = input.dim(-1);
  const int64_t N = weight.dim(0);
  const int64_t M = utils::floordiv(input.numel(), utils::max_of(K, 1));
  if (!(weight.dim(1) == K)) {
    utils::fail(kOp, "weight", "does not match the input's last dim",
                utils::format_value(weight.dims()), "[N, " + utils::format_value(K) + "]");
  }
  if (!(!(bias != nullptr) || (bias->numel() == N))) {
    utils::fail(kOp, "bias", "does not hold one value per output feature",
                utils::format_value(bias->dims()), "[" + utils::format_value(N) + "]");
  }
  utils::check_output_dims(
      kOp, "out", out, utils::concat(utils::slice(input.dims(), 0, -1), std::vector<int64_t>{N}));

  LinearPlan plan;
  plan.params0.M = utils::to_u32(M, kOp, "M");
  plan.params0.N = utils::to_u32(N, kOp, "N");
  plan.params0.K = utils::to_u32(K, kOp, "K");
  plan.params0.has_bias = (bias != nullptr) ? 1 : 0;
  plan.grid0 = utils::elementwise_grid(utils::mul(M, N), kLinearRowsKernel.workgroup_size[0],
                                       graph.limits().max_workgroups_per_dimension);
  return plan;
}

// Gives the outputs the shape the op's formula computes from the live inputs.
void resize_linear_outputs(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const Tensor& input = graph.get_tensor(args[0]);
  const Tensor& weight = graph.get_tensor(args[1]);
  Tensor& out = graph.get_tensor(args[3]);
  const int64_t N = weight.dim(0);
  utils::resize_output(kOp, "out", out,
                       utils::concat(utils::slice(input.dims(), 0, -1), std::vector<int64_t>{N}));
}

void add_linear(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const LinearPlan built = plan_linear(graph, args);
  const DispatchId dispatch0 = graph.add_dispatch(
      kLinearRowsKernel, built.overrides0,
      {Binding::params(), Binding::of(args[0]), Binding::of(args[1]),
       !graph.is_null(args[2]) ? Binding::of(args[2]) : Binding::dummy(4), Binding::of(args[3])},
      &built.params0, sizeof(built.params0), built.grid0);
  graph.add_resize_hook([args, built, dispatch0](WebGPUGraph& graph) {
    resize_linear_outputs(graph, args);
    const LinearPlan plan = plan_linear(graph, args);
    graph.update_dispatch(dispatch0, &plan.params0, sizeof(plan.params0), plan.grid0);
  });
}

}  // namespace
}  // namespace webgpu_delegate

WEBGPU_REGISTER_OP(aten.linear.default, webgpu_delegate::add_linear);
