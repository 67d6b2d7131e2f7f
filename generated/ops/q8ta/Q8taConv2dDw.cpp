// @generated from codegen/specs/q8ta/q8ta_conv2d.py - DO NOT EDIT.
// Op q8ta_conv2d_dw: et_vk.q8ta_conv2d_dw.default

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "ops/q8ta/q8ta_conv2d_wgsl.h"
#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "q8ta_conv2d_dw";

struct Q8taConv2dDwParams {
  uint32_t IC;
  uint32_t IH;
  uint32_t IW;
  uint32_t OC;
  uint32_t OH;
  uint32_t OW;
  uint32_t KH;
  uint32_t KW;
  uint32_t sH;
  uint32_t sW;
  uint32_t pH;
  uint32_t pW;
  uint32_t dH;
  uint32_t dW;
  uint32_t icpg;
  uint32_t ocpg;
  uint32_t oc_stride;
  uint32_t tap_stride;
  uint32_t scale_period;
  uint32_t num_elements;
  uint32_t num_words;
  float input_scale;
  int32_t input_zero_point;
  float output_inv_scale;
  int32_t output_zero_point;
  uint32_t has_bias;
  uint32_t relu;
  uint32_t transposed;
};
static_assert(offsetof(Q8taConv2dDwParams, IC) == 0,
              "Q8taConv2dDwParams.IC must sit at WGSL offset 0");
static_assert(offsetof(Q8taConv2dDwParams, IH) == 4,
              "Q8taConv2dDwParams.IH must sit at WGSL offset 4");
static_assert(offsetof(Q8taConv2dDwParams, IW) == 8,
              "Q8taConv2dDwParams.IW must sit at WGSL offset 8");
static_assert(offsetof(Q8taConv2dDwParams, OC) == 12,
              "Q8taConv2dDwParams.OC must sit at WGSL offset 12");
static_assert(offsetof(Q8taConv2dDwParams, OH) == 16,
              "Q8taConv2dDwParams.OH must sit at WGSL offset 16");
static_assert(offsetof(Q8taConv2dDwParams, OW) == 20,
              "Q8taConv2dDwParams.OW must sit at WGSL offset 20");
static_assert(offsetof(Q8taConv2dDwParams, KH) == 24,
              "Q8taConv2dDwParams.KH must sit at WGSL offset 24");
static_assert(offsetof(Q8taConv2dDwParams, KW) == 28,
              "Q8taConv2dDwParams.KW must sit at WGSL offset 28");
static_assert(offsetof(Q8taConv2dDwParams, sH) == 32,
              "Q8taConv2dDwParams.sH must sit at WGSL offset 32");
static_assert(offsetof(Q8taConv2dDwParams, sW) == 36,
              "Q8taConv2dDwParams.sW must sit at WGSL offset 36");
static_assert(offsetof(Q8taConv2dDwParams, pH) == 40,
              "Q8taConv2dDwParams.pH must sit at WGSL offset 40");
static_assert(offsetof(Q8taConv2dDwParams, pW) == 44,
              "Q8taConv2dDwParams.pW must sit at WGSL offset 44");
static_assert(offsetof(Q8taConv2dDwParams, dH) == 48,
              "Q8taConv2dDwParams.dH must sit at WGSL offset 48");
static_assert(offsetof(Q8taConv2dDwParams, dW) == 52,
              "Q8taConv2dDwParams.dW must sit at WGSL offset 52");
static_assert(offsetof(Q8taConv2dDwParams, icpg) == 56,
              "Q8taConv2dDwParams.icpg must sit at WGSL offset 56");
static_assert(offsetof(Q8taConv2dDwParams, ocpg) == 60,
              "Q8taConv2dDwParams.ocpg must sit at WGSL offset 60");
static_assert(offsetof(Q8taConv2dDwParams, oc_stride) == 64,
              "Q8taConv2dDwParams.oc_stride must sit at WGSL offset 64");
static_assert(offsetof(Q8taConv2dDwParams, tap_stride) == 68,
              "Q8taConv2dDwParams.tap_stride must sit at WGSL offset 68");
static_assert(offsetof(Q8taConv2dDwParams, scale_period) == 72,
              "Q8taConv2dDwParams.scale_period must sit at WGSL offset 72");
static_assert(offsetof(Q8taConv2dDwParams, num_elements) == 76,
              "Q8taConv2dDwParams.num_elements must sit at WGSL offset 76");
static_assert(offsetof(Q8taConv2dDwParams, num_words) == 80,
              "Q8taConv2dDwParams.num_words must sit at WGSL offset 80");
static_assert(offsetof(Q8taConv2dDwParams, input_scale) == 84,
              "Q8taConv2dDwParams.input_scale must sit at WGSL offset 84");
