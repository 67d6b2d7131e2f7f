// @generated from codegen/specs/matmul/matmul.py - DO NOT EDIT.
// Op linear: aten.linear.default

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ops/matmul/gemm_scalar_f16_packed_wgsl.h"
#include "ops/matmul/gemm_scalar_f16_wgsl.h"
#include "ops/matmul/gemm_scalar_wgsl.h"
#include "ops/matmul/gemm_small_scalar_f16_packed_wgsl.h"
#include "ops/matmul/gemm_small_scalar_f16_wgsl.h"
#include "ops/matmul/gemm_small_scalar_wgsl.h"
#include "ops/matmul/gemm_split_sum_f16_packed_wgsl.h"
#include "ops/matmul/gemm_split_sum_f16_wgsl.h"
#include "ops/matmul/gemm_split_sum_wgsl.h"
#include "ops/matmul/gemm_vec4_f16_packed_wgsl.h"
#include "ops/matmul/gemm_vec4_f16_wgsl.h"
#include "ops/matmul/gemm_vec4_m32_f16_packed_wgsl.h"
#include "ops/matmul/gemm_vec4_m32_f16_wgsl.h"
#include "ops/matmul/gemm_vec4_m32_wgsl.h"
#include "ops/matmul/gemm_vec4_m64_f16_packed_wgsl.h"
#include "ops/matmul/gemm_vec4_m64_f16_wgsl.h"
#include "ops/matmul/gemm_vec4_m64_wgsl.h"
#include "ops/matmul/gemm_vec4_wgsl.h"
#include "ops/matmul/gemv_rows_f16_packed_wgsl.h"
#include "ops/matmul/gemv_rows_f16_wgsl.h"
#include "ops/matmul/gemv_rows_subgroup_f16_packed_wgsl.h"
#include "ops/matmul/gemv_rows_subgroup_f16_wgsl.h"
#include "ops/matmul/gemv_rows_subgroup_wgsl.h"
#include "ops/matmul/gemv_rows_wgsl.h"
#include "ops/matmul/linear_pack_weight_f16_packed_wgsl.h"
#include "ops/matmul/linear_pack_weight_f16_wgsl.h"
#include "ops/matmul/linear_pack_weight_wgsl.h"
#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "linear";

struct LinearParams {
  uint32_t M;
  uint32_t N;
  uint32_t K;
  uint32_t batch;
  uint32_t a_batch_stride;
  uint32_t b_batch_stride;
  uint32_t k_chunk;
  uint32_t split;
  uint32_t has_bias;
  uint32_t bias_stride_m;
  uint32_t bias_stride_n;
  float alpha;
  float beta;
  uint32_t _pad0[3];
};
static_assert(offsetof(LinearParams, M) == 0, "LinearParams.M must sit at WGSL offset 0");
static_assert(offsetof(LinearParams, N) == 4, "LinearParams.N must sit at WGSL offset 4");
static_assert(offsetof(LinearParams, K) == 8, "LinearParams.K must sit at WGSL offset 8");
static_assert(offsetof(LinearParams, batch) == 12, "LinearParams.batch must sit at WGSL offset 12");
static_assert(offsetof(LinearParams, a_batch_stride) == 16,
              "LinearParams.a_batch_stride must sit at WGSL offset 16");
static_assert(offsetof(LinearParams, b_batch_stride) == 20,
              "LinearParams.b_batch_stride must sit at WGSL offset 20");
static_assert(offsetof(LinearParams, k_chunk) == 24,
              "LinearParams.k_chunk must sit at WGSL offset 24");
static_assert(offsetof(LinearParams, split) == 28, "LinearParams.split must sit at WGSL offset 28");
static_assert(offsetof(LinearParams, has_bias) == 32,
              "LinearParams.has_bias must sit at WGSL offset 32");
static_assert(offsetof(LinearParams, bias_stride_m) == 36,
              "LinearParams.bias_stride_m must sit at WGSL offset 36");
static_assert(offsetof(LinearParams, bias_stride_n) == 40,
              "LinearParams.bias_stride_n must sit at WGSL offset 40");
static_assert(offsetof(LinearParams, alpha) == 44, "LinearParams.alpha must sit at WGSL offset 44");
static_assert(offsetof(LinearParams, beta) == 48, "LinearParams.beta must sit at WGSL offset 48");
static_assert(sizeof(LinearParams) == 64, "LinearParams must match the WGSL struct size 64");

struct LinearPackParams {
  uint32_t K;
  uint32_t N;
  uint32_t _pad0[2];
};
static_assert(offsetof(LinearPackParams, K) == 0, "LinearPackParams.K must sit at WGSL offset 0");
static_assert(offsetof(LinearPackParams, N) == 4, "LinearPackParams.N must sit at WGSL offset 4");
static_assert(sizeof(LinearPackParams) == 16,
              "LinearPackParams must match the WGSL struct size 16");

const KernelSource kGemvRowsSubgroupF16Kernel{
    "gemv_rows_subgroup_f16",
    kGemvRowsSubgroupF16WGSL,
    "main",
    {kGemvRowsSubgroupF16WorkgroupSizeX, kGemvRowsSubgroupF16WorkgroupSizeY,
     kGemvRowsSubgroupF16WorkgroupSizeZ},
    kGemvRowsSubgroupF16Bindings,
    kGemvRowsSubgroupF16BindingCount,
    kGemvRowsSubgroupF16Features};
const KernelSource kGemvRowsSubgroupF16PackedKernel{
    "gemv_rows_subgroup_f16_packed",
    kGemvRowsSubgroupF16PackedWGSL,
    "main",
    {kGemvRowsSubgroupF16PackedWorkgroupSizeX, kGemvRowsSubgroupF16PackedWorkgroupSizeY,
     kGemvRowsSubgroupF16PackedWorkgroupSizeZ},
    kGemvRowsSubgroupF16PackedBindings,
    kGemvRowsSubgroupF16PackedBindingCount,
    kGemvRowsSubgroupF16PackedFeatures};
const KernelSource kGemvRowsF16Kernel{
    "gemv_rows_f16",
    kGemvRowsF16WGSL,
    "main",
    {kGemvRowsF16WorkgroupSizeX, kGemvRowsF16WorkgroupSizeY, kGemvRowsF16WorkgroupSizeZ},
    kGemvRowsF16Bindings,
    kGemvRowsF16BindingCount,
    kGemvRowsF16Features};
