// @generated from codegen/specs/linear_q4gsw/linear_q4gsw.py - DO NOT EDIT.
// Op linear_dq8ca_q4gsw: et_vk.linear_dq8ca_q4gsw.default

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ops/linear_q4gsw/q4gsw_gemm_dq8_f16_packed_wgsl.h"
#include "ops/linear_q4gsw/q4gsw_gemm_dq8_f16_wgsl.h"
#include "ops/linear_q4gsw/q4gsw_gemm_dq8_wgsl.h"
#include "ops/linear_q4gsw/q4gsw_gemv_dq8_f16_packed_wgsl.h"
#include "ops/linear_q4gsw/q4gsw_gemv_dq8_f16_wgsl.h"
#include "ops/linear_q4gsw/q4gsw_gemv_dq8_wgsl.h"
#include "ops/linear_q4gsw/q4gsw_gemv_rows4_dq8_f16_packed_wgsl.h"
#include "ops/linear_q4gsw/q4gsw_gemv_rows4_dq8_f16_wgsl.h"
#include "ops/linear_q4gsw/q4gsw_gemv_rows4_dq8_subgroup_f16_packed_wgsl.h"
#include "ops/linear_q4gsw/q4gsw_gemv_rows4_dq8_subgroup_f16_wgsl.h"
#include "ops/linear_q4gsw/q4gsw_gemv_rows4_dq8_subgroup_wgsl.h"
#include "ops/linear_q4gsw/q4gsw_gemv_rows4_dq8_wgsl.h"
#include "ops/linear_q4gsw/q4gsw_gemv_rows_dq8_f16_packed_wgsl.h"
#include "ops/linear_q4gsw/q4gsw_gemv_rows_dq8_f16_wgsl.h"
#include "ops/linear_q4gsw/q4gsw_gemv_rows_dq8_subgroup_f16_packed_wgsl.h"
#include "ops/linear_q4gsw/q4gsw_gemv_rows_dq8_subgroup_f16_wgsl.h"
#include "ops/linear_q4gsw/q4gsw_gemv_rows_dq8_subgroup_wgsl.h"
#include "ops/linear_q4gsw/q4gsw_gemv_rows_dq8_wgsl.h"
#include "ops/linear_q4gsw/q4gsw_gemv_subgroup_dq8_f16_packed_wgsl.h"
#include "ops/linear_q4gsw/q4gsw_gemv_subgroup_dq8_f16_wgsl.h"
#include "ops/linear_q4gsw/q4gsw_gemv_subgroup_dq8_wgsl.h"
#include "ops/linear_q4gsw/q4gsw_split_sum_f16_packed_wgsl.h"
#include "ops/linear_q4gsw/q4gsw_split_sum_f16_wgsl.h"
#include "ops/linear_q4gsw/q4gsw_split_sum_wgsl.h"
#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "linear_dq8ca_q4gsw";

struct LinearDq8caQ4gswParams {
  uint32_t M;
  uint32_t N;
  uint32_t K;
  uint32_t row_words;
  uint32_t group_size;
  uint32_t has_bias;
  uint32_t _pad0[2];
};
static_assert(offsetof(LinearDq8caQ4gswParams, M) == 0,
              "LinearDq8caQ4gswParams.M must sit at WGSL offset 0");
static_assert(offsetof(LinearDq8caQ4gswParams, N) == 4,
              "LinearDq8caQ4gswParams.N must sit at WGSL offset 4");
static_assert(offsetof(LinearDq8caQ4gswParams, K) == 8,
              "LinearDq8caQ4gswParams.K must sit at WGSL offset 8");
static_assert(offsetof(LinearDq8caQ4gswParams, row_words) == 12,
              "LinearDq8caQ4gswParams.row_words must sit at WGSL offset 12");
static_assert(offsetof(LinearDq8caQ4gswParams, group_size) == 16,
              "LinearDq8caQ4gswParams.group_size must sit at WGSL offset 16");
static_assert(offsetof(LinearDq8caQ4gswParams, has_bias) == 20,
              "LinearDq8caQ4gswParams.has_bias must sit at WGSL offset 20");
static_assert(sizeof(LinearDq8caQ4gswParams) == 32,
              "LinearDq8caQ4gswParams must match the WGSL struct size 32");

struct LinearDq8caQ4gswTiledParams {
  uint32_t M;
  uint32_t N;
  uint32_t K;
  uint32_t row_words;
  uint32_t group_size;
  uint32_t has_bias;
  uint32_t batch;
  uint32_t split;
  uint32_t k_chunk;
  uint32_t _pad0[3];
};
static_assert(offsetof(LinearDq8caQ4gswTiledParams, M) == 0,
              "LinearDq8caQ4gswTiledParams.M must sit at WGSL offset 0");
static_assert(offsetof(LinearDq8caQ4gswTiledParams, N) == 4,
              "LinearDq8caQ4gswTiledParams.N must sit at WGSL offset 4");
static_assert(offsetof(LinearDq8caQ4gswTiledParams, K) == 8,
              "LinearDq8caQ4gswTiledParams.K must sit at WGSL offset 8");
static_assert(offsetof(LinearDq8caQ4gswTiledParams, row_words) == 12,
              "LinearDq8caQ4gswTiledParams.row_words must sit at WGSL offset 12");
static_assert(offsetof(LinearDq8caQ4gswTiledParams, group_size) == 16,
              "LinearDq8caQ4gswTiledParams.group_size must sit at WGSL offset 16");
static_assert(offsetof(LinearDq8caQ4gswTiledParams, has_bias) == 20,
              "LinearDq8caQ4gswTiledParams.has_bias must sit at WGSL offset 20");
static_assert(offsetof(LinearDq8caQ4gswTiledParams, batch) == 24,
              "LinearDq8caQ4gswTiledParams.batch must sit at WGSL offset 24");
static_assert(offsetof(LinearDq8caQ4gswTiledParams, split) == 28,
              "LinearDq8caQ4gswTiledParams.split must sit at WGSL offset 28");
static_assert(offsetof(LinearDq8caQ4gswTiledParams, k_chunk) == 32,
              "LinearDq8caQ4gswTiledParams.k_chunk must sit at WGSL offset 32");
