// @generated from codegen/specs/q8ta/q8ta_linear.py - DO NOT EDIT.
// Op q8ta_linear: et_vk.q8ta_linear.default

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "ops/q8ta/q8ta_linear_wgsl.h"
#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "q8ta_linear";

struct Q8taLinearParams {
  uint32_t M;
  uint32_t N;
  uint32_t K_words;
  uint32_t num_elements;
  uint32_t num_words;
  float input_scale;
  int32_t input_zero_point;
  float output_inv_scale;
  int32_t output_zero_point;
  uint32_t has_bias;
  uint32_t relu;
  uint32_t _pad0;
};
static_assert(offsetof(Q8taLinearParams, M) == 0, "Q8taLinearParams.M must sit at WGSL offset 0");
static_assert(offsetof(Q8taLinearParams, N) == 4, "Q8taLinearParams.N must sit at WGSL offset 4");
static_assert(offsetof(Q8taLinearParams, K_words) == 8,
              "Q8taLinearParams.K_words must sit at WGSL offset 8");
static_assert(offsetof(Q8taLinearParams, num_elements) == 12,
              "Q8taLinearParams.num_elements must sit at WGSL offset 12");
static_assert(offsetof(Q8taLinearParams, num_words) == 16,
              "Q8taLinearParams.num_words must sit at WGSL offset 16");
static_assert(offsetof(Q8taLinearParams, input_scale) == 20,
              "Q8taLinearParams.input_scale must sit at WGSL offset 20");
static_assert(offsetof(Q8taLinearParams, input_zero_point) == 24,
              "Q8taLinearParams.input_zero_point must sit at WGSL offset 24");
static_assert(offsetof(Q8taLinearParams, output_inv_scale) == 28,
              "Q8taLinearParams.output_inv_scale must sit at WGSL offset 28");
static_assert(offsetof(Q8taLinearParams, output_zero_point) == 32,
              "Q8taLinearParams.output_zero_point must sit at WGSL offset 32");
static_assert(offsetof(Q8taLinearParams, has_bias) == 36,
              "Q8taLinearParams.has_bias must sit at WGSL offset 36");
static_assert(offsetof(Q8taLinearParams, relu) == 40,
              "Q8taLinearParams.relu must sit at WGSL offset 40");
static_assert(sizeof(Q8taLinearParams) == 48,
              "Q8taLinearParams must match the WGSL struct size 48");

const KernelSource kQ8taLinearKernel{
    "q8ta_linear",
    kQ8taLinearWGSL,
    "main",
    {kQ8taLinearWorkgroupSizeX, kQ8taLinearWorkgroupSizeY, kQ8taLinearWorkgroupSizeZ},
    kQ8taLinearBindings,
    kQ8taLinearBindingCount};

// The argument values, checked and turned into what each dispatch needs.
struct Q8taLinearPlan {
  Q8taLinearParams params0{};
  utils::Grid grid0;
  std::vector<OverrideValue> overrides0;
};

