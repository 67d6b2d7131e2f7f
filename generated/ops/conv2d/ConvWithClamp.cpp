// @generated from codegen/specs/conv2d/conv2d.py - DO NOT EDIT.
// Op conv_with_clamp: et_vk.conv_with_clamp.default

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ops/conv2d/conv2d_gemm_wgsl.h"
#include "ops/conv2d/conv2d_pack_weights_wgsl.h"
#include "ops/conv2d/conv2d_split_sum_wgsl.h"
#include "ops/conv2d/conv2d_vec4_wgsl.h"
#include "ops/conv2d/conv2d_wgsl.h"
#include "ops/conv2d/conv_transpose2d_wgsl.h"
#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "conv_with_clamp";

struct ConvWithClampPackParams {
  uint32_t B;
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
  uint32_t groups;
  uint32_t split;
  uint32_t has_bias;
  uint32_t has_min;
  uint32_t has_max;
  float min_value;
  float max_value;
  uint32_t _pad0[2];
};
static_assert(offsetof(ConvWithClampPackParams, B) == 0,
              "ConvWithClampPackParams.B must sit at WGSL offset 0");
static_assert(offsetof(ConvWithClampPackParams, IC) == 4,
              "ConvWithClampPackParams.IC must sit at WGSL offset 4");
static_assert(offsetof(ConvWithClampPackParams, IH) == 8,
              "ConvWithClampPackParams.IH must sit at WGSL offset 8");
static_assert(offsetof(ConvWithClampPackParams, IW) == 12,
              "ConvWithClampPackParams.IW must sit at WGSL offset 12");
static_assert(offsetof(ConvWithClampPackParams, OC) == 16,
              "ConvWithClampPackParams.OC must sit at WGSL offset 16");
static_assert(offsetof(ConvWithClampPackParams, OH) == 20,
              "ConvWithClampPackParams.OH must sit at WGSL offset 20");
static_assert(offsetof(ConvWithClampPackParams, OW) == 24,
              "ConvWithClampPackParams.OW must sit at WGSL offset 24");
static_assert(offsetof(ConvWithClampPackParams, KH) == 28,
              "ConvWithClampPackParams.KH must sit at WGSL offset 28");
static_assert(offsetof(ConvWithClampPackParams, KW) == 32,
              "ConvWithClampPackParams.KW must sit at WGSL offset 32");
static_assert(offsetof(ConvWithClampPackParams, sH) == 36,
              "ConvWithClampPackParams.sH must sit at WGSL offset 36");
static_assert(offsetof(ConvWithClampPackParams, sW) == 40,
              "ConvWithClampPackParams.sW must sit at WGSL offset 40");
static_assert(offsetof(ConvWithClampPackParams, pH) == 44,
              "ConvWithClampPackParams.pH must sit at WGSL offset 44");
static_assert(offsetof(ConvWithClampPackParams, pW) == 48,
              "ConvWithClampPackParams.pW must sit at WGSL offset 48");
static_assert(offsetof(ConvWithClampPackParams, dH) == 52,
              "ConvWithClampPackParams.dH must sit at WGSL offset 52");
static_assert(offsetof(ConvWithClampPackParams, dW) == 56,
              "ConvWithClampPackParams.dW must sit at WGSL offset 56");
static_assert(offsetof(ConvWithClampPackParams, groups) == 60,
              "ConvWithClampPackParams.groups must sit at WGSL offset 60");
static_assert(offsetof(ConvWithClampPackParams, split) == 64,
              "ConvWithClampPackParams.split must sit at WGSL offset 64");
static_assert(offsetof(ConvWithClampPackParams, has_bias) == 68,
              "ConvWithClampPackParams.has_bias must sit at WGSL offset 68");
static_assert(offsetof(ConvWithClampPackParams, has_min) == 72,
              "ConvWithClampPackParams.has_min must sit at WGSL offset 72");
static_assert(offsetof(ConvWithClampPackParams, has_max) == 76,
              "ConvWithClampPackParams.has_max must sit at WGSL offset 76");
static_assert(offsetof(ConvWithClampPackParams, min_value) == 80,
              "ConvWithClampPackParams.min_value must sit at WGSL offset 80");
static_assert(offsetof(ConvWithClampPackParams, max_value) == 84,
              "ConvWithClampPackParams.max_value must sit at WGSL offset 84");
static_assert(sizeof(ConvWithClampPackParams) == 96,
              "ConvWithClampPackParams must match the WGSL struct size 96");

struct ConvWithClampGemmParams {
  uint32_t B;
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
  uint32_t groups;
  uint32_t split;
  uint32_t has_bias;
  uint32_t has_min;
  uint32_t has_max;
  float min_value;
  float max_value;
  uint32_t _pad0[2];
};
static_assert(offsetof(ConvWithClampGemmParams, B) == 0,
              "ConvWithClampGemmParams.B must sit at WGSL offset 0");
