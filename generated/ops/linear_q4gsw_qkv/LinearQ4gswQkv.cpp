// @generated from codegen/specs/linear_q4gsw_qkv/linear_q4gsw_qkv.py - DO NOT EDIT.
// Op linear_q4gsw_qkv: webgpu.linear_q4gsw_qkv.default

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ops/linear_q4gsw/q4gsw_gemm_f16_packed_wgsl.h"
#include "ops/linear_q4gsw/q4gsw_gemm_f16_wgsl.h"
#include "ops/linear_q4gsw/q4gsw_gemm_wgsl.h"
#include "ops/linear_q4gsw/q4gsw_split_sum_f16_packed_wgsl.h"
#include "ops/linear_q4gsw/q4gsw_split_sum_f16_wgsl.h"
#include "ops/linear_q4gsw/q4gsw_split_sum_wgsl.h"
#include "ops/linear_q4gsw_qkv/q4gsw_gemv_qkv_f16_packed_wgsl.h"
#include "ops/linear_q4gsw_qkv/q4gsw_gemv_qkv_f16_wgsl.h"
#include "ops/linear_q4gsw_qkv/q4gsw_gemv_qkv_subgroup_f16_packed_wgsl.h"
#include "ops/linear_q4gsw_qkv/q4gsw_gemv_qkv_subgroup_f16_wgsl.h"
#include "ops/linear_q4gsw_qkv/q4gsw_gemv_qkv_subgroup_wgsl.h"
#include "ops/linear_q4gsw_qkv/q4gsw_gemv_qkv_wgsl.h"
#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "linear_q4gsw_qkv";

