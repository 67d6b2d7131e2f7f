// @generated from codegen/specs/q8ta/q8ta_eltwise.py - DO NOT EDIT.
// Op q8ta_relu: et_vk.q8ta_relu.default

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ops/q8ta/q8ta_map_wgsl.h"
#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "q8ta_relu";

struct Q8taReluParams {
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
static_assert(offsetof(Q8taReluParams, num_elements) == 0,
              "Q8taReluParams.num_elements must sit at WGSL offset 0");
static_assert(offsetof(Q8taReluParams, num_words) == 4,
              "Q8taReluParams.num_words must sit at WGSL offset 4");
static_assert(offsetof(Q8taReluParams, a_scale) == 8,
              "Q8taReluParams.a_scale must sit at WGSL offset 8");
static_assert(offsetof(Q8taReluParams, a_zero_point) == 12,
              "Q8taReluParams.a_zero_point must sit at WGSL offset 12");
static_assert(offsetof(Q8taReluParams, b_scale) == 16,
              "Q8taReluParams.b_scale must sit at WGSL offset 16");
static_assert(offsetof(Q8taReluParams, b_zero_point) == 20,
              "Q8taReluParams.b_zero_point must sit at WGSL offset 20");
static_assert(offsetof(Q8taReluParams, alpha) == 24,
              "Q8taReluParams.alpha must sit at WGSL offset 24");
static_assert(offsetof(Q8taReluParams, out_inv_scale) == 28,
              "Q8taReluParams.out_inv_scale must sit at WGSL offset 28");
static_assert(offsetof(Q8taReluParams, out_zero_point) == 32,
              "Q8taReluParams.out_zero_point must sit at WGSL offset 32");
static_assert(sizeof(Q8taReluParams) == 48, "Q8taReluParams must match the WGSL struct size 48");

const KernelSource kQ8taMapKernel{
    "q8ta_map",       kQ8taMapWGSL,
    "main",           {kQ8taMapWorkgroupSizeX, kQ8taMapWorkgroupSizeY, kQ8taMapWorkgroupSizeZ},
    kQ8taMapBindings, kQ8taMapBindingCount};

// The argument values, checked and turned into what each dispatch needs.
struct Q8taReluPlan {
  Q8taReluParams params0{};
  utils::Grid grid0;
  std::vector<OverrideValue> overrides0;
};

Q8taReluPlan plan_q8ta_relu(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 6);
  const Tensor& input = graph.get_tensor(args[0]);
  const double input_scale = utils::read_double(graph, args[1], kOp, "input_scale");
  const int64_t input_zero_point = utils::read_int(graph, args[2], kOp, "input_zero_point", false);
  const double output_scale = utils::read_double(graph, args[3], kOp, "output_scale");
  const int64_t output_zero_point =
      utils::read_int(graph, args[4], kOp, "output_zero_point", false);
  const Tensor& out = graph.get_tensor(args[5]);
  utils::check_dtype(kOp, "input", input, {DType::Int8});
  utils::check_rank(kOp, "input", input, 0, 8);
  utils::check_dtype(kOp, "out", out, {DType::Int8});
  utils::check_rank(kOp, "out", out, 0, 8);
  if (!(input_scale > 0.0)) {
    utils::fail(kOp, "input_scale", "is not positive", utils::format_value(input_scale),
                "a scale > 0");
  }
  if (!(output_scale > 0.0)) {
    utils::fail(kOp, "output_scale", "is not positive", utils::format_value(output_scale),
                "a scale > 0");
  }
  utils::check_output_dims(kOp, "out", out, input.dims());

  Q8taReluPlan plan;
  plan.params0.num_elements = utils::to_u32(input.numel(), kOp, "num_elements");
  plan.params0.num_words = utils::to_u32(utils::ceil_div(input.numel(), 4), kOp, "num_words");
  plan.params0.a_scale = utils::to_f32(input_scale);
  plan.params0.a_zero_point = utils::to_i32(input_zero_point, kOp, "a_zero_point");
  plan.params0.b_scale = utils::to_f32(1.0);
  plan.params0.b_zero_point = utils::to_i32(0, kOp, "b_zero_point");
  plan.params0.alpha = utils::to_f32(0.0);
  plan.params0.out_inv_scale = utils::to_f32(utils::divide(1.0, output_scale));
  plan.params0.out_zero_point = utils::to_i32(output_zero_point, kOp, "out_zero_point");
  plan.grid0 =
      utils::elementwise_grid(utils::ceil_div(input.numel(), 4), kQ8taMapKernel.workgroup_size[0],
                              graph.limits().max_workgroups_per_dimension);
  return plan;
}

// Gives the outputs the shape the op's formula computes from the live inputs.
void resize_q8ta_relu_outputs(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const Tensor& input = graph.get_tensor(args[0]);
  Tensor& out = graph.get_tensor(args[5]);
  utils::resize_output(kOp, "out", out, input.dims());
}

void add_q8ta_relu(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const Q8taReluPlan built = plan_q8ta_relu(graph, args);
  const DispatchId dispatch0 = graph.add_dispatch(
      kQ8taMapKernel, built.overrides0,
      {Binding::params(), Binding::of(args[0]), Binding::of(args[0]), Binding::of(args[5])},
      &built.params0, sizeof(built.params0), built.grid0);
  graph.add_resize_hook([args, dispatch0](WebGPUGraph& graph) {
    resize_q8ta_relu_outputs(graph, args);
    const Q8taReluPlan plan = plan_q8ta_relu(graph, args);
    graph.update_dispatch(dispatch0, &plan.params0, sizeof(plan.params0), plan.grid0);
  });
}

}  // namespace
}  // namespace webgpu_delegate

WEBGPU_REGISTER_OP(et_vk.q8ta_relu.default, webgpu_delegate::add_q8ta_relu, None);