static_assert(offsetof(Q8taConv2dDwParams, input_zero_point) == 88,
              "Q8taConv2dDwParams.input_zero_point must sit at WGSL offset 88");
static_assert(offsetof(Q8taConv2dDwParams, output_inv_scale) == 92,
              "Q8taConv2dDwParams.output_inv_scale must sit at WGSL offset 92");
static_assert(offsetof(Q8taConv2dDwParams, output_zero_point) == 96,
              "Q8taConv2dDwParams.output_zero_point must sit at WGSL offset 96");
static_assert(offsetof(Q8taConv2dDwParams, has_bias) == 100,
              "Q8taConv2dDwParams.has_bias must sit at WGSL offset 100");
static_assert(offsetof(Q8taConv2dDwParams, relu) == 104,
              "Q8taConv2dDwParams.relu must sit at WGSL offset 104");
static_assert(offsetof(Q8taConv2dDwParams, transposed) == 108,
              "Q8taConv2dDwParams.transposed must sit at WGSL offset 108");
static_assert(sizeof(Q8taConv2dDwParams) == 112,
              "Q8taConv2dDwParams must match the WGSL struct size 112");

const KernelSource kQ8taConv2dKernel{
    "q8ta_conv2d",
    kQ8taConv2dWGSL,
    "main",
    {kQ8taConv2dWorkgroupSizeX, kQ8taConv2dWorkgroupSizeY, kQ8taConv2dWorkgroupSizeZ},
    kQ8taConv2dBindings,
    kQ8taConv2dBindingCount};

// The argument values, checked and turned into what each dispatch needs.
struct Q8taConv2dDwPlan {
  Q8taConv2dDwParams params0{};
  utils::Grid grid0;
  std::vector<OverrideValue> overrides0;
};

