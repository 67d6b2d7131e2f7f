// @generated from codegen/specs/linear_qcsnw/linear_qcsnw.py - DO NOT EDIT.
// Op linear_q8ta_q8csw: et_vk.linear_q8ta_q8csw.default

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ops/linear_qcsnw/linear_q8ta_q8csw_wgsl.h"
#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "linear_q8ta_q8csw";

struct LinearQ8taQ8cswParams {
  uint32_t N;
  uint32_t K;
  uint32_t num_elements;
  int32_t input_zero_point;
  float input_scale;
  uint32_t has_bias;
  uint32_t _pad0[2];
};
static_assert(offsetof(LinearQ8taQ8cswParams, N) == 0,
              "LinearQ8taQ8cswParams.N must sit at WGSL offset 0");
static_assert(offsetof(LinearQ8taQ8cswParams, K) == 4,
              "LinearQ8taQ8cswParams.K must sit at WGSL offset 4");
static_assert(offsetof(LinearQ8taQ8cswParams, num_elements) == 8,
              "LinearQ8taQ8cswParams.num_elements must sit at WGSL offset 8");
static_assert(offsetof(LinearQ8taQ8cswParams, input_zero_point) == 12,
              "LinearQ8taQ8cswParams.input_zero_point must sit at WGSL offset 12");
static_assert(offsetof(LinearQ8taQ8cswParams, input_scale) == 16,
              "LinearQ8taQ8cswParams.input_scale must sit at WGSL offset 16");
static_assert(offsetof(LinearQ8taQ8cswParams, has_bias) == 20,
              "LinearQ8taQ8cswParams.has_bias must sit at WGSL offset 20");
static_assert(sizeof(LinearQ8taQ8cswParams) == 32,
              "LinearQ8taQ8cswParams must match the WGSL struct size 32");

const KernelSource kLinearQ8taQ8cswKernel{
    "linear_q8ta_q8csw",
    kLinearQ8taQ8cswWGSL,
    "main",
    {kLinearQ8taQ8cswWorkgroupSizeX, kLinearQ8taQ8cswWorkgroupSizeY,
     kLinearQ8taQ8cswWorkgroupSizeZ},
    kLinearQ8taQ8cswBindings,
    kLinearQ8taQ8cswBindingCount};

// The argument values, checked and turned into what each dispatch needs.
struct LinearQ8taQ8cswPlan {
  LinearQ8taQ8cswParams params0{};
  utils::Grid grid0;
  std::vector<OverrideValue> overrides0;
};

