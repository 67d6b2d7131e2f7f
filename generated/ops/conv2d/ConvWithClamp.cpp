// @generated from codegen/specs/conv2d/conv2d.py - DO NOT EDIT.
// Op conv_with_clamp: et_vk.conv_with_clamp.default

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ops/conv2d/conv2d_f16_packed_wgsl.h"
#include "ops/conv2d/conv2d_f16_wgsl.h"
#include "ops/conv2d/conv2d_gemm128_f16_packed_wgsl.h"
#include "ops/conv2d/conv2d_gemm128_f16_wgsl.h"
#include "ops/conv2d/conv2d_gemm128_wgsl.h"
#include "ops/conv2d/conv2d_gemm_f16_packed_wgsl.h"
#include "ops/conv2d/conv2d_gemm_f16_wgsl.h"
#include "ops/conv2d/conv2d_gemm_wgsl.h"
#include "ops/conv2d/conv2d_pack_weights_f16_packed_wgsl.h"
#include "ops/conv2d/conv2d_pack_weights_f16_wgsl.h"
#include "ops/conv2d/conv2d_pack_weights_wgsl.h"
#include "ops/conv2d/conv2d_split_sum_f16_packed_wgsl.h"
#include "ops/conv2d/conv2d_split_sum_f16_wgsl.h"
#include "ops/conv2d/conv2d_split_sum_wgsl.h"
#include "ops/conv2d/conv2d_stem_gemm_f16_packed_wgsl.h"
#include "ops/conv2d/conv2d_stem_gemm_f16_wgsl.h"
#include "ops/conv2d/conv2d_stem_gemm_wgsl.h"
#include "ops/conv2d/conv2d_vec4_f16_packed_wgsl.h"
#include "ops/conv2d/conv2d_vec4_f16_wgsl.h"
#include "ops/conv2d/conv2d_vec4_wgsl.h"
#include "ops/conv2d/conv2d_wgsl.h"
#include "ops/conv2d/conv_transpose2d_f16_packed_wgsl.h"
#include "ops/conv2d/conv_transpose2d_f16_wgsl.h"
#include "ops/conv2d/conv_transpose2d_gemm_f16_packed_wgsl.h"
#include "ops/conv2d/conv_transpose2d_gemm_f16_wgsl.h"
#include "ops/conv2d/conv_transpose2d_gemm_wgsl.h"
#include "ops/conv2d/conv_transpose2d_wgsl.h"
#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "conv_with_clamp";

struct ConvWithClampParams {
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
  uint32_t M;
  uint32_t N;
  uint32_t K;
  uint32_t batch;
  uint32_t k_chunk;
  uint32_t _pad0;
};
static_assert(offsetof(ConvWithClampParams, B) == 0,
              "ConvWithClampParams.B must sit at WGSL offset 0");
static_assert(offsetof(ConvWithClampParams, IC) == 4,
              "ConvWithClampParams.IC must sit at WGSL offset 4");
static_assert(offsetof(ConvWithClampParams, IH) == 8,
              "ConvWithClampParams.IH must sit at WGSL offset 8");
static_assert(offsetof(ConvWithClampParams, IW) == 12,
              "ConvWithClampParams.IW must sit at WGSL offset 12");
static_assert(offsetof(ConvWithClampParams, OC) == 16,
              "ConvWithClampParams.OC must sit at WGSL offset 16");
static_assert(offsetof(ConvWithClampParams, OH) == 20,
              "ConvWithClampParams.OH must sit at WGSL offset 20");
static_assert(offsetof(ConvWithClampParams, OW) == 24,
              "ConvWithClampParams.OW must sit at WGSL offset 24");
static_assert(offsetof(ConvWithClampParams, KH) == 28,
              "ConvWithClampParams.KH must sit at WGSL offset 28");
static_assert(offsetof(ConvWithClampParams, KW) == 32,
              "ConvWithClampParams.KW must sit at WGSL offset 32");
static_assert(offsetof(ConvWithClampParams, sH) == 36,
              "ConvWithClampParams.sH must sit at WGSL offset 36");
static_assert(offsetof(ConvWithClampParams, sW) == 40,
              "ConvWithClampParams.sW must sit at WGSL offset 40");
static_assert(offsetof(ConvWithClampParams, pH) == 44,
              "ConvWithClampParams.pH must sit at WGSL offset 44");
static_assert(offsetof(ConvWithClampParams, pW) == 48,
              "ConvWithClampParams.pW must sit at WGSL offset 48");
static_assert(offsetof(ConvWithClampParams, dH) == 52,
              "ConvWithClampParams.dH must sit at WGSL offset 52");
static_assert(offsetof(ConvWithClampParams, dW) == 56,
              "ConvWithClampParams.dW must sit at WGSL offset 56");
static_assert(offsetof(ConvWithClampParams, groups) == 60,
              "ConvWithClampParams.groups must sit at WGSL offset 60");
static_assert(offsetof(ConvWithClampParams, split) == 64,
              "ConvWithClampParams.split must sit at WGSL offset 64");
static_assert(offsetof(ConvWithClampParams, has_bias) == 68,
              "ConvWithClampParams.has_bias must sit at WGSL offset 68");
static_assert(offsetof(ConvWithClampParams, has_min) == 72,
              "ConvWithClampParams.has_min must sit at WGSL offset 72");
static_assert(offsetof(ConvWithClampParams, has_max) == 76,
              "ConvWithClampParams.has_max must sit at WGSL offset 76");
static_assert(offsetof(ConvWithClampParams, min_value) == 80,
              "ConvWithClampParams.min_value must sit at WGSL offset 80");
static_assert(offsetof(ConvWithClampParams, max_value) == 84,
              "ConvWithClampParams.max_value must sit at WGSL offset 84");
static_assert(offsetof(ConvWithClampParams, M) == 88,
              "ConvWithClampParams.M must sit at WGSL offset 88");
static_assert(offsetof(ConvWithClampParams, N) == 92,
              "ConvWithClampParams.N must sit at WGSL offset 92");
static_assert(offsetof(ConvWithClampParams, K) == 96,
              "ConvWithClampParams.K must sit at WGSL offset 96");
static_assert(offsetof(ConvWithClampParams, batch) == 100,
              "ConvWithClampParams.batch must sit at WGSL offset 100");
static_assert(offsetof(ConvWithClampParams, k_chunk) == 104,
              "ConvWithClampParams.k_chunk must sit at WGSL offset 104");