Q8taLinearPlan plan_q8ta_linear(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 11);
  const Tensor& x = graph.get_tensor(args[0]);
  const double input_scale = utils::read_double(graph, args[1], kOp, "input_scale");
  const int64_t input_zero_point = utils::read_int(graph, args[2], kOp, "input_zero_point", false);
  const Tensor& weights = graph.get_tensor(args[3]);
  const Tensor& weight_sums = graph.get_tensor(args[4]);
  const Tensor& weight_scales = graph.get_tensor(args[5]);
  const double output_scale = utils::read_double(graph, args[6], kOp, "output_scale");
  const int64_t output_zero_point =
      utils::read_int(graph, args[7], kOp, "output_zero_point", false);
  const Tensor* bias = graph.is_null(args[8]) ? nullptr : &graph.get_tensor(args[8]);
  const std::string activation = graph.is_null(args[9]) ? "none" : graph.get_string(args[9]);
  if (activation != "none" && activation != "relu") {
    utils::fail(kOp, "activation", "is not supported", activation, "none or relu");
  }
  const Tensor& out = graph.get_tensor(args[10]);
  utils::check_dtype(kOp, "x", x, {DType::Int8});
  utils::check_rank(kOp, "x", x, 1, 4);
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
  utils::check_dtype(kOp, "out", out, {DType::Int8});
  utils::check_rank(kOp, "out", out, 1, 4);
  const int64_t K = utils::let(kOp, "K = x.dims[-1]", [&]() -> int64_t { return x.dim(-1); });
  const int64_t N =
      utils::let(kOp, "N = weights.dims[0]", [&]() -> int64_t { return weights.dim(0); });
  const int64_t M = utils::let(kOp, "M = x.numel // max(x.dims[-1], 1)", [&]() -> int64_t {
    return utils::floordiv(x.numel(), utils::max_of(x.dim(-1), 1));
  });
  if ((utils::floormod(K, 4) != 0) || (K <= 0)) {
    utils::fail(kOp, "x",
                "has in_features that are not a positive multiple of 4 (the Vulkan partitioner "
                "fuses only those)",
                utils::format_value(K), "a multiple of 4");
  }
  if (weights.dim(1) != K) {
    utils::fail(kOp, "weights", "does not match the input features",
                utils::format_value(weights.dims()), "[N, " + utils::format_value(K) + "]");
  }
  if (weight_scales.numel() < N) {
    utils::fail(kOp, "weight_scales", "holds fewer than one scale per output channel",
                utils::format_value(weight_scales.numel()), "at least " + utils::format_value(N));
  }
  if ((bias != nullptr) && (bias->numel() < N)) {
    utils::fail(kOp, "bias", "holds fewer than one value per output channel",
                utils::format_value(bias->numel()), "at least " + utils::format_value(N));
  }
  if (!(input_scale > 0.0)) {
    utils::fail(kOp, "input_scale", "is not positive", utils::format_value(input_scale),
                "a scale > 0");
  }
  if (!(output_scale > 0.0)) {
    utils::fail(kOp, "output_scale", "is not positive", utils::format_value(output_scale),
                "a scale > 0");
  }
  utils::check_output_dims(kOp, "out", out,
                           utils::concat(utils::slice(x.dims(), 0, -1), std::vector<int64_t>{N}));

  Q8taLinearPlan plan;
  plan.params0.M = utils::to_u32(M, kOp, "M");
  plan.params0.N = utils::to_u32(N, kOp, "N");
  plan.params0.K_words = utils::to_u32(utils::floordiv(K, 4), kOp, "K_words");
  plan.params0.num_elements = utils::to_u32(out.numel(), kOp, "num_elements");
  plan.params0.num_words = utils::to_u32(utils::ceil_div(out.numel(), 4), kOp, "num_words");
  plan.params0.input_scale = utils::to_f32(input_scale);
  plan.params0.input_zero_point = utils::to_i32(input_zero_point, kOp, "input_zero_point");
  plan.params0.output_inv_scale = utils::to_f32(utils::divide(1.0, output_scale));
  plan.params0.output_zero_point = utils::to_i32(output_zero_point, kOp, "output_zero_point");
  plan.params0.has_bias = (bias != nullptr) ? 1 : 0;
  plan.params0.relu = (activation == "relu") ? 1 : 0;
  plan.grid0 =
      utils::elementwise_grid(utils::ceil_div(out.numel(), 4), kQ8taLinearKernel.workgroup_size[0],
                              graph.limits().max_workgroups_per_dimension);
  return plan;
}

void add_q8ta_linear(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const Q8taLinearPlan built = plan_q8ta_linear(graph, args);
  graph.add_dispatch(
      kQ8taLinearKernel, built.overrides0,
      {Binding::params(), Binding::of(args[0]), Binding::of(args[3]), Binding::of(args[5]),
       !graph.is_null(args[8]) ? Binding::of(args[8]) : Binding::dummy(), Binding::of(args[10])},
      &built.params0, sizeof(built.params0), built.grid0);
  // Static shapes only: a resized input is an error, never a silent run at the built shape.
  graph.add_resize_hook([args](WebGPUGraph& graph) {
    utils::check_not_resized(kOp, "x", graph.get_tensor(args[0]));
    utils::check_not_resized(kOp, "weights", graph.get_tensor(args[3]));
    utils::check_not_resized(kOp, "weight_sums", graph.get_tensor(args[4]));
    utils::check_not_resized(kOp, "weight_scales", graph.get_tensor(args[5]));
    if (!graph.is_null(args[8])) {
      utils::check_not_resized(kOp, "bias", graph.get_tensor(args[8]));
    }
  });
}

}  // namespace
}  // namespace webgpu_delegate

WEBGPU_REGISTER_OP(et_vk.q8ta_linear.default, webgpu_delegate::add_q8ta_linear, None);