const KernelSource kGemvRowsF16PackedKernel{
    "gemv_rows_f16_packed",
    kGemvRowsF16PackedWGSL,
    "main",
    {kGemvRowsF16PackedWorkgroupSizeX, kGemvRowsF16PackedWorkgroupSizeY,
     kGemvRowsF16PackedWorkgroupSizeZ},
    kGemvRowsF16PackedBindings,
    kGemvRowsF16PackedBindingCount};
const KernelSource kGemvRowsSubgroupKernel{
    "gemv_rows_subgroup",
    kGemvRowsSubgroupWGSL,
    "main",
    {kGemvRowsSubgroupWorkgroupSizeX, kGemvRowsSubgroupWorkgroupSizeY,
     kGemvRowsSubgroupWorkgroupSizeZ},
    kGemvRowsSubgroupBindings,
    kGemvRowsSubgroupBindingCount,
    kGemvRowsSubgroupFeatures};
const KernelSource kGemvRowsKernel{
    "gemv_rows",
    kGemvRowsWGSL,
    "main",
    {kGemvRowsWorkgroupSizeX, kGemvRowsWorkgroupSizeY, kGemvRowsWorkgroupSizeZ},
    kGemvRowsBindings,
    kGemvRowsBindingCount};
const KernelSource kLinearPackWeightF16Kernel{
    "linear_pack_weight_f16",
    kLinearPackWeightF16WGSL,
    "main",
    {kLinearPackWeightF16WorkgroupSizeX, kLinearPackWeightF16WorkgroupSizeY,
     kLinearPackWeightF16WorkgroupSizeZ},
    kLinearPackWeightF16Bindings,
    kLinearPackWeightF16BindingCount,
    kLinearPackWeightF16Features};
const KernelSource kLinearPackWeightF16PackedKernel{
    "linear_pack_weight_f16_packed",
    kLinearPackWeightF16PackedWGSL,
    "main",
    {kLinearPackWeightF16PackedWorkgroupSizeX, kLinearPackWeightF16PackedWorkgroupSizeY,
     kLinearPackWeightF16PackedWorkgroupSizeZ},
    kLinearPackWeightF16PackedBindings,
    kLinearPackWeightF16PackedBindingCount};
const KernelSource kLinearPackWeightKernel{
    "linear_pack_weight",
    kLinearPackWeightWGSL,
    "main",
    {kLinearPackWeightWorkgroupSizeX, kLinearPackWeightWorkgroupSizeY,
     kLinearPackWeightWorkgroupSizeZ},
    kLinearPackWeightBindings,
    kLinearPackWeightBindingCount};
const KernelSource kGemmVec4M64F16Kernel{
    "gemm_vec4_m64_f16",
    kGemmVec4M64F16WGSL,
    "main",
    {kGemmVec4M64F16WorkgroupSizeX, kGemmVec4M64F16WorkgroupSizeY, kGemmVec4M64F16WorkgroupSizeZ},
    kGemmVec4M64F16Bindings,
    kGemmVec4M64F16BindingCount,
    kGemmVec4M64F16Features,
    kGemmVec4M64F16RuntimeChecks};
const KernelSource kGemmVec4M64F16PackedKernel{
    "gemm_vec4_m64_f16_packed",
    kGemmVec4M64F16PackedWGSL,
    "main",
    {kGemmVec4M64F16PackedWorkgroupSizeX, kGemmVec4M64F16PackedWorkgroupSizeY,
     kGemmVec4M64F16PackedWorkgroupSizeZ},
    kGemmVec4M64F16PackedBindings,
    kGemmVec4M64F16PackedBindingCount,
    "",
    kGemmVec4M64F16PackedRuntimeChecks};
const KernelSource kGemmVec4M32F16Kernel{
    "gemm_vec4_m32_f16",
    kGemmVec4M32F16WGSL,
    "main",
    {kGemmVec4M32F16WorkgroupSizeX, kGemmVec4M32F16WorkgroupSizeY, kGemmVec4M32F16WorkgroupSizeZ},
    kGemmVec4M32F16Bindings,
    kGemmVec4M32F16BindingCount,
    kGemmVec4M32F16Features,
    kGemmVec4M32F16RuntimeChecks};
const KernelSource kGemmVec4M32F16PackedKernel{
    "gemm_vec4_m32_f16_packed",
    kGemmVec4M32F16PackedWGSL,
    "main",
    {kGemmVec4M32F16PackedWorkgroupSizeX, kGemmVec4M32F16PackedWorkgroupSizeY,
     kGemmVec4M32F16PackedWorkgroupSizeZ},
    kGemmVec4M32F16PackedBindings,
    kGemmVec4M32F16PackedBindingCount,
    "",
    kGemmVec4M32F16PackedRuntimeChecks};
const KernelSource kGemmVec4F16Kernel{
    "gemm_vec4_f16",
    kGemmVec4F16WGSL,
    "main",
    {kGemmVec4F16WorkgroupSizeX, kGemmVec4F16WorkgroupSizeY, kGemmVec4F16WorkgroupSizeZ},
    kGemmVec4F16Bindings,
    kGemmVec4F16BindingCount,
    kGemmVec4F16Features,
    kGemmVec4F16RuntimeChecks};
const KernelSource kGemmVec4F16PackedKernel{
    "gemm_vec4_f16_packed",
    kGemmVec4F16PackedWGSL,
    "main",
    {kGemmVec4F16PackedWorkgroupSizeX, kGemmVec4F16PackedWorkgroupSizeY,
     kGemmVec4F16PackedWorkgroupSizeZ},
    kGemmVec4F16PackedBindings,
    kGemmVec4F16PackedBindingCount,
    "",
    kGemmVec4F16PackedRuntimeChecks};
const KernelSource kGemmVec4M64Kernel{
    "gemm_vec4_m64",
    kGemmVec4M64WGSL,
    "main",
    {kGemmVec4M64WorkgroupSizeX, kGemmVec4M64WorkgroupSizeY, kGemmVec4M64WorkgroupSizeZ},
    kGemmVec4M64Bindings,
    kGemmVec4M64BindingCount,
    "",
    kGemmVec4M64RuntimeChecks};