static_assert(sizeof(ConvWithClampParams) == 112,
              "ConvWithClampParams must match the WGSL struct size 112");

const KernelSource kConv2dPackWeightsF16Kernel{
    "conv2d_pack_weights_f16",
    kConv2dPackWeightsF16WGSL,
    "main",
    {kConv2dPackWeightsF16WorkgroupSizeX, kConv2dPackWeightsF16WorkgroupSizeY,
     kConv2dPackWeightsF16WorkgroupSizeZ},
    kConv2dPackWeightsF16Bindings,
    kConv2dPackWeightsF16BindingCount,
    kConv2dPackWeightsF16Features};
const KernelSource kConv2dPackWeightsF16PackedKernel{
    "conv2d_pack_weights_f16_packed",
    kConv2dPackWeightsF16PackedWGSL,
    "main",
    {kConv2dPackWeightsF16PackedWorkgroupSizeX, kConv2dPackWeightsF16PackedWorkgroupSizeY,
     kConv2dPackWeightsF16PackedWorkgroupSizeZ},
    kConv2dPackWeightsF16PackedBindings,
    kConv2dPackWeightsF16PackedBindingCount};
const KernelSource kConv2dPackWeightsKernel{
    "conv2d_pack_weights",
    kConv2dPackWeightsWGSL,
    "main",
    {kConv2dPackWeightsWorkgroupSizeX, kConv2dPackWeightsWorkgroupSizeY,
     kConv2dPackWeightsWorkgroupSizeZ},
    kConv2dPackWeightsBindings,
    kConv2dPackWeightsBindingCount};
const KernelSource kConv2dStemGemmF16Kernel{
    "conv2d_stem_gemm_f16",
    kConv2dStemGemmF16WGSL,
    "main",
    {kConv2dStemGemmF16WorkgroupSizeX, kConv2dStemGemmF16WorkgroupSizeY,
     kConv2dStemGemmF16WorkgroupSizeZ},
    kConv2dStemGemmF16Bindings,
    kConv2dStemGemmF16BindingCount,
    kConv2dStemGemmF16Features};
const KernelSource kConv2dStemGemmF16PackedKernel{
    "conv2d_stem_gemm_f16_packed",
    kConv2dStemGemmF16PackedWGSL,
    "main",
    {kConv2dStemGemmF16PackedWorkgroupSizeX, kConv2dStemGemmF16PackedWorkgroupSizeY,
     kConv2dStemGemmF16PackedWorkgroupSizeZ},
    kConv2dStemGemmF16PackedBindings,
    kConv2dStemGemmF16PackedBindingCount};
const KernelSource kConv2dGemm128F16Kernel{
    "conv2d_gemm128_f16",
    kConv2dGemm128F16WGSL,
    "main",
    {kConv2dGemm128F16WorkgroupSizeX, kConv2dGemm128F16WorkgroupSizeY,
     kConv2dGemm128F16WorkgroupSizeZ},
    kConv2dGemm128F16Bindings,
    kConv2dGemm128F16BindingCount,
    kConv2dGemm128F16Features,
    kConv2dGemm128F16RuntimeChecks};
const KernelSource kConv2dGemm128F16PackedKernel{
    "conv2d_gemm128_f16_packed",
    kConv2dGemm128F16PackedWGSL,
    "main",
    {kConv2dGemm128F16PackedWorkgroupSizeX, kConv2dGemm128F16PackedWorkgroupSizeY,
     kConv2dGemm128F16PackedWorkgroupSizeZ},
    kConv2dGemm128F16PackedBindings,
    kConv2dGemm128F16PackedBindingCount,
    "",
    kConv2dGemm128F16PackedRuntimeChecks};
const KernelSource kConv2dGemmF16Kernel{
    "conv2d_gemm_f16",
    kConv2dGemmF16WGSL,
    "main",
    {kConv2dGemmF16WorkgroupSizeX, kConv2dGemmF16WorkgroupSizeY, kConv2dGemmF16WorkgroupSizeZ},
    kConv2dGemmF16Bindings,
    kConv2dGemmF16BindingCount,
    kConv2dGemmF16Features};
const KernelSource kConv2dGemmF16PackedKernel{
    "conv2d_gemm_f16_packed",
    kConv2dGemmF16PackedWGSL,
    "main",
    {kConv2dGemmF16PackedWorkgroupSizeX, kConv2dGemmF16PackedWorkgroupSizeY,
     kConv2dGemmF16PackedWorkgroupSizeZ},
    kConv2dGemmF16PackedBindings,
    kConv2dGemmF16PackedBindingCount};
const KernelSource kConv2dStemGemmKernel{
    "conv2d_stem_gemm",
    kConv2dStemGemmWGSL,
    "main",
    {kConv2dStemGemmWorkgroupSizeX, kConv2dStemGemmWorkgroupSizeY, kConv2dStemGemmWorkgroupSizeZ},
    kConv2dStemGemmBindings,
    kConv2dStemGemmBindingCount};
const KernelSource kConv2dGemm128Kernel{
    "conv2d_gemm128",
    kConv2dGemm128WGSL,
    "main",
    {kConv2dGemm128WorkgroupSizeX, kConv2dGemm128WorkgroupSizeY, kConv2dGemm128WorkgroupSizeZ},
    kConv2dGemm128Bindings,
    kConv2dGemm128BindingCount,
    "",
    kConv2dGemm128RuntimeChecks};
const KernelSource kConv2dGemmKernel{
    "conv2d_gemm",
    kConv2dGemmWGSL,
    "main",
    {kConv2dGemmWorkgroupSizeX, kConv2dGemmWorkgroupSizeY, kConv2dGemmWorkgroupSizeZ},
    kConv2dGemmBindings,
    kConv2dGemmBindingCount};
const KernelSource kConvTranspose2dGemmF16Kernel{
    "conv_transpose2d_gemm_f16",
    kConvTranspose2dGemmF16WGSL,
    "main",
    {kConvTranspose2dGemmF16WorkgroupSizeX, kConvTranspose2dGemmF16WorkgroupSizeY,
     kConvTranspose2dGemmF16WorkgroupSizeZ},
    kConvTranspose2dGemmF16Bindings,
    kConvTranspose2dGemmF16BindingCount,
    kConvTranspose2dGemmF16Features};