static_assert(offsetof(ConvWithClampGemmParams, IC) == 4,
              "ConvWithClampGemmParams.IC must sit at WGSL offset 4");
static_assert(offsetof(ConvWithClampGemmParams, IH) == 8,
              "ConvWithClampGemmParams.IH must sit at WGSL offset 8");
static_assert(offsetof(ConvWithClampGemmParams, IW) == 12,
              "ConvWithClampGemmParams.IW must sit at WGSL offset 12");
static_assert(offsetof(ConvWithClampGemmParams, OC) == 16,
              "ConvWithClampGemmParams.OC must sit at WGSL offset 16");
static_assert(offsetof(ConvWithClampGemmParams, OH) == 20,
              "ConvWithClampGemmParams.OH must sit at WGSL offset 20");
static_assert(offsetof(ConvWithClampGemmParams, OW) == 24,
              "ConvWithClampGemmParams.OW must sit at WGSL offset 24");
static_assert(offsetof(ConvWithClampGemmParams, KH) == 28,
              "ConvWithClampGemmParams.KH must sit at WGSL offset 28");
static_assert(offsetof(ConvWithClampGemmParams, KW) == 32,
              "ConvWithClampGemmParams.KW must sit at WGSL offset 32");
static_assert(offsetof(ConvWithClampGemmParams, sH) == 36,
              "ConvWithClampGemmParams.sH must sit at WGSL offset 36");
static_assert(offsetof(ConvWithClampGemmParams, sW) == 40,
              "ConvWithClampGemmParams.sW must sit at WGSL offset 40");
static_assert(offsetof(ConvWithClampGemmParams, pH) == 44,
              "ConvWithClampGemmParams.pH must sit at WGSL offset 44");
static_assert(offsetof(ConvWithClampGemmParams, pW) == 48,
              "ConvWithClampGemmParams.pW must sit at WGSL offset 48");
static_assert(offsetof(ConvWithClampGemmParams, dH) == 52,
              "ConvWithClampGemmParams.dH must sit at WGSL offset 52");
static_assert(offsetof(ConvWithClampGemmParams, dW) == 56,
              "ConvWithClampGemmParams.dW must sit at WGSL offset 56");
static_assert(offsetof(ConvWithClampGemmParams, groups) == 60,
              "ConvWithClampGemmParams.groups must sit at WGSL offset 60");
static_assert(offsetof(ConvWithClampGemmParams, split) == 64,
              "ConvWithClampGemmParams.split must sit at WGSL offset 64");
static_assert(offsetof(ConvWithClampGemmParams, has_bias) == 68,
              "ConvWithClampGemmParams.has_bias must sit at WGSL offset 68");
static_assert(offsetof(ConvWithClampGemmParams, has_min) == 72,
              "ConvWithClampGemmParams.has_min must sit at WGSL offset 72");
static_assert(offsetof(ConvWithClampGemmParams, has_max) == 76,
              "ConvWithClampGemmParams.has_max must sit at WGSL offset 76");
static_assert(offsetof(ConvWithClampGemmParams, min_value) == 80,
              "ConvWithClampGemmParams.min_value must sit at WGSL offset 80");
static_assert(offsetof(ConvWithClampGemmParams, max_value) == 84,
              "ConvWithClampGemmParams.max_value must sit at WGSL offset 84");
static_assert(sizeof(ConvWithClampGemmParams) == 96,
              "ConvWithClampGemmParams must match the WGSL struct size 96");

struct ConvWithClampDirectParams {
  uint32_t B;
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
  uint32_t groups;
  uint32_t split;
  uint32_t has_bias;
  uint32_t has_min;
  uint32_t has_max;
  float min_value;
  float max_value;
  uint32_t _pad0[2];
};
static_assert(offsetof(ConvWithClampDirectParams, B) == 0,
              "ConvWithClampDirectParams.B must sit at WGSL offset 0");
static_assert(offsetof(ConvWithClampDirectParams, IC) == 4,
              "ConvWithClampDirectParams.IC must sit at WGSL offset 4");
static_assert(offsetof(ConvWithClampDirectParams, IH) == 8,
              "ConvWithClampDirectParams.IH must sit at WGSL offset 8");
static_assert(offsetof(ConvWithClampDirectParams, IW) == 12,
              "ConvWithClampDirectParams.IW must sit at WGSL offset 12");
static_assert(offsetof(ConvWithClampDirectParams, OC) == 16,
              "ConvWithClampDirectParams.OC must sit at WGSL offset 16");
static_assert(offsetof(ConvWithClampDirectParams, OH) == 20,
              "ConvWithClampDirectParams.OH must sit at WGSL offset 20");
static_assert(offsetof(ConvWithClampDirectParams, OW) == 24,
              "ConvWithClampDirectParams.OW must sit at WGSL offset 24");