const KernelSource kGemmVec4M32Kernel{
    "gemm_vec4_m32",
    kGemmVec4M32WGSL,
    "main",
    {kGemmVec4M32WorkgroupSizeX, kGemmVec4M32WorkgroupSizeY, kGemmVec4M32WorkgroupSizeZ},
    kGemmVec4M32Bindings,
    kGemmVec4M32BindingCount,
    "",
    kGemmVec4M32RuntimeChecks};
const KernelSource kGemmVec4Kernel{
    "gemm_vec4",
    kGemmVec4WGSL,
    "main",
    {kGemmVec4WorkgroupSizeX, kGemmVec4WorkgroupSizeY, kGemmVec4WorkgroupSizeZ},
    kGemmVec4Bindings,
    kGemmVec4BindingCount,
    "",
    kGemmVec4RuntimeChecks};
const KernelSource kGemmSmallScalarF16Kernel{
    "gemm_small_scalar_f16",
    kGemmSmallScalarF16WGSL,
    "main",
    {kGemmSmallScalarF16WorkgroupSizeX, kGemmSmallScalarF16WorkgroupSizeY,
     kGemmSmallScalarF16WorkgroupSizeZ},
    kGemmSmallScalarF16Bindings,
    kGemmSmallScalarF16BindingCount,
    kGemmSmallScalarF16Features,
    kGemmSmallScalarF16RuntimeChecks};
const KernelSource kGemmSmallScalarF16PackedKernel{
    "gemm_small_scalar_f16_packed",
    kGemmSmallScalarF16PackedWGSL,
    "main",
    {kGemmSmallScalarF16PackedWorkgroupSizeX, kGemmSmallScalarF16PackedWorkgroupSizeY,
     kGemmSmallScalarF16PackedWorkgroupSizeZ},
    kGemmSmallScalarF16PackedBindings,
    kGemmSmallScalarF16PackedBindingCount,
    "",
    kGemmSmallScalarF16PackedRuntimeChecks};
const KernelSource kGemmScalarF16Kernel{
    "gemm_scalar_f16",
    kGemmScalarF16WGSL,
    "main",
    {kGemmScalarF16WorkgroupSizeX, kGemmScalarF16WorkgroupSizeY, kGemmScalarF16WorkgroupSizeZ},
    kGemmScalarF16Bindings,
    kGemmScalarF16BindingCount,
    kGemmScalarF16Features,
    kGemmScalarF16RuntimeChecks};
const KernelSource kGemmScalarF16PackedKernel{
    "gemm_scalar_f16_packed",
    kGemmScalarF16PackedWGSL,
    "main",
    {kGemmScalarF16PackedWorkgroupSizeX, kGemmScalarF16PackedWorkgroupSizeY,
     kGemmScalarF16PackedWorkgroupSizeZ},
    kGemmScalarF16PackedBindings,
    kGemmScalarF16PackedBindingCount,
    "",
    kGemmScalarF16PackedRuntimeChecks};
const KernelSource kGemmSmallScalarKernel{
    "gemm_small_scalar",
    kGemmSmallScalarWGSL,
    "main",
    {kGemmSmallScalarWorkgroupSizeX, kGemmSmallScalarWorkgroupSizeY,
     kGemmSmallScalarWorkgroupSizeZ},
    kGemmSmallScalarBindings,
    kGemmSmallScalarBindingCount,
    "",
    kGemmSmallScalarRuntimeChecks};
const KernelSource kGemmScalarKernel{
    "gemm_scalar",
    kGemmScalarWGSL,
    "main",
    {kGemmScalarWorkgroupSizeX, kGemmScalarWorkgroupSizeY, kGemmScalarWorkgroupSizeZ},
    kGemmScalarBindings,
    kGemmScalarBindingCount,
    "",
    kGemmScalarRuntimeChecks};
const KernelSource kGemmSplitSumF16Kernel{
    "gemm_split_sum_f16",
    kGemmSplitSumF16WGSL,
    "main",
    {kGemmSplitSumF16WorkgroupSizeX, kGemmSplitSumF16WorkgroupSizeY,
     kGemmSplitSumF16WorkgroupSizeZ},
    kGemmSplitSumF16Bindings,
    kGemmSplitSumF16BindingCount,
    kGemmSplitSumF16Features};
const KernelSource kGemmSplitSumF16PackedKernel{
    "gemm_split_sum_f16_packed",
    kGemmSplitSumF16PackedWGSL,
    "main",
    {kGemmSplitSumF16PackedWorkgroupSizeX, kGemmSplitSumF16PackedWorkgroupSizeY,
     kGemmSplitSumF16PackedWorkgroupSizeZ},
    kGemmSplitSumF16PackedBindings,
    kGemmSplitSumF16PackedBindingCount};
const KernelSource kGemmSplitSumKernel{
    "gemm_split_sum",
    kGemmSplitSumWGSL,
    "main",
    {kGemmSplitSumWorkgroupSizeX, kGemmSplitSumWorkgroupSizeY, kGemmSplitSumWorkgroupSizeZ},
    kGemmSplitSumBindings,
    kGemmSplitSumBindingCount};
// Dispatch 0's kernels, in route order.
const KernelSource* const kDispatch0Kernels[] = {
    &kGemvRowsSubgroupF16Kernel, &kGemvRowsSubgroupF16PackedKernel, &kGemvRowsF16Kernel,
    &kGemvRowsF16PackedKernel,   &kGemvRowsSubgroupKernel,          &kGemvRowsKernel};
// Dispatch 1's kernels, in route order.
const KernelSource* const kDispatch1Kernels[] = {
    &kLinearPackWeightF16Kernel, &kLinearPackWeightF16PackedKernel, &kLinearPackWeightKernel};
// Dispatch 2's kernels, in route order.
const KernelSource* const kDispatch2Kernels[] = {
    &kGemmVec4M64F16Kernel,       &kGemmVec4M64F16PackedKernel, &kGemmVec4M32F16Kernel,
    &kGemmVec4M32F16PackedKernel, &kGemmVec4F16Kernel,          &kGemmVec4F16PackedKernel,
    &kGemmVec4M64Kernel,          &kGemmVec4M32Kernel,          &kGemmVec4Kernel};