static_assert(sizeof(LinearDq8caQ4gswTiledParams) == 48,
              "LinearDq8caQ4gswTiledParams must match the WGSL struct size 48");

const KernelSource kQ4gswGemvRows4Dq8SubgroupF16Kernel{
    "q4gsw_gemv_rows4_dq8_subgroup_f16",
    kQ4gswGemvRows4Dq8SubgroupF16WGSL,
    "main",
    {kQ4gswGemvRows4Dq8SubgroupF16WorkgroupSizeX, kQ4gswGemvRows4Dq8SubgroupF16WorkgroupSizeY,
     kQ4gswGemvRows4Dq8SubgroupF16WorkgroupSizeZ},
    kQ4gswGemvRows4Dq8SubgroupF16Bindings,
    kQ4gswGemvRows4Dq8SubgroupF16BindingCount,
    kQ4gswGemvRows4Dq8SubgroupF16Features,
    kQ4gswGemvRows4Dq8SubgroupF16RuntimeChecks};
const KernelSource kQ4gswGemvRows4Dq8SubgroupF16PackedKernel{
    "q4gsw_gemv_rows4_dq8_subgroup_f16_packed",
    kQ4gswGemvRows4Dq8SubgroupF16PackedWGSL,
    "main",
    {kQ4gswGemvRows4Dq8SubgroupF16PackedWorkgroupSizeX,
     kQ4gswGemvRows4Dq8SubgroupF16PackedWorkgroupSizeY,
     kQ4gswGemvRows4Dq8SubgroupF16PackedWorkgroupSizeZ},
    kQ4gswGemvRows4Dq8SubgroupF16PackedBindings,
    kQ4gswGemvRows4Dq8SubgroupF16PackedBindingCount,
    kQ4gswGemvRows4Dq8SubgroupF16PackedFeatures,
    kQ4gswGemvRows4Dq8SubgroupF16PackedRuntimeChecks};
const KernelSource kQ4gswGemvRowsDq8SubgroupF16Kernel{
    "q4gsw_gemv_rows_dq8_subgroup_f16",
    kQ4gswGemvRowsDq8SubgroupF16WGSL,
    "main",
    {kQ4gswGemvRowsDq8SubgroupF16WorkgroupSizeX, kQ4gswGemvRowsDq8SubgroupF16WorkgroupSizeY,
     kQ4gswGemvRowsDq8SubgroupF16WorkgroupSizeZ},
    kQ4gswGemvRowsDq8SubgroupF16Bindings,
    kQ4gswGemvRowsDq8SubgroupF16BindingCount,
    kQ4gswGemvRowsDq8SubgroupF16Features,
    kQ4gswGemvRowsDq8SubgroupF16RuntimeChecks};
const KernelSource kQ4gswGemvRowsDq8SubgroupF16PackedKernel{
    "q4gsw_gemv_rows_dq8_subgroup_f16_packed",
    kQ4gswGemvRowsDq8SubgroupF16PackedWGSL,
    "main",
    {kQ4gswGemvRowsDq8SubgroupF16PackedWorkgroupSizeX,
     kQ4gswGemvRowsDq8SubgroupF16PackedWorkgroupSizeY,
     kQ4gswGemvRowsDq8SubgroupF16PackedWorkgroupSizeZ},
    kQ4gswGemvRowsDq8SubgroupF16PackedBindings,
    kQ4gswGemvRowsDq8SubgroupF16PackedBindingCount,
    kQ4gswGemvRowsDq8SubgroupF16PackedFeatures,
    kQ4gswGemvRowsDq8SubgroupF16PackedRuntimeChecks};
const KernelSource kQ4gswGemvRows4Dq8F16Kernel{
    "q4gsw_gemv_rows4_dq8_f16",
    kQ4gswGemvRows4Dq8F16WGSL,
    "main",
    {kQ4gswGemvRows4Dq8F16WorkgroupSizeX, kQ4gswGemvRows4Dq8F16WorkgroupSizeY,
     kQ4gswGemvRows4Dq8F16WorkgroupSizeZ},
    kQ4gswGemvRows4Dq8F16Bindings,
    kQ4gswGemvRows4Dq8F16BindingCount,
    kQ4gswGemvRows4Dq8F16Features,
    kQ4gswGemvRows4Dq8F16RuntimeChecks};
const KernelSource kQ4gswGemvRows4Dq8F16PackedKernel{
    "q4gsw_gemv_rows4_dq8_f16_packed",
    kQ4gswGemvRows4Dq8F16PackedWGSL,
    "main",
    {kQ4gswGemvRows4Dq8F16PackedWorkgroupSizeX, kQ4gswGemvRows4Dq8F16PackedWorkgroupSizeY,
     kQ4gswGemvRows4Dq8F16PackedWorkgroupSizeZ},
    kQ4gswGemvRows4Dq8F16PackedBindings,
    kQ4gswGemvRows4Dq8F16PackedBindingCount,
    "",
    kQ4gswGemvRows4Dq8F16PackedRuntimeChecks};
const KernelSource kQ4gswGemvRowsDq8F16Kernel{
    "q4gsw_gemv_rows_dq8_f16",
    kQ4gswGemvRowsDq8F16WGSL,
    "main",
    {kQ4gswGemvRowsDq8F16WorkgroupSizeX, kQ4gswGemvRowsDq8F16WorkgroupSizeY,
     kQ4gswGemvRowsDq8F16WorkgroupSizeZ},
    kQ4gswGemvRowsDq8F16Bindings,
    kQ4gswGemvRowsDq8F16BindingCount,
    kQ4gswGemvRowsDq8F16Features,
    kQ4gswGemvRowsDq8F16RuntimeChecks};
const KernelSource kQ4gswGemvRowsDq8F16PackedKernel{
    "q4gsw_gemv_rows_dq8_f16_packed",
    kQ4gswGemvRowsDq8F16PackedWGSL,
    "main",
    {kQ4gswGemvRowsDq8F16PackedWorkgroupSizeX, kQ4gswGemvRowsDq8F16PackedWorkgroupSizeY,
     kQ4gswGemvRowsDq8F16PackedWorkgroupSizeZ},
    kQ4gswGemvRowsDq8F16PackedBindings,
    kQ4gswGemvRowsDq8F16PackedBindingCount,
    "",
    kQ4gswGemvRowsDq8F16PackedRuntimeChecks};