static_assert(offsetof(ConvWithClampDirectParams, KH) == 28,
              "ConvWithClampDirectParams.KH must sit at WGSL offset 28");
static_assert(offsetof(ConvWithClampDirectParams, KW) == 32,
              "ConvWithClampDirectParams.KW must sit at WGSL offset 32");
static_assert(offsetof(ConvWithClampDirectParams, sH) == 36,
              "ConvWithClampDirectParams.sH must sit at WGSL offset 36");
static_assert(offsetof(ConvWithClampDirectParams, sW) == 40,
              "ConvWithClampDirectParams.sW must sit at WGSL offset 40");
static_assert(offsetof(ConvWithClampDirectParams, pH) == 44,
              "ConvWithClampDirectParams.pH must sit at WGSL offset 44");
static_assert(offsetof(ConvWithClampDirectParams, pW) == 48,
              "ConvWithClampDirectParams.pW must sit at WGSL offset 48");
static_assert(offsetof(ConvWithClampDirectParams, dH) == 52,
              "ConvWithClampDirectParams.dH must sit at WGSL offset 52");
static_assert(offsetof(ConvWithClampDirectParams, dW) == 56,
              "ConvWithClampDirectParams.dW must sit at WGSL offset 56");
static_assert(offsetof(ConvWithClampDirectParams, groups) == 60,
              "ConvWithClampDirectParams.groups must sit at WGSL offset 60");
static_assert(offsetof(ConvWithClampDirectParams, split) == 64,
              "ConvWithClampDirectParams.split must sit at WGSL offset 64");
static_assert(offsetof(ConvWithClampDirectParams, has_bias) == 68,
              "ConvWithClampDirectParams.has_bias must sit at WGSL offset 68");
static_assert(offsetof(ConvWithClampDirectParams, has_min) == 72,
              "ConvWithClampDirectParams.has_min must sit at WGSL offset 72");
static_assert(offsetof(ConvWithClampDirectParams, has_max) == 76,
              "ConvWithClampDirectParams.has_max must sit at WGSL offset 76");
static_assert(offsetof(ConvWithClampDirectParams, min_value) == 80,
              "ConvWithClampDirectParams.min_value must sit at WGSL offset 80");
static_assert(offsetof(ConvWithClampDirectParams, max_value) == 84,
              "ConvWithClampDirectParams.max_value must sit at WGSL offset 84");
static_assert(sizeof(ConvWithClampDirectParams) == 96,
              "ConvWithClampDirectParams must match the WGSL struct size 96");

struct ConvWithClampSplitSumParams {
  uint32_t B;
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
  uint32_t groups;
  uint32_t split;
  uint32_t has_bias;
  uint32_t has_min;
  uint32_t has_max;
  float min_value;
  float max_value;
  uint32_t _pad0[2];
};
static_assert(offsetof(ConvWithClampSplitSumParams, B) == 0,
              "ConvWithClampSplitSumParams.B must sit at WGSL offset 0");
static_assert(offsetof(ConvWithClampSplitSumParams, IC) == 4,
              "ConvWithClampSplitSumParams.IC must sit at WGSL offset 4");
static_assert(offsetof(ConvWithClampSplitSumParams, IH) == 8,
              "ConvWithClampSplitSumParams.IH must sit at WGSL offset 8");
static_assert(offsetof(ConvWithClampSplitSumParams, IW) == 12,
              "ConvWithClampSplitSumParams.IW must sit at WGSL offset 12");
static_assert(offsetof(ConvWithClampSplitSumParams, OC) == 16,
              "ConvWithClampSplitSumParams.OC must sit at WGSL offset 16");
static_assert(offsetof(ConvWithClampSplitSumParams, OH) == 20,
              "ConvWithClampSplitSumParams.OH must sit at WGSL offset 20");
static_assert(offsetof(ConvWithClampSplitSumParams, OW) == 24,
              "ConvWithClampSplitSumParams.OW must sit at WGSL offset 24");
static_assert(offsetof(ConvWithClampSplitSumParams, KH) == 28,
              "ConvWithClampSplitSumParams.KH must sit at WGSL offset 28");
static_assert(offsetof(ConvWithClampSplitSumParams, KW) == 32,
              "ConvWithClampSplitSumParams.KW must sit at WGSL offset 32");
static_assert(offsetof(ConvWithClampSplitSumParams, sH) == 36,
              "ConvWithClampSplitSumParams.sH must sit at WGSL offset 36");
static_assert(offsetof(ConvWithClampSplitSumParams, sW) == 40,
              "ConvWithClampSplitSumParams.sW must sit at WGSL offset 40");
static_assert(offsetof(ConvWithClampSplitSumParams, pH) == 44,
              "ConvWithClampSplitSumParams.pH must sit at WGSL offset 44");