const KernelSource kConvTranspose2dGemmF16PackedKernel{
    "conv_transpose2d_gemm_f16_packed",
    kConvTranspose2dGemmF16PackedWGSL,
    "main",
    {kConvTranspose2dGemmF16PackedWorkgroupSizeX, kConvTranspose2dGemmF16PackedWorkgroupSizeY,
     kConvTranspose2dGemmF16PackedWorkgroupSizeZ},
    kConvTranspose2dGemmF16PackedBindings,
    kConvTranspose2dGemmF16PackedBindingCount};
const KernelSource kConvTranspose2dF16Kernel{
    "conv_transpose2d_f16",
    kConvTranspose2dF16WGSL,
    "main",
    {kConvTranspose2dF16WorkgroupSizeX, kConvTranspose2dF16WorkgroupSizeY,
     kConvTranspose2dF16WorkgroupSizeZ},
    kConvTranspose2dF16Bindings,
    kConvTranspose2dF16BindingCount,
    kConvTranspose2dF16Features};
const KernelSource kConvTranspose2dF16PackedKernel{
    "conv_transpose2d_f16_packed",
    kConvTranspose2dF16PackedWGSL,
    "main",
    {kConvTranspose2dF16PackedWorkgroupSizeX, kConvTranspose2dF16PackedWorkgroupSizeY,
     kConvTranspose2dF16PackedWorkgroupSizeZ},
    kConvTranspose2dF16PackedBindings,
    kConvTranspose2dF16PackedBindingCount};
const KernelSource kConvTranspose2dGemmKernel{
    "conv_transpose2d_gemm",
    kConvTranspose2dGemmWGSL,
    "main",
    {kConvTranspose2dGemmWorkgroupSizeX, kConvTranspose2dGemmWorkgroupSizeY,
     kConvTranspose2dGemmWorkgroupSizeZ},
    kConvTranspose2dGemmBindings,
    kConvTranspose2dGemmBindingCount};
const KernelSource kConvTranspose2dKernel{
    "conv_transpose2d",
    kConvTranspose2dWGSL,
    "main",
    {kConvTranspose2dWorkgroupSizeX, kConvTranspose2dWorkgroupSizeY,
     kConvTranspose2dWorkgroupSizeZ},
    kConvTranspose2dBindings,
    kConvTranspose2dBindingCount};
const KernelSource kConv2dVec4F16Kernel{
    "conv2d_vec4_f16",
    kConv2dVec4F16WGSL,
    "main",
    {kConv2dVec4F16WorkgroupSizeX, kConv2dVec4F16WorkgroupSizeY, kConv2dVec4F16WorkgroupSizeZ},
    kConv2dVec4F16Bindings,
    kConv2dVec4F16BindingCount,
    kConv2dVec4F16Features};
const KernelSource kConv2dVec4F16PackedKernel{
    "conv2d_vec4_f16_packed",
    kConv2dVec4F16PackedWGSL,
    "main",
    {kConv2dVec4F16PackedWorkgroupSizeX, kConv2dVec4F16PackedWorkgroupSizeY,
     kConv2dVec4F16PackedWorkgroupSizeZ},
    kConv2dVec4F16PackedBindings,
    kConv2dVec4F16PackedBindingCount};
const KernelSource kConv2dF16Kernel{
    "conv2d_f16",
    kConv2dF16WGSL,
    "main",
    {kConv2dF16WorkgroupSizeX, kConv2dF16WorkgroupSizeY, kConv2dF16WorkgroupSizeZ},
    kConv2dF16Bindings,
    kConv2dF16BindingCount,
    kConv2dF16Features};
const KernelSource kConv2dF16PackedKernel{
    "conv2d_f16_packed",
    kConv2dF16PackedWGSL,
    "main",
    {kConv2dF16PackedWorkgroupSizeX, kConv2dF16PackedWorkgroupSizeY,
     kConv2dF16PackedWorkgroupSizeZ},
    kConv2dF16PackedBindings,
    kConv2dF16PackedBindingCount};
const KernelSource kConv2dVec4Kernel{
    "conv2d_vec4",
    kConv2dVec4WGSL,
    "main",
    {kConv2dVec4WorkgroupSizeX, kConv2dVec4WorkgroupSizeY, kConv2dVec4WorkgroupSizeZ},
    kConv2dVec4Bindings,
    kConv2dVec4BindingCount};
const KernelSource kConv2dKernel{
    "conv2d",        kConv2dWGSL,
    "main",          {kConv2dWorkgroupSizeX, kConv2dWorkgroupSizeY, kConv2dWorkgroupSizeZ},
    kConv2dBindings, kConv2dBindingCount};
const KernelSource kConv2dSplitSumF16Kernel{
    "conv2d_split_sum_f16",
    kConv2dSplitSumF16WGSL,
    "main",
    {kConv2dSplitSumF16WorkgroupSizeX, kConv2dSplitSumF16WorkgroupSizeY,
     kConv2dSplitSumF16WorkgroupSizeZ},
    kConv2dSplitSumF16Bindings,
    kConv2dSplitSumF16BindingCount,
    kConv2dSplitSumF16Features};
const KernelSource kConv2dSplitSumF16PackedKernel{
    "conv2d_split_sum_f16_packed",
    kConv2dSplitSumF16PackedWGSL,
    "main",
    {kConv2dSplitSumF16PackedWorkgroupSizeX, kConv2dSplitSumF16PackedWorkgroupSizeY,
     kConv2dSplitSumF16PackedWorkgroupSizeZ},
    kConv2dSplitSumF16PackedBindings,
    kConv2dSplitSumF16PackedBindingCount};
const KernelSource kConv2dSplitSumKernel{
    "conv2d_split_sum",
    kConv2dSplitSumWGSL,
    "main",
    {kConv2dSplitSumWorkgroupSizeX, kConv2dSplitSumWorkgroupSizeY, kConv2dSplitSumWorkgroupSizeZ},
    kConv2dSplitSumBindings,
    kConv2dSplitSumBindingCount};
// Dispatch 0's kernels, in route order.
const KernelSource* const kDispatch0Kernels[] = {
    &kConv2dPackWeightsF16Kernel, &kConv2dPackWeightsF16PackedKernel, &kConv2dPackWeightsKernel};