Q8taConv2dDwPlan plan_q8ta_conv2d_dw(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 16);
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
  const std::vector<int64_t> kernel_size = utils::read_int_list(graph, args[9], kOp, "kernel_size");
  const std::vector<int64_t> stride = utils::read_int_list(graph, args[10], kOp, "stride");
  const std::vector<int64_t> padding = utils::read_int_list(graph, args[11], kOp, "padding");
  const std::vector<int64_t> dilation = utils::read_int_list(graph, args[12], kOp, "dilation");
  const int64_t groups = utils::read_int(graph, args[13], kOp, "groups", false);
  const std::string activation = graph.get_string(args[14]);
  if (activation != "none" && activation != "relu") {
    utils::fail(kOp, "activation", "is not supported", activation, "none or relu");
  }
  const Tensor& out = graph.get_tensor(args[15]);
  utils::check_dtype(kOp, "x", x, {DType::Int8});
  utils::check_rank(kOp, "x", x, 4, 4);
  utils::check_dtype(kOp, "weights", weights, {DType::Int8});
  utils::check_rank(kOp, "weights", weights, 3, 3);
  utils::check_dtype(kOp, "weight_sums", weight_sums, {DType::Int32});
  utils::check_rank(kOp, "weight_sums", weight_sums, 1, 1);
  utils::check_dtype(kOp, "weight_scales", weight_scales, {DType::Float32});
  utils::check_rank(kOp, "weight_scales", weight_scales, 1, 1);
  if (bias != nullptr) {
    utils::check_dtype(kOp, "bias", *bias, {DType::Float32});
    utils::check_rank(kOp, "bias", *bias, 1, 1);
  }
  utils::check_dtype(kOp, "out", out, {DType::Int8});
  utils::check_rank(kOp, "out", out, 4, 4);
  const int64_t B = utils::let(kOp, "B = x.dims[0]", [&]() -> int64_t { return x.dim(0); });
  const int64_t IC = utils::let(kOp, "IC = x.dims[1]", [&]() -> int64_t { return x.dim(1); });
  const int64_t IH = utils::let(kOp, "IH = x.dims[2]", [&]() -> int64_t { return x.dim(2); });
  const int64_t IW = utils::let(kOp, "IW = x.dims[3]", [&]() -> int64_t { return x.dim(3); });
  const int64_t KH =
      utils::let(kOp, "KH = kernel_size[0] if len(kernel_size) == 2 else 0", [&]() -> int64_t {
        return (utils::length(kernel_size) == 2) ? utils::at(kernel_size, 0) : 0;
      });
  const int64_t KW =
      utils::let(kOp, "KW = kernel_size[1] if len(kernel_size) == 2 else 0", [&]() -> int64_t {
        return (utils::length(kernel_size) == 2) ? utils::at(kernel_size, 1) : 0;
      });
  const int64_t sH = utils::let(kOp, "sH = stride[0] if len(stride) == 2 else 0", [&]() -> int64_t {
    return (utils::length(stride) == 2) ? utils::at(stride, 0) : 0;
  });
  const int64_t sW = utils::let(kOp, "sW = stride[1] if len(stride) == 2 else 0", [&]() -> int64_t {
    return (utils::length(stride) == 2) ? utils::at(stride, 1) : 0;
  });
  const int64_t pH = utils::let(
      kOp, "pH = padding[0] if len(padding) == 2 else 0",
      [&]() -> int64_t { return (utils::length(padding) == 2) ? utils::at(padding, 0) : 0; });
  const int64_t pW = utils::let(
      kOp, "pW = padding[1] if len(padding) == 2 else 0",
      [&]() -> int64_t { return (utils::length(padding) == 2) ? utils::at(padding, 1) : 0; });
  const int64_t dH = utils::let(
      kOp, "dH = dilation[0] if len(dilation) == 2 else 0",
      [&]() -> int64_t { return (utils::length(dilation) == 2) ? utils::at(dilation, 0) : 0; });
  const int64_t dW = utils::let(
      kOp, "dW = dilation[1] if len(dilation) == 2 else 0",
      [&]() -> int64_t { return (utils::length(dilation) == 2) ? utils::at(dilation, 1) : 0; });
  const int64_t g =
      utils::let(kOp, "g = max(groups, 1)", [&]() -> int64_t { return utils::max_of(groups, 1); });
  const int64_t OC =
      utils::let(kOp, "OC = weights.dims[2]", [&]() -> int64_t { return weights.dim(2); });
  const int64_t icpg =
      utils::let(kOp, "icpg = IC // g", [&]() -> int64_t { return utils::floordiv(IC, g); });
  const int64_t ocpg =
      utils::let(kOp, "ocpg = OC // g", [&]() -> int64_t { return utils::floordiv(OC, g); });
  const int64_t OH =
      utils::let(kOp, "OH = (IH + 2 * pH - dH * (KH - 1) - 1) // max(sH, 1) + 1", [&]() -> int64_t {
        return utils::add(utils::floordiv(utils::sub(utils::sub(utils::add(IH, utils::mul(2, pH)),
                                                                utils::mul(dH, utils::sub(KH, 1))),
                                                     1),
                                          utils::max_of(sH, 1)),
                          1);
      });
  const int64_t OW =
      utils::let(kOp, "OW = (IW + 2 * pW - dW * (KW - 1) - 1) // max(sW, 1) + 1", [&]() -> int64_t {
        return utils::add(utils::floordiv(utils::sub(utils::sub(utils::add(IW, utils::mul(2, pW)),
                                                                utils::mul(dW, utils::sub(KW, 1))),
                                                     1),
                                          utils::max_of(sW, 1)),
                          1);
      });
  const int64_t oc_stride = 1;
  const int64_t tap_stride = OC;
  const int64_t scale_period = OC;
  if (utils::length(kernel_size) != 2) {
    utils::fail(kOp, "kernel_size", "does not hold two values", utils::format_value(kernel_size),
                "[H, W] values");
  }
  if (utils::length(stride) != 2) {
    utils::fail(kOp, "stride", "does not hold two values", utils::format_value(stride),
                "[H, W] values");
  }
  if (utils::length(padding) != 2) {
    utils::fail(kOp, "padding", "does not hold two values", utils::format_value(padding),
                "[H, W] values");
  }
  if (utils::length(dilation) != 2) {
    utils::fail(kOp, "dilation", "does not hold two values", utils::format_value(dilation),
                "[H, W] values");
  }
  if (utils::min_of(kernel_size) <= 0) {
    utils::fail(kOp, "kernel_size", "is not positive", utils::format_value(kernel_size),
                "sizes >= 1");
  }
  if (utils::min_of(stride) <= 0) {
    utils::fail(kOp, "stride", "is not positive", utils::format_value(stride), "strides >= 1");
  }
  if (utils::min_of(dilation) <= 0) {
    utils::fail(kOp, "dilation", "is not positive", utils::format_value(dilation),
                "dilations >= 1");
  }
  if (utils::min_of(padding) < 0) {
    utils::fail(kOp, "padding", "is negative", utils::format_value(padding), "paddings >= 0");
  }
  if ((groups <= 0) || (utils::floormod(IC, g) != 0) || (utils::floormod(OC, g) != 0)) {
    utils::fail(
        kOp, "groups", "does not divide the channels", utils::format_value(groups),
        "a divisor of IC=" + utils::format_value(IC) + " and OC=" + utils::format_value(OC));
  }
  if (utils::slice(weights.dims(), 0, 2) != std::vector<int64_t>{KH, KW}) {
    utils::fail(kOp, "weights", "does not hold [KH, KW, OC] taps",
                utils::format_value(weights.dims()),
                "[" + utils::format_value(KH) + ", " + utils::format_value(KW) + ", OC]");
  }
  if ((groups != IC) || (OC != IC)) {
    utils::fail(kOp, "groups", "is not depthwise (groups == IC == OC)", utils::format_value(groups),
                utils::format_value(IC) + " with " + utils::format_value(IC) + " output channels");
  }
  if (weight_scales.numel() < scale_period) {
    utils::fail(kOp, "weight_scales", "holds fewer than one scale per output channel",
                utils::format_value(weight_scales.numel()),
                "at least " + utils::format_value(scale_period));
  }
  if ((bias != nullptr) && (bias->numel() < OC)) {
    utils::fail(kOp, "bias", "holds fewer than one value per output channel",
                utils::format_value(bias->numel()), "at least " + utils::format_value(OC));
  }
  if (!(input_scale > 0.0)) {
    utils::fail(kOp, "input_scale", "is not positive", utils::format_value(input_scale),
                "a scale > 0");
  }
  if (!(output_scale > 0.0)) {
    utils::fail(kOp, "output_scale", "is not positive", utils::format_value(output_scale),
                "a scale > 0");
  }
  if ((OH <= 0) || (OW <= 0)) {
    utils::fail(kOp, "x", "is smaller than the kernel", utils::format_value(x.dims()),
                "an output of at least 1x1");
  }
  utils::check_output_dims(kOp, "out", out, std::vector<int64_t>{B, OC, OH, OW});

  Q8taConv2dDwPlan plan;
  plan.params0.IC = utils::to_u32(IC, kOp, "IC");
  plan.params0.IH = utils::to_u32(IH, kOp, "IH");
  plan.params0.IW = utils::to_u32(IW, kOp, "IW");
  plan.params0.OC = utils::to_u32(OC, kOp, "OC");
  plan.params0.OH = utils::to_u32(OH, kOp, "OH");
  plan.params0.OW = utils::to_u32(OW, kOp, "OW");
  plan.params0.KH = utils::to_u32(KH, kOp, "KH");
  plan.params0.KW = utils::to_u32(KW, kOp, "KW");
  plan.params0.sH = utils::to_u32(sH, kOp, "sH");
  plan.params0.sW = utils::to_u32(sW, kOp, "sW");
  plan.params0.pH = utils::to_u32(pH, kOp, "pH");
  plan.params0.pW = utils::to_u32(pW, kOp, "pW");
  plan.params0.dH = utils::to_u32(dH, kOp, "dH");
  plan.params0.dW = utils::to_u32(dW, kOp, "dW");
  plan.params0.icpg = utils::to_u32(icpg, kOp, "icpg");
  plan.params0.ocpg = utils::to_u32(ocpg, kOp, "ocpg");
  plan.params0.oc_stride = utils::to_u32(oc_stride, kOp, "oc_stride");
  plan.params0.tap_stride = utils::to_u32(tap_stride, kOp, "tap_stride");
  plan.params0.scale_period = utils::to_u32(scale_period, kOp, "scale_period");
  plan.params0.num_elements = utils::to_u32(out.numel(), kOp, "num_elements");
  plan.params0.num_words = utils::to_u32(utils::ceil_div(out.numel(), 4), kOp, "num_words");
  plan.params0.input_scale = utils::to_f32(input_scale);
  plan.params0.input_zero_point = utils::to_i32(input_zero_point, kOp, "input_zero_point");
  plan.params0.output_inv_scale = utils::to_f32(utils::divide(1.0, output_scale));
  plan.params0.output_zero_point = utils::to_i32(output_zero_point, kOp, "output_zero_point");
  plan.params0.has_bias = (bias != nullptr) ? 1 : 0;
  plan.params0.relu = (activation == "relu") ? 1 : 0;
  plan.params0.transposed = utils::to_u32(0, kOp, "transposed");
  plan.grid0 =
      utils::elementwise_grid(utils::ceil_div(out.numel(), 4), kQ8taConv2dKernel.workgroup_size[0],
                              graph.limits().max_workgroups_per_dimension);
  return plan;
}

void add_q8ta_conv2d_dw(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const Q8taConv2dDwPlan built = plan_q8ta_conv2d_dw(graph, args);
  graph.add_dispatch(
      kQ8taConv2dKernel, built.overrides0,
      {Binding::params(), Binding::of(args[0]), Binding::of(args[3]), Binding::of(args[5]),
       !graph.is_null(args[8]) ? Binding::of(args[8]) : Binding::dummy(), Binding::of(args[15])},
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

WEBGPU_REGISTER_OP(et_vk.q8ta_conv2d_dw.default, webgpu_delegate::add_q8ta_conv2d_dw, None);
