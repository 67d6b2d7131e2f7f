// @generated from codegen/specs/linear_q4gsw_silu_mul/linear_q4gsw_silu_mul.py - DO NOT EDIT.
// Op linear_q4gsw_silu_mul: webgpu.linear_q4gsw_silu_mul.default

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ops/linear_q4gsw/q4gsw_gemm_f16_packed_wgsl.h"
#include "ops/linear_q4gsw/q4gsw_gemm_f16_wgsl.h"
#include "ops/linear_q4gsw/q4gsw_gemm_silu_mul_f16_packed_wgsl.h"
#include "ops/linear_q4gsw/q4gsw_gemm_silu_mul_f16_wgsl.h"
#include "ops/linear_q4gsw/q4gsw_gemm_silu_mul_wgsl.h"
#include "ops/linear_q4gsw/q4gsw_gemm_wgsl.h"
#include "ops/linear_q4gsw/q4gsw_split_sum_f16_packed_wgsl.h"
#include "ops/linear_q4gsw/q4gsw_split_sum_f16_wgsl.h"
#include "ops/linear_q4gsw/q4gsw_split_sum_wgsl.h"
#include "ops/linear_q4gsw_silu_mul/q4gsw_gemv_silu_mul_f16_packed_wgsl.h"
#include "ops/linear_q4gsw_silu_mul/q4gsw_gemv_silu_mul_f16_wgsl.h"
#include "ops/linear_q4gsw_silu_mul/q4gsw_gemv_silu_mul_subgroup_f16_packed_wgsl.h"
#include "ops/linear_q4gsw_silu_mul/q4gsw_gemv_silu_mul_subgroup_f16_wgsl.h"
#include "ops/linear_q4gsw_silu_mul/q4gsw_gemv_silu_mul_subgroup_wgsl.h"
#include "ops/linear_q4gsw_silu_mul/q4gsw_gemv_silu_mul_wgsl.h"
#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "linear_q4gsw_silu_mul";