const KernelSource kQ4gswGemvRows4Dq8SubgroupKernel{
    "q4gsw_gemv_rows4_dq8_subgroup",
    kQ4gswGemvRows4Dq8SubgroupWGSL,
    "main",
    {kQ4gswGemvRows4Dq8SubgroupWorkgroupSizeX, kQ4gswGemvRows4Dq8SubgroupWorkgroupSizeY,
     kQ4gswGemvRows4Dq8SubgroupWorkgroupSizeZ},
    kQ4gswGemvRows4Dq8SubgroupBindings,
    kQ4gswGemvRows4Dq8SubgroupBindingCount,
    kQ4gswGemvRows4Dq8SubgroupFeatures,
    kQ4gswGemvRows4Dq8SubgroupRuntimeChecks};
const KernelSource kQ4gswGemvRowsDq8SubgroupKernel{
    "q4gsw_gemv_rows_dq8_subgroup",
    kQ4gswGemvRowsDq8SubgroupWGSL,
    "main",
    {kQ4gswGemvRowsDq8SubgroupWorkgroupSizeX, kQ4gswGemvRowsDq8SubgroupWorkgroupSizeY,
     kQ4gswGemvRowsDq8SubgroupWorkgroupSizeZ},
    kQ4gswGemvRowsDq8SubgroupBindings,
    kQ4gswGemvRowsDq8SubgroupBindingCount,
    kQ4gswGemvRowsDq8SubgroupFeatures,
    kQ4gswGemvRowsDq8SubgroupRuntimeChecks};
const KernelSource kQ4gswGemvRows4Dq8Kernel{
    "q4gsw_gemv_rows4_dq8",
    kQ4gswGemvRows4Dq8WGSL,
    "main",
    {kQ4gswGemvRows4Dq8WorkgroupSizeX, kQ4gswGemvRows4Dq8WorkgroupSizeY,
     kQ4gswGemvRows4Dq8WorkgroupSizeZ},
    kQ4gswGemvRows4Dq8Bindings,
    kQ4gswGemvRows4Dq8BindingCount,
    "",
    kQ4gswGemvRows4Dq8RuntimeChecks};
const KernelSource kQ4gswGemvRowsDq8Kernel{
    "q4gsw_gemv_rows_dq8",
    kQ4gswGemvRowsDq8WGSL,
    "main",
    {kQ4gswGemvRowsDq8WorkgroupSizeX, kQ4gswGemvRowsDq8WorkgroupSizeY,
     kQ4gswGemvRowsDq8WorkgroupSizeZ},
    kQ4gswGemvRowsDq8Bindings,
    kQ4gswGemvRowsDq8BindingCount,
    "",
    kQ4gswGemvRowsDq8RuntimeChecks};
const KernelSource kQ4gswGemvSubgroupDq8F16Kernel{
    "q4gsw_gemv_subgroup_dq8_f16",
    kQ4gswGemvSubgroupDq8F16WGSL,
    "main",
    {kQ4gswGemvSubgroupDq8F16WorkgroupSizeX, kQ4gswGemvSubgroupDq8F16WorkgroupSizeY,
     kQ4gswGemvSubgroupDq8F16WorkgroupSizeZ},
    kQ4gswGemvSubgroupDq8F16Bindings,
    kQ4gswGemvSubgroupDq8F16BindingCount,
    kQ4gswGemvSubgroupDq8F16Features,
    kQ4gswGemvSubgroupDq8F16RuntimeChecks};
const KernelSource kQ4gswGemvSubgroupDq8F16PackedKernel{
    "q4gsw_gemv_subgroup_dq8_f16_packed",
    kQ4gswGemvSubgroupDq8F16PackedWGSL,
    "main",
    {kQ4gswGemvSubgroupDq8F16PackedWorkgroupSizeX, kQ4gswGemvSubgroupDq8F16PackedWorkgroupSizeY,
     kQ4gswGemvSubgroupDq8F16PackedWorkgroupSizeZ},
    kQ4gswGemvSubgroupDq8F16PackedBindings,
    kQ4gswGemvSubgroupDq8F16PackedBindingCount,
    kQ4gswGemvSubgroupDq8F16PackedFeatures,
    kQ4gswGemvSubgroupDq8F16PackedRuntimeChecks};
const KernelSource kQ4gswGemvDq8F16Kernel{
    "q4gsw_gemv_dq8_f16",
    kQ4gswGemvDq8F16WGSL,
    "main",
    {kQ4gswGemvDq8F16WorkgroupSizeX, kQ4gswGemvDq8F16WorkgroupSizeY,
     kQ4gswGemvDq8F16WorkgroupSizeZ},
    kQ4gswGemvDq8F16Bindings,
    kQ4gswGemvDq8F16BindingCount,
    kQ4gswGemvDq8F16Features,
    kQ4gswGemvDq8F16RuntimeChecks};
const KernelSource kQ4gswGemvDq8F16PackedKernel{
    "q4gsw_gemv_dq8_f16_packed",
    kQ4gswGemvDq8F16PackedWGSL,
    "main",
    {kQ4gswGemvDq8F16PackedWorkgroupSizeX, kQ4gswGemvDq8F16PackedWorkgroupSizeY,
     kQ4gswGemvDq8F16PackedWorkgroupSizeZ},
    kQ4gswGemvDq8F16PackedBindings,
    kQ4gswGemvDq8F16PackedBindingCount,
    "",
    kQ4gswGemvDq8F16PackedRuntimeChecks};
const KernelSource kQ4gswGemvSubgroupDq8Kernel{
    "q4gsw_gemv_subgroup_dq8",
    kQ4gswGemvSubgroupDq8WGSL,
    "main",
    {kQ4gswGemvSubgroupDq8WorkgroupSizeX, kQ4gswGemvSubgroupDq8WorkgroupSizeY,
     kQ4gswGemvSubgroupDq8WorkgroupSizeZ},
    kQ4gswGemvSubgroupDq8Bindings,
    kQ4gswGemvSubgroupDq8BindingCount,
    kQ4gswGemvSubgroupDq8Features,
    kQ4gswGemvSubgroupDq8RuntimeChecks};