static_assert(offsetof(ConvWithClampSplitSumParams, pW) == 48,
              "ConvWithClampSplitSumParams.pW must sit at WGSL offset 48");
static_assert(offsetof(ConvWithClampSplitSumParams, dH) == 52,
              "ConvWithClampSplitSumParams.dH must sit at WGSL offset 52");
static_assert(offsetof(ConvWithClampSplitSumParams, dW) == 56,
              "ConvWithClampSplitSumParams.dW must sit at WGSL offset 56");
static_assert(offsetof(ConvWithClampSplitSumParams, groups) == 60,
              "ConvWithClampSplitSumParams.groups must sit at WGSL offset 60");
static_assert(offsetof(ConvWithClampSplitSumParams, split) == 64,
              "ConvWithClampSplitSumParams.split must sit at WGSL offset 64");
static_assert(offsetof(ConvWithClampSplitSumParams, has_bias) == 68,
              "ConvWithClampSplitSumParams.has_bias must sit at WGSL offset 68");
static_assert(offsetof(ConvWithClampSplitSumParams, has_min) == 72,
              "ConvWithClampSplitSumParams.has_min must sit at WGSL offset 72");
static_assert(offsetof(ConvWithClampSplitSumParams, has_max) == 76,
              "ConvWithClampSplitSumParams.has_max must sit at WGSL offset 76");
static_assert(offsetof(ConvWithClampSplitSumParams, min_value) == 80,
              "ConvWithClampSplitSumParams.min_value must sit at WGSL offset 80");
static_assert(offsetof(ConvWithClampSplitSumParams, max_value) == 84,
              "ConvWithClampSplitSumParams.max_value must sit at WGSL offset 84");
static_assert(sizeof(ConvWithClampSplitSumParams) == 96,
              "ConvWithClampSplitSumParams must match the WGSL struct size 96");

const KernelSource kConv2dPackWeightsKernel{
    "conv2d_pack_weights",
    kConv2dPackWeightsWGSL,
    "main",
    {kConv2dPackWeightsWorkgroupSizeX, kConv2dPackWeightsWorkgroupSizeY,
     kConv2dPackWeightsWorkgroupSizeZ}};
const KernelSource kConv2dGemmKernel{
    "conv2d_gemm",
    kConv2dGemmWGSL,
    "main",
    {kConv2dGemmWorkgroupSizeX, kConv2dGemmWorkgroupSizeY, kConv2dGemmWorkgroupSizeZ}};
const KernelSource kConvTranspose2dKernel{
    "conv_transpose2d",
    kConvTranspose2dWGSL,
    "main",
    {kConvTranspose2dWorkgroupSizeX, kConvTranspose2dWorkgroupSizeY,
     kConvTranspose2dWorkgroupSizeZ}};
const KernelSource kConv2dVec4Kernel{
    "conv2d_vec4",
    kConv2dVec4WGSL,
    "main",
    {kConv2dVec4WorkgroupSizeX, kConv2dVec4WorkgroupSizeY, kConv2dVec4WorkgroupSizeZ}};
const KernelSource kConv2dKernel{
    "conv2d",
    kConv2dWGSL,
    "main",
    {kConv2dWorkgroupSizeX, kConv2dWorkgroupSizeY, kConv2dWorkgroupSizeZ}};
const KernelSource kConv2dSplitSumKernel{
    "conv2d_split_sum",
    kConv2dSplitSumWGSL,
    "main",
    {kConv2dSplitSumWorkgroupSizeX, kConv2dSplitSumWorkgroupSizeY, kConv2dSplitSumWorkgroupSizeZ}};
// Dispatch 2's kernels, in route order.
const KernelSource* const kDispatch2Kernels[] = {&kConvTranspose2dKernel, &kConv2dVec4Kernel,
                                                 &kConv2dKernel};

// The argument values, checked and turned into what each dispatch needs.
struct ConvWithClampPlan {
  std::vector<int64_t> scratch_wpack;    // dims of scratch tensor wpack
  std::vector<int64_t> scratch_partial;  // dims of scratch tensor partial
  bool run0 = true;
  ConvWithClampPackParams params0{};
  utils::Grid grid0;
  std::vector<OverrideValue> overrides0;
  bool run1 = true;
  ConvWithClampGemmParams params1{};
  utils::Grid grid1;
  std::vector<OverrideValue> overrides1;
  bool run2 = true;
  size_t route2 = 0;
  ConvWithClampDirectParams params2{};
  utils::Grid grid2;
  std::vector<OverrideValue> overrides2;
  bool run3 = true;
  ConvWithClampSplitSumParams params3{};
  utils::Grid grid3;
  std::vector<OverrideValue> overrides3;
};