// Dispatch 3's kernels, in route order.
const KernelSource* const kDispatch3Kernels[] = {
    &kGemmSmallScalarF16Kernel,  &kGemmSmallScalarF16PackedKernel, &kGemmScalarF16Kernel,
    &kGemmScalarF16PackedKernel, &kGemmSmallScalarKernel,          &kGemmScalarKernel};
// Dispatch 4's kernels, in route order.
const KernelSource* const kDispatch4Kernels[] = {
    &kGemmSplitSumF16Kernel, &kGemmSplitSumF16PackedKernel, &kGemmSplitSumKernel};

// The argument values, checked and turned into what each dispatch needs.
struct LinearPlan {
  std::vector<int64_t> scratch_partial;  // dims of scratch tensor partial
  std::vector<int64_t> scratch_wpack;    // dims of scratch tensor wpack
  LinearParams params{};
  bool run0 = true;
  size_t route0 = 0;
  utils::Grid grid0;
  std::vector<OverrideValue> overrides0;
  bool run1 = true;
  size_t route1 = 0;
  LinearPackParams params1{};
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

LinearPlan plan_linear(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 4);
  const Tensor& input = graph.get_tensor(args[0]);
  const Tensor& weight = graph.get_tensor(args[1]);
  const Tensor* bias = graph.is_null(args[2]) ? nullptr : &graph.get_tensor(args[2]);
  const Tensor& out = graph.get_tensor(args[3]);
  utils::check_dtype(kOp, "input", input, {DType::Float32, DType::Float16});
  utils::check_rank(kOp, "input", input, 1, 8);
  utils::check_dtype(kOp, "weight", weight, {DType::Float32, DType::Float16});
  utils::check_rank(kOp, "weight", weight, 2, 2);
  if (bias != nullptr) {
    utils::check_dtype(kOp, "bias", *bias, {DType::Float32, DType::Float16});
    utils::check_rank(kOp, "bias", *bias, 1, 1);
  }
  utils::check_dtype(kOp, "out", out, {DType::Float32, DType::Float16});
  const int64_t K =
      utils::let(kOp, "K = input.dims[-1]", [&]() -> int64_t { return input.dim(-1); });
  const int64_t N =
      utils::let(kOp, "N = weight.dims[0]", [&]() -> int64_t { return weight.dim(0); });
  const int64_t M = utils::let(kOp, "M = input.numel // max(K, 1)", [&]() -> int64_t {
    return utils::floordiv(input.numel(), utils::max_of(K, 1));
  });
  const int64_t batch = 1;
  const int64_t a_batch_stride = 0;
  const int64_t b_batch_stride = 0;
  const bool aligned = utils::let(kOp, "aligned = K % 4 == 0 and N % 4 == 0", [&]() -> bool {
    return (utils::floormod(K, 4) == 0) && (utils::floormod(N, 4) == 0);
  });
  const bool gemv = utils::let(kOp, "gemv = M <= 8 and K % 4 == 0",
                               [&]() -> bool { return (M <= 8) && (utils::floormod(K, 4) == 0); });
  const int64_t tiles_n = utils::let(kOp, "tiles_n = ceil_div(N, 128)",
                                     [&]() -> int64_t { return utils::ceil_div(N, 128); });
  const int64_t tiles128 = utils::let(
      kOp, "tiles128 = ceil_div(M, 128) * tiles_n * batch",
      [&]() -> int64_t { return utils::mul(utils::mul(utils::ceil_div(M, 128), tiles_n), batch); });
  const int64_t tiles64 = utils::let(
      kOp, "tiles64 = ceil_div(M, 64) * tiles_n * batch",
      [&]() -> int64_t { return utils::mul(utils::mul(utils::ceil_div(M, 64), tiles_n), batch); });
  const int64_t tiles32 = utils::let(
      kOp, "tiles32 = ceil_div(M, 32) * tiles_n * batch",
      [&]() -> int64_t { return utils::mul(utils::mul(utils::ceil_div(M, 32), tiles_n), batch); });
  const int64_t small_tiles =
      utils::let(kOp, "small_tiles = ceil_div(M, 32) * ceil_div(N, 32) * batch", [&]() -> int64_t {
        return utils::mul(utils::mul(utils::ceil_div(M, 32), utils::ceil_div(N, 32)), batch);
      });
  const bool small = !gemv && !aligned && (tiles128 < 132) && (small_tiles >= 132) && (M <= 256);
  const int64_t steps =
      utils::let(kOp, "steps = ceil_div(K, 8)", [&]() -> int64_t { return utils::ceil_div(K, 8); });
  const int64_t max_split = utils::let(
      kOp, "max_split = max(1, min(steps // 4, 16))",
      [&]() -> int64_t { return utils::max_of(1, utils::min_of(utils::floordiv(steps, 4), 16)); });
  const int64_t best128 = utils::let(
      kOp,
      "best128 = min([(max(ceil_div(tiles128 * (j + 1), 132) * 100, 124) * 128 * (ceil_div(steps, "
      "(j + 1)) + 2) * 586 // 10000 + (1500 + ((j + 1) + 1) * batch * M * N * 4 // 1000 if (j + 1) "
      "> 1 else 0)) * 32 + j for j in range(max_split)])",
      [&]() -> int64_t {
        return utils::min_of([&]() {
          std::vector<int64_t> _values;
          for (const auto& _j : utils::range(max_split)) {
            _values.push_back(utils::add(
                utils::mul(
                    utils::add(
                        utils::floordiv(
                            utils::mul(
                                utils::mul(
                                    utils::mul(
                                        utils::max_of(
                                            utils::mul(
                                                utils::ceil_div(
                                                    utils::mul(tiles128, utils::add(_j, 1)), 132),
                                                100),
                                            124),
                                        128),
                                    utils::add(utils::ceil_div(steps, utils::add(_j, 1)), 2)),
                                586),
                            10000),
                        (utils::add(_j, 1) > 1)
                            ? utils::add(
                                  1500, utils::floordiv(
                                            utils::mul(
                                                utils::mul(
                                                    utils::mul(
                                                        utils::mul(utils::add(utils::add(_j, 1), 1),
                                                                   batch),
                                                        M),
                                                    N),
                                                4),
                                            1000))
                            : 0),
                    32),
                _j));
          }
          return _values;
        }());
      });
  const int64_t best64 = utils::let(
      kOp,
      "best64 = min([(max(ceil_div(tiles64 * (j + 1), 132) * 100, 250) * 64 * (ceil_div(steps, (j "
      "+ 1)) + 2) * 586 // 10000 + (1500 + ((j + 1) + 1) * batch * M * N * 4 // 1000 if (j + 1) > "
      "1 else 0)) * 32 + j for j in range(max_split)])",
      [&]() -> int64_t {
        return utils::min_of([&]() {
          std::vector<int64_t> _values;
          for (const auto& _j : utils::range(max_split)) {
            _values.push_back(utils::add(
                utils::mul(
                    utils::add(
                        utils::floordiv(
                            utils::mul(
                                utils::mul(
                                    utils::mul(
                                        utils::max_of(
                                            utils::mul(
                                                utils::ceil_div(
                                                    utils::mul(tiles64, utils::add(_j, 1)), 132),
                                                100),
                                            250),
                                        64),
                                    utils::add(utils::ceil_div(steps, utils::add(_j, 1)), 2)),
                                586),
                            10000),
                        (utils::add(_j, 1) > 1)
                            ? utils::add(
                                  1500, utils::floordiv(
                                            utils::mul(
                                                utils::mul(
                                                    utils::mul(
                                                        utils::mul(utils::add(utils::add(_j, 1), 1),
                                                                   batch),
                                                        M),
                                                    N),
                                                4),
                                            1000))
                            : 0),
                    32),
                _j));
          }
          return _values;
        }());
      });
  const int64_t best32 = utils::let(
      kOp,
      "best32 = min([(max(ceil_div(tiles32 * (j + 1), 132) * 100, 200) * 32 * (ceil_div(steps, (j "
      "+ 1)) + 2) * 800 // 10000 + (1500 + ((j + 1) + 1) * batch * M * N * 4 // 1000 if (j + 1) > "
      "1 else 0)) * 32 + j for j in range(max_split)])",
      [&]() -> int64_t {
        return utils::min_of([&]() {
          std::vector<int64_t> _values;
          for (const auto& _j : utils::range(max_split)) {
            _values.push_back(utils::add(
                utils::mul(
                    utils::add(
                        utils::floordiv(
                            utils::mul(
                                utils::mul(
                                    utils::mul(
                                        utils::max_of(
                                            utils::mul(
                                                utils::ceil_div(
                                                    utils::mul(tiles32, utils::add(_j, 1)), 132),
                                                100),
                                            200),
                                        32),
                                    utils::add(utils::ceil_div(steps, utils::add(_j, 1)), 2)),
                                800),
                            10000),
                        (utils::add(_j, 1) > 1)
                            ? utils::add(
                                  1500, utils::floordiv(
                                            utils::mul(
                                                utils::mul(
                                                    utils::mul(
                                                        utils::mul(utils::add(utils::add(_j, 1), 1),
                                                                   batch),
                                                        M),
                                                    N),
                                                4),
                                            1000))
                            : 0),
                    32),
                _j));
          }
          return _values;
        }());
      });
  const int64_t tile_pick = utils::let(
      kOp,
      "tile_pick = min([best128 // 32 * 4 + 0, best64 // 32 * 4 + 1, best32 // 32 * 4 + 2]) % 4 if "
      "aligned else 0",
      [&]() -> int64_t {
        return aligned ? utils::floormod(
                             utils::min_of(std::vector<int64_t>{
                                 utils::add(utils::mul(utils::floordiv(best128, 32), 4), 0),
                                 utils::add(utils::mul(utils::floordiv(best64, 32), 4), 1),
                                 utils::add(utils::mul(utils::floordiv(best32, 32), 4), 2)}),
                             4)
                       : 0;
      });
  const int64_t tile_m = (tile_pick == 0) ? 128 : ((tile_pick == 1) ? 64 : 32);
  const int64_t gemv_split = utils::let(
      kOp, "gemv_split = min(ceil_div(264, max(tiles128, 1)), max_split) if tiles128 < 132 else 1",
      [&]() -> int64_t {
        return (tiles128 < 132)
                   ? utils::min_of(utils::ceil_div(264, utils::max_of(tiles128, 1)), max_split)
                   : 1;
      });
  const int64_t small_split = utils::let(
      kOp,
      "small_split = min(ceil_div(528, max(small_tiles, 1)), max_split) if small_tiles < 264 else "
      "1",
      [&]() -> int64_t {
        return (small_tiles < 264)
                   ? utils::min_of(utils::ceil_div(528, utils::max_of(small_tiles, 1)), max_split)
                   : 1;
      });
  const int64_t tile_split = utils::let(
      kOp,
      "tile_split = best128 % 32 + 1 if tile_m == 128 else best64 % 32 + 1 if tile_m == 64 else "
      "best32 % 32 + 1",
      [&]() -> int64_t {
        return (tile_m == 128) ? utils::add(utils::floormod(best128, 32), 1)
                               : ((tile_m == 64) ? utils::add(utils::floormod(best64, 32), 1)
                                                 : utils::add(utils::floormod(best32, 32), 1));
      });
  const int64_t split = gemv ? gemv_split : (small ? small_split : tile_split);
  const int64_t k_chunk = utils::let(kOp, "k_chunk = ceil_div(steps, split) * 8", [&]() -> int64_t {
    return utils::mul(utils::ceil_div(steps, split), 8);
  });
  if (weight.dim(1) != K) {
    utils::fail(kOp, "weight", "does not match the input's last dim",
                utils::format_value(weight.dims()), "[N, " + utils::format_value(K) + "]");
  }
  if ((bias != nullptr) && (bias->numel() != N)) {
    utils::fail(kOp, "bias", "does not hold one value per output feature",
                utils::format_value(bias->dims()), "[" + utils::format_value(N) + "]");
  }
  if ((weight.dtype != input.dtype) || ((bias != nullptr) && (bias->dtype != input.dtype))) {
    utils::fail(kOp, "input", "does not share its dtype with weight and bias",
                utils::format_value(input.dtype), "the dtype of weight and bias");
  }
  utils::check_output_dims(
      kOp, "out", out, utils::concat(utils::slice(input.dims(), 0, -1), std::vector<int64_t>{N}));
  Tensor partial;  // scratch, allocated by add_linear
  partial.dtype = DType::Float32;
  partial.max_dims = std::vector<int64_t>{
      (!gemv && (split > 1)) ? utils::mul(utils::mul(utils::mul(split, batch), M), N) : 0};
  partial.live_dims = partial.max_dims;
  Tensor wpack;  // scratch, allocated by add_linear
  wpack.dtype = DType::Float32;
  wpack.max_dims = std::vector<int64_t>{
      (!gemv && aligned) ? ((weight.dtype == DType::Float16) ? utils::ceil_div(utils::mul(K, N), 2)
                                                             : utils::mul(K, N))
                         : 0};
  wpack.live_dims = wpack.max_dims;