const KernelSource kQ4gswGemvDq8Kernel{
    "q4gsw_gemv_dq8",
    kQ4gswGemvDq8WGSL,
    "main",
    {kQ4gswGemvDq8WorkgroupSizeX, kQ4gswGemvDq8WorkgroupSizeY, kQ4gswGemvDq8WorkgroupSizeZ},
    kQ4gswGemvDq8Bindings,
    kQ4gswGemvDq8BindingCount,
    "",
    kQ4gswGemvDq8RuntimeChecks};
const KernelSource kQ4gswGemmDq8F16Kernel{
    "q4gsw_gemm_dq8_f16",
    kQ4gswGemmDq8F16WGSL,
    "main",
    {kQ4gswGemmDq8F16WorkgroupSizeX, kQ4gswGemmDq8F16WorkgroupSizeY,
     kQ4gswGemmDq8F16WorkgroupSizeZ},
    kQ4gswGemmDq8F16Bindings,
    kQ4gswGemmDq8F16BindingCount,
    kQ4gswGemmDq8F16Features};
const KernelSource kQ4gswGemmDq8F16PackedKernel{
    "q4gsw_gemm_dq8_f16_packed",
    kQ4gswGemmDq8F16PackedWGSL,
    "main",
    {kQ4gswGemmDq8F16PackedWorkgroupSizeX, kQ4gswGemmDq8F16PackedWorkgroupSizeY,
     kQ4gswGemmDq8F16PackedWorkgroupSizeZ},
    kQ4gswGemmDq8F16PackedBindings,
    kQ4gswGemmDq8F16PackedBindingCount};
const KernelSource kQ4gswGemmDq8Kernel{
    "q4gsw_gemm_dq8",
    kQ4gswGemmDq8WGSL,
    "main",
    {kQ4gswGemmDq8WorkgroupSizeX, kQ4gswGemmDq8WorkgroupSizeY, kQ4gswGemmDq8WorkgroupSizeZ},
    kQ4gswGemmDq8Bindings,
    kQ4gswGemmDq8BindingCount};
const KernelSource kQ4gswSplitSumF16Kernel{
    "q4gsw_split_sum_f16",
    kQ4gswSplitSumF16WGSL,
    "main",
    {kQ4gswSplitSumF16WorkgroupSizeX, kQ4gswSplitSumF16WorkgroupSizeY,
     kQ4gswSplitSumF16WorkgroupSizeZ},
    kQ4gswSplitSumF16Bindings,
    kQ4gswSplitSumF16BindingCount,
    kQ4gswSplitSumF16Features};
const KernelSource kQ4gswSplitSumF16PackedKernel{
    "q4gsw_split_sum_f16_packed",
    kQ4gswSplitSumF16PackedWGSL,
    "main",
    {kQ4gswSplitSumF16PackedWorkgroupSizeX, kQ4gswSplitSumF16PackedWorkgroupSizeY,
     kQ4gswSplitSumF16PackedWorkgroupSizeZ},
    kQ4gswSplitSumF16PackedBindings,
    kQ4gswSplitSumF16PackedBindingCount};
const KernelSource kQ4gswSplitSumKernel{
    "q4gsw_split_sum",
    kQ4gswSplitSumWGSL,
    "main",
    {kQ4gswSplitSumWorkgroupSizeX, kQ4gswSplitSumWorkgroupSizeY, kQ4gswSplitSumWorkgroupSizeZ},
    kQ4gswSplitSumBindings,
    kQ4gswSplitSumBindingCount};
// Dispatch 0's kernels, in route order.
const KernelSource* const kDispatch0Kernels[] = {&kQ4gswGemvRows4Dq8SubgroupF16Kernel,
                                                 &kQ4gswGemvRows4Dq8SubgroupF16PackedKernel,
                                                 &kQ4gswGemvRowsDq8SubgroupF16Kernel,
                                                 &kQ4gswGemvRowsDq8SubgroupF16PackedKernel,
                                                 &kQ4gswGemvRows4Dq8F16Kernel,
                                                 &kQ4gswGemvRows4Dq8F16PackedKernel,
                                                 &kQ4gswGemvRowsDq8F16Kernel,
                                                 &kQ4gswGemvRowsDq8F16PackedKernel,
                                                 &kQ4gswGemvRows4Dq8SubgroupKernel,
                                                 &kQ4gswGemvRowsDq8SubgroupKernel,
                                                 &kQ4gswGemvRows4Dq8Kernel,
                                                 &kQ4gswGemvRowsDq8Kernel};
// Dispatch 1's kernels, in route order.
const KernelSource* const kDispatch1Kernels[] = {
    &kQ4gswGemvSubgroupDq8F16Kernel, &kQ4gswGemvSubgroupDq8F16PackedKernel, &kQ4gswGemvDq8F16Kernel,
    &kQ4gswGemvDq8F16PackedKernel,   &kQ4gswGemvSubgroupDq8Kernel,          &kQ4gswGemvDq8Kernel};
// Dispatch 2's kernels, in route order.
const KernelSource* const kDispatch2Kernels[] = {
    &kQ4gswGemmDq8F16Kernel, &kQ4gswGemmDq8F16PackedKernel, &kQ4gswGemmDq8Kernel};
// Dispatch 3's kernels, in route order.
const KernelSource* const kDispatch3Kernels[] = {
    &kQ4gswSplitSumF16Kernel, &kQ4gswSplitSumF16PackedKernel, &kQ4gswSplitSumKernel};

// The argument values, checked and turned into what each dispatch needs.
struct LinearDq8caQ4gswPlan {
  std::vector<int64_t> scratch_partial;  // dims of scratch tensor partial
  LinearDq8caQ4gswParams params{};
  LinearDq8caQ4gswTiledParams params_Tiled{};
  size_t route0 = 0;
  utils::Grid grid0;
  std::vector<OverrideValue> overrides0;
  bool active0 = true;
  size_t route1 = 0;
  utils::Grid grid1;
  std::vector<OverrideValue> overrides1;
  bool active1 = true;
  size_t route2 = 0;
  utils::Grid grid2;
  std::vector<OverrideValue> overrides2;
  bool active2 = true;
  size_t route3 = 0;
  utils::Grid grid3;
  std::vector<OverrideValue> overrides3;
  bool active3 = true;
};