// Dispatch 1's kernels, in route order.
const KernelSource* const kDispatch1Kernels[] = {
    &kConv2dStemGemmF16Kernel,      &kConv2dStemGemmF16PackedKernel, &kConv2dGemm128F16Kernel,
    &kConv2dGemm128F16PackedKernel, &kConv2dGemmF16Kernel,           &kConv2dGemmF16PackedKernel,
    &kConv2dStemGemmKernel,         &kConv2dGemm128Kernel,           &kConv2dGemmKernel};
// Dispatch 2's kernels, in route order.
const KernelSource* const kDispatch2Kernels[] = {
    &kConvTranspose2dGemmF16Kernel, &kConvTranspose2dGemmF16PackedKernel,
    &kConvTranspose2dF16Kernel,     &kConvTranspose2dF16PackedKernel,
    &kConvTranspose2dGemmKernel,    &kConvTranspose2dKernel};
// Dispatch 3's kernels, in route order.
const KernelSource* const kDispatch3Kernels[] = {&kConv2dVec4F16Kernel, &kConv2dVec4F16PackedKernel,
                                                 &kConv2dF16Kernel,     &kConv2dF16PackedKernel,
                                                 &kConv2dVec4Kernel,    &kConv2dKernel};
// Dispatch 4's kernels, in route order.
const KernelSource* const kDispatch4Kernels[] = {
    &kConv2dSplitSumF16Kernel, &kConv2dSplitSumF16PackedKernel, &kConv2dSplitSumKernel};

// The argument values, checked and turned into what each dispatch needs.
struct ConvWithClampPlan {
  std::vector<int64_t> scratch_wpack;    // dims of scratch tensor wpack
  std::vector<int64_t> scratch_partial;  // dims of scratch tensor partial
  ConvWithClampParams params{};
  bool run0 = true;
  size_t route0 = 0;
  utils::Grid grid0;
  std::vector<OverrideValue> overrides0;
  bool run1 = true;
  size_t route1 = 0;
  utils::Grid grid1;
  std::vector<OverrideValue> overrides1;
  bool run2 = true;
  size_t route2 = 0;
  utils::Grid grid2;
  std::vector<OverrideValue> overrides2;
  bool run3 = true;
  size_t route3 = 0;
  utils::Grid grid3;
  std::vector<OverrideValue> overrides3;
  bool run4 = true;
  size_t route4 = 0;
  utils::Grid grid4;
  std::vector<OverrideValue> overrides4;
};