ConvWithClampPlan plan_conv_with_clamp(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 12);
  const Tensor& input = graph.get_tensor(args[0]);
  const Tensor& weight = graph.get_tensor(args[1]);
  const Tensor* bias = graph.is_null(args[2]) ? nullptr : &graph.get_tensor(args[2]);
  const std::vector<int64_t> stride = utils::parse_hw(graph.get_int_list(args[3]), kOp, "stride");
  const std::vector<int64_t> padding = utils::parse_hw(graph.get_int_list(args[4]), kOp, "padding");
  const std::vector<int64_t> dilation =
      utils::parse_hw(graph.get_int_list(args[5]), kOp, "dilation");
  const bool transposed = graph.get_bool(args[6]);
  const std::vector<int64_t> output_padding =
      utils::parse_hw(graph.get_int_list(args[7]), kOp, "output_padding");
  const int64_t groups = utils::read_int(graph, args[8], kOp, "groups", false);
  const bool output_min_is_null = graph.is_null(args[9]);
  const double output_min = output_min_is_null ? 0.0 : graph.get_scalar(args[9]);
  const bool output_max_is_null = graph.is_null(args[10]);
  const double output_max = output_max_is_null ? 0.0 : graph.get_scalar(args[10]);
  const Tensor& out = graph.get_tensor(args[11]);
  utils::check_dtype(kOp, "input", input, {DType::Float32});
  utils::check_rank(kOp, "input", input, 4, 4);
  utils::check_dtype(kOp, "weight", weight, {DType::Float32});
  utils::check_rank(kOp, "weight", weight, 4, 4);
  if (bias != nullptr) {
    utils::check_dtype(kOp, "bias", *bias, {DType::Float32});
    utils::check_rank(kOp, "bias", *bias, 1, 1);
  }
  utils::check_dtype(kOp, "out", out, {DType::Float32});
  utils::check_rank(kOp, "out", out, 4, 4);
  const int64_t B = input.dim(0);
  const int64_t IC = input.dim(1);
  const int64_t IH = input.dim(2);
  const int64_t IW = input.dim(3);
  const int64_t KH = weight.dim(2);
  const int64_t KW = weight.dim(3);
  const int64_t g = utils::max_of(groups, 1);
  const int64_t OC = transposed ? utils::mul(weight.dim(1), g) : weight.dim(0);
  const int64_t icpg = utils::floordiv(IC, g);
  const int64_t OH =
      transposed
          ? utils::add(
                utils::add(
                    utils::add(utils::sub(utils::mul(utils::sub(IH, 1), utils::at(stride, 0)),
                                          utils::mul(2, utils::at(padding, 0))),
                               utils::mul(utils::at(dilation, 0), utils::sub(KH, 1))),
                    utils::at(output_padding, 0)),
                1)
          : utils::add(
                utils::floordiv(
                    utils::sub(utils::sub(utils::add(IH, utils::mul(2, utils::at(padding, 0))),
                                          utils::mul(utils::at(dilation, 0), utils::sub(KH, 1))),
                               1),
                    utils::max_of(utils::at(stride, 0), 1)),
                1);
  const int64_t OW =
      transposed
          ? utils::add(
                utils::add(
                    utils::add(utils::sub(utils::mul(utils::sub(IW, 1), utils::at(stride, 1)),
                                          utils::mul(2, utils::at(padding, 1))),
                               utils::mul(utils::at(dilation, 1), utils::sub(KW, 1))),
                    utils::at(output_padding, 1)),
                1)
          : utils::add(
                utils::floordiv(
                    utils::sub(utils::sub(utils::add(IW, utils::mul(2, utils::at(padding, 1))),
                                          utils::mul(utils::at(dilation, 1), utils::sub(KW, 1))),
                               1),
                    utils::max_of(utils::at(stride, 1), 1)),
                1);
  const bool gemm = !transposed && (groups == 1);
  const int64_t tiles =
      utils::mul(utils::ceil_div(utils::mul(utils::mul(B, OH), OW), 64), utils::ceil_div(OC, 64));
  const int64_t steps = utils::mul(utils::mul(KH, KW), utils::ceil_div(IC, 16));
  const int64_t split =
      (gemm && (tiles < 512))
          ? utils::max_of(
                1, utils::min_of(utils::min_of(utils::ceil_div(1024, utils::max_of(tiles, 1)),
                                               utils::floordiv(steps, 8)),
                                 8))
          : 1;
  if (!(utils::min_of(stride) > 0)) {
    utils::fail(kOp, "stride", "is not positive", utils::format_value(stride), "strides >= 1");
  }
  if (!(utils::min_of(dilation) > 0)) {
    utils::fail(kOp, "dilation", "is not positive", utils::format_value(dilation),
                "dilations >= 1");
  }
  if (!(utils::min_of(padding) >= 0)) {
    utils::fail(kOp, "padding", "is negative", utils::format_value(padding), "paddings >= 0");
  }
  if (!((KH > 0) && (KW > 0))) {
    utils::fail(kOp, "weight", "has an empty kernel", utils::format_value(weight.dims()),
                "KH and KW >= 1");
  }
  if (!((groups > 0) && (utils::floormod(IC, g) == 0) && (utils::floormod(OC, g) == 0))) {
    utils::fail(
        kOp, "groups", "does not divide the channels", utils::format_value(groups),
        "a divisor of IC=" + utils::format_value(IC) + " and OC=" + utils::format_value(OC));
  }
  if (!(transposed || (weight.dim(1) == icpg))) {
    utils::fail(kOp, "weight", "does not match the input channels per group",
                utils::format_value(weight.dims()), "dims[1] == " + utils::format_value(icpg));
  }
  if (!(!transposed || (weight.dim(0) == IC))) {
    utils::fail(kOp, "weight", "does not match the input channels (transposed)",
                utils::format_value(weight.dims()), "dims[0] == " + utils::format_value(IC));
  }
  if (!(transposed || (output_padding == std::vector<int64_t>{0, 0}))) {
    utils::fail(kOp, "output_padding", "is only valid for a transposed conv",
                utils::format_value(output_padding), "[0, 0]");
  }
  if (!(!transposed || ((utils::min_of(output_padding) >= 0) &&
                        (utils::at(output_padding, 0) <
                         utils::max_of(utils::at(stride, 0), utils::at(dilation, 0))) &&
                        (utils::at(output_padding, 1) <
                         utils::max_of(utils::at(stride, 1), utils::at(dilation, 1)))))) {
    utils::fail(
        kOp, "output_padding", "is not smaller than stride or dilation",
        utils::format_value(output_padding),
        "values below " + utils::format_value(stride) + " or " + utils::format_value(dilation));
  }
  if (!(!(bias != nullptr) || (bias->numel() == OC))) {
    utils::fail(kOp, "bias", "does not hold one value per output channel",
                utils::format_value(bias->dims()), utils::format_value(OC) + " values");
  }
  if (!((OH > 0) && (OW > 0))) {
    utils::fail(kOp, "input", "is smaller than the kernel", utils::format_value(input.dims()),
                "an output of at least 1x1");
  }
  utils::check_output_dims(kOp, "out", out, std::vector<int64_t>{B, OC, OH, OW});
  Tensor wpack;  // scratch, allocated by add_conv_with_clamp
  wpack.dtype = DType::Float32;
  wpack.max_dims = std::vector<int64_t>{
      gemm ? utils::mul(utils::mul(utils::mul(utils::mul(KH, KW), IC), utils::ceil_div(OC, 4)), 4)
           : 0};
  wpack.live_dims = wpack.max_dims;
  Tensor partial;  // scratch, allocated by add_conv_with_clamp
  partial.dtype = DType::Float32;
  partial.max_dims = std::vector<int64_t>{
      (split > 1) ? utils::mul(utils::mul(utils::mul(utils::mul(split, B), OC), OH), OW) : 0};
  partial.live_dims = partial.max_dims;

  ConvWithClampPlan plan;
  plan.scratch_wpack = wpack.dims();
  plan.scratch_partial = partial.dims();
  plan.run0 = gemm;
  if (plan.run0) {
    plan.params0.B = utils::to_u32(B, kOp, "B");
    plan.params0.IC = utils::to_u32(IC, kOp, "IC");
    plan.params0.IH = utils::to_u32(IH, kOp, "IH");
    plan.params0.IW = utils::to_u32(IW, kOp, "IW");
    plan.params0.OC = utils::to_u32(OC, kOp, "OC");
    plan.params0.OH = utils::to_u32(out.dim(2), kOp, "OH");
    plan.params0.OW = utils::to_u32(out.dim(3), kOp, "OW");
    plan.params0.KH = utils::to_u32(KH, kOp, "KH");
    plan.params0.KW = utils::to_u32(KW, kOp, "KW");
    plan.params0.sH = utils::to_u32(utils::at(stride, 0), kOp, "sH");
    plan.params0.sW = utils::to_u32(utils::at(stride, 1), kOp, "sW");
    plan.params0.pH = utils::to_u32(utils::at(padding, 0), kOp, "pH");
    plan.params0.pW = utils::to_u32(utils::at(padding, 1), kOp, "pW");
    plan.params0.dH = utils::to_u32(utils::at(dilation, 0), kOp, "dH");
    plan.params0.dW = utils::to_u32(utils::at(dilation, 1), kOp, "dW");
    plan.params0.groups = utils::to_u32(groups, kOp, "groups");
    plan.params0.split = utils::to_u32(split, kOp, "split");
    plan.params0.has_bias = (bias != nullptr) ? 1 : 0;
    plan.params0.has_min = !output_min_is_null ? 1 : 0;
    plan.params0.has_max = !output_max_is_null ? 1 : 0;
    plan.params0.min_value = utils::to_f32(output_min);
    plan.params0.max_value = utils::to_f32(output_max);
    plan.grid0 = utils::elementwise_grid(
        utils::mul(utils::mul(utils::mul(KH, KW), IC), utils::ceil_div(OC, 4)),
        kConv2dPackWeightsKernel.workgroup_size[0], graph.limits().max_workgroups_per_dimension);
  }
  plan.run1 = gemm;
  if (plan.run1) {
    plan.params1.B = utils::to_u32(B, kOp, "B");
    plan.params1.IC = utils::to_u32(IC, kOp, "IC");
    plan.params1.IH = utils::to_u32(IH, kOp, "IH");
    plan.params1.IW = utils::to_u32(IW, kOp, "IW");
    plan.params1.OC = utils::to_u32(OC, kOp, "OC");
    plan.params1.OH = utils::to_u32(out.dim(2), kOp, "OH");
    plan.params1.OW = utils::to_u32(out.dim(3), kOp, "OW");
    plan.params1.KH = utils::to_u32(KH, kOp, "KH");
    plan.params1.KW = utils::to_u32(KW, kOp, "KW");
    plan.params1.sH = utils::to_u32(utils::at(stride, 0), kOp, "sH");
    plan.params1.sW = utils::to_u32(utils::at(stride, 1), kOp, "sW");
    plan.params1.pH = utils::to_u32(utils::at(padding, 0), kOp, "pH");
    plan.params1.pW = utils::to_u32(utils::at(padding, 1), kOp, "pW");
    plan.params1.dH = utils::to_u32(utils::at(dilation, 0), kOp, "dH");
    plan.params1.dW = utils::to_u32(utils::at(dilation, 1), kOp, "dW");
    plan.params1.groups = utils::to_u32(groups, kOp, "groups");
    plan.params1.split = utils::to_u32(split, kOp, "split");
    plan.params1.has_bias = (bias != nullptr) ? 1 : 0;
    plan.params1.has_min = !output_min_is_null ? 1 : 0;
    plan.params1.has_max = !output_max_is_null ? 1 : 0;
    plan.params1.min_value = utils::to_f32(output_min);
    plan.params1.max_value = utils::to_f32(output_max);
    plan.grid1 = utils::tiles_grid(utils::mul(utils::mul(B, OH), OW), OC, split, 64, 64,
                                   graph.limits().max_workgroups_per_dimension);
  }
  plan.run2 = !gemm;
  if (plan.run2) {
    plan.params2.B = utils::to_u32(B, kOp, "B");
    plan.params2.IC = utils::to_u32(IC, kOp, "IC");
    plan.params2.IH = utils::to_u32(IH, kOp, "IH");
    plan.params2.IW = utils::to_u32(IW, kOp, "IW");
    plan.params2.OC = utils::to_u32(OC, kOp, "OC");
    plan.params2.OH = utils::to_u32(out.dim(2), kOp, "OH");
    plan.params2.OW = utils::to_u32(out.dim(3), kOp, "OW");
    plan.params2.KH = utils::to_u32(KH, kOp, "KH");
    plan.params2.KW = utils::to_u32(KW, kOp, "KW");
    plan.params2.sH = utils::to_u32(utils::at(stride, 0), kOp, "sH");
    plan.params2.sW = utils::to_u32(utils::at(stride, 1), kOp, "sW");
    plan.params2.pH = utils::to_u32(utils::at(padding, 0), kOp, "pH");
    plan.params2.pW = utils::to_u32(utils::at(padding, 1), kOp, "pW");
    plan.params2.dH = utils::to_u32(utils::at(dilation, 0), kOp, "dH");
    plan.params2.dW = utils::to_u32(utils::at(dilation, 1), kOp, "dW");
    plan.params2.groups = utils::to_u32(groups, kOp, "groups");
    plan.params2.split = utils::to_u32(split, kOp, "split");
    plan.params2.has_bias = (bias != nullptr) ? 1 : 0;
    plan.params2.has_min = !output_min_is_null ? 1 : 0;
    plan.params2.has_max = !output_max_is_null ? 1 : 0;
    plan.params2.min_value = utils::to_f32(output_min);
    plan.params2.max_value = utils::to_f32(output_max);
    if (transposed) {
      plan.route2 = 0;  // conv_transpose2d
      plan.grid2 = utils::elementwise_grid(out.numel(), kConvTranspose2dKernel.workgroup_size[0],
                                           graph.limits().max_workgroups_per_dimension);
    } else if (utils::floormod(icpg, 4) == 0) {
      plan.route2 = 1;  // conv2d_vec4
      plan.grid2 = utils::elementwise_grid(out.numel(), kConv2dVec4Kernel.workgroup_size[0],
                                           graph.limits().max_workgroups_per_dimension);
    } else {
      plan.route2 = 2;  // conv2d
      plan.grid2 = utils::elementwise_grid(out.numel(), kConv2dKernel.workgroup_size[0],
                                           graph.limits().max_workgroups_per_dimension);
    }
  }
  plan.run3 = split > 1;
  if (plan.run3) {
    plan.params3.B = utils::to_u32(B, kOp, "B");
    plan.params3.IC = utils::to_u32(IC, kOp, "IC");
    plan.params3.IH = utils::to_u32(IH, kOp, "IH");
    plan.params3.IW = utils::to_u32(IW, kOp, "IW");
    plan.params3.OC = utils::to_u32(OC, kOp, "OC");
    plan.params3.OH = utils::to_u32(out.dim(2), kOp, "OH");
    plan.params3.OW = utils::to_u32(out.dim(3), kOp, "OW");
    plan.params3.KH = utils::to_u32(KH, kOp, "KH");
    plan.params3.KW = utils::to_u32(KW, kOp, "KW");
    plan.params3.sH = utils::to_u32(utils::at(stride, 0), kOp, "sH");
    plan.params3.sW = utils::to_u32(utils::at(stride, 1), kOp, "sW");
    plan.params3.pH = utils::to_u32(utils::at(padding, 0), kOp, "pH");
    plan.params3.pW = utils::to_u32(utils::at(padding, 1), kOp, "pW");
    plan.params3.dH = utils::to_u32(utils::at(dilation, 0), kOp, "dH");
    plan.params3.dW = utils::to_u32(utils::at(dilation, 1), kOp, "dW");
    plan.params3.groups = utils::to_u32(groups, kOp, "groups");
    plan.params3.split = utils::to_u32(split, kOp, "split");
    plan.params3.has_bias = (bias != nullptr) ? 1 : 0;
    plan.params3.has_min = !output_min_is_null ? 1 : 0;
    plan.params3.has_max = !output_max_is_null ? 1 : 0;
    plan.params3.min_value = utils::to_f32(output_min);
    plan.params3.max_value = utils::to_f32(output_max);
    plan.grid3 = utils::elementwise_grid(out.numel(), kConv2dSplitSumKernel.workgroup_size[0],
                                         graph.limits().max_workgroups_per_dimension);
  }
  return plan;
}

