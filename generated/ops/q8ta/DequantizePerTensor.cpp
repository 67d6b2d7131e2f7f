// @generated from codegen/specs/q8ta/quantize.py - DO NOT EDIT.
// Op dequantize_per_tensor: quantized_decomposed.dequantize_per_tensor.default

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ops/q8ta/dequantize_per_tensor_wgsl.h"
#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "dequantize_per_tensor";

struct DequantizePerTensorParams {
  float scale;
  float inv_scale;
  int32_t zero_point;
  int32_t quant_min;
  int32_t quant_max;
  uint32_t num_elements;
  uint32_t num_words;
  uint32_t _pad0;
};
static_assert(offsetof(DequantizePerTensorParams, scale) == 0,
              "DequantizePerTensorParams.scale must sit at WGSL offset 0");
static_assert(offsetof(DequantizePerTensorParams, inv_scale) == 4,
              "DequantizePerTensorParams.inv_scale must sit at WGSL offset 4");
static_assert(offsetof(DequantizePerTensorParams, zero_point) == 8,
              "DequantizePerTensorParams.zero_point must sit at WGSL offset 8");
static_assert(offsetof(DequantizePerTensorParams, quant_min) == 12,
              "DequantizePerTensorParams.quant_min must sit at WGSL offset 12");
static_assert(offsetof(DequantizePerTensorParams, quant_max) == 16,
              "DequantizePerTensorParams.quant_max must sit at WGSL offset 16");
static_assert(offsetof(DequantizePerTensorParams, num_elements) == 20,
              "DequantizePerTensorParams.num_elements must sit at WGSL offset 20");
static_assert(offsetof(DequantizePerTensorParams, num_words) == 24,
              "DequantizePerTensorParams.num_words must sit at WGSL offset 24");
static_assert(sizeof(DequantizePerTensorParams) == 32,
              "DequantizePerTensorParams must match the WGSL struct size 32");

const KernelSource kDequantizePerTensorKernel{
    "dequantize_per_tensor",
    kDequantizePerTensorWGSL,
    "main",
    {kDequantizePerTensorWorkgroupSizeX, kDequantizePerTensorWorkgroupSizeY,
     kDequantizePerTensorWorkgroupSizeZ},
    kDequantizePerTensorBindings,
    kDequantizePerTensorBindingCount};

// The argument values, checked and turned into what each dispatch needs.
struct DequantizePerTensorPlan {
  DequantizePerTensorParams params0{};
  utils::Grid grid0;
  std::vector<OverrideValue> overrides0;
};

DequantizePerTensorPlan plan_dequantize_per_tensor(WebGPUGraph& graph,
                                                   const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 8);
  const Tensor& input = graph.get_tensor(args[0]);
  const double scale = utils::read_double(graph, args[1], kOp, "scale");
  const int64_t zero_point = utils::read_int(graph, args[2], kOp, "zero_point", false);
  const int64_t quant_min = utils::read_int(graph, args[3], kOp, "quant_min", false);
  const int64_t quant_max = utils::read_int(graph, args[4], kOp, "quant_max", false);
  const Tensor& out = graph.get_tensor(args[7]);
  utils::check_dtype(kOp, "input", input, {DType::Int8});
  utils::check_rank(kOp, "input", input, 0, 8);
  utils::check_dtype(kOp, "out", out, {DType::Float32});
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

  DequantizePerTensorPlan plan;
  plan.params0.scale = utils::to_f32(scale);
  plan.params0.inv_scale = utils::to_f32(utils::divide(1.0, scale));
  plan.params0.zero_point = utils::to_i32(zero_point, kOp, "zero_point");
  plan.params0.quant_min = utils::to_i32(quant_min, kOp, "quant_min");
  plan.params0.quant_max = utils::to_i32(quant_max, kOp, "quant_max");
  plan.params0.num_elements = utils::to_u32(input.numel(), kOp, "num_elements");
  plan.params0.num_words = utils::to_u32(utils::ceil_div(input.numel(), 4), kOp, "num_words");
  plan.grid0 = utils::elementwise_grid(utils::ceil_div(input.numel(), 4),
                                       kDequantizePerTensorKernel.workgroup_size[0],
                                       graph.limits().max_workgroups_per_dimension);
  return plan;
}

// Gives the outputs the shape the op's formula computes from the live inputs.
void resize_dequantize_per_tensor_outputs(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const Tensor& input = graph.get_tensor(args[0]);
  Tensor& out = graph.get_tensor(args[7]);
  utils::resize_output(kOp, "out", out, input.dims());
}

void add_dequantize_per_tensor(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const DequantizePerTensorPlan built = plan_dequantize_per_tensor(graph, args);
  const DispatchId dispatch0 =
      graph.add_dispatch(kDequantizePerTensorKernel, built.overrides0,
                         {Binding::params(), Binding::of(args[0]), Binding::of(args[7])},
                         &built.params0, sizeof(built.params0), built.grid0);
  graph.add_resize_hook([args, dispatch0](WebGPUGraph& graph) {
    resize_dequantize_per_tensor_outputs(graph, args);
    const DequantizePerTensorPlan plan = plan_dequantize_per_tensor(graph, args);
    graph.update_dispatch(dispatch0, &plan.params0, sizeof(plan.params0), plan.grid0);
  });
}

}  // namespace
}  // namespace webgpu_delegate

WEBGPU_REGISTER_OP(quantized_decomposed.dequantize_per_tensor.default,
                   webgpu_delegate::add_dequantize_per_tensor, None);