  LinearPlan plan;
  plan.scratch_partial = partial.dims();
  plan.scratch_wpack = wpack.dims();
  plan.params.M = utils::to_u32(M, kOp, "M");
  plan.params.N = utils::to_u32(N, kOp, "N");
  plan.params.K = utils::to_u32(K, kOp, "K");
  plan.params.batch = utils::to_u32(batch, kOp, "batch");
  plan.params.a_batch_stride = utils::to_u32(a_batch_stride, kOp, "a_batch_stride");
  plan.params.b_batch_stride = utils::to_u32(b_batch_stride, kOp, "b_batch_stride");
  plan.params.k_chunk = utils::to_u32(k_chunk, kOp, "k_chunk");
  plan.params.split = utils::to_u32(split, kOp, "split");
  plan.params.has_bias = (bias != nullptr) ? 1 : 0;
  plan.params.bias_stride_m = utils::to_u32(0, kOp, "bias_stride_m");
  plan.params.bias_stride_n = utils::to_u32(1, kOp, "bias_stride_n");
  plan.params.alpha = utils::to_f32(1.0);
  plan.params.beta = utils::to_f32(1.0);
  plan.run0 = gemv;
  if (plan.run0) {
    if (graph.has_feature(Feature::Subgroups) && graph.has_feature(Feature::ShaderF16) &&
        (input.dtype == DType::Float16)) {
      plan.route0 = 0;  // gemv_rows_subgroup_f16
      plan.grid0 =
          utils::elementwise_grid(utils::mul(N, 64), kGemvRowsSubgroupF16Kernel.workgroup_size[0],
                                  graph.limits().max_workgroups_per_dimension);
    } else if (graph.has_feature(Feature::Subgroups) && (input.dtype == DType::Float16)) {
      plan.route0 = 1;  // gemv_rows_subgroup_f16_packed
      plan.grid0 = utils::elementwise_grid(utils::mul(N, 64),
                                           kGemvRowsSubgroupF16PackedKernel.workgroup_size[0],
                                           graph.limits().max_workgroups_per_dimension);
    } else if (graph.has_feature(Feature::ShaderF16) && (input.dtype == DType::Float16)) {
      plan.route0 = 2;  // gemv_rows_f16
      plan.grid0 = utils::elementwise_grid(utils::mul(N, 64), kGemvRowsF16Kernel.workgroup_size[0],
                                           graph.limits().max_workgroups_per_dimension);
    } else if (input.dtype == DType::Float16) {
      plan.route0 = 3;  // gemv_rows_f16_packed
      plan.grid0 =
          utils::elementwise_grid(utils::mul(N, 64), kGemvRowsF16PackedKernel.workgroup_size[0],
                                  graph.limits().max_workgroups_per_dimension);
    } else if (graph.has_feature(Feature::Subgroups)) {
      plan.route0 = 4;  // gemv_rows_subgroup
      plan.grid0 =
          utils::elementwise_grid(utils::mul(N, 64), kGemvRowsSubgroupKernel.workgroup_size[0],
                                  graph.limits().max_workgroups_per_dimension);
    } else {
      plan.route0 = 5;  // gemv_rows
      plan.grid0 = utils::elementwise_grid(utils::mul(N, 64), kGemvRowsKernel.workgroup_size[0],
                                           graph.limits().max_workgroups_per_dimension);
    }
  }
  plan.run1 = !gemv && aligned;
  if (plan.run1) {
    plan.params1.K = utils::to_u32(K, kOp, "K");
    plan.params1.N = utils::to_u32(N, kOp, "N");
    if (graph.has_feature(Feature::ShaderF16) && (input.dtype == DType::Float16)) {
      plan.route1 = 0;  // linear_pack_weight_f16
      plan.grid1 = utils::elementwise_grid(utils::floordiv(utils::mul(K, N), 4),
                                           kLinearPackWeightF16Kernel.workgroup_size[0],
                                           graph.limits().max_workgroups_per_dimension);
    } else if (input.dtype == DType::Float16) {
      plan.route1 = 1;  // linear_pack_weight_f16_packed
      plan.grid1 = utils::elementwise_grid(utils::floordiv(utils::mul(K, N), 4),
                                           kLinearPackWeightF16PackedKernel.workgroup_size[0],
                                           graph.limits().max_workgroups_per_dimension);
    } else {
      plan.route1 = 2;  // linear_pack_weight
      plan.grid1 = utils::elementwise_grid(utils::floordiv(utils::mul(K, N), 4),
                                           kLinearPackWeightKernel.workgroup_size[0],
                                           graph.limits().max_workgroups_per_dimension);
    }
  }
  plan.run2 = !gemv && aligned;
  if (plan.run2) {
    if (graph.has_feature(Feature::ShaderF16) &&
        ((input.dtype == DType::Float16) && (tile_m == 64))) {
      plan.route2 = 0;  // gemm_vec4_m64_f16
      plan.grid2 = utils::tiles_grid(N, M, utils::mul(batch, split), 128, 64,
                                     graph.limits().max_workgroups_per_dimension);
      plan.overrides2 = {{"B_IS_NK", 0.0}};
    } else if ((input.dtype == DType::Float16) && (tile_m == 64)) {
      plan.route2 = 1;  // gemm_vec4_m64_f16_packed
      plan.grid2 = utils::tiles_grid(N, M, utils::mul(batch, split), 128, 64,
                                     graph.limits().max_workgroups_per_dimension);
      plan.overrides2 = {{"B_IS_NK", 0.0}};
    } else if (graph.has_feature(Feature::ShaderF16) &&
               ((input.dtype == DType::Float16) && (tile_m == 32))) {
      plan.route2 = 2;  // gemm_vec4_m32_f16
      plan.grid2 = utils::tiles_grid(N, M, utils::mul(batch, split), 128, 32,
                                     graph.limits().max_workgroups_per_dimension);
      plan.overrides2 = {{"B_IS_NK", 0.0}};
    } else if ((input.dtype == DType::Float16) && (tile_m == 32)) {
      plan.route2 = 3;  // gemm_vec4_m32_f16_packed
      plan.grid2 = utils::tiles_grid(N, M, utils::mul(batch, split), 128, 32,
                                     graph.limits().max_workgroups_per_dimension);
      plan.overrides2 = {{"B_IS_NK", 0.0}};
    } else if (graph.has_feature(Feature::ShaderF16) && (input.dtype == DType::Float16)) {
      plan.route2 = 4;  // gemm_vec4_f16
      plan.grid2 = utils::tiles_grid(N, M, utils::mul(batch, split), 128, 128,
                                     graph.limits().max_workgroups_per_dimension);
      plan.overrides2 = {{"B_IS_NK", 0.0}};
    } else if (input.dtype == DType::Float16) {
      plan.route2 = 5;  // gemm_vec4_f16_packed
      plan.grid2 = utils::tiles_grid(N, M, utils::mul(batch, split), 128, 128,
                                     graph.limits().max_workgroups_per_dimension);
      plan.overrides2 = {{"B_IS_NK", 0.0}};
    } else if (tile_m == 64) {
      plan.route2 = 6;  // gemm_vec4_m64
      plan.grid2 = utils::tiles_grid(N, M, utils::mul(batch, split), 128, 64,
                                     graph.limits().max_workgroups_per_dimension);
      plan.overrides2 = {{"B_IS_NK", 0.0}};
    } else if (tile_m == 32) {
      plan.route2 = 7;  // gemm_vec4_m32
      plan.grid2 = utils::tiles_grid(N, M, utils::mul(batch, split), 128, 32,
                                     graph.limits().max_workgroups_per_dimension);
      plan.overrides2 = {{"B_IS_NK", 0.0}};
    } else {
      plan.route2 = 8;  // gemm_vec4
      plan.grid2 = utils::tiles_grid(N, M, utils::mul(batch, split), 128, 128,
                                     graph.limits().max_workgroups_per_dimension);
      plan.overrides2 = {{"B_IS_NK", 0.0}};
    }
  }
  plan.run3 = !gemv && !aligned;
  if (plan.run3) {
    if (graph.has_feature(Feature::ShaderF16) && ((input.dtype == DType::Float16) && small)) {
      plan.route3 = 0;  // gemm_small_scalar_f16
      plan.grid3 = utils::tiles_grid(N, M, utils::mul(batch, split), 32, 32,
                                     graph.limits().max_workgroups_per_dimension);
      plan.overrides3 = {{"B_IS_NK", 1.0}};
    } else if ((input.dtype == DType::Float16) && small) {
      plan.route3 = 1;  // gemm_small_scalar_f16_packed
      plan.grid3 = utils::tiles_grid(N, M, utils::mul(batch, split), 32, 32,
                                     graph.limits().max_workgroups_per_dimension);
      plan.overrides3 = {{"B_IS_NK", 1.0}};
    } else if (graph.has_feature(Feature::ShaderF16) && (input.dtype == DType::Float16)) {
      plan.route3 = 2;  // gemm_scalar_f16
      plan.grid3 = utils::tiles_grid(N, M, utils::mul(batch, split), 128, 128,
                                     graph.limits().max_workgroups_per_dimension);
      plan.overrides3 = {{"B_IS_NK", 1.0}};
    } else if (input.dtype == DType::Float16) {
      plan.route3 = 3;  // gemm_scalar_f16_packed
      plan.grid3 = utils::tiles_grid(N, M, utils::mul(batch, split), 128, 128,
                                     graph.limits().max_workgroups_per_dimension);
      plan.overrides3 = {{"B_IS_NK", 1.0}};
    } else if (small) {
      plan.route3 = 4;  // gemm_small_scalar
      plan.grid3 = utils::tiles_grid(N, M, utils::mul(batch, split), 32, 32,
                                     graph.limits().max_workgroups_per_dimension);
      plan.overrides3 = {{"B_IS_NK", 1.0}};
    } else {
      plan.route3 = 5;  // gemm_scalar
      plan.grid3 = utils::tiles_grid(N, M, utils::mul(batch, split), 128, 128,
                                     graph.limits().max_workgroups_per_dimension);
      plan.overrides3 = {{"B_IS_NK", 1.0}};
    }
  }
  plan.run4 = !gemv && (split > 1);
  if (plan.run4) {
    if (graph.has_feature(Feature::ShaderF16) && (input.dtype == DType::Float16)) {
      plan.route4 = 0;  // gemm_split_sum_f16
      plan.grid4 = utils::elementwise_grid(out.numel(), kGemmSplitSumF16Kernel.workgroup_size[0],
                                           graph.limits().max_workgroups_per_dimension);
    } else if (input.dtype == DType::Float16) {
      plan.route4 = 1;  // gemm_split_sum_f16_packed
      plan.grid4 =
          utils::elementwise_grid(out.numel(), kGemmSplitSumF16PackedKernel.workgroup_size[0],
                                  graph.limits().max_workgroups_per_dimension);
    } else {
      plan.route4 = 2;  // gemm_split_sum
      plan.grid4 = utils::elementwise_grid(out.numel(), kGemmSplitSumKernel.workgroup_size[0],
                                           graph.limits().max_workgroups_per_dimension);
    }
  }
  return plan;
}