LinearDq8caQ4gswPlan plan_linear_dq8ca_q4gsw(WebGPUGraph& graph,
                                             const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 9);
  const Tensor& input = graph.get_tensor(args[0]);
  const Tensor& input_scales = graph.get_tensor(args[1]);
  const Tensor& input_zp = graph.get_tensor(args[2]);
  const Tensor& weights = graph.get_tensor(args[3]);
  const Tensor& weight_sums = graph.get_tensor(args[4]);
  const Tensor& weight_scales = graph.get_tensor(args[5]);
  const int64_t group_size = utils::read_int(graph, args[6], kOp, "group_size", false);
  const Tensor* bias = graph.is_null(args[7]) ? nullptr : &graph.get_tensor(args[7]);
  const Tensor& out = graph.get_tensor(args[8]);
  utils::check_dtype(kOp, "input", input, {DType::Float32, DType::Float16});
  utils::check_rank(kOp, "input", input, 1, 8);
  utils::check_dtype(kOp, "input_scales", input_scales, {DType::Float32, DType::Float16});
  utils::check_rank(kOp, "input_scales", input_scales, 0, 7);
  utils::check_dtype(kOp, "input_zp", input_zp, {DType::Int8});
  utils::check_rank(kOp, "input_zp", input_zp, 0, 7);
  utils::check_dtype(kOp, "weights", weights, {DType::UInt8});
  utils::check_rank(kOp, "weights", weights, 2, 2);
  utils::check_dtype(kOp, "weight_sums", weight_sums, {DType::Int32});
  utils::check_rank(kOp, "weight_sums", weight_sums, 2, 2);
  utils::check_dtype(kOp, "weight_scales", weight_scales, {DType::Float32, DType::Float16});
  utils::check_rank(kOp, "weight_scales", weight_scales, 2, 2);
  if (bias != nullptr) {
    utils::check_dtype(kOp, "bias", *bias, {DType::Float32, DType::Float16});
    utils::check_rank(kOp, "bias", *bias, 1, 1);
  }
  utils::check_dtype(kOp, "out", out, {DType::Float32, DType::Float16});
  const int64_t K =
      utils::let(kOp, "K = input.dims[-1]", [&]() -> int64_t { return input.dim(-1); });
  const int64_t N =
      utils::let(kOp, "N = weights.dims[0]", [&]() -> int64_t { return weights.dim(0); });
  const int64_t M = utils::let(kOp, "M = input.numel // max(K, 1)", [&]() -> int64_t {
    return utils::floordiv(input.numel(), utils::max_of(K, 1));
  });
  const bool gemv = utils::let(kOp, "gemv = M <= 4 and K % 32 == 0",
                               [&]() -> bool { return (M <= 4) && (utils::floormod(K, 32) == 0); });
  const int64_t split = utils::let(
      kOp,
      "split = (min(ceil_div(528, ceil_div(M, 64) * ceil_div(N, 128)), max(1, K // 256)) if "
      "ceil_div(M, 64) * ceil_div(N, 128) < 264 else 1) if not gemv else 1",
      [&]() -> int64_t {
        return !gemv
                   ? ((utils::mul(utils::ceil_div(M, 64), utils::ceil_div(N, 128)) < 264)
                          ? utils::min_of(utils::ceil_div(528, utils::mul(utils::ceil_div(M, 64),
                                                                          utils::ceil_div(N, 128))),
                                          utils::max_of(1, utils::floordiv(K, 256)))
                          : 1)
                   : 1;
      });
  const int64_t k_chunk = utils::let(
      kOp, "k_chunk = ceil_div(ceil_div(K, 8), split) * 8",
      [&]() -> int64_t { return utils::mul(utils::ceil_div(utils::ceil_div(K, 8), split), 8); });
  const int64_t partial_rows = utils::let(
      kOp,
      "partial_rows = max([min((t + 1) * 64, M) * (min(ceil_div(528, (t + 1) * ceil_div(N, 128)), "
      "max(1, K // 256)) if (t + 1) * ceil_div(N, 128) < 264 else 1) if (min(ceil_div(528, (t + 1) "
      "* ceil_div(N, 128)), max(1, K // 256)) if (t + 1) * ceil_div(N, 128) < 264 else 1) > 1 else "
      "0 for t in range(ceil_div(M, 64))] + [0])",
      [&]() -> int64_t {
        return utils::max_of(utils::concat(
            [&]() {
              std::vector<int64_t> _values;
              for (const auto& _t : utils::range(utils::ceil_div(M, 64))) {
                _values.push_back(
                    (((utils::mul(utils::add(_t, 1), utils::ceil_div(N, 128)) < 264)
                          ? utils::min_of(utils::ceil_div(528, utils::mul(utils::add(_t, 1),
                                                                          utils::ceil_div(N, 128))),
                                          utils::max_of(1, utils::floordiv(K, 256)))
                          : 1) > 1)
                        ? utils::mul(
                              utils::min_of(utils::mul(utils::add(_t, 1), 64), M),
                              (utils::mul(utils::add(_t, 1), utils::ceil_div(N, 128)) < 264)
                                  ? utils::min_of(
                                        utils::ceil_div(528, utils::mul(utils::add(_t, 1),
                                                                        utils::ceil_div(N, 128))),
                                        utils::max_of(1, utils::floordiv(K, 256)))
                                  : 1)
                        : 0);
              }
              return _values;
            }(),
            std::vector<int64_t>{0}));
      });
  if ((input_scales.numel() != M) || (input_zp.numel() != M)) {
    utils::fail(kOp, "input_scales", "does not hold one scale and zero point per input row",
                utils::format_value(input_scales.dims()),
                utils::format_value(M) + " values (input_zp too)");
  }
  if (utils::mul(weights.dim(1), 2) != utils::mul(utils::ceil_div(K, 8), 8)) {
    utils::fail(kOp, "weights",
                "does not hold the input's K values (padded to 8) per row, two per byte",
                utils::format_value(weights.dims()),
                "[N, " + utils::format_value(utils::mul(utils::ceil_div(K, 8), 4)) + "]");
  }
  if ((group_size <= 0) || (utils::floormod(group_size, 8) != 0) ||
      (utils::floormod(K, group_size) != 0)) {
    utils::fail(kOp, "group_size", "does not split K into groups of whole packed words",
                utils::format_value(group_size),
                "a multiple of 8 dividing " + utils::format_value(K));
  }
  if (weight_scales.dims() != std::vector<int64_t>{utils::floordiv(K, group_size), N}) {
    utils::fail(kOp, "weight_scales", "does not hold one scale per group and output feature",
                utils::format_value(weight_scales.dims()),
                "[" + utils::format_value(utils::floordiv(K, group_size)) + ", " +
                    utils::format_value(N) + "]");
  }
  if ((bias != nullptr) && (bias->numel() != N) &&
      (bias->numel() != utils::mul(utils::ceil_div(N, 4), 4))) {
    utils::fail(kOp, "bias", "does not hold one value per output feature",
                utils::format_value(bias->dims()),
                "[" + utils::format_value(N) + "] (or padded to a multiple of 4)");
  }
  if (weight_sums.dims() != weight_scales.dims()) {
    utils::fail(kOp, "weight_sums", "does not hold one sum per group and output feature",
                utils::format_value(weight_sums.dims()), utils::format_value(weight_scales.dims()));
  }
  if ((input_scales.dtype != input.dtype) || (weight_scales.dtype != input.dtype) ||
      (out.dtype != input.dtype) || ((bias != nullptr) && (bias->dtype != input.dtype))) {
    utils::fail(
        kOp, "input", "does not share its dtype with input_scales, weight_scales, out and bias",
        utils::format_value(input.dtype), "the dtype of input_scales, weight_scales, out and bias");
  }
  utils::check_output_dims(
      kOp, "out", out, utils::concat(utils::slice(input.dims(), 0, -1), std::vector<int64_t>{N}));
  Tensor partial;  // scratch, allocated by add_linear_dq8ca_q4gsw
  partial.dtype = DType::Float32;
  partial.max_dims =
      std::vector<int64_t>{utils::max_of(std::vector<int64_t>{utils::mul(partial_rows, N)})};
  partial.live_dims = partial.max_dims;

  LinearDq8caQ4gswPlan plan;
  plan.scratch_partial = partial.dims();
  plan.params.M = utils::to_u32(M, kOp, "M");
  plan.params.N = utils::to_u32(N, kOp, "N");
  plan.params.K = utils::to_u32(K, kOp, "K");
  plan.params.row_words = utils::to_u32(utils::floordiv(weights.dim(1), 4), kOp, "row_words");
  plan.params.group_size = utils::to_u32(group_size, kOp, "group_size");
  plan.params.has_bias = (bias != nullptr) ? 1 : 0;
  plan.params_Tiled.M = utils::to_u32(M, kOp, "M");
  plan.params_Tiled.N = utils::to_u32(N, kOp, "N");
  plan.params_Tiled.K = utils::to_u32(K, kOp, "K");
  plan.params_Tiled.row_words = utils::to_u32(utils::floordiv(weights.dim(1), 4), kOp, "row_words");
  plan.params_Tiled.group_size = utils::to_u32(group_size, kOp, "group_size");
  plan.params_Tiled.has_bias = (bias != nullptr) ? 1 : 0;
  plan.params_Tiled.batch = utils::to_u32(1, kOp, "batch");
  plan.params_Tiled.split = utils::to_u32(split, kOp, "split");
  plan.params_Tiled.k_chunk = utils::to_u32(k_chunk, kOp, "k_chunk");
  if (graph.has_feature(Feature::Subgroups) && graph.has_feature(Feature::ShaderF16) &&
      ((input.dtype == DType::Float16) && (N >= 16384))) {
    plan.route0 = 0;  // q4gsw_gemv_rows4_dq8_subgroup_f16
    plan.grid0 = utils::elementwise_grid(utils::mul(utils::ceil_div(N, 32), 256),
                                         kQ4gswGemvRows4Dq8SubgroupF16Kernel.workgroup_size[0],
                                         graph.limits().max_workgroups_per_dimension);
  } else if (graph.has_feature(Feature::Subgroups) &&
             ((input.dtype == DType::Float16) && (N >= 16384))) {
    plan.route0 = 1;  // q4gsw_gemv_rows4_dq8_subgroup_f16_packed
    plan.grid0 =
        utils::elementwise_grid(utils::mul(utils::ceil_div(N, 32), 256),
                                kQ4gswGemvRows4Dq8SubgroupF16PackedKernel.workgroup_size[0],
                                graph.limits().max_workgroups_per_dimension);
  } else if (graph.has_feature(Feature::Subgroups) && graph.has_feature(Feature::ShaderF16) &&
             (input.dtype == DType::Float16)) {
    plan.route0 = 2;  // q4gsw_gemv_rows_dq8_subgroup_f16
    plan.grid0 = utils::elementwise_grid(utils::mul(utils::ceil_div(N, 16), 256),
                                         kQ4gswGemvRowsDq8SubgroupF16Kernel.workgroup_size[0],
                                         graph.limits().max_workgroups_per_dimension);
  } else if (graph.has_feature(Feature::Subgroups) && (input.dtype == DType::Float16)) {
    plan.route0 = 3;  // q4gsw_gemv_rows_dq8_subgroup_f16_packed
    plan.grid0 = utils::elementwise_grid(utils::mul(utils::ceil_div(N, 16), 256),
                                         kQ4gswGemvRowsDq8SubgroupF16PackedKernel.workgroup_size[0],
                                         graph.limits().max_workgroups_per_dimension);
  } else if (graph.has_feature(Feature::ShaderF16) &&
             ((input.dtype == DType::Float16) && (N >= 16384))) {
    plan.route0 = 4;  // q4gsw_gemv_rows4_dq8_f16
    plan.grid0 = utils::elementwise_grid(utils::mul(utils::ceil_div(N, 32), 256),
                                         kQ4gswGemvRows4Dq8F16Kernel.workgroup_size[0],
                                         graph.limits().max_workgroups_per_dimension);
  } else if ((input.dtype == DType::Float16) && (N >= 16384)) {
    plan.route0 = 5;  // q4gsw_gemv_rows4_dq8_f16_packed
    plan.grid0 = utils::elementwise_grid(utils::mul(utils::ceil_div(N, 32), 256),
                                         kQ4gswGemvRows4Dq8F16PackedKernel.workgroup_size[0],
                                         graph.limits().max_workgroups_per_dimension);
  } else if (graph.has_feature(Feature::ShaderF16) && (input.dtype == DType::Float16)) {
    plan.route0 = 6;  // q4gsw_gemv_rows_dq8_f16
    plan.grid0 = utils::elementwise_grid(utils::mul(utils::ceil_div(N, 16), 256),
                                         kQ4gswGemvRowsDq8F16Kernel.workgroup_size[0],
                                         graph.limits().max_workgroups_per_dimension);
  } else if (input.dtype == DType::Float16) {
    plan.route0 = 7;  // q4gsw_gemv_rows_dq8_f16_packed
    plan.grid0 = utils::elementwise_grid(utils::mul(utils::ceil_div(N, 16), 256),
                                         kQ4gswGemvRowsDq8F16PackedKernel.workgroup_size[0],
                                         graph.limits().max_workgroups_per_dimension);
  } else if (graph.has_feature(Feature::Subgroups) && (N >= 16384)) {
    plan.route0 = 8;  // q4gsw_gemv_rows4_dq8_subgroup
    plan.grid0 = utils::elementwise_grid(utils::mul(utils::ceil_div(N, 32), 256),
                                         kQ4gswGemvRows4Dq8SubgroupKernel.workgroup_size[0],
                                         graph.limits().max_workgroups_per_dimension);
  } else if (graph.has_feature(Feature::Subgroups)) {
    plan.route0 = 9;  // q4gsw_gemv_rows_dq8_subgroup
    plan.grid0 = utils::elementwise_grid(utils::mul(utils::ceil_div(N, 16), 256),
                                         kQ4gswGemvRowsDq8SubgroupKernel.workgroup_size[0],
                                         graph.limits().max_workgroups_per_dimension);
  } else if (N >= 16384) {
    plan.route0 = 10;  // q4gsw_gemv_rows4_dq8
    plan.grid0 = utils::elementwise_grid(utils::mul(utils::ceil_div(N, 32), 256),
                                         kQ4gswGemvRows4Dq8Kernel.workgroup_size[0],
                                         graph.limits().max_workgroups_per_dimension);
  } else {
    plan.route0 = 11;  // q4gsw_gemv_rows_dq8
    plan.grid0 = utils::elementwise_grid(utils::mul(utils::ceil_div(N, 16), 256),
                                         kQ4gswGemvRowsDq8Kernel.workgroup_size[0],
                                         graph.limits().max_workgroups_per_dimension);
  }
  plan.active0 = gemv && (M == 1);
  if (graph.has_feature(Feature::Subgroups) && graph.has_feature(Feature::ShaderF16) &&
      (input.dtype == DType::Float16)) {
    plan.route1 = 0;  // q4gsw_gemv_subgroup_dq8_f16
    plan.grid1 = utils::elementwise_grid(utils::mul(utils::ceil_div(N, 8), 256),
                                         kQ4gswGemvSubgroupDq8F16Kernel.workgroup_size[0],
                                         graph.limits().max_workgroups_per_dimension);
  } else if (graph.has_feature(Feature::Subgroups) && (input.dtype == DType::Float16)) {
    plan.route1 = 1;  // q4gsw_gemv_subgroup_dq8_f16_packed
    plan.grid1 = utils::elementwise_grid(utils::mul(utils::ceil_div(N, 8), 256),
                                         kQ4gswGemvSubgroupDq8F16PackedKernel.workgroup_size[0],
                                         graph.limits().max_workgroups_per_dimension);
  } else if (graph.has_feature(Feature::ShaderF16) && (input.dtype == DType::Float16)) {
    plan.route1 = 2;  // q4gsw_gemv_dq8_f16
    plan.grid1 = utils::elementwise_grid(utils::mul(utils::ceil_div(N, 8), 256),
                                         kQ4gswGemvDq8F16Kernel.workgroup_size[0],
                                         graph.limits().max_workgroups_per_dimension);
  } else if (input.dtype == DType::Float16) {
    plan.route1 = 3;  // q4gsw_gemv_dq8_f16_packed
    plan.grid1 = utils::elementwise_grid(utils::mul(utils::ceil_div(N, 8), 256),
                                         kQ4gswGemvDq8F16PackedKernel.workgroup_size[0],
                                         graph.limits().max_workgroups_per_dimension);
  } else if (graph.has_feature(Feature::Subgroups)) {
    plan.route1 = 4;  // q4gsw_gemv_subgroup_dq8
    plan.grid1 = utils::elementwise_grid(utils::mul(utils::ceil_div(N, 8), 256),
                                         kQ4gswGemvSubgroupDq8Kernel.workgroup_size[0],
                                         graph.limits().max_workgroups_per_dimension);
  } else {
    plan.route1 = 5;  // q4gsw_gemv_dq8
    plan.grid1 = utils::elementwise_grid(utils::mul(utils::ceil_div(N, 8), 256),
                                         kQ4gswGemvDq8Kernel.workgroup_size[0],
                                         graph.limits().max_workgroups_per_dimension);
  }
  plan.active1 = gemv && (M > 1);
  if (graph.has_feature(Feature::ShaderF16) && (input.dtype == DType::Float16)) {
    plan.route2 = 0;  // q4gsw_gemm_dq8_f16
    plan.grid2 =
        utils::tiles_grid(N, M, split, 128, 64, graph.limits().max_workgroups_per_dimension);
  } else if (input.dtype == DType::Float16) {
    plan.route2 = 1;  // q4gsw_gemm_dq8_f16_packed
    plan.grid2 =
        utils::tiles_grid(N, M, split, 128, 64, graph.limits().max_workgroups_per_dimension);
  } else {
    plan.route2 = 2;  // q4gsw_gemm_dq8
    plan.grid2 =
        utils::tiles_grid(N, M, split, 128, 64, graph.limits().max_workgroups_per_dimension);
  }
  plan.active2 = !gemv;
  if (graph.has_feature(Feature::ShaderF16) && (input.dtype == DType::Float16)) {
    plan.route3 = 0;  // q4gsw_split_sum_f16
    plan.grid3 =
        utils::elementwise_grid(utils::mul(M, N), kQ4gswSplitSumF16Kernel.workgroup_size[0],
                                graph.limits().max_workgroups_per_dimension);
  } else if (input.dtype == DType::Float16) {
    plan.route3 = 1;  // q4gsw_split_sum_f16_packed
    plan.grid3 =
        utils::elementwise_grid(utils::mul(M, N), kQ4gswSplitSumF16PackedKernel.workgroup_size[0],
                                graph.limits().max_workgroups_per_dimension);
  } else {
    plan.route3 = 2;  // q4gsw_split_sum
    plan.grid3 = utils::elementwise_grid(utils::mul(M, N), kQ4gswSplitSumKernel.workgroup_size[0],
                                         graph.limits().max_workgroups_per_dimension);
  }
  plan.active3 = !gemv && (split > 1);
  return plan;
}