ConvWithClampPlan plan_conv_with_clamp(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 12);
  const Tensor& input = graph.get_tensor(args[0]);
  const Tensor& weight = graph.get_tensor(args[1]);
  const Tensor* bias = graph.is_null(args[2]) ? nullptr : &graph.get_tensor(args[2]);
  const std::vector<int64_t> stride = utils::read_int_list(graph, args[3], kOp, "stride");
  const std::vector<int64_t> padding = utils::read_int_list(graph, args[4], kOp, "padding");
  const std::vector<int64_t> dilation = utils::read_int_list(graph, args[5], kOp, "dilation");
  const bool transposed = graph.get_bool(args[6]);
  const std::vector<int64_t> output_padding =
      utils::read_int_list(graph, args[7], kOp, "output_padding");
  const int64_t groups = utils::read_int(graph, args[8], kOp, "groups", false);
  const bool output_min_is_null = graph.is_null(args[9]);
  const double output_min = output_min_is_null ? 0.0 : graph.get_scalar(args[9]);
  const bool output_max_is_null = graph.is_null(args[10]);
  const double output_max = output_max_is_null ? 0.0 : graph.get_scalar(args[10]);
  const Tensor& out = graph.get_tensor(args[11]);
  utils::check_dtype(kOp, "input", input, {DType::Float32, DType::Float16});
  utils::check_rank(kOp, "input", input, 3, 4);
  utils::check_dtype(kOp, "weight", weight, {DType::Float32, DType::Float16});
  utils::check_rank(kOp, "weight", weight, 3, 4);
  if (bias != nullptr) {
    utils::check_dtype(kOp, "bias", *bias, {DType::Float32, DType::Float16});
    utils::check_rank(kOp, "bias", *bias, 1, 1);
  }
  utils::check_dtype(kOp, "out", out, {DType::Float32, DType::Float16});
  utils::check_rank(kOp, "out", out, 3, 4);
  const int64_t rank = input.rank();
  const int64_t B = utils::let(kOp, "B = input.dims[0]", [&]() -> int64_t { return input.dim(0); });
  const int64_t IC =
      utils::let(kOp, "IC = input.dims[1]", [&]() -> int64_t { return input.dim(1); });
  const int64_t IH = utils::let(kOp, "IH = input.dims[2] if rank == 4 else 1",
                                [&]() -> int64_t { return (rank == 4) ? input.dim(2) : 1; });
  const int64_t IW =
      utils::let(kOp, "IW = input.dims[-1]", [&]() -> int64_t { return input.dim(-1); });
  const int64_t KH =
      utils::let(kOp, "KH = weight.dims[-2] if weight.rank == 4 else 1",
                 [&]() -> int64_t { return (weight.rank() == 4) ? weight.dim(-2) : 1; });
  const int64_t KW =
      utils::let(kOp, "KW = weight.dims[-1]", [&]() -> int64_t { return weight.dim(-1); });
  const int64_t sH = utils::let(
      kOp, "sH = 1 if rank == 3 else stride[0] if len(stride) > 0 else 1", [&]() -> int64_t {
        return (rank == 3) ? 1 : ((utils::length(stride) > 0) ? utils::at(stride, 0) : 1);
      });
  const int64_t sW = utils::let(kOp, "sW = stride[-1] if len(stride) > 0 else 1", [&]() -> int64_t {
    return (utils::length(stride) > 0) ? utils::at(stride, -1) : 1;
  });
  const int64_t pH = utils::let(
      kOp, "pH = 0 if rank == 3 else padding[0] if len(padding) > 0 else 0", [&]() -> int64_t {
        return (rank == 3) ? 0 : ((utils::length(padding) > 0) ? utils::at(padding, 0) : 0);
      });
  const int64_t pW = utils::let(
      kOp, "pW = padding[-1] if len(padding) > 0 else 0",
      [&]() -> int64_t { return (utils::length(padding) > 0) ? utils::at(padding, -1) : 0; });
  const int64_t dH = utils::let(
      kOp, "dH = 1 if rank == 3 else dilation[0] if len(dilation) > 0 else 1", [&]() -> int64_t {
        return (rank == 3) ? 1 : ((utils::length(dilation) > 0) ? utils::at(dilation, 0) : 1);
      });
  const int64_t dW = utils::let(
      kOp, "dW = dilation[-1] if len(dilation) > 0 else 1",
      [&]() -> int64_t { return (utils::length(dilation) > 0) ? utils::at(dilation, -1) : 1; });
  const int64_t opH = utils::let(
      kOp, "opH = 0 if rank == 3 else output_padding[0] if len(output_padding) > 0 else 0",
      [&]() -> int64_t {
        return (rank == 3)
                   ? 0
                   : ((utils::length(output_padding) > 0) ? utils::at(output_padding, 0) : 0);
      });
  const int64_t opW = utils::let(
      kOp, "opW = output_padding[-1] if len(output_padding) > 0 else 0", [&]() -> int64_t {
        return (utils::length(output_padding) > 0) ? utils::at(output_padding, -1) : 0;
      });
  const int64_t g =
      utils::let(kOp, "g = max(groups, 1)", [&]() -> int64_t { return utils::max_of(groups, 1); });
  const int64_t OC = utils::let(
      kOp, "OC = weight.dims[1] * g if transposed else weight.dims[0]",
      [&]() -> int64_t { return transposed ? utils::mul(weight.dim(1), g) : weight.dim(0); });
  const int64_t icpg =
      utils::let(kOp, "icpg = IC // g", [&]() -> int64_t { return utils::floordiv(IC, g); });
  const int64_t OH = utils::let(
      kOp,
      "OH = (IH - 1) * sH - 2 * pH + dH * (KH - 1) + opH + 1 if transposed else (IH + 2 * pH - dH "
      "* (KH - 1) - 1) // max(sH, 1) + 1",
      [&]() -> int64_t {
        return transposed
                   ? utils::add(utils::add(utils::add(utils::sub(utils::mul(utils::sub(IH, 1), sH),
                                                                 utils::mul(2, pH)),
                                                      utils::mul(dH, utils::sub(KH, 1))),
                                           opH),
                                1)
                   : utils::add(
                         utils::floordiv(utils::sub(utils::sub(utils::add(IH, utils::mul(2, pH)),
                                                               utils::mul(dH, utils::sub(KH, 1))),
                                                    1),
                                         utils::max_of(sH, 1)),
                         1);
      });
  const int64_t OW = utils::let(
      kOp,
      "OW = (IW - 1) * sW - 2 * pW + dW * (KW - 1) + opW + 1 if transposed else (IW + 2 * pW - dW "
      "* (KW - 1) - 1) // max(sW, 1) + 1",
      [&]() -> int64_t {
        return transposed
                   ? utils::add(utils::add(utils::add(utils::sub(utils::mul(utils::sub(IW, 1), sW),
                                                                 utils::mul(2, pW)),
                                                      utils::mul(dW, utils::sub(KW, 1))),
                                           opW),
                                1)
                   : utils::add(
                         utils::floordiv(utils::sub(utils::sub(utils::add(IW, utils::mul(2, pW)),
                                                               utils::mul(dW, utils::sub(KW, 1))),
                                                    1),
                                         utils::max_of(sW, 1)),
                         1);
      });
  const bool gemm = !transposed && (groups == 1);
  const bool stem = gemm && (IC < 16);
  const int64_t K = utils::let(kOp, "K = IC * KH * KW",
                               [&]() -> int64_t { return utils::mul(utils::mul(IC, KH), KW); });
  const bool gemm128 = utils::let(
      kOp, "gemm128 = gemm and not stem and OC >= 128 and B * OH * OW >= 64", [&]() -> bool {
        return gemm && !stem && (OC >= 128) && (utils::mul(utils::mul(B, OH), OW) >= 64);
      });
  const bool tgemm = utils::let(
      kOp, "tgemm = transposed and groups == 1 and dH == 1 and dW == 1 and sH * sW <= 1024",
      [&]() -> bool {
        return transposed && (groups == 1) && (dH == 1) && (dW == 1) &&
               (utils::mul(sH, sW) <= 1024);
      });
  const int64_t tiles =
      utils::let(kOp, "tiles = ceil_div(B * OH * OW, 64) * ceil_div(OC, 64)", [&]() -> int64_t {
        return utils::mul(utils::ceil_div(utils::mul(utils::mul(B, OH), OW), 64),
                          utils::ceil_div(OC, 64));
      });
  const int64_t steps =
      utils::let(kOp, "steps = ceil_div(KH * KW * IC, 16) if stem else KH * KW * ceil_div(IC, 16)",
                 [&]() -> int64_t {
                   return stem ? utils::ceil_div(utils::mul(utils::mul(KH, KW), IC), 16)
                               : utils::mul(utils::mul(KH, KW), utils::ceil_div(IC, 16));
                 });
  const int64_t split64 = utils::let(
      kOp,
      "split64 = max(1, min(min(ceil_div(1024, max(tiles, 1)), steps // 8), 8)) if tiles < 512 "
      "else 1",
      [&]() -> int64_t {
        return (tiles < 512)
                   ? utils::max_of(
                         1,
                         utils::min_of(utils::min_of(utils::ceil_div(1024, utils::max_of(tiles, 1)),
                                                     utils::floordiv(steps, 8)),
                                       8))
                   : 1;
      });
  const int64_t tiles128 = utils::let(
      kOp, "tiles128 = ceil_div(B * OH * OW, 128) * ceil_div(OC, 128)", [&]() -> int64_t {
        return utils::mul(utils::ceil_div(utils::mul(utils::mul(B, OH), OW), 128),
                          utils::ceil_div(OC, 128));
      });
  const int64_t steps128 = utils::let(kOp, "steps128 = ceil_div(K, 8)",
                                      [&]() -> int64_t { return utils::ceil_div(K, 8); });
  const int64_t split128 = utils::let(
      kOp,
      "split128 = max(1, min(min(264 // max(tiles128, 1), steps128 // 16), 16)) if tiles128 < 132 "
      "else 1",
      [&]() -> int64_t {
        return (tiles128 < 132)
                   ? utils::max_of(
                         1, utils::min_of(
                                utils::min_of(utils::floordiv(264, utils::max_of(tiles128, 1)),
                                              utils::floordiv(steps128, 16)),
                                16))
                   : 1;
      });
  const int64_t split = gemm ? (gemm128 ? split128 : split64) : 1;
  const int64_t k_chunk =
      utils::let(kOp, "k_chunk = ceil_div(steps128, split) * 8",
                 [&]() -> int64_t { return utils::mul(utils::ceil_div(steps128, split), 8); });
  if (weight.rank() != rank) {
    utils::fail(kOp, "weight", "does not have the input's rank", utils::format_value(weight.rank()),
                utils::format_value(rank));
  }
  if ((utils::length(stride) != 1) && (utils::length(stride) != utils::sub(rank, 2))) {
    utils::fail(kOp, "stride", "does not hold one value per spatial dim",
                utils::format_value(stride),
                utils::format_value((rank == 3) ? "one value" : "one or two values"));
  }
  if ((utils::length(padding) != 1) && (utils::length(padding) != utils::sub(rank, 2))) {
    utils::fail(kOp, "padding", "does not hold one value per spatial dim",
                utils::format_value(padding),
                utils::format_value((rank == 3) ? "one value" : "one or two values"));
  }
  if ((utils::length(dilation) != 1) && (utils::length(dilation) != utils::sub(rank, 2))) {
    utils::fail(kOp, "dilation", "does not hold one value per spatial dim",
                utils::format_value(dilation),
                utils::format_value((rank == 3) ? "one value" : "one or two values"));
  }
  if ((utils::length(output_padding) != 1) &&
      (utils::length(output_padding) != utils::sub(rank, 2))) {
    utils::fail(kOp, "output_padding", "does not hold one value per spatial dim",
                utils::format_value(output_padding),
                utils::format_value((rank == 3) ? "one value" : "one or two values"));
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
  if ((KH <= 0) || (KW <= 0)) {
    utils::fail(kOp, "weight", "has an empty kernel", utils::format_value(weight.dims()),
                "KH and KW >= 1");
  }
  if ((groups <= 0) || (utils::floormod(IC, g) != 0) || (utils::floormod(OC, g) != 0)) {
    utils::fail(
        kOp, "groups", "does not divide the channels", utils::format_value(groups),
        "a divisor of IC=" + utils::format_value(IC) + " and OC=" + utils::format_value(OC));
  }
  if (!transposed && (weight.dim(1) != icpg)) {
    utils::fail(kOp, "weight", "does not match the input channels per group",
                utils::format_value(weight.dims()), "dims[1] == " + utils::format_value(icpg));
  }
  if (transposed && (weight.dim(0) != IC)) {
    utils::fail(kOp, "weight", "does not match the input channels (transposed)",
                utils::format_value(weight.dims()), "dims[0] == " + utils::format_value(IC));
  }
  if (!transposed && ((opH != 0) || (opW != 0))) {
    utils::fail(kOp, "output_padding", "is only valid for a transposed conv",
                utils::format_value(output_padding),
                utils::format_value((rank == 3) ? "[0]" : "[0, 0]"));
  }
  if (transposed && ((utils::min_of(output_padding) < 0) || (opH >= utils::max_of(sH, dH)) ||
                     (opW >= utils::max_of(sW, dW)))) {
    utils::fail(
        kOp, "output_padding", "is not smaller than stride or dilation",
        utils::format_value(output_padding),
        "values below " + utils::format_value(stride) + " or " + utils::format_value(dilation));
  }
  if ((bias != nullptr) && (bias->numel() != OC)) {
    utils::fail(kOp, "bias", "does not hold one value per output channel",
                utils::format_value(bias->dims()), utils::format_value(OC) + " values");
  }
  if ((OH <= 0) || (OW <= 0)) {
    utils::fail(kOp, "input", "is smaller than the kernel", utils::format_value(input.dims()),
                "an output of at least " + utils::format_value((rank == 3) ? "1" : "1x1"));
  }
  if ((weight.dtype != input.dtype) || ((bias != nullptr) && (bias->dtype != input.dtype))) {
    utils::fail(kOp, "input", "does not share its dtype with weight and bias",
                utils::format_value(input.dtype), "the dtype of weight and bias");
  }
  utils::check_output_dims(
      kOp, "out", out,
      (rank == 4) ? std::vector<int64_t>{B, OC, OH, OW} : std::vector<int64_t>{B, OC, OW});
  Tensor wpack;  // scratch, allocated by add_conv_with_clamp
  wpack.dtype = DType::Float32;
  wpack.max_dims = std::vector<int64_t>{
      (gemm || tgemm)
          ? utils::mul(utils::mul(utils::mul(utils::mul(KH, KW), IC), utils::ceil_div(OC, 4)),
                       (input.dtype == DType::Float16) ? 2 : 4)
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
  plan.params.B = utils::to_u32(B, kOp, "B");
  plan.params.IC = utils::to_u32(IC, kOp, "IC");
  plan.params.IH = utils::to_u32(IH, kOp, "IH");
  plan.params.IW = utils::to_u32(IW, kOp, "IW");
  plan.params.OC = utils::to_u32(OC, kOp, "OC");
  plan.params.OH = utils::to_u32(OH, kOp, "OH");
  plan.params.OW = utils::to_u32(OW, kOp, "OW");
  plan.params.KH = utils::to_u32(KH, kOp, "KH");
  plan.params.KW = utils::to_u32(KW, kOp, "KW");
  plan.params.sH = utils::to_u32(sH, kOp, "sH");
  plan.params.sW = utils::to_u32(sW, kOp, "sW");
  plan.params.pH = utils::to_u32(pH, kOp, "pH");
  plan.params.pW = utils::to_u32(pW, kOp, "pW");
  plan.params.dH = utils::to_u32(dH, kOp, "dH");
  plan.params.dW = utils::to_u32(dW, kOp, "dW");
  plan.params.groups = utils::to_u32(groups, kOp, "groups");
  plan.params.split = utils::to_u32(split, kOp, "split");
  plan.params.has_bias = (bias != nullptr) ? 1 : 0;
  plan.params.has_min = (!output_min_is_null) ? 1 : 0;
  plan.params.has_max = (!output_max_is_null) ? 1 : 0;
  plan.params.min_value = utils::to_f32(output_min);
  plan.params.max_value = utils::to_f32(output_max);
  plan.params.M = utils::to_u32(OC, kOp, "M");
  plan.params.N = utils::to_u32(utils::mul(utils::mul(B, OH), OW), kOp, "N");
  plan.params.K = utils::to_u32(K, kOp, "K");
  plan.params.batch = utils::to_u32(1, kOp, "batch");
  plan.params.k_chunk = utils::to_u32(k_chunk, kOp, "k_chunk");
  plan.run0 = gemm || tgemm;
  if (plan.run0) {
    if (graph.has_feature(Feature::ShaderF16) && (input.dtype == DType::Float16)) {
      plan.route0 = 0;  // conv2d_pack_weights_f16
      plan.grid0 = utils::elementwise_grid(
          utils::mul(utils::mul(utils::mul(KH, KW), IC), utils::ceil_div(OC, 4)),
          kConv2dPackWeightsF16Kernel.workgroup_size[0],
          graph.limits().max_workgroups_per_dimension);
      plan.overrides0 = {{"TRANSPOSED", transposed ? 1.0 : 0.0}};
    } else if (input.dtype == DType::Float16) {
      plan.route0 = 1;  // conv2d_pack_weights_f16_packed
      plan.grid0 = utils::elementwise_grid(
          utils::mul(utils::mul(utils::mul(KH, KW), IC), utils::ceil_div(OC, 4)),
          kConv2dPackWeightsF16PackedKernel.workgroup_size[0],
          graph.limits().max_workgroups_per_dimension);
      plan.overrides0 = {{"TRANSPOSED", transposed ? 1.0 : 0.0}};
    } else {
      plan.route0 = 2;  // conv2d_pack_weights
      plan.grid0 = utils::elementwise_grid(
          utils::mul(utils::mul(utils::mul(KH, KW), IC), utils::ceil_div(OC, 4)),
          kConv2dPackWeightsKernel.workgroup_size[0], graph.limits().max_workgroups_per_dimension);
      plan.overrides0 = {{"TRANSPOSED", transposed ? 1.0 : 0.0}};
    }
  }
  plan.run1 = gemm;
  if (plan.run1) {
    if (graph.has_feature(Feature::ShaderF16) && ((input.dtype == DType::Float16) && stem)) {
      plan.route1 = 0;  // conv2d_stem_gemm_f16
      plan.grid1 = utils::tiles_grid(utils::mul(utils::mul(B, OH), OW), OC, split, 64, 64,
                                     graph.limits().max_workgroups_per_dimension);
      plan.overrides1 = {{"PADDED", (utils::max_of(pH, pW) > 0) ? 1.0 : 0.0}};
    } else if ((input.dtype == DType::Float16) && stem) {
      plan.route1 = 1;  // conv2d_stem_gemm_f16_packed
      plan.grid1 = utils::tiles_grid(utils::mul(utils::mul(B, OH), OW), OC, split, 64, 64,
                                     graph.limits().max_workgroups_per_dimension);
      plan.overrides1 = {{"PADDED", (utils::max_of(pH, pW) > 0) ? 1.0 : 0.0}};
    } else if (graph.has_feature(Feature::ShaderF16) &&
               ((input.dtype == DType::Float16) && gemm128)) {
      plan.route1 = 2;  // conv2d_gemm128_f16
      plan.grid1 = utils::tiles_grid(utils::mul(utils::mul(B, OH), OW), OC, split, 128, 128,
                                     graph.limits().max_workgroups_per_dimension);
      plan.overrides1 = {{"WEIGHT_VEC4", (utils::floormod(K, 4) == 0) ? 1.0 : 0.0}};
    } else if ((input.dtype == DType::Float16) && gemm128) {
      plan.route1 = 3;  // conv2d_gemm128_f16_packed
      plan.grid1 = utils::tiles_grid(utils::mul(utils::mul(B, OH), OW), OC, split, 128, 128,
                                     graph.limits().max_workgroups_per_dimension);
      plan.overrides1 = {{"WEIGHT_VEC4", (utils::floormod(K, 4) == 0) ? 1.0 : 0.0}};
    } else if (graph.has_feature(Feature::ShaderF16) && (input.dtype == DType::Float16)) {
      plan.route1 = 4;  // conv2d_gemm_f16
      plan.grid1 = utils::tiles_grid(utils::mul(utils::mul(B, OH), OW), OC, split, 64, 64,
                                     graph.limits().max_workgroups_per_dimension);
    } else if (input.dtype == DType::Float16) {
      plan.route1 = 5;  // conv2d_gemm_f16_packed
      plan.grid1 = utils::tiles_grid(utils::mul(utils::mul(B, OH), OW), OC, split, 64, 64,
                                     graph.limits().max_workgroups_per_dimension);
    } else if (stem) {
      plan.route1 = 6;  // conv2d_stem_gemm
      plan.grid1 = utils::tiles_grid(utils::mul(utils::mul(B, OH), OW), OC, split, 64, 64,
                                     graph.limits().max_workgroups_per_dimension);
      plan.overrides1 = {{"PADDED", (utils::max_of(pH, pW) > 0) ? 1.0 : 0.0}};
    } else if (gemm128) {
      plan.route1 = 7;  // conv2d_gemm128
      plan.grid1 = utils::tiles_grid(utils::mul(utils::mul(B, OH), OW), OC, split, 128, 128,
                                     graph.limits().max_workgroups_per_dimension);
      plan.overrides1 = {{"WEIGHT_VEC4", (utils::floormod(K, 4) == 0) ? 1.0 : 0.0}};
    } else {
      plan.route1 = 8;  // conv2d_gemm
      plan.grid1 = utils::tiles_grid(utils::mul(utils::mul(B, OH), OW), OC, split, 64, 64,
                                     graph.limits().max_workgroups_per_dimension);
    }
  }
  plan.run2 = transposed;
  if (plan.run2) {
    if (graph.has_feature(Feature::ShaderF16) && ((input.dtype == DType::Float16) && tgemm)) {
      plan.route2 = 0;  // conv_transpose2d_gemm_f16
      plan.grid2 = utils::tiles_grid(
          utils::mul(utils::mul(B, utils::ceil_div(OH, sH)), utils::ceil_div(OW, sW)), OC,
          utils::mul(sH, sW), 64, 64, graph.limits().max_workgroups_per_dimension);
    } else if ((input.dtype == DType::Float16) && tgemm) {
      plan.route2 = 1;  // conv_transpose2d_gemm_f16_packed
      plan.grid2 = utils::tiles_grid(
          utils::mul(utils::mul(B, utils::ceil_div(OH, sH)), utils::ceil_div(OW, sW)), OC,
          utils::mul(sH, sW), 64, 64, graph.limits().max_workgroups_per_dimension);
    } else if (graph.has_feature(Feature::ShaderF16) && (input.dtype == DType::Float16)) {
      plan.route2 = 2;  // conv_transpose2d_f16
      plan.grid2 = utils::elementwise_grid(out.numel(), kConvTranspose2dF16Kernel.workgroup_size[0],
                                           graph.limits().max_workgroups_per_dimension);
    } else if (input.dtype == DType::Float16) {
      plan.route2 = 3;  // conv_transpose2d_f16_packed
      plan.grid2 =
          utils::elementwise_grid(out.numel(), kConvTranspose2dF16PackedKernel.workgroup_size[0],
                                  graph.limits().max_workgroups_per_dimension);
    } else if (tgemm) {
      plan.route2 = 4;  // conv_transpose2d_gemm
      plan.grid2 = utils::tiles_grid(
          utils::mul(utils::mul(B, utils::ceil_div(OH, sH)), utils::ceil_div(OW, sW)), OC,
          utils::mul(sH, sW), 64, 64, graph.limits().max_workgroups_per_dimension);
    } else {
      plan.route2 = 5;  // conv_transpose2d
      plan.grid2 = utils::elementwise_grid(out.numel(), kConvTranspose2dKernel.workgroup_size[0],
                                           graph.limits().max_workgroups_per_dimension);
    }
  }
  plan.run3 = !gemm && !transposed;
  if (plan.run3) {
    if (graph.has_feature(Feature::ShaderF16) &&
        ((input.dtype == DType::Float16) && (utils::floormod(icpg, 4) == 0))) {
      plan.route3 = 0;  // conv2d_vec4_f16
      plan.grid3 = utils::elementwise_grid(out.numel(), kConv2dVec4F16Kernel.workgroup_size[0],
                                           graph.limits().max_workgroups_per_dimension);
    } else if ((input.dtype == DType::Float16) && (utils::floormod(icpg, 4) == 0)) {
      plan.route3 = 1;  // conv2d_vec4_f16_packed
      plan.grid3 =
          utils::elementwise_grid(out.numel(), kConv2dVec4F16PackedKernel.workgroup_size[0],
                                  graph.limits().max_workgroups_per_dimension);
    } else if (graph.has_feature(Feature::ShaderF16) && (input.dtype == DType::Float16)) {
      plan.route3 = 2;  // conv2d_f16
      plan.grid3 = utils::elementwise_grid(out.numel(), kConv2dF16Kernel.workgroup_size[0],
                                           graph.limits().max_workgroups_per_dimension);
    } else if (input.dtype == DType::Float16) {
      plan.route3 = 3;  // conv2d_f16_packed
      plan.grid3 = utils::elementwise_grid(out.numel(), kConv2dF16PackedKernel.workgroup_size[0],
                                           graph.limits().max_workgroups_per_dimension);
    } else if (utils::floormod(icpg, 4) == 0) {
      plan.route3 = 4;  // conv2d_vec4
      plan.grid3 = utils::elementwise_grid(out.numel(), kConv2dVec4Kernel.workgroup_size[0],
                                           graph.limits().max_workgroups_per_dimension);
    } else {
      plan.route3 = 5;  // conv2d
      plan.grid3 = utils::elementwise_grid(out.numel(), kConv2dKernel.workgroup_size[0],
                                           graph.limits().max_workgroups_per_dimension);
    }
  }
  plan.run4 = split > 1;
  if (plan.run4) {
    if (graph.has_feature(Feature::ShaderF16) && (input.dtype == DType::Float16)) {
      plan.route4 = 0;  // conv2d_split_sum_f16
      plan.grid4 = utils::elementwise_grid(out.numel(), kConv2dSplitSumF16Kernel.workgroup_size[0],
                                           graph.limits().max_workgroups_per_dimension);
    } else if (input.dtype == DType::Float16) {
      plan.route4 = 1;  // conv2d_split_sum_f16_packed
      plan.grid4 =
          utils::elementwise_grid(out.numel(), kConv2dSplitSumF16PackedKernel.workgroup_size[0],
                                  graph.limits().max_workgroups_per_dimension);
    } else {
      plan.route4 = 2;  // conv2d_split_sum
      plan.grid4 = utils::elementwise_grid(out.numel(), kConv2dSplitSumKernel.workgroup_size[0],
                                           graph.limits().max_workgroups_per_dimension);
    }
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
    graph.add_dispatch(*kDispatch0Kernels[built.route0], built.overrides0,
                       {Binding::params(), Binding::of(args[1]), Binding::of(scratch_wpack)},
                       &built.params, sizeof(built.params), built.grid0);
  }
  if (built.run1) {
    graph.add_dispatch(
        *kDispatch1Kernels[built.route1], built.overrides1,
        {Binding::params(), Binding::of(args[0]), Binding::of(args[1]), Binding::of(scratch_wpack),
         !graph.is_null(args[2]) ? Binding::of(args[2]) : Binding::dummy(),
         Binding::of(scratch_partial), Binding::of(args[11])},
        &built.params, sizeof(built.params), built.grid1);
  }
  if (built.run2) {
    graph.add_dispatch(
        *kDispatch2Kernels[built.route2], built.overrides2,
        {Binding::params(), Binding::of(args[0]), Binding::of(args[1]), Binding::of(scratch_wpack),
         !graph.is_null(args[2]) ? Binding::of(args[2]) : Binding::dummy(), Binding::of(args[11])},
        &built.params, sizeof(built.params), built.grid2);
  }
  if (built.run3) {
    graph.add_dispatch(
        *kDispatch3Kernels[built.route3], built.overrides3,
        {Binding::params(), Binding::of(args[0]), Binding::of(args[1]),
         !graph.is_null(args[2]) ? Binding::of(args[2]) : Binding::dummy(), Binding::of(args[11])},
        &built.params, sizeof(built.params), built.grid3);
  }
  if (built.run4) {
    graph.add_dispatch(
        *kDispatch4Kernels[built.route4], built.overrides4,
        {Binding::params(), Binding::of(scratch_partial),
         !graph.is_null(args[2]) ? Binding::of(args[2]) : Binding::dummy(), Binding::of(args[11])},
        &built.params, sizeof(built.params), built.grid4);
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

WEBGPU_REGISTER_OP(et_vk.conv_with_clamp.default, webgpu_delegate::add_conv_with_clamp, None);