// Gives the outputs the shape the op's formula computes from the live inputs.
void resize_linear_outputs(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const Tensor& input = graph.get_tensor(args[0]);
  const Tensor& weight = graph.get_tensor(args[1]);
  Tensor& out = graph.get_tensor(args[3]);
  const int64_t N =
      utils::let(kOp, "N = weight.dims[0]", [&]() -> int64_t { return weight.dim(0); });
  utils::resize_output(kOp, "out", out,
                       utils::concat(utils::slice(input.dims(), 0, -1), std::vector<int64_t>{N}));
}

void add_linear(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const LinearPlan built = plan_linear(graph, args);
  // Scratch tensor partial: owned by the graph, written and read by this op's dispatches.
  const ValueRef scratch_partial = graph.add_tensor(DType::Float32, built.scratch_partial);
  // Scratch tensor wpack: owned by the graph, written and read by this op's dispatches.
  const ValueRef scratch_wpack = graph.add_tensor(DType::Float32, built.scratch_wpack);
  const DispatchId dispatch0 =
      built.run0
          ? graph.add_dispatch(*kDispatch0Kernels[built.route0], built.overrides0,
                               {Binding::params(), Binding::of(args[0]), Binding::of(args[1]),
                                !graph.is_null(args[2]) ? Binding::of(args[2]) : Binding::dummy(),
                                Binding::of(args[3])},
                               &built.params, sizeof(built.params), built.grid0)
          : 0;
  const DispatchId dispatch1 =
      built.run1 ? graph.add_dispatch(
                       *kDispatch1Kernels[built.route1], built.overrides1,
                       {Binding::params(), Binding::of(args[1]), Binding::of(scratch_wpack)},
                       &built.params1, sizeof(built.params1), built.grid1)
                 : 0;
  const DispatchId dispatch2 =
      built.run2
          ? graph.add_dispatch(*kDispatch2Kernels[built.route2], built.overrides2,
                               {Binding::params(), Binding::of(args[0]), Binding::of(scratch_wpack),
                                !graph.is_null(args[2]) ? Binding::of(args[2]) : Binding::dummy(),
                                Binding::of(scratch_partial), Binding::of(args[3])},
                               &built.params, sizeof(built.params), built.grid2)
          : 0;
  const DispatchId dispatch3 =
      built.run3
          ? graph.add_dispatch(*kDispatch3Kernels[built.route3], built.overrides3,
                               {Binding::params(), Binding::of(args[0]), Binding::of(args[1]),
                                !graph.is_null(args[2]) ? Binding::of(args[2]) : Binding::dummy(),
                                Binding::of(scratch_partial), Binding::of(args[3])},
                               &built.params, sizeof(built.params), built.grid3)
          : 0;
  const DispatchId dispatch4 =
      built.run4
          ? graph.add_dispatch(*kDispatch4Kernels[built.route4], built.overrides4,
                               {Binding::params(), Binding::of(scratch_partial),
                                !graph.is_null(args[2]) ? Binding::of(args[2]) : Binding::dummy(),
                                Binding::of(args[3])},
                               &built.params, sizeof(built.params), built.grid4)
          : 0;
  graph.add_resize_hook([args, built, scratch_partial, scratch_wpack, dispatch0, dispatch1,
                         dispatch2, dispatch3, dispatch4](WebGPUGraph& graph) {
    resize_linear_outputs(graph, args);
    const LinearPlan plan = plan_linear(graph, args);
    graph.resize_tensor(scratch_partial, plan.scratch_partial);
    graph.resize_tensor(scratch_wpack, plan.scratch_wpack);
    if (plan.run0 != built.run0) {
      utils::fail(kOp, "inputs", "were resized into a different set of dispatches",
                  utils::format_value(plan.run0), utils::format_value(built.run0));
    }
    if (plan.route0 != built.route0) {
      utils::fail(kOp, "inputs", "were resized into a different kernel route",
                  kDispatch0Kernels[plan.route0]->name, kDispatch0Kernels[built.route0]->name);
    }
    if (built.run0) {
      graph.update_dispatch(dispatch0, &plan.params, sizeof(plan.params), plan.grid0);
    }
    if (plan.run1 != built.run1) {
      utils::fail(kOp, "inputs", "were resized into a different set of dispatches",
                  utils::format_value(plan.run1), utils::format_value(built.run1));
    }
    if (plan.route1 != built.route1) {
      utils::fail(kOp, "inputs", "were resized into a different kernel route",
                  kDispatch1Kernels[plan.route1]->name, kDispatch1Kernels[built.route1]->name);
    }
    if (built.run1) {
      graph.update_dispatch(dispatch1, &plan.params1, sizeof(plan.params1), plan.grid1);
    }
    if (plan.run2 != built.run2) {
      utils::fail(kOp, "inputs", "were resized into a different set of dispatches",
                  utils::format_value(plan.run2), utils::format_value(built.run2));
    }
    if (plan.route2 != built.route2) {
      utils::fail(kOp, "inputs", "were resized into a different kernel route",
                  kDispatch2Kernels[plan.route2]->name, kDispatch2Kernels[built.route2]->name);
    }
    if (built.run2) {
      graph.update_dispatch(dispatch2, &plan.params, sizeof(plan.params), plan.grid2);
    }
    if (plan.run3 != built.run3) {
      utils::fail(kOp, "inputs", "were resized into a different set of dispatches",
                  utils::format_value(plan.run3), utils::format_value(built.run3));
    }
    if (plan.route3 != built.route3) {
      utils::fail(kOp, "inputs", "were resized into a different kernel route",
                  kDispatch3Kernels[plan.route3]->name, kDispatch3Kernels[built.route3]->name);
    }
    if (built.run3) {
      graph.update_dispatch(dispatch3, &plan.params, sizeof(plan.params), plan.grid3);
    }
    if (plan.run4 != built.run4) {
      utils::fail(kOp, "inputs", "were resized into a different set of dispatches",
                  utils::format_value(plan.run4), utils::format_value(built.run4));
    }
    if (plan.route4 != built.route4) {
      utils::fail(kOp, "inputs", "were resized into a different kernel route",
                  kDispatch4Kernels[plan.route4]->name, kDispatch4Kernels[built.route4]->name);
    }
    if (built.run4) {
      graph.update_dispatch(dispatch4, &plan.params, sizeof(plan.params), plan.grid4);
    }
  });
}

}  // namespace
}  // namespace webgpu_delegate

WEBGPU_REGISTER_OP(aten.linear.default, webgpu_delegate::add_linear, None);