// Gives the outputs the shape the op's formula computes from the live inputs.
void resize_linear_dq8ca_q4gsw_outputs(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const Tensor& input = graph.get_tensor(args[0]);
  const Tensor& weights = graph.get_tensor(args[3]);
  Tensor& out = graph.get_tensor(args[8]);
  const int64_t N =
      utils::let(kOp, "N = weights.dims[0]", [&]() -> int64_t { return weights.dim(0); });
  utils::resize_output(kOp, "out", out,
                       utils::concat(utils::slice(input.dims(), 0, -1), std::vector<int64_t>{N}));
}

void add_linear_dq8ca_q4gsw(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const LinearDq8caQ4gswPlan built = plan_linear_dq8ca_q4gsw(graph, args);
  // Scratch tensor partial: in the graph's buffer shared by every op's partial, written and read by
  // this op's dispatches only.
  const ValueRef scratch_partial =
      graph.add_shared_tensor("partial", DType::Float32, built.scratch_partial);
  const DispatchId dispatch0 = graph.add_dispatch(
      *kDispatch0Kernels[built.route0], built.overrides0,
      {Binding::params(), Binding::of(args[0]), Binding::of(args[1]), Binding::of(args[2]),
       Binding::of(args[4]), Binding::of(args[3]), Binding::of(args[5]),
       !graph.is_null(args[7]) ? Binding::of(args[7]) : Binding::dummy(), Binding::of(args[8])},
      &built.params, sizeof(built.params), built.grid0);
  graph.set_dispatch_active(dispatch0, built.active0);
  const DispatchId dispatch1 = graph.add_dispatch(
      *kDispatch1Kernels[built.route1], built.overrides1,
      {Binding::params(), Binding::of(args[0]), Binding::of(args[1]), Binding::of(args[2]),
       Binding::of(args[4]), Binding::of(args[3]), Binding::of(args[5]),
       !graph.is_null(args[7]) ? Binding::of(args[7]) : Binding::dummy(), Binding::of(args[8])},
      &built.params, sizeof(built.params), built.grid1);
  graph.set_dispatch_active(dispatch1, built.active1);
  const DispatchId dispatch2 = graph.add_dispatch(
      *kDispatch2Kernels[built.route2], built.overrides2,
      {Binding::params(), Binding::of(args[0]), Binding::of(args[1]), Binding::of(args[2]),
       Binding::of(args[4]), Binding::of(args[3]), Binding::of(args[5]),
       !graph.is_null(args[7]) ? Binding::of(args[7]) : Binding::dummy(), Binding::of(args[8]),
       Binding::of(scratch_partial)},
      &built.params_Tiled, sizeof(built.params_Tiled), built.grid2);
  graph.set_dispatch_active(dispatch2, built.active2);
  const DispatchId dispatch3 = graph.add_dispatch(
      *kDispatch3Kernels[built.route3], built.overrides3,
      {Binding::params(), Binding::of(scratch_partial),
       !graph.is_null(args[7]) ? Binding::of(args[7]) : Binding::dummy(), Binding::of(args[8])},
      &built.params_Tiled, sizeof(built.params_Tiled), built.grid3);
  graph.set_dispatch_active(dispatch3, built.active3);
  graph.add_resize_hook([args, built, scratch_partial, dispatch0, dispatch1, dispatch2,
                         dispatch3](WebGPUGraph& graph) {
    resize_linear_dq8ca_q4gsw_outputs(graph, args);
    const LinearDq8caQ4gswPlan plan = plan_linear_dq8ca_q4gsw(graph, args);
    graph.resize_tensor(scratch_partial, plan.scratch_partial);
    if (plan.route0 != built.route0) {
      utils::fail(kOp, "inputs", "were resized into a different kernel route",
                  kDispatch0Kernels[plan.route0]->name, kDispatch0Kernels[built.route0]->name);
    }
    graph.set_dispatch_active(dispatch0, plan.active0);
    graph.update_dispatch(dispatch0, &plan.params, sizeof(plan.params), plan.grid0);
    if (plan.route1 != built.route1) {
      utils::fail(kOp, "inputs", "were resized into a different kernel route",
                  kDispatch1Kernels[plan.route1]->name, kDispatch1Kernels[built.route1]->name);
    }
    graph.set_dispatch_active(dispatch1, plan.active1);
    graph.update_dispatch(dispatch1, &plan.params, sizeof(plan.params), plan.grid1);
    if (plan.route2 != built.route2) {
      utils::fail(kOp, "inputs", "were resized into a different kernel route",
                  kDispatch2Kernels[plan.route2]->name, kDispatch2Kernels[built.route2]->name);
    }
    graph.set_dispatch_active(dispatch2, plan.active2);
    graph.update_dispatch(dispatch2, &plan.params_Tiled, sizeof(plan.params_Tiled), plan.grid2);
    if (plan.route3 != built.route3) {
      utils::fail(kOp, "inputs", "were resized into a different kernel route",
                  kDispatch3Kernels[plan.route3]->name, kDispatch3Kernels[built.route3]->name);
    }
    graph.set_dispatch_active(dispatch3, plan.active3);
    graph.update_dispatch(dispatch3, &plan.params_Tiled, sizeof(plan.params_Tiled), plan.grid3);
  });
}

}  // namespace
}  // namespace webgpu_delegate

WEBGPU_REGISTER_OP(et_vk.linear_dq8ca_q4gsw.default, webgpu_delegate::add_linear_dq8ca_q4gsw, None);
