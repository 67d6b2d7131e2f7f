// @generated from codegen/specs/q8ta/quantize.py - DO NOT EDIT.
// Op quantize_per_tensor: quantized_decomposed.quantize_per_tensor.default

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ops/q8ta/quantize_per_tensor_wgsl.h"
#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "quantize_per_tensor";

struct QuantizePerTensorParams {
  float scale;
  float inv_scale;
  int32_t zero_point;
  int32_t quant_min;
  int32_t quant_max;
  uint32_t num_elements;
  uint32_t num_words;
  uint32_t _pad0;
};
static_assert(offsetof(QuantizePerTensorParams, scale) == 0,
              "QuantizePerTensorParams.scale must sit at WGSL offset 0");
static_assert(offsetof(QuantizePerTensorParams, inv_scale) == 4,
              "QuantizePerTensorParams.inv_scale must sit at WGSL offset 4");
static_assert(offsetof(QuantizePerTensorParams, zero_point) == 8,
              "QuantizePerTensorParams.zero_point must sit at WGSL offset 8");
static_assert(offsetof(QuantizePerTensorParams, quant_min) == 12,
              "QuantizePerTensorParams.quant_min must sit at WGSL offset 12");
static_assert(offsetof(QuantizePerTensorParams, quant_max) == 16,
              "QuantizePerTensorParams.quant_max must sit at WGSL offset 16");
static_assert(offsetof(QuantizePerTensorParams, num_elements) == 20,
              "QuantizePerTensorParams.num_elements must sit at WGSL offset 20");
static_assert(offsetof(QuantizePerTensorParams, num_words) == 24,
              "QuantizePerTensorParams.num_words must sit at WGSL offset 24");
static_assert(sizeof(QuantizePerTensorParams) == 32,
              "QuantizePerTensorParams must match the WGSL struct size 32");

const KernelSource kQuantizePerTensorKernel{
    "quantize_per_tensor",
    kQuantizePerTensorWGSL,
    "main",
    {kQuantizePerTensorWorkgroupSizeX, kQuantizePerTensorWorkgroupSizeY,
     kQuantizePerTensorWorkgroupSizeZ},
    kQuantizePerTensorBindings,
    kQuantizePerTensorBindingCount};

// The argument values, checked and turned into what each dispatch needs.
struct QuantizePerTensorPlan {
  QuantizePerTensorParams params0{};
  utils::Grid grid0;
  std::vector<OverrideValue> overrides0;
};

QuantizePerTensorPlan plan_quantize_per_tensor(WebGPUGraph& graph,
                                               const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 7);
  const Tensor& input = graph.get_tensor(args[0]);
  const double scale = utils::read_double(graph, args[1], kOp, "scale");
  const int64_t zero_point = utils::read_int(graph, args[2], kOp, "zero_point", false);
  const int64_t quant_min = utils::read_int(graph, args[3], kOp, "quant_min", false);
  const int64_t quant_max = utils::read_int(graph, args[4], kOp, "quant_max", false);
  const Tensor& out = graph.get_tensor(args[6]);
  utils::check_dtype(kOp, "input", input, {DType::Float32});
  utils::check_rank(kOp, "input", input, 0, 8);
  utils::check_dtype(kOp, "out", out, {DType::Int8});
  utils::check_rank(kOp, "out", out, 0, 8);
  if (!(scale > 0.0)) {
    utils::fail(kOp, "scale", "is not positive", utils::format_value(scale), "a scale > 0");
  }
  if ((quant_min < -128) || (quant_min > quant_max)) {
    utils::fail(kOp, "quant_min", "is not an int8 value at most quant_max",
                utils::format_value(quant_min), "-128.." + utils::format_value(quant_max));
  }
  if (quant_max > 127) {
    utils::fail(kOp, "quant_max", "does not fit int8", utils::format_value(quant_max),
                "at most 127");
  }
  utils::check_output_dims(kOp, "out", out, input.dims());

  QuantizePerTensorPlan plan;
  plan.params0.scale = utils::to_f32(scale);
  plan.params0.inv_scale = utils::to_f32(utils::divide(1.0, scale));
  plan.params0.zero_point = utils::to_i32(zero_point, kOp, "zero_point");
  plan.params0.quant_min = utils::to_i32(quant_min, kOp, "quant_min");
  plan.params0.quant_max = utils::to_i32(quant_max, kOp, "quant_max");
  plan.params0.num_elements = utils::to_u32(input.numel(), kOp, "num_elements");
  plan.params0.num_words = utils::to_u32(utils::ceil_div(input.numel(), 4), kOp, "num_words");
  plan.grid0 = utils::elementwise_grid(utils::ceil_div(input.numel(), 4),
                                       kQuantizePerTensorKernel.workgroup_size[0],
                                       graph.limits().max_workgroups_per_dimension);
  return plan;
}

// Gives the outputs the shape the op's formula computes from the live inputs.
void resize_quantize_per_tensor_outputs(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const Tensor& input = graph.get_tensor(args[0]);
  Tensor& out = graph.get_tensor(args[6]);
  utils::resize_output(kOp, "out", out, input.dims());
}

void add_quantize_per_tensor(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const QuantizePerTensorPlan built = plan_quantize_per_tensor(graph, args);
  const DispatchId dispatch0 =
      graph.add_dispatch(kQuantizePerTensorKernel, built.overrides0,
                         {Binding::params(), Binding::of(args[0]), Binding::of(args[6])},
                         &built.params0, sizeof(built.params0), built.grid0);
  graph.add_resize_hook([args, dispatch0](WebGPUGraph& graph) {
    resize_quantize_per_tensor_outputs(graph, args);
    const QuantizePerTensorPlan plan = plan_quantize_per_tensor(graph, args);
    graph.update_dispatch(dispatch0, &plan.params0, sizeof(plan.params0), plan.grid0);
  });
}

}  // namespace
}  // namespace webgpu_delegate

WEBGPU_REGISTER_OP(quantized_decomposed.quantize_per_tensor.default,
                   webgpu_delegate::add_quantize_per_tensor, None);
