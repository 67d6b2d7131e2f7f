// @generated from codegen/specs/q8ta/q8ta_eltwise.py - DO NOT EDIT.
// Op q8ta_add: et_vk.q8ta_add.default

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ops/q8ta/q8ta_map_wgsl.h"
#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "q8ta_add";

struct Q8taAddParams {
  uint32_t num_elements;
  uint32_t num_words;
  float a_scale;
  int32_t a_zero_point;
  float b_scale;
  int32_t b_zero_point;
  float alpha;
  float out_inv_scale;
  int32_t out_zero_point;
  uint32_t _pad0[3];
};
static_assert(offsetof(Q8taAddParams, num_elements) == 0,
              "Q8taAddParams.num_elements must sit at WGSL offset 0");
static_assert(offsetof(Q8taAddParams, num_words) == 4,
              "Q8taAddParams.num_words must sit at WGSL offset 4");
static_assert(offsetof(Q8taAddParams, a_scale) == 8,
              "Q8taAddParams.a_scale must sit at WGSL offset 8");
static_assert(offsetof(Q8taAddParams, a_zero_point) == 12,
              "Q8taAddParams.a_zero_point must sit at WGSL offset 12");
static_assert(offsetof(Q8taAddParams, b_scale) == 16,
              "Q8taAddParams.b_scale must sit at WGSL offset 16");
static_assert(offsetof(Q8taAddParams, b_zero_point) == 20,
              "Q8taAddParams.b_zero_point must sit at WGSL offset 20");
static_assert(offsetof(Q8taAddParams, alpha) == 24,
              "Q8taAddParams.alpha must sit at WGSL offset 24");
static_assert(offsetof(Q8taAddParams, out_inv_scale) == 28,
              "Q8taAddParams.out_inv_scale must sit at WGSL offset 28");
static_assert(offsetof(Q8taAddParams, out_zero_point) == 32,
              "Q8taAddParams.out_zero_point must sit at WGSL offset 32");
static_assert(sizeof(Q8taAddParams) == 48, "Q8taAddParams must match the WGSL struct size 48");

const KernelSource kQ8taMapKernel{
    "q8ta_map",       kQ8taMapWGSL,
    "main",           {kQ8taMapWorkgroupSizeX, kQ8taMapWorkgroupSizeY, kQ8taMapWorkgroupSizeZ},
    kQ8taMapBindings, kQ8taMapBindingCount};

// The argument values, checked and turned into what each dispatch needs.
struct Q8taAddPlan {
  Q8taAddParams params0{};
  utils::Grid grid0;
  std::vector<OverrideValue> overrides0;
};

Q8taAddPlan plan_q8ta_add(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 10);
  const Tensor& input_a = graph.get_tensor(args[0]);
  const Tensor& input_b = graph.get_tensor(args[1]);
  const double input_a_scale = utils::read_double(graph, args[2], kOp, "input_a_scale");
  const int64_t input_a_zero_point =
      utils::read_int(graph, args[3], kOp, "input_a_zero_point", false);
  const double input_b_scale = utils::read_double(graph, args[4], kOp, "input_b_scale");
  const int64_t input_b_zero_point =
      utils::read_int(graph, args[5], kOp, "input_b_zero_point", false);
  const double output_scale = utils::read_double(graph, args[6], kOp, "output_scale");
  const int64_t output_zero_point =
      utils::read_int(graph, args[7], kOp, "output_zero_point", false);
  const double alpha = utils::read_double(graph, args[8], kOp, "alpha");
  const Tensor& out = graph.get_tensor(args[9]);
  utils::check_dtype(kOp, "input_a", input_a, {DType::Int8});
  utils::check_rank(kOp, "input_a", input_a, 0, 8);
  utils::check_dtype(kOp, "input_b", input_b, {DType::Int8});
  utils::check_rank(kOp, "input_b", input_b, 0, 8);
  utils::check_dtype(kOp, "out", out, {DType::Int8});
  utils::check_rank(kOp, "out", out, 0, 8);
  if (input_b.dims() != input_a.dims()) {
    utils::fail(kOp, "input_b", "does not have input_a's shape (q8ta_add does not broadcast)",
                utils::format_value(input_b.dims()), utils::format_value(input_a.dims()));
  }
  if (!(input_a_scale > 0.0)) {
    utils::fail(kOp, "input_a_scale", "is not positive", utils::format_value(input_a_scale),
                "a scale > 0");
  }
  if (!(input_b_scale > 0.0)) {
    utils::fail(kOp, "input_b_scale", "is not positive", utils::format_value(input_b_scale),
                "a scale > 0");
  }
  if (!(output_scale > 0.0)) {
    utils::fail(kOp, "output_scale", "is not positive", utils::format_value(output_scale),
                "a scale > 0");
  }
  utils::check_output_dims(kOp, "out", out, input_a.dims());

  Q8taAddPlan plan;
  plan.params0.num_elements = utils::to_u32(input_a.numel(), kOp, "num_elements");
  plan.params0.num_words = utils::to_u32(utils::ceil_div(input_a.numel(), 4), kOp, "num_words");
  plan.params0.a_scale = utils::to_f32(input_a_scale);
  plan.params0.a_zero_point = utils::to_i32(input_a_zero_point, kOp, "a_zero_point");
  plan.params0.b_scale = utils::to_f32(input_b_scale);
  plan.params0.b_zero_point = utils::to_i32(input_b_zero_point, kOp, "b_zero_point");
  plan.params0.alpha = utils::to_f32(alpha);
  plan.params0.out_inv_scale = utils::to_f32(utils::divide(1.0, output_scale));
  plan.params0.out_zero_point = utils::to_i32(output_zero_point, kOp, "out_zero_point");
  plan.grid0 =
      utils::elementwise_grid(utils::ceil_div(input_a.numel(), 4), kQ8taMapKernel.workgroup_size[0],
                              graph.limits().max_workgroups_per_dimension);
  plan.overrides0 = {{"ADD", 1.0}};
  return plan;
}

void add_q8ta_add(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const Q8taAddPlan built = plan_q8ta_add(graph, args);
  graph.add_dispatch(
      kQ8taMapKernel, built.overrides0,
      {Binding::params(), Binding::of(args[0]), Binding::of(args[1]), Binding::of(args[9])},
      &built.params0, sizeof(built.params0), built.grid0);
  // Static shapes only: a resized input is an error, never a silent run at the built shape.
  graph.add_resize_hook([args](WebGPUGraph& graph) {
    utils::check_not_resized(kOp, "input_a", graph.get_tensor(args[0]));
    utils::check_not_resized(kOp, "input_b", graph.get_tensor(args[1]));
  });
}

}  // namespace
}  // namespace webgpu_delegate

WEBGPU_REGISTER_OP(et_vk.q8ta_add.default, webgpu_delegate::add_q8ta_add, None);