LinearQ8taQ8cswPlan plan_linear_q8ta_q8csw(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 8);
  const Tensor& x = graph.get_tensor(args[0]);
  const double input_scale = utils::read_double(graph, args[1], kOp, "input_scale");
  const int64_t input_zero_point = utils::read_int(graph, args[2], kOp, "input_zero_point", false);
  const Tensor& weights = graph.get_tensor(args[3]);
  const Tensor& weight_sums = graph.get_tensor(args[4]);
  const Tensor& weight_scales = graph.get_tensor(args[5]);
  const Tensor* bias = graph.is_null(args[6]) ? nullptr : &graph.get_tensor(args[6]);
  const Tensor& out = graph.get_tensor(args[7]);
  utils::check_dtype(kOp, "x", x, {DType::Int8});
  utils::check_rank(kOp, "x", x, 1, 8);
  utils::check_dtype(kOp, "weights", weights, {DType::Int8});
  utils::check_rank(kOp, "weights", weights, 2, 2);
  utils::check_dtype(kOp, "weight_sums", weight_sums, {DType::Int32});
  utils::check_rank(kOp, "weight_sums", weight_sums, 1, 1);
  utils::check_dtype(kOp, "weight_scales", weight_scales, {DType::Float32});
  utils::check_rank(kOp, "weight_scales", weight_scales, 1, 1);
  if (bias != nullptr) {
    utils::check_dtype(kOp, "bias", *bias, {DType::Float32});
    utils::check_rank(kOp, "bias", *bias, 1, 1);
  }
  utils::check_dtype(kOp, "out", out, {DType::Float32});
  utils::check_rank(kOp, "out", out, 1, 8);
  const int64_t K = utils::let(kOp, "K = x.dims[-1]", [&]() -> int64_t { return x.dim(-1); });
  const int64_t N =
      utils::let(kOp, "N = weights.dims[0]", [&]() -> int64_t { return weights.dim(0); });
  const int64_t M = utils::let(kOp, "M = x.numel // K if K > 0 else 0", [&]() -> int64_t {
    return (K > 0) ? utils::floordiv(x.numel(), K) : 0;
  });
  if (weights.dim(1) != K) {
    utils::fail(kOp, "weights", "does not match x's last dim", utils::format_value(weights.dims()),
                "[N, " + utils::format_value(K) + "]");
  }
  if (weight_sums.dim(0) < N) {
    utils::fail(kOp, "weight_sums", "has fewer entries than weights has rows",
                utils::format_value(weight_sums.dims()), "at least " + utils::format_value(N));
  }
  if (weight_scales.dim(0) < N) {
    utils::fail(kOp, "weight_scales", "has fewer entries than weights has rows",
                utils::format_value(weight_scales.dims()), "at least " + utils::format_value(N));
  }
  if ((bias != nullptr) && (bias->dim(0) < N)) {
    utils::fail(kOp, "bias", "has fewer entries than weights has rows",
                utils::format_value(bias->dims()), "at least " + utils::format_value(N));
  }
  if ((input_zero_point < -128) || (input_zero_point > 127)) {
    utils::fail(kOp, "input_zero_point", "is outside int8", utils::format_value(input_zero_point),
                "-128..127");
  }
  utils::check_output_dims(kOp, "out", out,
                           utils::concat(utils::slice(x.dims(), 0, -1), std::vector<int64_t>{N}));

  LinearQ8taQ8cswPlan plan;
  plan.params0.N = utils::to_u32(N, kOp, "N");
  plan.params0.K = utils::to_u32(K, kOp, "K");
  plan.params0.num_elements = utils::to_u32(utils::mul(M, N), kOp, "num_elements");
  plan.params0.input_zero_point = utils::to_i32(input_zero_point, kOp, "input_zero_point");
  plan.params0.input_scale = utils::to_f32(input_scale);
  plan.params0.has_bias = (bias != nullptr) ? 1 : 0;
  plan.grid0 = utils::elementwise_grid(utils::mul(M, N), kLinearQ8taQ8cswKernel.workgroup_size[0],
                                       graph.limits().max_workgroups_per_dimension);
  return plan;
}

// Gives the outputs the shape the op's formula computes from the live inputs.
void resize_linear_q8ta_q8csw_outputs(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const Tensor& x = graph.get_tensor(args[0]);
  const Tensor& weights = graph.get_tensor(args[3]);
  Tensor& out = graph.get_tensor(args[7]);
  const int64_t N =
      utils::let(kOp, "N = weights.dims[0]", [&]() -> int64_t { return weights.dim(0); });
  utils::resize_output(kOp, "out", out,
                       utils::concat(utils::slice(x.dims(), 0, -1), std::vector<int64_t>{N}));
}

void add_linear_q8ta_q8csw(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const LinearQ8taQ8cswPlan built = plan_linear_q8ta_q8csw(graph, args);
  const DispatchId dispatch0 = graph.add_dispatch(
      kLinearQ8taQ8cswKernel, built.overrides0,
      {Binding::params(), Binding::of(args[0]), Binding::of(args[3]), Binding::of(args[4]),
       Binding::of(args[5]), !graph.is_null(args[6]) ? Binding::of(args[6]) : Binding::dummy(),
       Binding::of(args[7])},
      &built.params0, sizeof(built.params0), built.grid0);
  graph.add_resize_hook([args, dispatch0](WebGPUGraph& graph) {
    resize_linear_q8ta_q8csw_outputs(graph, args);
    const LinearQ8taQ8cswPlan plan = plan_linear_q8ta_q8csw(graph, args);
    graph.update_dispatch(dispatch0, &plan.params0, sizeof(plan.params0), plan.grid0);
  });
}

}  // namespace
}  // namespace webgpu_delegate

WEBGPU_REGISTER_OP(et_vk.linear_q8ta_q8csw.default, webgpu_delegate::add_linear_q8ta_q8csw, None);