struct LinearQ4gswSiluMulTiledGateParams {
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
static_assert(offsetof(LinearQ4gswSiluMulTiledGateParams, M) == 0,
              "LinearQ4gswSiluMulTiledGateParams.M must sit at WGSL offset 0");
static_assert(offsetof(LinearQ4gswSiluMulTiledGateParams, N) == 4,
              "LinearQ4gswSiluMulTiledGateParams.N must sit at WGSL offset 4");
static_assert(offsetof(LinearQ4gswSiluMulTiledGateParams, K) == 8,
              "LinearQ4gswSiluMulTiledGateParams.K must sit at WGSL offset 8");
static_assert(offsetof(LinearQ4gswSiluMulTiledGateParams, row_words) == 12,
              "LinearQ4gswSiluMulTiledGateParams.row_words must sit at WGSL offset 12");
static_assert(offsetof(LinearQ4gswSiluMulTiledGateParams, group_size) == 16,
              "LinearQ4gswSiluMulTiledGateParams.group_size must sit at WGSL offset 16");
static_assert(offsetof(LinearQ4gswSiluMulTiledGateParams, has_bias) == 20,
              "LinearQ4gswSiluMulTiledGateParams.has_bias must sit at WGSL offset 20");
static_assert(offsetof(LinearQ4gswSiluMulTiledGateParams, batch) == 24,
              "LinearQ4gswSiluMulTiledGateParams.batch must sit at WGSL offset 24");
static_assert(offsetof(LinearQ4gswSiluMulTiledGateParams, split) == 28,
              "LinearQ4gswSiluMulTiledGateParams.split must sit at WGSL offset 28");
static_assert(offsetof(LinearQ4gswSiluMulTiledGateParams, k_chunk) == 32,
              "LinearQ4gswSiluMulTiledGateParams.k_chunk must sit at WGSL offset 32");
static_assert(sizeof(LinearQ4gswSiluMulTiledGateParams) == 48,
              "LinearQ4gswSiluMulTiledGateParams must match the WGSL struct size 48");

struct LinearQ4gswSiluMulTiledUpParams {
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
static_assert(offsetof(LinearQ4gswSiluMulTiledUpParams, M) == 0,
              "LinearQ4gswSiluMulTiledUpParams.M must sit at WGSL offset 0");
static_assert(offsetof(LinearQ4gswSiluMulTiledUpParams, N) == 4,
              "LinearQ4gswSiluMulTiledUpParams.N must sit at WGSL offset 4");
static_assert(offsetof(LinearQ4gswSiluMulTiledUpParams, K) == 8,
              "LinearQ4gswSiluMulTiledUpParams.K must sit at WGSL offset 8");
static_assert(offsetof(LinearQ4gswSiluMulTiledUpParams, row_words) == 12,
              "LinearQ4gswSiluMulTiledUpParams.row_words must sit at WGSL offset 12");
static_assert(offsetof(LinearQ4gswSiluMulTiledUpParams, group_size) == 16,
              "LinearQ4gswSiluMulTiledUpParams.group_size must sit at WGSL offset 16");
static_assert(offsetof(LinearQ4gswSiluMulTiledUpParams, has_bias) == 20,
              "LinearQ4gswSiluMulTiledUpParams.has_bias must sit at WGSL offset 20");
static_assert(offsetof(LinearQ4gswSiluMulTiledUpParams, batch) == 24,
              "LinearQ4gswSiluMulTiledUpParams.batch must sit at WGSL offset 24");
static_assert(offsetof(LinearQ4gswSiluMulTiledUpParams, split) == 28,
              "LinearQ4gswSiluMulTiledUpParams.split must sit at WGSL offset 28");
static_assert(offsetof(LinearQ4gswSiluMulTiledUpParams, k_chunk) == 32,
              "LinearQ4gswSiluMulTiledUpParams.k_chunk must sit at WGSL offset 32");
static_assert(sizeof(LinearQ4gswSiluMulTiledUpParams) == 48,
              "LinearQ4gswSiluMulTiledUpParams must match the WGSL struct size 48");

struct LinearQ4gswSiluMulGemvParams {
  uint32_t K;
  uint32_t N;
  uint32_t group_size;
  uint32_t _pad0;
};
static_assert(offsetof(LinearQ4gswSiluMulGemvParams, K) == 0,
              "LinearQ4gswSiluMulGemvParams.K must sit at WGSL offset 0");
static_assert(offsetof(LinearQ4gswSiluMulGemvParams, N) == 4,
              "LinearQ4gswSiluMulGemvParams.N must sit at WGSL offset 4");
static_assert(offsetof(LinearQ4gswSiluMulGemvParams, group_size) == 8,
              "LinearQ4gswSiluMulGemvParams.group_size must sit at WGSL offset 8");
static_assert(sizeof(LinearQ4gswSiluMulGemvParams) == 16,
              "LinearQ4gswSiluMulGemvParams must match the WGSL struct size 16");

const KernelSource kQ4gswGemvSiluMulSubgroupF16Kernel{
    "q4gsw_gemv_silu_mul_subgroup_f16",
    kQ4gswGemvSiluMulSubgroupF16WGSL,
    "main",
    {kQ4gswGemvSiluMulSubgroupF16WorkgroupSizeX, kQ4gswGemvSiluMulSubgroupF16WorkgroupSizeY,
     kQ4gswGemvSiluMulSubgroupF16WorkgroupSizeZ},
    kQ4gswGemvSiluMulSubgroupF16Bindings,
    kQ4gswGemvSiluMulSubgroupF16BindingCount,
    kQ4gswGemvSiluMulSubgroupF16Features,
    kQ4gswGemvSiluMulSubgroupF16RuntimeChecks};
const KernelSource kQ4gswGemvSiluMulSubgroupF16PackedKernel{
    "q4gsw_gemv_silu_mul_subgroup_f16_packed",
    kQ4gswGemvSiluMulSubgroupF16PackedWGSL,
    "main",
    {kQ4gswGemvSiluMulSubgroupF16PackedWorkgroupSizeX,
     kQ4gswGemvSiluMulSubgroupF16PackedWorkgroupSizeY,
     kQ4gswGemvSiluMulSubgroupF16PackedWorkgroupSizeZ},
    kQ4gswGemvSiluMulSubgroupF16PackedBindings,
    kQ4gswGemvSiluMulSubgroupF16PackedBindingCount,
    kQ4gswGemvSiluMulSubgroupF16PackedFeatures,
    kQ4gswGemvSiluMulSubgroupF16PackedRuntimeChecks};
const KernelSource kQ4gswGemvSiluMulF16Kernel{
    "q4gsw_gemv_silu_mul_f16",
    kQ4gswGemvSiluMulF16WGSL,
    "main",
    {kQ4gswGemvSiluMulF16WorkgroupSizeX, kQ4gswGemvSiluMulF16WorkgroupSizeY,
     kQ4gswGemvSiluMulF16WorkgroupSizeZ},
    kQ4gswGemvSiluMulF16Bindings,
    kQ4gswGemvSiluMulF16BindingCount,
    kQ4gswGemvSiluMulF16Features,
    kQ4gswGemvSiluMulF16RuntimeChecks};
const KernelSource kQ4gswGemvSiluMulF16PackedKernel{
    "q4gsw_gemv_silu_mul_f16_packed",
    kQ4gswGemvSiluMulF16PackedWGSL,
    "main",
    {kQ4gswGemvSiluMulF16PackedWorkgroupSizeX, kQ4gswGemvSiluMulF16PackedWorkgroupSizeY,
     kQ4gswGemvSiluMulF16PackedWorkgroupSizeZ},
    kQ4gswGemvSiluMulF16PackedBindings,
    kQ4gswGemvSiluMulF16PackedBindingCount,
    "",
    kQ4gswGemvSiluMulF16PackedRuntimeChecks};
const KernelSource kQ4gswGemvSiluMulSubgroupKernel{
    "q4gsw_gemv_silu_mul_subgroup",
    kQ4gswGemvSiluMulSubgroupWGSL,
    "main",
    {kQ4gswGemvSiluMulSubgroupWorkgroupSizeX, kQ4gswGemvSiluMulSubgroupWorkgroupSizeY,
     kQ4gswGemvSiluMulSubgroupWorkgroupSizeZ},
    kQ4gswGemvSiluMulSubgroupBindings,
    kQ4gswGemvSiluMulSubgroupBindingCount,
    kQ4gswGemvSiluMulSubgroupFeatures,
    kQ4gswGemvSiluMulSubgroupRuntimeChecks};
const KernelSource kQ4gswGemvSiluMulKernel{
    "q4gsw_gemv_silu_mul",
    kQ4gswGemvSiluMulWGSL,
    "main",
    {kQ4gswGemvSiluMulWorkgroupSizeX, kQ4gswGemvSiluMulWorkgroupSizeY,
     kQ4gswGemvSiluMulWorkgroupSizeZ},
    kQ4gswGemvSiluMulBindings,
    kQ4gswGemvSiluMulBindingCount,
    "",
    kQ4gswGemvSiluMulRuntimeChecks};
const KernelSource kQ4gswGemmF16Kernel{
    "q4gsw_gemm_f16",
    kQ4gswGemmF16WGSL,
    "main",
    {kQ4gswGemmF16WorkgroupSizeX, kQ4gswGemmF16WorkgroupSizeY, kQ4gswGemmF16WorkgroupSizeZ},
    kQ4gswGemmF16Bindings,
    kQ4gswGemmF16BindingCount,
    kQ4gswGemmF16Features};
const KernelSource kQ4gswGemmF16PackedKernel{
    "q4gsw_gemm_f16_packed",
    kQ4gswGemmF16PackedWGSL,
    "main",
    {kQ4gswGemmF16PackedWorkgroupSizeX, kQ4gswGemmF16PackedWorkgroupSizeY,
     kQ4gswGemmF16PackedWorkgroupSizeZ},
    kQ4gswGemmF16PackedBindings,
    kQ4gswGemmF16PackedBindingCount};
const KernelSource kQ4gswGemmKernel{
    "q4gsw_gemm",
    kQ4gswGemmWGSL,
    "main",
    {kQ4gswGemmWorkgroupSizeX, kQ4gswGemmWorkgroupSizeY, kQ4gswGemmWorkgroupSizeZ},
    kQ4gswGemmBindings,
    kQ4gswGemmBindingCount};
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
const KernelSource kQ4gswGemmSiluMulF16Kernel{
    "q4gsw_gemm_silu_mul_f16",
    kQ4gswGemmSiluMulF16WGSL,
    "main",
    {kQ4gswGemmSiluMulF16WorkgroupSizeX, kQ4gswGemmSiluMulF16WorkgroupSizeY,
     kQ4gswGemmSiluMulF16WorkgroupSizeZ},
    kQ4gswGemmSiluMulF16Bindings,
    kQ4gswGemmSiluMulF16BindingCount,
    kQ4gswGemmSiluMulF16Features};
const KernelSource kQ4gswGemmSiluMulF16PackedKernel{
    "q4gsw_gemm_silu_mul_f16_packed",
    kQ4gswGemmSiluMulF16PackedWGSL,
    "main",
    {kQ4gswGemmSiluMulF16PackedWorkgroupSizeX, kQ4gswGemmSiluMulF16PackedWorkgroupSizeY,
     kQ4gswGemmSiluMulF16PackedWorkgroupSizeZ},
    kQ4gswGemmSiluMulF16PackedBindings,
    kQ4gswGemmSiluMulF16PackedBindingCount};
const KernelSource kQ4gswGemmSiluMulKernel{
    "q4gsw_gemm_silu_mul",
    kQ4gswGemmSiluMulWGSL,
    "main",
    {kQ4gswGemmSiluMulWorkgroupSizeX, kQ4gswGemmSiluMulWorkgroupSizeY,
     kQ4gswGemmSiluMulWorkgroupSizeZ},
    kQ4gswGemmSiluMulBindings,
    kQ4gswGemmSiluMulBindingCount};
// Dispatch 0's kernels, in route order.
const KernelSource* const kDispatch0Kernels[] = {
    &kQ4gswGemvSiluMulSubgroupF16Kernel, &kQ4gswGemvSiluMulSubgroupF16PackedKernel,
    &kQ4gswGemvSiluMulF16Kernel,         &kQ4gswGemvSiluMulF16PackedKernel,
    &kQ4gswGemvSiluMulSubgroupKernel,    &kQ4gswGemvSiluMulKernel};
// Dispatch 1's kernels, in route order.
const KernelSource* const kDispatch1Kernels[] = {&kQ4gswGemmF16Kernel, &kQ4gswGemmF16PackedKernel,
                                                 &kQ4gswGemmKernel};
// Dispatch 2's kernels, in route order.
const KernelSource* const kDispatch2Kernels[] = {
    &kQ4gswSplitSumF16Kernel, &kQ4gswSplitSumF16PackedKernel, &kQ4gswSplitSumKernel};
// Dispatch 3's kernels, in route order.
const KernelSource* const kDispatch3Kernels[] = {
    &kQ4gswGemmSiluMulF16Kernel, &kQ4gswGemmSiluMulF16PackedKernel, &kQ4gswGemmSiluMulKernel};

// The argument values, checked and turned into what each dispatch needs.
struct LinearQ4gswSiluMulPlan {
  std::vector<int64_t> scratch_partial;  // dims of scratch tensor partial
  LinearQ4gswSiluMulTiledGateParams params_TiledGate{};
  LinearQ4gswSiluMulTiledUpParams params_TiledUp{};
  size_t route0 = 0;
  LinearQ4gswSiluMulGemvParams params0{};
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

LinearQ4gswSiluMulPlan plan_linear_q4gsw_silu_mul(WebGPUGraph& graph,
                                                  const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 7);
  const Tensor& self = graph.get_tensor(args[0]);
  const Tensor& w_gate = graph.get_tensor(args[1]);
  const Tensor& s_gate = graph.get_tensor(args[2]);
  const Tensor& w_up = graph.get_tensor(args[3]);
  const Tensor& s_up = graph.get_tensor(args[4]);
  const int64_t group_size = utils::read_int(graph, args[5], kOp, "group_size", false);
  const Tensor& out = graph.get_tensor(args[6]);
  utils::check_dtype(kOp, "self", self, {DType::Float32, DType::Float16});
  utils::check_rank(kOp, "self", self, 1, 8);
  utils::check_dtype(kOp, "w_gate", w_gate, {DType::UInt8});
  utils::check_rank(kOp, "w_gate", w_gate, 2, 2);
  utils::check_dtype(kOp, "s_gate", s_gate, {DType::Float32, DType::Float16});
  utils::check_rank(kOp, "s_gate", s_gate, 2, 2);
  utils::check_dtype(kOp, "w_up", w_up, {DType::UInt8});
  utils::check_rank(kOp, "w_up", w_up, 2, 2);
  utils::check_dtype(kOp, "s_up", s_up, {DType::Float32, DType::Float16});
  utils::check_rank(kOp, "s_up", s_up, 2, 2);
  utils::check_dtype(kOp, "out", out, {DType::Float32, DType::Float16});
  const int64_t K = utils::let(kOp, "K = self.dims[-1]", [&]() -> int64_t { return self.dim(-1); });
  const int64_t M = utils::let(kOp, "M = self.numel // max(K, 1)", [&]() -> int64_t {
    return utils::floordiv(self.numel(), utils::max_of(K, 1));
  });
  const int64_t N =
      utils::let(kOp, "N = w_gate.dims[0]", [&]() -> int64_t { return w_gate.dim(0); });
  const bool gemv = utils::let(kOp, "gemv = M == 1 and K % 32 == 0",
                               [&]() -> bool { return (M == 1) && (utils::floormod(K, 32) == 0); });
  const int64_t split_gate = utils::let(
      kOp,
      "split_gate = (min(ceil_div(528, ceil_div(M, 64) * ceil_div(N, 128)), max(1, K // 256)) if "
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
  const int64_t k_chunk_gate =
      utils::let(kOp, "k_chunk_gate = ceil_div(ceil_div(K, 8), split_gate) * 8", [&]() -> int64_t {
        return utils::mul(utils::ceil_div(utils::ceil_div(K, 8), split_gate), 8);
      });
  const int64_t partial_rows_gate = utils::let(
      kOp,
      "partial_rows_gate = max([min((t + 1) * 64, M) * (min(ceil_div(528, (t + 1) * ceil_div(N, "
      "128)), max(1, K // 256)) if (t + 1) * ceil_div(N, 128) < 264 else 1) if (min(ceil_div(528, "
      "(t + 1) * ceil_div(N, 128)), max(1, K // 256)) if (t + 1) * ceil_div(N, 128) < 264 else 1) "
      "> 1 else 0 for t in range(ceil_div(M, 64))] + [0])",
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
  if ((group_size <= 0) || (utils::floormod(group_size, 8) != 0) ||
      (utils::floormod(K, group_size) != 0)) {
    utils::fail(kOp, "group_size", "does not split K into groups of whole packed words",
                utils::format_value(group_size),
                "a multiple of 8 dividing " + utils::format_value(K));
  }
  if (w_up.dim(0) != N) {
    utils::fail(kOp, "w_up", "does not have the gate weights' rows",
                utils::format_value(w_up.dim(0)), utils::format_value(N));
  }
  if (utils::mul(w_gate.dim(1), 2) != utils::mul(utils::ceil_div(K, 8), 8)) {
    utils::fail(kOp, "w_gate",
                "does not hold the input's K values (padded to 8) per row, two per byte",
                utils::format_value(w_gate.dims()),
                "[N, " + utils::format_value(utils::mul(utils::ceil_div(K, 8), 4)) + "]");
  }
  if (s_gate.dims() != std::vector<int64_t>{utils::floordiv(K, group_size), N}) {
    utils::fail(kOp, "s_gate", "does not hold one scale per group and output feature",
                utils::format_value(s_gate.dims()),
                "[" + utils::format_value(utils::floordiv(K, group_size)) + ", " +
                    utils::format_value(N) + "]");
  }
  if (utils::mul(w_up.dim(1), 2) != utils::mul(utils::ceil_div(K, 8), 8)) {
    utils::fail(kOp, "w_up",
                "does not hold the input's K values (padded to 8) per row, two per byte",
                utils::format_value(w_up.dims()),
                "[N, " + utils::format_value(utils::mul(utils::ceil_div(K, 8), 4)) + "]");
  }
  if (s_up.dims() != std::vector<int64_t>{utils::floordiv(K, group_size), N}) {
    utils::fail(kOp, "s_up", "does not hold one scale per group and output feature",
                utils::format_value(s_up.dims()),
                "[" + utils::format_value(utils::floordiv(K, group_size)) + ", " +
                    utils::format_value(N) + "]");
  }
  if ((s_gate.dtype != self.dtype) || (s_up.dtype != self.dtype) || (out.dtype != self.dtype)) {
    utils::fail(kOp, "self", "does not share its dtype with s_gate, s_up and out",
                utils::format_value(self.dtype), "the dtype of s_gate, s_up and out");
  }
  utils::check_output_dims(
      kOp, "out", out, utils::concat(utils::slice(self.dims(), 0, -1), std::vector<int64_t>{N}));
  Tensor partial;  // scratch, allocated by add_linear_q4gsw_silu_mul
  partial.dtype = DType::Float32;
  partial.max_dims =
      std::vector<int64_t>{utils::max_of(std::vector<int64_t>{utils::mul(partial_rows_gate, N)})};
  partial.live_dims = partial.max_dims;

  LinearQ4gswSiluMulPlan plan;
  plan.scratch_partial = partial.dims();
  plan.params_TiledGate.M = utils::to_u32(M, kOp, "M");
  plan.params_TiledGate.N = utils::to_u32(N, kOp, "N");
  plan.params_TiledGate.K = utils::to_u32(K, kOp, "K");
  plan.params_TiledGate.row_words =
      utils::to_u32(utils::floordiv(w_gate.dim(1), 4), kOp, "row_words");
  plan.params_TiledGate.group_size = utils::to_u32(group_size, kOp, "group_size");
  plan.params_TiledGate.has_bias = utils::to_u32(0, kOp, "has_bias");
  plan.params_TiledGate.batch = utils::to_u32(1, kOp, "batch");
  plan.params_TiledGate.split = utils::to_u32(split_gate, kOp, "split");
  plan.params_TiledGate.k_chunk = utils::to_u32(k_chunk_gate, kOp, "k_chunk");
  plan.params_TiledUp.M = utils::to_u32(M, kOp, "M");
  plan.params_TiledUp.N = utils::to_u32(N, kOp, "N");
  plan.params_TiledUp.K = utils::to_u32(K, kOp, "K");
  plan.params_TiledUp.row_words = utils::to_u32(utils::floordiv(w_up.dim(1), 4), kOp, "row_words");
  plan.params_TiledUp.group_size = utils::to_u32(group_size, kOp, "group_size");
  plan.params_TiledUp.has_bias = utils::to_u32(0, kOp, "has_bias");
  plan.params_TiledUp.batch = utils::to_u32(1, kOp, "batch");
  plan.params_TiledUp.split = utils::to_u32(1, kOp, "split");
  plan.params_TiledUp.k_chunk = utils::to_u32(K, kOp, "k_chunk");
  plan.params0.K = utils::to_u32(K, kOp, "K");
  plan.params0.N = utils::to_u32(N, kOp, "N");
  plan.params0.group_size = utils::to_u32(group_size, kOp, "group_size");
  if (graph.has_feature(Feature::Subgroups) && graph.has_feature(Feature::ShaderF16) &&
      (self.dtype == DType::Float16)) {
    plan.route0 = 0;  // q4gsw_gemv_silu_mul_subgroup_f16
    plan.grid0 = utils::elementwise_grid(utils::mul(utils::ceil_div(N, 16), 256),
                                         kQ4gswGemvSiluMulSubgroupF16Kernel.workgroup_size[0],
                                         graph.limits().max_workgroups_per_dimension);
  } else if (graph.has_feature(Feature::Subgroups) && (self.dtype == DType::Float16)) {
    plan.route0 = 1;  // q4gsw_gemv_silu_mul_subgroup_f16_packed
    plan.grid0 = utils::elementwise_grid(utils::mul(utils::ceil_div(N, 16), 256),
                                         kQ4gswGemvSiluMulSubgroupF16PackedKernel.workgroup_size[0],
                                         graph.limits().max_workgroups_per_dimension);
  } else if (graph.has_feature(Feature::ShaderF16) && (self.dtype == DType::Float16)) {
    plan.route0 = 2;  // q4gsw_gemv_silu_mul_f16
    plan.grid0 = utils::elementwise_grid(utils::mul(utils::ceil_div(N, 16), 256),
                                         kQ4gswGemvSiluMulF16Kernel.workgroup_size[0],
                                         graph.limits().max_workgroups_per_dimension);
  } else if (self.dtype == DType::Float16) {
    plan.route0 = 3;  // q4gsw_gemv_silu_mul_f16_packed
    plan.grid0 = utils::elementwise_grid(utils::mul(utils::ceil_div(N, 16), 256),
                                         kQ4gswGemvSiluMulF16PackedKernel.workgroup_size[0],
                                         graph.limits().max_workgroups_per_dimension);
  } else if (graph.has_feature(Feature::Subgroups)) {
    plan.route0 = 4;  // q4gsw_gemv_silu_mul_subgroup
    plan.grid0 = utils::elementwise_grid(utils::mul(utils::ceil_div(N, 16), 256),
                                         kQ4gswGemvSiluMulSubgroupKernel.workgroup_size[0],
                                         graph.limits().max_workgroups_per_dimension);
  } else {
    plan.route0 = 5;  // q4gsw_gemv_silu_mul
    plan.grid0 = utils::elementwise_grid(utils::mul(utils::ceil_div(N, 16), 256),
                                         kQ4gswGemvSiluMulKernel.workgroup_size[0],
                                         graph.limits().max_workgroups_per_dimension);
  }
  plan.active0 = gemv;
  if (graph.has_feature(Feature::ShaderF16) && (self.dtype == DType::Float16)) {
    plan.route1 = 0;  // q4gsw_gemm_f16
    plan.grid1 =
        utils::tiles_grid(N, M, split_gate, 128, 64, graph.limits().max_workgroups_per_dimension);
  } else if (self.dtype == DType::Float16) {
    plan.route1 = 1;  // q4gsw_gemm_f16_packed
    plan.grid1 =
        utils::tiles_grid(N, M, split_gate, 128, 64, graph.limits().max_workgroups_per_dimension);
  } else {
    plan.route1 = 2;  // q4gsw_gemm
    plan.grid1 =
        utils::tiles_grid(N, M, split_gate, 128, 64, graph.limits().max_workgroups_per_dimension);
  }
  plan.active1 = !gemv;
  if (graph.has_feature(Feature::ShaderF16) && (self.dtype == DType::Float16)) {
    plan.route2 = 0;  // q4gsw_split_sum_f16
    plan.grid2 =
        utils::elementwise_grid(utils::mul(M, N), kQ4gswSplitSumF16Kernel.workgroup_size[0],
                                graph.limits().max_workgroups_per_dimension);
  } else if (self.dtype == DType::Float16) {
    plan.route2 = 1;  // q4gsw_split_sum_f16_packed
    plan.grid2 =
        utils::elementwise_grid(utils::mul(M, N), kQ4gswSplitSumF16PackedKernel.workgroup_size[0],
                                graph.limits().max_workgroups_per_dimension);
  } else {
    plan.route2 = 2;  // q4gsw_split_sum
    plan.grid2 = utils::elementwise_grid(utils::mul(M, N), kQ4gswSplitSumKernel.workgroup_size[0],
                                         graph.limits().max_workgroups_per_dimension);
  }
  plan.active2 = !gemv && (split_gate > 1);
  if (graph.has_feature(Feature::ShaderF16) && (self.dtype == DType::Float16)) {
    plan.route3 = 0;  // q4gsw_gemm_silu_mul_f16
    plan.grid3 = utils::tiles_grid(N, M, 1, 128, 64, graph.limits().max_workgroups_per_dimension);
  } else if (self.dtype == DType::Float16) {
    plan.route3 = 1;  // q4gsw_gemm_silu_mul_f16_packed
    plan.grid3 = utils::tiles_grid(N, M, 1, 128, 64, graph.limits().max_workgroups_per_dimension);
  } else {
    plan.route3 = 2;  // q4gsw_gemm_silu_mul
    plan.grid3 = utils::tiles_grid(N, M, 1, 128, 64, graph.limits().max_workgroups_per_dimension);
  }
  plan.active3 = !gemv;
  return plan;
}

// Gives the outputs the shape the op's formula computes from the live inputs.
void resize_linear_q4gsw_silu_mul_outputs(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const Tensor& self = graph.get_tensor(args[0]);
  const Tensor& w_gate = graph.get_tensor(args[1]);
  Tensor& out = graph.get_tensor(args[6]);
  const int64_t N =
      utils::let(kOp, "N = w_gate.dims[0]", [&]() -> int64_t { return w_gate.dim(0); });
  utils::resize_output(kOp, "out", out,
                       utils::concat(utils::slice(self.dims(), 0, -1), std::vector<int64_t>{N}));
}

void add_linear_q4gsw_silu_mul(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const LinearQ4gswSiluMulPlan built = plan_linear_q4gsw_silu_mul(graph, args);
  // Scratch tensor partial: in the graph's buffer shared by every op's partial, written and read by
  // this op's dispatches only.
  const ValueRef scratch_partial =
      graph.add_shared_tensor("partial", DType::Float32, built.scratch_partial);
  const DispatchId dispatch0 = graph.add_dispatch(
      *kDispatch0Kernels[built.route0], built.overrides0,
      {Binding::params(), Binding::of(args[0]), Binding::of(args[1]), Binding::of(args[2]),
       Binding::of(args[3]), Binding::of(args[4]), Binding::of(args[6])},
      &built.params0, sizeof(built.params0), built.grid0);
  graph.set_dispatch_active(dispatch0, built.active0);
  const DispatchId dispatch1 = graph.add_dispatch(
      *kDispatch1Kernels[built.route1], built.overrides1,
      {Binding::params(), Binding::of(args[0]), Binding::of(args[1]), Binding::of(args[2]),
       Binding::of(args[2]), Binding::of(args[6]), Binding::of(scratch_partial)},
      &built.params_TiledGate, sizeof(built.params_TiledGate), built.grid1);
  graph.set_dispatch_active(dispatch1, built.active1);
  const DispatchId dispatch2 = graph.add_dispatch(
      *kDispatch2Kernels[built.route2], built.overrides2,
      {Binding::params(), Binding::of(scratch_partial), Binding::of(args[2]), Binding::of(args[6])},
      &built.params_TiledGate, sizeof(built.params_TiledGate), built.grid2);
  graph.set_dispatch_active(dispatch2, built.active2);
  const DispatchId dispatch3 = graph.add_dispatch(
      *kDispatch3Kernels[built.route3], built.overrides3,
      {Binding::params(), Binding::of(args[0]), Binding::of(args[3]), Binding::of(args[4]),
       Binding::of(args[4]), Binding::of(args[6]), Binding::of(scratch_partial)},
      &built.params_TiledUp, sizeof(built.params_TiledUp), built.grid3);
  graph.set_dispatch_active(dispatch3, built.active3);
  graph.add_resize_hook([args, built, scratch_partial, dispatch0, dispatch1, dispatch2,
                         dispatch3](WebGPUGraph& graph) {
    resize_linear_q4gsw_silu_mul_outputs(graph, args);
    const LinearQ4gswSiluMulPlan plan = plan_linear_q4gsw_silu_mul(graph, args);
    graph.resize_tensor(scratch_partial, plan.scratch_partial);
    if (plan.route0 != built.route0) {
      utils::fail(kOp, "inputs", "were resized into a different kernel route",
                  kDispatch0Kernels[plan.route0]->name, kDispatch0Kernels[built.route0]->name);
    }
    graph.set_dispatch_active(dispatch0, plan.active0);
    graph.update_dispatch(dispatch0, &plan.params0, sizeof(plan.params0), plan.grid0);
    if (plan.route1 != built.route1) {
      utils::fail(kOp, "inputs", "were resized into a different kernel route",
                  kDispatch1Kernels[plan.route1]->name, kDispatch1Kernels[built.route1]->name);
    }
    graph.set_dispatch_active(dispatch1, plan.active1);
    graph.update_dispatch(dispatch1, &plan.params_TiledGate, sizeof(plan.params_TiledGate),
                          plan.grid1);
    if (plan.route2 != built.route2) {
      utils::fail(kOp, "inputs", "were resized into a different kernel route",
                  kDispatch2Kernels[plan.route2]->name, kDispatch2Kernels[built.route2]->name);
    }
    graph.set_dispatch_active(dispatch2, plan.active2);
    graph.update_dispatch(dispatch2, &plan.params_TiledGate, sizeof(plan.params_TiledGate),
                          plan.grid2);
    if (plan.route3 != built.route3) {
      utils::fail(kOp, "inputs", "were resized into a different kernel route",
                  kDispatch3Kernels[plan.route3]->name, kDispatch3Kernels[built.route3]->name);
    }
    graph.set_dispatch_active(dispatch3, plan.active3);
    graph.update_dispatch(dispatch3, &plan.params_TiledUp, sizeof(plan.params_TiledUp), plan.grid3);
  });
}

}  // namespace
}  // namespace webgpu_delegate

WEBGPU_REGISTER_OP(webgpu.linear_q4gsw_silu_mul.default, webgpu_delegate::add_linear_q4gsw_silu_mul,
                   None);