void add_conv_with_clamp(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const ConvWithClampPlan built = plan_conv_with_clamp(graph, args);
  // Scratch tensor wpack: owned by the graph, written and read by this op's dispatches.
  const ValueRef scratch_wpack = graph.add_tensor(DType::Float32, built.scratch_wpack);
  // Scratch tensor partial: owned by the graph, written and read by this op's dispatches.
  const ValueRef scratch_partial = graph.add_tensor(DType::Float32, built.scratch_partial);
  if (built.run0) {
    graph.add_dispatch(kConv2dPackWeightsKernel, built.overrides0,
                       {Binding::params(), Binding::of(args[1]), Binding::of(scratch_wpack)},
                       &built.params0, sizeof(built.params0), built.grid0);
  }
  if (built.run1) {
    graph.add_dispatch(kConv2dGemmKernel, built.overrides1,
                       {Binding::params(), Binding::of(args[0]), Binding::of(scratch_wpack),
                        !graph.is_null(args[2]) ? Binding::of(args[2]) : Binding::dummy(4),
                        Binding::of(scratch_partial), Binding::of(args[11])},
                       &built.params1, sizeof(built.params1), built.grid1);
  }
  if (built.run2) {
    graph.add_dispatch(
        *kDispatch2Kernels[built.route2], built.overrides2,
        {Binding::params(), Binding::of(args[0]), Binding::of(args[1]),
         !graph.is_null(args[2]) ? Binding::of(args[2]) : Binding::dummy(4), Binding::of(args[11])},
        &built.params2, sizeof(built.params2), built.grid2);
  }
  if (built.run3) {
    graph.add_dispatch(
        kConv2dSplitSumKernel, built.overrides3,
        {Binding::params(), Binding::of(scratch_partial),
         !graph.is_null(args[2]) ? Binding::of(args[2]) : Binding::dummy(4), Binding::of(args[11])},
        &built.params3, sizeof(built.params3), built.grid3);
  }
  // Static shapes only: a resized input is an error, never a silent run at the built shape.
  graph.add_resize_hook([args](WebGPUGraph& graph) {
    utils::check_not_resized(kOp, "input", graph.get_tensor(args[0]));
    utils::check_not_resized(kOp, "weight", graph.get_tensor(args[1]));
    if (!graph.is_null(args[2])) {
      utils::check_not_resized(kOp, "bias", graph.get_tensor(args[2]));
    }
  });
}

}  // namespace
}  // namespace webgpu_delegate

WEBGPU_REGISTER_OP(et_vk.conv_with_clamp.default, webgpu_delegate::add_conv_with_clamp);