struct LinearQ4gswQkvTiledQParams {
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
static_assert(offsetof(LinearQ4gswQkvTiledQParams, M) == 0,
              "LinearQ4gswQkvTiledQParams.M must sit at WGSL offset 0");
static_assert(offsetof(LinearQ4gswQkvTiledQParams, N) == 4,
              "LinearQ4gswQkvTiledQParams.N must sit at WGSL offset 4");
static_assert(offsetof(LinearQ4gswQkvTiledQParams, K) == 8,
              "LinearQ4gswQkvTiledQParams.K must sit at WGSL offset 8");
static_assert(offsetof(LinearQ4gswQkvTiledQParams, row_words) == 12,
              "LinearQ4gswQkvTiledQParams.row_words must sit at WGSL offset 12");
static_assert(offsetof(LinearQ4gswQkvTiledQParams, group_size) == 16,
              "LinearQ4gswQkvTiledQParams.group_size must sit at WGSL offset 16");
static_assert(offsetof(LinearQ4gswQkvTiledQParams, has_bias) == 20,
              "LinearQ4gswQkvTiledQParams.has_bias must sit at WGSL offset 20");
static_assert(offsetof(LinearQ4gswQkvTiledQParams, batch) == 24,
              "LinearQ4gswQkvTiledQParams.batch must sit at WGSL offset 24");
static_assert(offsetof(LinearQ4gswQkvTiledQParams, split) == 28,
              "LinearQ4gswQkvTiledQParams.split must sit at WGSL offset 28");
static_assert(offsetof(LinearQ4gswQkvTiledQParams, k_chunk) == 32,
              "LinearQ4gswQkvTiledQParams.k_chunk must sit at WGSL offset 32");
static_assert(sizeof(LinearQ4gswQkvTiledQParams) == 48,
              "LinearQ4gswQkvTiledQParams must match the WGSL struct size 48");

struct LinearQ4gswQkvTiledKParams {
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
static_assert(offsetof(LinearQ4gswQkvTiledKParams, M) == 0,
              "LinearQ4gswQkvTiledKParams.M must sit at WGSL offset 0");
static_assert(offsetof(LinearQ4gswQkvTiledKParams, N) == 4,
              "LinearQ4gswQkvTiledKParams.N must sit at WGSL offset 4");
static_assert(offsetof(LinearQ4gswQkvTiledKParams, K) == 8,
              "LinearQ4gswQkvTiledKParams.K must sit at WGSL offset 8");
static_assert(offsetof(LinearQ4gswQkvTiledKParams, row_words) == 12,
              "LinearQ4gswQkvTiledKParams.row_words must sit at WGSL offset 12");
static_assert(offsetof(LinearQ4gswQkvTiledKParams, group_size) == 16,
              "LinearQ4gswQkvTiledKParams.group_size must sit at WGSL offset 16");
static_assert(offsetof(LinearQ4gswQkvTiledKParams, has_bias) == 20,
              "LinearQ4gswQkvTiledKParams.has_bias must sit at WGSL offset 20");
static_assert(offsetof(LinearQ4gswQkvTiledKParams, batch) == 24,
              "LinearQ4gswQkvTiledKParams.batch must sit at WGSL offset 24");
static_assert(offsetof(LinearQ4gswQkvTiledKParams, split) == 28,
              "LinearQ4gswQkvTiledKParams.split must sit at WGSL offset 28");
static_assert(offsetof(LinearQ4gswQkvTiledKParams, k_chunk) == 32,
              "LinearQ4gswQkvTiledKParams.k_chunk must sit at WGSL offset 32");
static_assert(sizeof(LinearQ4gswQkvTiledKParams) == 48,
              "LinearQ4gswQkvTiledKParams must match the WGSL struct size 48");

struct LinearQ4gswQkvTiledVParams {
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
static_assert(offsetof(LinearQ4gswQkvTiledVParams, M) == 0,
              "LinearQ4gswQkvTiledVParams.M must sit at WGSL offset 0");
static_assert(offsetof(LinearQ4gswQkvTiledVParams, N) == 4,
              "LinearQ4gswQkvTiledVParams.N must sit at WGSL offset 4");
static_assert(offsetof(LinearQ4gswQkvTiledVParams, K) == 8,
              "LinearQ4gswQkvTiledVParams.K must sit at WGSL offset 8");
static_assert(offsetof(LinearQ4gswQkvTiledVParams, row_words) == 12,
              "LinearQ4gswQkvTiledVParams.row_words must sit at WGSL offset 12");
static_assert(offsetof(LinearQ4gswQkvTiledVParams, group_size) == 16,
              "LinearQ4gswQkvTiledVParams.group_size must sit at WGSL offset 16");
static_assert(offsetof(LinearQ4gswQkvTiledVParams, has_bias) == 20,
              "LinearQ4gswQkvTiledVParams.has_bias must sit at WGSL offset 20");
static_assert(offsetof(LinearQ4gswQkvTiledVParams, batch) == 24,
              "LinearQ4gswQkvTiledVParams.batch must sit at WGSL offset 24");
static_assert(offsetof(LinearQ4gswQkvTiledVParams, split) == 28,
              "LinearQ4gswQkvTiledVParams.split must sit at WGSL offset 28");
static_assert(offsetof(LinearQ4gswQkvTiledVParams, k_chunk) == 32,
              "LinearQ4gswQkvTiledVParams.k_chunk must sit at WGSL offset 32");
static_assert(sizeof(LinearQ4gswQkvTiledVParams) == 48,
              "LinearQ4gswQkvTiledVParams must match the WGSL struct size 48");

struct LinearQ4gswQkvGemvParams {
  uint32_t K;
  uint32_t N_q;
  uint32_t N_k;
  uint32_t N_v;
  uint32_t group_size;
  uint32_t _pad0[3];
};
static_assert(offsetof(LinearQ4gswQkvGemvParams, K) == 0,
              "LinearQ4gswQkvGemvParams.K must sit at WGSL offset 0");
static_assert(offsetof(LinearQ4gswQkvGemvParams, N_q) == 4,
              "LinearQ4gswQkvGemvParams.N_q must sit at WGSL offset 4");
static_assert(offsetof(LinearQ4gswQkvGemvParams, N_k) == 8,
              "LinearQ4gswQkvGemvParams.N_k must sit at WGSL offset 8");
static_assert(offsetof(LinearQ4gswQkvGemvParams, N_v) == 12,
              "LinearQ4gswQkvGemvParams.N_v must sit at WGSL offset 12");
static_assert(offsetof(LinearQ4gswQkvGemvParams, group_size) == 16,
              "LinearQ4gswQkvGemvParams.group_size must sit at WGSL offset 16");
static_assert(sizeof(LinearQ4gswQkvGemvParams) == 32,
              "LinearQ4gswQkvGemvParams must match the WGSL struct size 32");

const KernelSource kQ4gswGemvQkvSubgroupF16Kernel{
    "q4gsw_gemv_qkv_subgroup_f16",
    kQ4gswGemvQkvSubgroupF16WGSL,
    "main",
    {kQ4gswGemvQkvSubgroupF16WorkgroupSizeX, kQ4gswGemvQkvSubgroupF16WorkgroupSizeY,
     kQ4gswGemvQkvSubgroupF16WorkgroupSizeZ},
    kQ4gswGemvQkvSubgroupF16Bindings,
    kQ4gswGemvQkvSubgroupF16BindingCount,
    kQ4gswGemvQkvSubgroupF16Features,
    kQ4gswGemvQkvSubgroupF16RuntimeChecks};
const KernelSource kQ4gswGemvQkvSubgroupF16PackedKernel{
    "q4gsw_gemv_qkv_subgroup_f16_packed",
    kQ4gswGemvQkvSubgroupF16PackedWGSL,
    "main",
    {kQ4gswGemvQkvSubgroupF16PackedWorkgroupSizeX, kQ4gswGemvQkvSubgroupF16PackedWorkgroupSizeY,
     kQ4gswGemvQkvSubgroupF16PackedWorkgroupSizeZ},
    kQ4gswGemvQkvSubgroupF16PackedBindings,
    kQ4gswGemvQkvSubgroupF16PackedBindingCount,
    kQ4gswGemvQkvSubgroupF16PackedFeatures,
    kQ4gswGemvQkvSubgroupF16PackedRuntimeChecks};
const KernelSource kQ4gswGemvQkvF16Kernel{
    "q4gsw_gemv_qkv_f16",
    kQ4gswGemvQkvF16WGSL,
    "main",
    {kQ4gswGemvQkvF16WorkgroupSizeX, kQ4gswGemvQkvF16WorkgroupSizeY,
     kQ4gswGemvQkvF16WorkgroupSizeZ},
    kQ4gswGemvQkvF16Bindings,
    kQ4gswGemvQkvF16BindingCount,
    kQ4gswGemvQkvF16Features,
    kQ4gswGemvQkvF16RuntimeChecks};
const KernelSource kQ4gswGemvQkvF16PackedKernel{
    "q4gsw_gemv_qkv_f16_packed",
    kQ4gswGemvQkvF16PackedWGSL,
    "main",
    {kQ4gswGemvQkvF16PackedWorkgroupSizeX, kQ4gswGemvQkvF16PackedWorkgroupSizeY,
     kQ4gswGemvQkvF16PackedWorkgroupSizeZ},
    kQ4gswGemvQkvF16PackedBindings,
    kQ4gswGemvQkvF16PackedBindingCount,
    "",
    kQ4gswGemvQkvF16PackedRuntimeChecks};
const KernelSource kQ4gswGemvQkvSubgroupKernel{
    "q4gsw_gemv_qkv_subgroup",
    kQ4gswGemvQkvSubgroupWGSL,
    "main",
    {kQ4gswGemvQkvSubgroupWorkgroupSizeX, kQ4gswGemvQkvSubgroupWorkgroupSizeY,
     kQ4gswGemvQkvSubgroupWorkgroupSizeZ},
    kQ4gswGemvQkvSubgroupBindings,
    kQ4gswGemvQkvSubgroupBindingCount,
    kQ4gswGemvQkvSubgroupFeatures,
    kQ4gswGemvQkvSubgroupRuntimeChecks};
const KernelSource kQ4gswGemvQkvKernel{
    "q4gsw_gemv_qkv",
    kQ4gswGemvQkvWGSL,
    "main",
    {kQ4gswGemvQkvWorkgroupSizeX, kQ4gswGemvQkvWorkgroupSizeY, kQ4gswGemvQkvWorkgroupSizeZ},
    kQ4gswGemvQkvBindings,
    kQ4gswGemvQkvBindingCount,
    "",
    kQ4gswGemvQkvRuntimeChecks};
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
// Dispatch 0's kernels, in route order.
const KernelSource* const kDispatch0Kernels[] = {
    &kQ4gswGemvQkvSubgroupF16Kernel, &kQ4gswGemvQkvSubgroupF16PackedKernel, &kQ4gswGemvQkvF16Kernel,
    &kQ4gswGemvQkvF16PackedKernel,   &kQ4gswGemvQkvSubgroupKernel,          &kQ4gswGemvQkvKernel};
// Dispatch 1's kernels, in route order.
const KernelSource* const kDispatch1Kernels[] = {&kQ4gswGemmF16Kernel, &kQ4gswGemmF16PackedKernel,
                                                 &kQ4gswGemmKernel};
// Dispatch 2's kernels, in route order.
const KernelSource* const kDispatch2Kernels[] = {
    &kQ4gswSplitSumF16Kernel, &kQ4gswSplitSumF16PackedKernel, &kQ4gswSplitSumKernel};
// Dispatch 3's kernels, in route order.
const KernelSource* const kDispatch3Kernels[] = {&kQ4gswGemmF16Kernel, &kQ4gswGemmF16PackedKernel,
                                                 &kQ4gswGemmKernel};
// Dispatch 4's kernels, in route order.
const KernelSource* const kDispatch4Kernels[] = {
    &kQ4gswSplitSumF16Kernel, &kQ4gswSplitSumF16PackedKernel, &kQ4gswSplitSumKernel};
// Dispatch 5's kernels, in route order.
const KernelSource* const kDispatch5Kernels[] = {&kQ4gswGemmF16Kernel, &kQ4gswGemmF16PackedKernel,
                                                 &kQ4gswGemmKernel};
// Dispatch 6's kernels, in route order.
const KernelSource* const kDispatch6Kernels[] = {
    &kQ4gswSplitSumF16Kernel, &kQ4gswSplitSumF16PackedKernel, &kQ4gswSplitSumKernel};

// The argument values, checked and turned into what each dispatch needs.
struct LinearQ4gswQkvPlan {
  std::vector<int64_t> scratch_partial;  // dims of scratch tensor partial
  LinearQ4gswQkvTiledQParams params_TiledQ{};
  LinearQ4gswQkvTiledKParams params_TiledK{};
  LinearQ4gswQkvTiledVParams params_TiledV{};
  size_t route0 = 0;
  LinearQ4gswQkvGemvParams params0{};
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
  size_t route4 = 0;
  utils::Grid grid4;
  std::vector<OverrideValue> overrides4;
  bool active4 = true;
  size_t route5 = 0;
  utils::Grid grid5;
  std::vector<OverrideValue> overrides5;
  bool active5 = true;
  size_t route6 = 0;
  utils::Grid grid6;
  std::vector<OverrideValue> overrides6;
  bool active6 = true;
};

LinearQ4gswQkvPlan plan_linear_q4gsw_qkv(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 9);
  const Tensor& self = graph.get_tensor(args[0]);
  const Tensor& w_q = graph.get_tensor(args[1]);
  const Tensor& s_q = graph.get_tensor(args[2]);
  const Tensor& w_k = graph.get_tensor(args[3]);
  const Tensor& s_k = graph.get_tensor(args[4]);
  const Tensor& w_v = graph.get_tensor(args[5]);
  const Tensor& s_v = graph.get_tensor(args[6]);
  const int64_t group_size = utils::read_int(graph, args[7], kOp, "group_size", false);
  const std::vector<ValueRef>& out = graph.get_value_list(args[8]);
  const Tensor& q = graph.get_tensor(utils::at(out, 0));
  const Tensor& k = graph.get_tensor(utils::at(out, 1));
  const Tensor& v = graph.get_tensor(utils::at(out, 2));
  utils::check_dtype(kOp, "self", self, {DType::Float32, DType::Float16});
  utils::check_rank(kOp, "self", self, 1, 8);
  utils::check_dtype(kOp, "w_q", w_q, {DType::UInt8});
  utils::check_rank(kOp, "w_q", w_q, 2, 2);
  utils::check_dtype(kOp, "s_q", s_q, {DType::Float32, DType::Float16});
  utils::check_rank(kOp, "s_q", s_q, 2, 2);
  utils::check_dtype(kOp, "w_k", w_k, {DType::UInt8});
  utils::check_rank(kOp, "w_k", w_k, 2, 2);
  utils::check_dtype(kOp, "s_k", s_k, {DType::Float32, DType::Float16});
  utils::check_rank(kOp, "s_k", s_k, 2, 2);
  utils::check_dtype(kOp, "w_v", w_v, {DType::UInt8});
  utils::check_rank(kOp, "w_v", w_v, 2, 2);
  utils::check_dtype(kOp, "s_v", s_v, {DType::Float32, DType::Float16});
  utils::check_rank(kOp, "s_v", s_v, 2, 2);
  utils::check_dtype(kOp, "q", q, {DType::Float32, DType::Float16});
  utils::check_dtype(kOp, "k", k, {DType::Float32, DType::Float16});
  utils::check_dtype(kOp, "v", v, {DType::Float32, DType::Float16});
  const int64_t K = utils::let(kOp, "K = self.dims[-1]", [&]() -> int64_t { return self.dim(-1); });
  const int64_t M = utils::let(kOp, "M = self.numel // max(K, 1)", [&]() -> int64_t {
    return utils::floordiv(self.numel(), utils::max_of(K, 1));
  });
  const bool gemv = utils::let(kOp, "gemv = M == 1 and K % 32 == 0",
                               [&]() -> bool { return (M == 1) && (utils::floormod(K, 32) == 0); });
  const int64_t split_q = utils::let(
      kOp,
      "split_q = (min(ceil_div(528, ceil_div(M, 64) * ceil_div(w_q.dims[0], 128)), max(1, K // "
      "256)) if ceil_div(M, 64) * ceil_div(w_q.dims[0], 128) < 264 else 1) if not gemv else 1",
      [&]() -> int64_t {
        return !gemv ? ((utils::mul(utils::ceil_div(M, 64), utils::ceil_div(w_q.dim(0), 128)) < 264)
                            ? utils::min_of(utils::ceil_div(
                                                528, utils::mul(utils::ceil_div(M, 64),
                                                                utils::ceil_div(w_q.dim(0), 128))),
                                            utils::max_of(1, utils::floordiv(K, 256)))
                            : 1)
                     : 1;
      });
  const int64_t k_chunk_q = utils::let(
      kOp, "k_chunk_q = ceil_div(ceil_div(K, 8), split_q) * 8",
      [&]() -> int64_t { return utils::mul(utils::ceil_div(utils::ceil_div(K, 8), split_q), 8); });
  const int64_t partial_rows_q = utils::let(
      kOp,
      "partial_rows_q = max([min((t + 1) * 64, M) * (min(ceil_div(528, (t + 1) * "
      "ceil_div(w_q.dims[0], 128)), max(1, K // 256)) if (t + 1) * ceil_div(w_q.dims[0], 128) < "
      "264 else 1) if (min(ceil_div(528, (t + 1) * ceil_div(w_q.dims[0], 128)), max(1, K // 256)) "
      "if (t + 1) * ceil_div(w_q.dims[0], 128) < 264 else 1) > 1 else 0 for t in range(ceil_div(M, "
      "64))] + [0])",
      [&]() -> int64_t {
        return utils::max_of(utils::concat(
            [&]() {
              std::vector<int64_t> _values;
              for (const auto& _t : utils::range(utils::ceil_div(M, 64))) {
                _values.push_back(
                    (((utils::mul(utils::add(_t, 1), utils::ceil_div(w_q.dim(0), 128)) < 264)
                          ? utils::min_of(
                                utils::ceil_div(528, utils::mul(utils::add(_t, 1),
                                                                utils::ceil_div(w_q.dim(0), 128))),
                                utils::max_of(1, utils::floordiv(K, 256)))
                          : 1) > 1)
                        ? utils::mul(utils::min_of(utils::mul(utils::add(_t, 1), 64), M),
                                     (utils::mul(utils::add(_t, 1),
                                                 utils::ceil_div(w_q.dim(0), 128)) < 264)
                                         ? utils::min_of(utils::ceil_div(
                                                             528, utils::mul(utils::add(_t, 1),
                                                                             utils::ceil_div(
                                                                                 w_q.dim(0), 128))),
                                                         utils::max_of(1, utils::floordiv(K, 256)))
                                         : 1)
                        : 0);
              }
              return _values;
            }(),
            std::vector<int64_t>{0}));
      });
  const int64_t split_k = utils::let(
      kOp,
      "split_k = (min(ceil_div(528, ceil_div(M, 64) * ceil_div(w_k.dims[0], 128)), max(1, K // "
      "256)) if ceil_div(M, 64) * ceil_div(w_k.dims[0], 128) < 264 else 1) if not gemv else 1",
      [&]() -> int64_t {
        return !gemv ? ((utils::mul(utils::ceil_div(M, 64), utils::ceil_div(w_k.dim(0), 128)) < 264)
                            ? utils::min_of(utils::ceil_div(
                                                528, utils::mul(utils::ceil_div(M, 64),
                                                                utils::ceil_div(w_k.dim(0), 128))),
                                            utils::max_of(1, utils::floordiv(K, 256)))
                            : 1)
                     : 1;
      });
  const int64_t k_chunk_k = utils::let(
      kOp, "k_chunk_k = ceil_div(ceil_div(K, 8), split_k) * 8",
      [&]() -> int64_t { return utils::mul(utils::ceil_div(utils::ceil_div(K, 8), split_k), 8); });
  const int64_t partial_rows_k = utils::let(
      kOp,
      "partial_rows_k = max([min((t + 1) * 64, M) * (min(ceil_div(528, (t + 1) * "
      "ceil_div(w_k.dims[0], 128)), max(1, K // 256)) if (t + 1) * ceil_div(w_k.dims[0], 128) < "
      "264 else 1) if (min(ceil_div(528, (t + 1) * ceil_div(w_k.dims[0], 128)), max(1, K // 256)) "
      "if (t + 1) * ceil_div(w_k.dims[0], 128) < 264 else 1) > 1 else 0 for t in range(ceil_div(M, "
      "64))] + [0])",
      [&]() -> int64_t {
        return utils::max_of(utils::concat(
            [&]() {
              std::vector<int64_t> _values;
              for (const auto& _t : utils::range(utils::ceil_div(M, 64))) {
                _values.push_back(
                    (((utils::mul(utils::add(_t, 1), utils::ceil_div(w_k.dim(0), 128)) < 264)
                          ? utils::min_of(
                                utils::ceil_div(528, utils::mul(utils::add(_t, 1),
                                                                utils::ceil_div(w_k.dim(0), 128))),
                                utils::max_of(1, utils::floordiv(K, 256)))
                          : 1) > 1)
                        ? utils::mul(utils::min_of(utils::mul(utils::add(_t, 1), 64), M),
                                     (utils::mul(utils::add(_t, 1),
                                                 utils::ceil_div(w_k.dim(0), 128)) < 264)
                                         ? utils::min_of(utils::ceil_div(
                                                             528, utils::mul(utils::add(_t, 1),
                                                                             utils::ceil_div(
                                                                                 w_k.dim(0), 128))),
                                                         utils::max_of(1, utils::floordiv(K, 256)))
                                         : 1)
                        : 0);
              }
              return _values;
            }(),
            std::vector<int64_t>{0}));
      });
  const int64_t split_v = utils::let(
      kOp,
      "split_v = (min(ceil_div(528, ceil_div(M, 64) * ceil_div(w_v.dims[0], 128)), max(1, K // "
      "256)) if ceil_div(M, 64) * ceil_div(w_v.dims[0], 128) < 264 else 1) if not gemv else 1",
      [&]() -> int64_t {
        return !gemv ? ((utils::mul(utils::ceil_div(M, 64), utils::ceil_div(w_v.dim(0), 128)) < 264)
                            ? utils::min_of(utils::ceil_div(
                                                528, utils::mul(utils::ceil_div(M, 64),
                                                                utils::ceil_div(w_v.dim(0), 128))),
                                            utils::max_of(1, utils::floordiv(K, 256)))
                            : 1)
                     : 1;
      });
  const int64_t k_chunk_v = utils::let(
      kOp, "k_chunk_v = ceil_div(ceil_div(K, 8), split_v) * 8",
      [&]() -> int64_t { return utils::mul(utils::ceil_div(utils::ceil_div(K, 8), split_v), 8); });
  const int64_t partial_rows_v = utils::let(
      kOp,
      "partial_rows_v = max([min((t + 1) * 64, M) * (min(ceil_div(528, (t + 1) * "
      "ceil_div(w_v.dims[0], 128)), max(1, K // 256)) if (t + 1) * ceil_div(w_v.dims[0], 128) < "
      "264 else 1) if (min(ceil_div(528, (t + 1) * ceil_div(w_v.dims[0], 128)), max(1, K // 256)) "
      "if (t + 1) * ceil_div(w_v.dims[0], 128) < 264 else 1) > 1 else 0 for t in range(ceil_div(M, "
      "64))] + [0])",
      [&]() -> int64_t {
        return utils::max_of(utils::concat(
            [&]() {
              std::vector<int64_t> _values;
              for (const auto& _t : utils::range(utils::ceil_div(M, 64))) {
                _values.push_back(
                    (((utils::mul(utils::add(_t, 1), utils::ceil_div(w_v.dim(0), 128)) < 264)
                          ? utils::min_of(
                                utils::ceil_div(528, utils::mul(utils::add(_t, 1),
                                                                utils::ceil_div(w_v.dim(0), 128))),
                                utils::max_of(1, utils::floordiv(K, 256)))
                          : 1) > 1)
                        ? utils::mul(utils::min_of(utils::mul(utils::add(_t, 1), 64), M),
                                     (utils::mul(utils::add(_t, 1),
                                                 utils::ceil_div(w_v.dim(0), 128)) < 264)
                                         ? utils::min_of(utils::ceil_div(
                                                             528, utils::mul(utils::add(_t, 1),
                                                                             utils::ceil_div(
                                                                                 w_v.dim(0), 128))),
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
  if (utils::mul(w_q.dim(1), 2) != utils::mul(utils::ceil_div(K, 8), 8)) {
    utils::fail(kOp, "w_q",
                "does not hold the input's K values (padded to 8) per row, two per byte",
                utils::format_value(w_q.dims()),
                "[N, " + utils::format_value(utils::mul(utils::ceil_div(K, 8), 4)) + "]");
  }
  if (s_q.dims() != std::vector<int64_t>{utils::floordiv(K, group_size), w_q.dim(0)}) {
    utils::fail(kOp, "s_q", "does not hold one scale per group and output feature",
                utils::format_value(s_q.dims()),
                "[" + utils::format_value(utils::floordiv(K, group_size)) + ", " +
                    utils::format_value(w_q.dim(0)) + "]");
  }
  if (utils::mul(w_k.dim(1), 2) != utils::mul(utils::ceil_div(K, 8), 8)) {
    utils::fail(kOp, "w_k",
                "does not hold the input's K values (padded to 8) per row, two per byte",
                utils::format_value(w_k.dims()),
                "[N, " + utils::format_value(utils::mul(utils::ceil_div(K, 8), 4)) + "]");
  }
  if (s_k.dims() != std::vector<int64_t>{utils::floordiv(K, group_size), w_k.dim(0)}) {
    utils::fail(kOp, "s_k", "does not hold one scale per group and output feature",
                utils::format_value(s_k.dims()),
                "[" + utils::format_value(utils::floordiv(K, group_size)) + ", " +
                    utils::format_value(w_k.dim(0)) + "]");
  }
  if (utils::mul(w_v.dim(1), 2) != utils::mul(utils::ceil_div(K, 8), 8)) {
    utils::fail(kOp, "w_v",
                "does not hold the input's K values (padded to 8) per row, two per byte",
                utils::format_value(w_v.dims()),
                "[N, " + utils::format_value(utils::mul(utils::ceil_div(K, 8), 4)) + "]");
  }
  if (s_v.dims() != std::vector<int64_t>{utils::floordiv(K, group_size), w_v.dim(0)}) {
    utils::fail(kOp, "s_v", "does not hold one scale per group and output feature",
                utils::format_value(s_v.dims()),
                "[" + utils::format_value(utils::floordiv(K, group_size)) + ", " +
                    utils::format_value(w_v.dim(0)) + "]");
  }
  if ((s_q.dtype != self.dtype) || (s_k.dtype != self.dtype) || (s_v.dtype != self.dtype)) {
    utils::fail(kOp, "self", "does not share its dtype with s_q, s_k and s_v",
                utils::format_value(self.dtype), "the dtype of s_q, s_k and s_v");
  }
  utils::check_output_dims(
      kOp, "q", q,
      utils::concat(utils::slice(self.dims(), 0, -1), std::vector<int64_t>{w_q.dim(0)}));
  utils::check_output_dims(
      kOp, "k", k,
      utils::concat(utils::slice(self.dims(), 0, -1), std::vector<int64_t>{w_k.dim(0)}));
  utils::check_output_dims(
      kOp, "v", v,
      utils::concat(utils::slice(self.dims(), 0, -1), std::vector<int64_t>{w_v.dim(0)}));
  Tensor partial;  // scratch, allocated by add_linear_q4gsw_qkv
  partial.dtype = DType::Float32;
  partial.max_dims = std::vector<int64_t>{utils::max_of(std::vector<int64_t>{
      utils::mul(partial_rows_q, w_q.dim(0)), utils::mul(partial_rows_k, w_k.dim(0)),
      utils::mul(partial_rows_v, w_v.dim(0))})};
  partial.live_dims = partial.max_dims;

  LinearQ4gswQkvPlan plan;
  plan.scratch_partial = partial.dims();
  plan.params_TiledQ.M = utils::to_u32(M, kOp, "M");
  plan.params_TiledQ.N = utils::to_u32(w_q.dim(0), kOp, "N");
  plan.params_TiledQ.K = utils::to_u32(K, kOp, "K");
  plan.params_TiledQ.row_words = utils::to_u32(utils::floordiv(w_q.dim(1), 4), kOp, "row_words");
  plan.params_TiledQ.group_size = utils::to_u32(group_size, kOp, "group_size");
  plan.params_TiledQ.has_bias = utils::to_u32(0, kOp, "has_bias");
  plan.params_TiledQ.batch = utils::to_u32(1, kOp, "batch");
  plan.params_TiledQ.split = utils::to_u32(split_q, kOp, "split");
  plan.params_TiledQ.k_chunk = utils::to_u32(k_chunk_q, kOp, "k_chunk");
  plan.params_TiledK.M = utils::to_u32(M, kOp, "M");
  plan.params_TiledK.N = utils::to_u32(w_k.dim(0), kOp, "N");
  plan.params_TiledK.K = utils::to_u32(K, kOp, "K");
  plan.params_TiledK.row_words = utils::to_u32(utils::floordiv(w_k.dim(1), 4), kOp, "row_words");
  plan.params_TiledK.group_size = utils::to_u32(group_size, kOp, "group_size");
  plan.params_TiledK.has_bias = utils::to_u32(0, kOp, "has_bias");
  plan.params_TiledK.batch = utils::to_u32(1, kOp, "batch");
  plan.params_TiledK.split = utils::to_u32(split_k, kOp, "split");
  plan.params_TiledK.k_chunk = utils::to_u32(k_chunk_k, kOp, "k_chunk");
  plan.params_TiledV.M = utils::to_u32(M, kOp, "M");
  plan.params_TiledV.N = utils::to_u32(w_v.dim(0), kOp, "N");
  plan.params_TiledV.K = utils::to_u32(K, kOp, "K");
  plan.params_TiledV.row_words = utils::to_u32(utils::floordiv(w_v.dim(1), 4), kOp, "row_words");
  plan.params_TiledV.group_size = utils::to_u32(group_size, kOp, "group_size");
  plan.params_TiledV.has_bias = utils::to_u32(0, kOp, "has_bias");
  plan.params_TiledV.batch = utils::to_u32(1, kOp, "batch");
  plan.params_TiledV.split = utils::to_u32(split_v, kOp, "split");
  plan.params_TiledV.k_chunk = utils::to_u32(k_chunk_v, kOp, "k_chunk");
  plan.params0.K = utils::to_u32(K, kOp, "K");
  plan.params0.N_q = utils::to_u32(w_q.dim(0), kOp, "N_q");
  plan.params0.N_k = utils::to_u32(w_k.dim(0), kOp, "N_k");
  plan.params0.N_v = utils::to_u32(w_v.dim(0), kOp, "N_v");
  plan.params0.group_size = utils::to_u32(group_size, kOp, "group_size");
  if (graph.has_feature(Feature::Subgroups) && graph.has_feature(Feature::ShaderF16) &&
      (self.dtype == DType::Float16)) {
    plan.route0 = 0;  // q4gsw_gemv_qkv_subgroup_f16
    plan.grid0 = utils::elementwise_grid(
        utils::mul(
            utils::add(utils::add(utils::ceil_div(w_q.dim(0), 16), utils::ceil_div(w_k.dim(0), 16)),
                       utils::ceil_div(w_v.dim(0), 16)),
            256),
        kQ4gswGemvQkvSubgroupF16Kernel.workgroup_size[0],
        graph.limits().max_workgroups_per_dimension);
  } else if (graph.has_feature(Feature::Subgroups) && (self.dtype == DType::Float16)) {
    plan.route0 = 1;  // q4gsw_gemv_qkv_subgroup_f16_packed
    plan.grid0 = utils::elementwise_grid(
        utils::mul(
            utils::add(utils::add(utils::ceil_div(w_q.dim(0), 16), utils::ceil_div(w_k.dim(0), 16)),
                       utils::ceil_div(w_v.dim(0), 16)),
            256),
        kQ4gswGemvQkvSubgroupF16PackedKernel.workgroup_size[0],
        graph.limits().max_workgroups_per_dimension);
  } else if (graph.has_feature(Feature::ShaderF16) && (self.dtype == DType::Float16)) {
    plan.route0 = 2;  // q4gsw_gemv_qkv_f16
    plan.grid0 = utils::elementwise_grid(
        utils::mul(
            utils::add(utils::add(utils::ceil_div(w_q.dim(0), 16), utils::ceil_div(w_k.dim(0), 16)),
                       utils::ceil_div(w_v.dim(0), 16)),
            256),
        kQ4gswGemvQkvF16Kernel.workgroup_size[0], graph.limits().max_workgroups_per_dimension);
  } else if (self.dtype == DType::Float16) {
    plan.route0 = 3;  // q4gsw_gemv_qkv_f16_packed
    plan.grid0 = utils::elementwise_grid(
        utils::mul(
            utils::add(utils::add(utils::ceil_div(w_q.dim(0), 16), utils::ceil_div(w_k.dim(0), 16)),
                       utils::ceil_div(w_v.dim(0), 16)),
            256),
        kQ4gswGemvQkvF16PackedKernel.workgroup_size[0],
        graph.limits().max_workgroups_per_dimension);
  } else if (graph.has_feature(Feature::Subgroups)) {
    plan.route0 = 4;  // q4gsw_gemv_qkv_subgroup
    plan.grid0 = utils::elementwise_grid(
        utils::mul(
            utils::add(utils::add(utils::ceil_div(w_q.dim(0), 16), utils::ceil_div(w_k.dim(0), 16)),
                       utils::ceil_div(w_v.dim(0), 16)),
            256),
        kQ4gswGemvQkvSubgroupKernel.workgroup_size[0], graph.limits().max_workgroups_per_dimension);
  } else {
    plan.route0 = 5;  // q4gsw_gemv_qkv
    plan.grid0 = utils::elementwise_grid(
        utils::mul(
            utils::add(utils::add(utils::ceil_div(w_q.dim(0), 16), utils::ceil_div(w_k.dim(0), 16)),
                       utils::ceil_div(w_v.dim(0), 16)),
            256),
        kQ4gswGemvQkvKernel.workgroup_size[0], graph.limits().max_workgroups_per_dimension);
  }
  plan.active0 = gemv;
  if (graph.has_feature(Feature::ShaderF16) && (self.dtype == DType::Float16)) {
    plan.route1 = 0;  // q4gsw_gemm_f16
    plan.grid1 = utils::tiles_grid(w_q.dim(0), M, split_q, 128, 64,
                                   graph.limits().max_workgroups_per_dimension);
  } else if (self.dtype == DType::Float16) {
    plan.route1 = 1;  // q4gsw_gemm_f16_packed
    plan.grid1 = utils::tiles_grid(w_q.dim(0), M, split_q, 128, 64,
                                   graph.limits().max_workgroups_per_dimension);
  } else {
    plan.route1 = 2;  // q4gsw_gemm
    plan.grid1 = utils::tiles_grid(w_q.dim(0), M, split_q, 128, 64,
                                   graph.limits().max_workgroups_per_dimension);
  }
  plan.active1 = !gemv;
  if (graph.has_feature(Feature::ShaderF16) && (self.dtype == DType::Float16)) {
    plan.route2 = 0;  // q4gsw_split_sum_f16
    plan.grid2 = utils::elementwise_grid(utils::mul(M, w_q.dim(0)),
                                         kQ4gswSplitSumF16Kernel.workgroup_size[0],
                                         graph.limits().max_workgroups_per_dimension);
  } else if (self.dtype == DType::Float16) {
    plan.route2 = 1;  // q4gsw_split_sum_f16_packed
    plan.grid2 = utils::elementwise_grid(utils::mul(M, w_q.dim(0)),
                                         kQ4gswSplitSumF16PackedKernel.workgroup_size[0],
                                         graph.limits().max_workgroups_per_dimension);
  } else {
    plan.route2 = 2;  // q4gsw_split_sum
    plan.grid2 =
        utils::elementwise_grid(utils::mul(M, w_q.dim(0)), kQ4gswSplitSumKernel.workgroup_size[0],
                                graph.limits().max_workgroups_per_dimension);
  }
  plan.active2 = !gemv && (split_q > 1);
  if (graph.has_feature(Feature::ShaderF16) && (self.dtype == DType::Float16)) {
    plan.route3 = 0;  // q4gsw_gemm_f16
    plan.grid3 = utils::tiles_grid(w_k.dim(0), M, split_k, 128, 64,
                                   graph.limits().max_workgroups_per_dimension);
  } else if (self.dtype == DType::Float16) {
    plan.route3 = 1;  // q4gsw_gemm_f16_packed
    plan.grid3 = utils::tiles_grid(w_k.dim(0), M, split_k, 128, 64,
                                   graph.limits().max_workgroups_per_dimension);
  } else {
    plan.route3 = 2;  // q4gsw_gemm
    plan.grid3 = utils::tiles_grid(w_k.dim(0), M, split_k, 128, 64,
                                   graph.limits().max_workgroups_per_dimension);
  }
  plan.active3 = !gemv;
  if (graph.has_feature(Feature::ShaderF16) && (self.dtype == DType::Float16)) {
    plan.route4 = 0;  // q4gsw_split_sum_f16
    plan.grid4 = utils::elementwise_grid(utils::mul(M, w_k.dim(0)),
                                         kQ4gswSplitSumF16Kernel.workgroup_size[0],
                                         graph.limits().max_workgroups_per_dimension);
  } else if (self.dtype == DType::Float16) {
    plan.route4 = 1;  // q4gsw_split_sum_f16_packed
    plan.grid4 = utils::elementwise_grid(utils::mul(M, w_k.dim(0)),
                                         kQ4gswSplitSumF16PackedKernel.workgroup_size[0],
                                         graph.limits().max_workgroups_per_dimension);
  } else {
    plan.route4 = 2;  // q4gsw_split_sum
    plan.grid4 =
        utils::elementwise_grid(utils::mul(M, w_k.dim(0)), kQ4gswSplitSumKernel.workgroup_size[0],
                                graph.limits().max_workgroups_per_dimension);
  }
  plan.active4 = !gemv && (split_k > 1);
  if (graph.has_feature(Feature::ShaderF16) && (self.dtype == DType::Float16)) {
    plan.route5 = 0;  // q4gsw_gemm_f16
    plan.grid5 = utils::tiles_grid(w_v.dim(0), M, split_v, 128, 64,
                                   graph.limits().max_workgroups_per_dimension);
  } else if (self.dtype == DType::Float16) {
    plan.route5 = 1;  // q4gsw_gemm_f16_packed
    plan.grid5 = utils::tiles_grid(w_v.dim(0), M, split_v, 128, 64,
                                   graph.limits().max_workgroups_per_dimension);
  } else {
    plan.route5 = 2;  // q4gsw_gemm
    plan.grid5 = utils::tiles_grid(w_v.dim(0), M, split_v, 128, 64,
                                   graph.limits().max_workgroups_per_dimension);
  }
  plan.active5 = !gemv;
  if (graph.has_feature(Feature::ShaderF16) && (self.dtype == DType::Float16)) {
    plan.route6 = 0;  // q4gsw_split_sum_f16
    plan.grid6 = utils::elementwise_grid(utils::mul(M, w_v.dim(0)),
                                         kQ4gswSplitSumF16Kernel.workgroup_size[0],
                                         graph.limits().max_workgroups_per_dimension);
  } else if (self.dtype == DType::Float16) {
    plan.route6 = 1;  // q4gsw_split_sum_f16_packed
    plan.grid6 = utils::elementwise_grid(utils::mul(M, w_v.dim(0)),
                                         kQ4gswSplitSumF16PackedKernel.workgroup_size[0],
                                         graph.limits().max_workgroups_per_dimension);
  } else {
    plan.route6 = 2;  // q4gsw_split_sum
    plan.grid6 =
        utils::elementwise_grid(utils::mul(M, w_v.dim(0)), kQ4gswSplitSumKernel.workgroup_size[0],
                                graph.limits().max_workgroups_per_dimension);
  }
  plan.active6 = !gemv && (split_v > 1);
  return plan;
}

// Gives the outputs the shape the op's formula computes from the live inputs.
void resize_linear_q4gsw_qkv_outputs(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const Tensor& self = graph.get_tensor(args[0]);
  const Tensor& w_q = graph.get_tensor(args[1]);
  const Tensor& w_k = graph.get_tensor(args[3]);
  const Tensor& w_v = graph.get_tensor(args[5]);
  const std::vector<ValueRef>& out = graph.get_value_list(args[8]);
  Tensor& q = graph.get_tensor(utils::at(out, 0));
  Tensor& k = graph.get_tensor(utils::at(out, 1));
  Tensor& v = graph.get_tensor(utils::at(out, 2));
  utils::resize_output(
      kOp, "q", q,
      utils::concat(utils::slice(self.dims(), 0, -1), std::vector<int64_t>{w_q.dim(0)}));
  utils::resize_output(
      kOp, "k", k,
      utils::concat(utils::slice(self.dims(), 0, -1), std::vector<int64_t>{w_k.dim(0)}));
  utils::resize_output(
      kOp, "v", v,
      utils::concat(utils::slice(self.dims(), 0, -1), std::vector<int64_t>{w_v.dim(0)}));
}

void add_linear_q4gsw_qkv(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const LinearQ4gswQkvPlan built = plan_linear_q4gsw_qkv(graph, args);
  // Scratch tensor partial: in the graph's buffer shared by every op's partial, written and read by
  // this op's dispatches only.
  const ValueRef scratch_partial =
      graph.add_shared_tensor("partial", DType::Float32, built.scratch_partial);
  const DispatchId dispatch0 = graph.add_dispatch(
      *kDispatch0Kernels[built.route0], built.overrides0,
      {Binding::params(), Binding::of(args[0]), Binding::of(args[1]), Binding::of(args[2]),
       Binding::of(args[3]), Binding::of(args[4]), Binding::of(args[5]), Binding::of(args[6]),
       Binding::of(graph.get_value_list(args[8])[0]), Binding::of(graph.get_value_list(args[8])[1]),
       Binding::of(graph.get_value_list(args[8])[2])},
      &built.params0, sizeof(built.params0), built.grid0);
  graph.set_dispatch_active(dispatch0, built.active0);
  const DispatchId dispatch1 = graph.add_dispatch(
      *kDispatch1Kernels[built.route1], built.overrides1,
      {Binding::params(), Binding::of(args[0]), Binding::of(args[1]), Binding::of(args[2]),
       Binding::of(args[2]), Binding::of(graph.get_value_list(args[8])[0]),
       Binding::of(scratch_partial)},
      &built.params_TiledQ, sizeof(built.params_TiledQ), built.grid1);
  graph.set_dispatch_active(dispatch1, built.active1);
  const DispatchId dispatch2 =
      graph.add_dispatch(*kDispatch2Kernels[built.route2], built.overrides2,
                         {Binding::params(), Binding::of(scratch_partial), Binding::of(args[2]),
                          Binding::of(graph.get_value_list(args[8])[0])},
                         &built.params_TiledQ, sizeof(built.params_TiledQ), built.grid2);
  graph.set_dispatch_active(dispatch2, built.active2);
  const DispatchId dispatch3 = graph.add_dispatch(
      *kDispatch3Kernels[built.route3], built.overrides3,
      {Binding::params(), Binding::of(args[0]), Binding::of(args[3]), Binding::of(args[4]),
       Binding::of(args[4]), Binding::of(graph.get_value_list(args[8])[1]),
       Binding::of(scratch_partial)},
      &built.params_TiledK, sizeof(built.params_TiledK), built.grid3);
  graph.set_dispatch_active(dispatch3, built.active3);
  const DispatchId dispatch4 =
      graph.add_dispatch(*kDispatch4Kernels[built.route4], built.overrides4,
                         {Binding::params(), Binding::of(scratch_partial), Binding::of(args[4]),
                          Binding::of(graph.get_value_list(args[8])[1])},
                         &built.params_TiledK, sizeof(built.params_TiledK), built.grid4);
  graph.set_dispatch_active(dispatch4, built.active4);
  const DispatchId dispatch5 = graph.add_dispatch(
      *kDispatch5Kernels[built.route5], built.overrides5,
      {Binding::params(), Binding::of(args[0]), Binding::of(args[5]), Binding::of(args[6]),
       Binding::of(args[6]), Binding::of(graph.get_value_list(args[8])[2]),
       Binding::of(scratch_partial)},
      &built.params_TiledV, sizeof(built.params_TiledV), built.grid5);
  graph.set_dispatch_active(dispatch5, built.active5);
  const DispatchId dispatch6 =
      graph.add_dispatch(*kDispatch6Kernels[built.route6], built.overrides6,
                         {Binding::params(), Binding::of(scratch_partial), Binding::of(args[6]),
                          Binding::of(graph.get_value_list(args[8])[2])},
                         &built.params_TiledV, sizeof(built.params_TiledV), built.grid6);
  graph.set_dispatch_active(dispatch6, built.active6);
  graph.add_resize_hook([args, built, scratch_partial, dispatch0, dispatch1, dispatch2, dispatch3,
                         dispatch4, dispatch5, dispatch6](WebGPUGraph& graph) {
    resize_linear_q4gsw_qkv_outputs(graph, args);
    const LinearQ4gswQkvPlan plan = plan_linear_q4gsw_qkv(graph, args);
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
    graph.update_dispatch(dispatch1, &plan.params_TiledQ, sizeof(plan.params_TiledQ), plan.grid1);
    if (plan.route2 != built.route2) {
      utils::fail(kOp, "inputs", "were resized into a different kernel route",
                  kDispatch2Kernels[plan.route2]->name, kDispatch2Kernels[built.route2]->name);
    }
    graph.set_dispatch_active(dispatch2, plan.active2);
    graph.update_dispatch(dispatch2, &plan.params_TiledQ, sizeof(plan.params_TiledQ), plan.grid2);
    if (plan.route3 != built.route3) {
      utils::fail(kOp, "inputs", "were resized into a different kernel route",
                  kDispatch3Kernels[plan.route3]->name, kDispatch3Kernels[built.route3]->name);
    }
    graph.set_dispatch_active(dispatch3, plan.active3);
    graph.update_dispatch(dispatch3, &plan.params_TiledK, sizeof(plan.params_TiledK), plan.grid3);
    if (plan.route4 != built.route4) {
      utils::fail(kOp, "inputs", "were resized into a different kernel route",
                  kDispatch4Kernels[plan.route4]->name, kDispatch4Kernels[built.route4]->name);
    }
    graph.set_dispatch_active(dispatch4, plan.active4);
    graph.update_dispatch(dispatch4, &plan.params_TiledK, sizeof(plan.params_TiledK), plan.grid4);
    if (plan.route5 != built.route5) {
      utils::fail(kOp, "inputs", "were resized into a different kernel route",
                  kDispatch5Kernels[plan.route5]->name, kDispatch5Kernels[built.route5]->name);
    }
    graph.set_dispatch_active(dispatch5, plan.active5);
    graph.update_dispatch(dispatch5, &plan.params_TiledV, sizeof(plan.params_TiledV), plan.grid5);
    if (plan.route6 != built.route6) {
      utils::fail(kOp, "inputs", "were resized into a different kernel route",
                  kDispatch6Kernels[plan.route6]->name, kDispatch6Kernels[built.route6]->name);
    }
    graph.set_dispatch_active(dispatch6, plan.active6);
    graph.update_dispatch(dispatch6, &plan.params_TiledV, sizeof(plan.params_TiledV), plan.grid6);
  });
}

}  // namespace
}  // namespace webgpu_delegate

WEBGPU_REGISTER_OP(webgpu.linear_q4gsw_qkv.default, webgpu_delegate::add_linear_q4gsw_qkv, None);
