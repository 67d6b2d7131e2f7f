// @generated from codegen/specs/sdpa_with_kv_cache/sdpa_with_kv_cache.py - DO NOT EDIT.
// Op sdpa_with_kv_cache: llama.sdpa_with_kv_cache.default

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ops/sdpa_with_kv_cache/kv_attend_f16_packed_wgsl.h"
#include "ops/sdpa_with_kv_cache/kv_attend_f16_wgsl.h"
#include "ops/sdpa_with_kv_cache/kv_attend_wgsl.h"
#include "ops/sdpa_with_kv_cache/kv_cache_write_f16_packed_wgsl.h"
#include "ops/sdpa_with_kv_cache/kv_cache_write_f16_wgsl.h"
#include "ops/sdpa_with_kv_cache/kv_cache_write_wgsl.h"
#include "ops/sdpa_with_kv_cache/kv_combine_f16_packed_wgsl.h"
#include "ops/sdpa_with_kv_cache/kv_combine_f16_wgsl.h"
#include "ops/sdpa_with_kv_cache/kv_combine_wgsl.h"
#include "ops/sdpa_with_kv_cache/kv_decode_f16_packed_wgsl.h"
#include "ops/sdpa_with_kv_cache/kv_decode_f16_wgsl.h"
#include "ops/sdpa_with_kv_cache/kv_decode_wgsl.h"
#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "sdpa_with_kv_cache";

struct SdpaWithKvCacheWriteParams {
  uint32_t n;
  uint32_t S;
  uint32_t Hk;
  uint32_t D;
  uint32_t S_max;
  uint32_t start_pos;
  uint32_t _pad0[2];
};
static_assert(offsetof(SdpaWithKvCacheWriteParams, n) == 0,
              "SdpaWithKvCacheWriteParams.n must sit at WGSL offset 0");
static_assert(offsetof(SdpaWithKvCacheWriteParams, S) == 4,
              "SdpaWithKvCacheWriteParams.S must sit at WGSL offset 4");
static_assert(offsetof(SdpaWithKvCacheWriteParams, Hk) == 8,
              "SdpaWithKvCacheWriteParams.Hk must sit at WGSL offset 8");
static_assert(offsetof(SdpaWithKvCacheWriteParams, D) == 12,
              "SdpaWithKvCacheWriteParams.D must sit at WGSL offset 12");
static_assert(offsetof(SdpaWithKvCacheWriteParams, S_max) == 16,
              "SdpaWithKvCacheWriteParams.S_max must sit at WGSL offset 16");
static_assert(offsetof(SdpaWithKvCacheWriteParams, start_pos) == 20,
              "SdpaWithKvCacheWriteParams.start_pos must sit at WGSL offset 20");
static_assert(sizeof(SdpaWithKvCacheWriteParams) == 32,
              "SdpaWithKvCacheWriteParams must match the WGSL struct size 32");

struct SdpaWithKvCacheAttendParams {
  uint32_t B;
  uint32_t S;
  uint32_t Hq;
  uint32_t Hk;
  uint32_t D;
  uint32_t G;
  uint32_t S_max;
  uint32_t start_pos;
  uint32_t causal;
  float scale;
  uint32_t _pad0[2];
};
static_assert(offsetof(SdpaWithKvCacheAttendParams, B) == 0,
              "SdpaWithKvCacheAttendParams.B must sit at WGSL offset 0");
static_assert(offsetof(SdpaWithKvCacheAttendParams, S) == 4,
              "SdpaWithKvCacheAttendParams.S must sit at WGSL offset 4");
static_assert(offsetof(SdpaWithKvCacheAttendParams, Hq) == 8,
              "SdpaWithKvCacheAttendParams.Hq must sit at WGSL offset 8");
static_assert(offsetof(SdpaWithKvCacheAttendParams, Hk) == 12,
              "SdpaWithKvCacheAttendParams.Hk must sit at WGSL offset 12");
static_assert(offsetof(SdpaWithKvCacheAttendParams, D) == 16,
              "SdpaWithKvCacheAttendParams.D must sit at WGSL offset 16");
static_assert(offsetof(SdpaWithKvCacheAttendParams, G) == 20,
              "SdpaWithKvCacheAttendParams.G must sit at WGSL offset 20");
static_assert(offsetof(SdpaWithKvCacheAttendParams, S_max) == 24,
              "SdpaWithKvCacheAttendParams.S_max must sit at WGSL offset 24");
static_assert(offsetof(SdpaWithKvCacheAttendParams, start_pos) == 28,
              "SdpaWithKvCacheAttendParams.start_pos must sit at WGSL offset 28");
static_assert(offsetof(SdpaWithKvCacheAttendParams, causal) == 32,
              "SdpaWithKvCacheAttendParams.causal must sit at WGSL offset 32");
static_assert(offsetof(SdpaWithKvCacheAttendParams, scale) == 36,
              "SdpaWithKvCacheAttendParams.scale must sit at WGSL offset 36");
static_assert(sizeof(SdpaWithKvCacheAttendParams) == 48,
              "SdpaWithKvCacheAttendParams must match the WGSL struct size 48");

struct SdpaWithKvCacheDecodeParams {
  uint32_t B;
  uint32_t Hq;
  uint32_t Hk;
  uint32_t D;
  uint32_t G;
  uint32_t S_max;
  uint32_t start_pos;
  uint32_t chunks;
  float scale;
  uint32_t _pad0[3];
};
static_assert(offsetof(SdpaWithKvCacheDecodeParams, B) == 0,
              "SdpaWithKvCacheDecodeParams.B must sit at WGSL offset 0");
static_assert(offsetof(SdpaWithKvCacheDecodeParams, Hq) == 4,
              "SdpaWithKvCacheDecodeParams.Hq must sit at WGSL offset 4");
static_assert(offsetof(SdpaWithKvCacheDecodeParams, Hk) == 8,
              "SdpaWithKvCacheDecodeParams.Hk must sit at WGSL offset 8");
static_assert(offsetof(SdpaWithKvCacheDecodeParams, D) == 12,
              "SdpaWithKvCacheDecodeParams.D must sit at WGSL offset 12");
static_assert(offsetof(SdpaWithKvCacheDecodeParams, G) == 16,
              "SdpaWithKvCacheDecodeParams.G must sit at WGSL offset 16");
static_assert(offsetof(SdpaWithKvCacheDecodeParams, S_max) == 20,
              "SdpaWithKvCacheDecodeParams.S_max must sit at WGSL offset 20");
static_assert(offsetof(SdpaWithKvCacheDecodeParams, start_pos) == 24,
              "SdpaWithKvCacheDecodeParams.start_pos must sit at WGSL offset 24");
static_assert(offsetof(SdpaWithKvCacheDecodeParams, chunks) == 28,
              "SdpaWithKvCacheDecodeParams.chunks must sit at WGSL offset 28");
static_assert(offsetof(SdpaWithKvCacheDecodeParams, scale) == 32,
              "SdpaWithKvCacheDecodeParams.scale must sit at WGSL offset 32");
static_assert(sizeof(SdpaWithKvCacheDecodeParams) == 48,
              "SdpaWithKvCacheDecodeParams must match the WGSL struct size 48");

struct SdpaWithKvCacheCombineParams {
  uint32_t D;
  uint32_t chunks;
  uint32_t num_elements;
  uint32_t _pad0;
};
static_assert(offsetof(SdpaWithKvCacheCombineParams, D) == 0,
              "SdpaWithKvCacheCombineParams.D must sit at WGSL offset 0");
static_assert(offsetof(SdpaWithKvCacheCombineParams, chunks) == 4,
              "SdpaWithKvCacheCombineParams.chunks must sit at WGSL offset 4");
static_assert(offsetof(SdpaWithKvCacheCombineParams, num_elements) == 8,
              "SdpaWithKvCacheCombineParams.num_elements must sit at WGSL offset 8");
static_assert(sizeof(SdpaWithKvCacheCombineParams) == 16,
              "SdpaWithKvCacheCombineParams must match the WGSL struct size 16");

const KernelSource kKvCacheWriteF16Kernel{
    "kv_cache_write_f16",
    kKvCacheWriteF16WGSL,
    "main",
    {kKvCacheWriteF16WorkgroupSizeX, kKvCacheWriteF16WorkgroupSizeY,
     kKvCacheWriteF16WorkgroupSizeZ},
    kKvCacheWriteF16Bindings,
    kKvCacheWriteF16BindingCount,
    kKvCacheWriteF16Features};
const KernelSource kKvCacheWriteF16PackedKernel{
    "kv_cache_write_f16_packed",
    kKvCacheWriteF16PackedWGSL,
    "main",
    {kKvCacheWriteF16PackedWorkgroupSizeX, kKvCacheWriteF16PackedWorkgroupSizeY,
     kKvCacheWriteF16PackedWorkgroupSizeZ},
    kKvCacheWriteF16PackedBindings,
    kKvCacheWriteF16PackedBindingCount};
const KernelSource kKvCacheWriteKernel{
    "kv_cache_write",
    kKvCacheWriteWGSL,
    "main",
    {kKvCacheWriteWorkgroupSizeX, kKvCacheWriteWorkgroupSizeY, kKvCacheWriteWorkgroupSizeZ},
    kKvCacheWriteBindings,
    kKvCacheWriteBindingCount};
const KernelSource kKvAttendF16Kernel{
    "kv_attend_f16",
    kKvAttendF16WGSL,
    "main",
    {kKvAttendF16WorkgroupSizeX, kKvAttendF16WorkgroupSizeY, kKvAttendF16WorkgroupSizeZ},
    kKvAttendF16Bindings,
    kKvAttendF16BindingCount,
    kKvAttendF16Features,
    kKvAttendF16RuntimeChecks};
const KernelSource kKvAttendF16PackedKernel{
    "kv_attend_f16_packed",
    kKvAttendF16PackedWGSL,
    "main",
    {kKvAttendF16PackedWorkgroupSizeX, kKvAttendF16PackedWorkgroupSizeY,
     kKvAttendF16PackedWorkgroupSizeZ},
    kKvAttendF16PackedBindings,
    kKvAttendF16PackedBindingCount,
    "",
    kKvAttendF16PackedRuntimeChecks};
const KernelSource kKvAttendKernel{
    "kv_attend",
    kKvAttendWGSL,
    "main",
    {kKvAttendWorkgroupSizeX, kKvAttendWorkgroupSizeY, kKvAttendWorkgroupSizeZ},
    kKvAttendBindings,
    kKvAttendBindingCount,
    "",
    kKvAttendRuntimeChecks};
const KernelSource kKvDecodeF16Kernel{
    "kv_decode_f16",
    kKvDecodeF16WGSL,
    "main",
    {kKvDecodeF16WorkgroupSizeX, kKvDecodeF16WorkgroupSizeY, kKvDecodeF16WorkgroupSizeZ},
    kKvDecodeF16Bindings,
    kKvDecodeF16BindingCount,
    kKvDecodeF16Features,
    kKvDecodeF16RuntimeChecks};
const KernelSource kKvDecodeF16PackedKernel{
    "kv_decode_f16_packed",
    kKvDecodeF16PackedWGSL,
    "main",
    {kKvDecodeF16PackedWorkgroupSizeX, kKvDecodeF16PackedWorkgroupSizeY,
     kKvDecodeF16PackedWorkgroupSizeZ},
    kKvDecodeF16PackedBindings,
    kKvDecodeF16PackedBindingCount,
    "",
    kKvDecodeF16PackedRuntimeChecks};
const KernelSource kKvDecodeKernel{
    "kv_decode",
    kKvDecodeWGSL,
    "main",
    {kKvDecodeWorkgroupSizeX, kKvDecodeWorkgroupSizeY, kKvDecodeWorkgroupSizeZ},
    kKvDecodeBindings,
    kKvDecodeBindingCount,
    "",
    kKvDecodeRuntimeChecks};
const KernelSource kKvCombineF16Kernel{
    "kv_combine_f16",
    kKvCombineF16WGSL,
    "main",
    {kKvCombineF16WorkgroupSizeX, kKvCombineF16WorkgroupSizeY, kKvCombineF16WorkgroupSizeZ},
    kKvCombineF16Bindings,
    kKvCombineF16BindingCount,
    kKvCombineF16Features,
    kKvCombineF16RuntimeChecks};
const KernelSource kKvCombineF16PackedKernel{
    "kv_combine_f16_packed",
    kKvCombineF16PackedWGSL,
    "main",
    {kKvCombineF16PackedWorkgroupSizeX, kKvCombineF16PackedWorkgroupSizeY,
     kKvCombineF16PackedWorkgroupSizeZ},
    kKvCombineF16PackedBindings,
    kKvCombineF16PackedBindingCount,
    "",
    kKvCombineF16PackedRuntimeChecks};
const KernelSource kKvCombineKernel{
    "kv_combine",
    kKvCombineWGSL,
    "main",
    {kKvCombineWorkgroupSizeX, kKvCombineWorkgroupSizeY, kKvCombineWorkgroupSizeZ},
    kKvCombineBindings,
    kKvCombineBindingCount,
    "",
    kKvCombineRuntimeChecks};
// Dispatch 0's kernels, in route order.
const KernelSource* const kDispatch0Kernels[] = {
    &kKvCacheWriteF16Kernel, &kKvCacheWriteF16PackedKernel, &kKvCacheWriteKernel};
// Dispatch 1's kernels, in route order.
const KernelSource* const kDispatch1Kernels[] = {&kKvAttendF16Kernel, &kKvAttendF16PackedKernel,
                                                 &kKvAttendKernel};
// Dispatch 2's kernels, in route order.
const KernelSource* const kDispatch2Kernels[] = {&kKvDecodeF16Kernel, &kKvDecodeF16PackedKernel,
                                                 &kKvDecodeKernel};
// Dispatch 3's kernels, in route order.
const KernelSource* const kDispatch3Kernels[] = {&kKvCombineF16Kernel, &kKvCombineF16PackedKernel,
                                                 &kKvCombineKernel};

// The argument values, checked and turned into what each dispatch needs.
struct SdpaWithKvCachePlan {
  std::vector<int64_t> scratch_stats;    // dims of scratch tensor stats
  std::vector<int64_t> scratch_partial;  // dims of scratch tensor partial
  size_t route0 = 0;
  SdpaWithKvCacheWriteParams params0{};
  utils::Grid grid0;
  std::vector<OverrideValue> overrides0;
  size_t route1 = 0;
  SdpaWithKvCacheAttendParams params1{};
  utils::Grid grid1;
  std::vector<OverrideValue> overrides1;
  bool active1 = true;
  size_t route2 = 0;
  SdpaWithKvCacheDecodeParams params2{};
  utils::Grid grid2;
  std::vector<OverrideValue> overrides2;
  bool active2 = true;
  size_t route3 = 0;
  SdpaWithKvCacheCombineParams params3{};
  utils::Grid grid3;
  std::vector<OverrideValue> overrides3;
};

SdpaWithKvCachePlan plan_sdpa_with_kv_cache(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 12);
  const Tensor& query = graph.get_tensor(args[0]);
  const Tensor& key = graph.get_tensor(args[1]);
  const Tensor& value = graph.get_tensor(args[2]);
  const Tensor& key_cache = graph.get_tensor(args[3]);
  const Tensor& value_cache = graph.get_tensor(args[4]);
  const int64_t start_pos = utils::read_int(graph, args[5], kOp, "start_pos", true);
  const Tensor* attn_mask = graph.is_null(args[7]) ? nullptr : &graph.get_tensor(args[7]);
  const double drpout_p = utils::read_double(graph, args[8], kOp, "drpout_p");
  const bool is_causal = graph.get_bool(args[9]);
  const double scale = graph.is_null(args[10])
                           ? utils::divide(1.0, utils::sqrt_of(static_cast<double>(query.dim(-1))))
                           : utils::read_double(graph, args[10], kOp, "scale");
  const Tensor& out = graph.get_tensor(args[11]);
  utils::check_dtype(kOp, "query", query, {DType::Float32, DType::Float16});
  utils::check_rank(kOp, "query", query, 4, 4);
  utils::check_dtype(kOp, "key", key, {DType::Float32, DType::Float16});
  utils::check_rank(kOp, "key", key, 4, 4);
  utils::check_dtype(kOp, "value", value, {DType::Float32, DType::Float16});
  utils::check_rank(kOp, "value", value, 4, 4);
  utils::check_dtype(kOp, "key_cache", key_cache, {DType::Float32, DType::Float16});
  utils::check_rank(kOp, "key_cache", key_cache, 4, 4);
  utils::check_dtype(kOp, "value_cache", value_cache, {DType::Float32, DType::Float16});
  utils::check_rank(kOp, "value_cache", value_cache, 4, 4);
  if (attn_mask != nullptr) {
    utils::check_dtype(kOp, "attn_mask", *attn_mask, {DType::Float32, DType::Float16});
  }
  utils::check_dtype(kOp, "out", out, {DType::Float32, DType::Float16});
  utils::check_rank(kOp, "out", out, 4, 4);
  const int64_t B = utils::let(kOp, "B = query.dims[0]", [&]() -> int64_t { return query.dim(0); });
  const int64_t S = utils::let(kOp, "S = query.dims[1]", [&]() -> int64_t { return query.dim(1); });
  const int64_t Hq =
      utils::let(kOp, "Hq = query.dims[2]", [&]() -> int64_t { return query.dim(2); });
  const int64_t D = utils::let(kOp, "D = query.dims[3]", [&]() -> int64_t { return query.dim(3); });
  const int64_t Hk = utils::let(kOp, "Hk = key.dims[2]", [&]() -> int64_t { return key.dim(2); });
  const int64_t S_max =
      utils::let(kOp, "S_max = key_cache.dims[1]", [&]() -> int64_t { return key_cache.dim(1); });
  const int64_t ctx =
      utils::let(kOp, "ctx = start_pos + S", [&]() -> int64_t { return utils::add(start_pos, S); });
  const int64_t chunks =
      utils::let(kOp, "chunks = ceil_div(ctx, 32) if S == 1 else 1",
                 [&]() -> int64_t { return (S == 1) ? utils::ceil_div(ctx, 32) : 1; });
  const int64_t slots =
      utils::let(kOp, "slots = B * Hq * max(S, ceil_div(S_max, 32))", [&]() -> int64_t {
        return utils::mul(utils::mul(B, Hq), utils::max_of(S, utils::ceil_div(S_max, 32)));
      });
  if ((key.dims() != std::vector<int64_t>{B, S, Hk, D}) || (value.dims() != key.dims())) {
    utils::fail(kOp, "key", "does not match the query's batch, length and head_dim, or the value",
                utils::format_value(key.dims()),
                "[" + utils::format_value(B) + ", " + utils::format_value(S) + ", H_kv, " +
                    utils::format_value(D) + "] (value the same)");
  }
  if ((key_cache.dims() != std::vector<int64_t>{B, S_max, Hk, D}) ||
      (value_cache.dims() != key_cache.dims())) {
    utils::fail(kOp, "key_cache",
                "does not match the keys' batch, heads and head_dim, or the value cache",
                utils::format_value(key_cache.dims()),
                "[" + utils::format_value(B) + ", S_max, " + utils::format_value(Hk) + ", " +
                    utils::format_value(D) + "] (value_cache the same)");
  }
  if ((Hk <= 0) || (utils::floormod(Hq, Hk) != 0) || (utils::floordiv(Hq, Hk) > 8)) {
    utils::fail(kOp, "query",
                "does not have a whole number of query heads per key/value head, at most 8",
                utils::format_value(Hq),
                "a multiple of " + utils::format_value(Hk) + ", at most " +
                    utils::format_value(utils::mul(Hk, 8)));
  }
  if ((utils::floormod(D, 4) != 0) || (D > 128)) {
    utils::fail(kOp, "query", "has a head_dim that is not a multiple of 4 up to 128",
                utils::format_value(D), "a multiple of 4, at most 128");
  }
  if ((start_pos < 0) || (utils::add(start_pos, S) > S_max)) {
    utils::fail(kOp, "start_pos", "puts the new rows past the end of the cache",
                utils::format_value(start_pos), "0.." + utils::format_value(utils::sub(S_max, S)));
  }
  if ((attn_mask != nullptr)) {
    utils::fail(kOp, "attn_mask", "is not supported (the mask comes from is_causal)",
                utils::format_value(attn_mask->dims()), "None");
  }
  if (drpout_p != 0.0) {
    utils::fail(kOp, "drpout_p", "is not supported (inference has no dropout)",
                utils::format_value(drpout_p), "0.0");
  }
  if ((key.dtype != query.dtype) || (value.dtype != query.dtype) ||
      (key_cache.dtype != query.dtype) || (value_cache.dtype != query.dtype)) {
    utils::fail(kOp, "query", "does not share its dtype with key, value, key_cache and value_cache",
                utils::format_value(query.dtype),
                "the dtype of key, value, key_cache and value_cache");
  }
  utils::check_output_dims(kOp, "out", out, query.dims());
  Tensor stats;  // scratch, allocated by add_sdpa_with_kv_cache
  stats.dtype = DType::Float32;
  stats.max_dims = std::vector<int64_t>{utils::mul(slots, 2)};
  stats.live_dims = stats.max_dims;
  Tensor partial;  // scratch, allocated by add_sdpa_with_kv_cache
  partial.dtype = DType::Float32;
  partial.max_dims = std::vector<int64_t>{utils::mul(slots, D)};
  partial.live_dims = partial.max_dims;

  SdpaWithKvCachePlan plan;
  plan.scratch_stats = stats.dims();
  plan.scratch_partial = partial.dims();
  plan.params0.n = utils::to_u32(key.numel(), kOp, "n");
  plan.params0.S = utils::to_u32(S, kOp, "S");
  plan.params0.Hk = utils::to_u32(Hk, kOp, "Hk");
  plan.params0.D = utils::to_u32(D, kOp, "D");
  plan.params0.S_max = utils::to_u32(S_max, kOp, "S_max");
  plan.params0.start_pos = utils::to_u32(start_pos, kOp, "start_pos");
  if (graph.has_feature(Feature::ShaderF16) && (query.dtype == DType::Float16)) {
    plan.route0 = 0;  // kv_cache_write_f16
    plan.grid0 = utils::elementwise_grid(utils::mul(2, key.numel()),
                                         kKvCacheWriteF16Kernel.workgroup_size[0],
                                         graph.limits().max_workgroups_per_dimension);
  } else if (query.dtype == DType::Float16) {
    plan.route0 = 1;  // kv_cache_write_f16_packed
    plan.grid0 = utils::elementwise_grid(utils::mul(2, key.numel()),
                                         kKvCacheWriteF16PackedKernel.workgroup_size[0],
                                         graph.limits().max_workgroups_per_dimension);
  } else {
    plan.route0 = 2;  // kv_cache_write
    plan.grid0 =
        utils::elementwise_grid(utils::mul(2, key.numel()), kKvCacheWriteKernel.workgroup_size[0],
                                graph.limits().max_workgroups_per_dimension);
  }
  plan.params1.B = utils::to_u32(B, kOp, "B");
  plan.params1.S = utils::to_u32(S, kOp, "S");
  plan.params1.Hq = utils::to_u32(Hq, kOp, "Hq");
  plan.params1.Hk = utils::to_u32(Hk, kOp, "Hk");
  plan.params1.D = utils::to_u32(D, kOp, "D");
  plan.params1.G = utils::to_u32(utils::floordiv(Hq, Hk), kOp, "G");
  plan.params1.S_max = utils::to_u32(S_max, kOp, "S_max");
  plan.params1.start_pos = utils::to_u32(start_pos, kOp, "start_pos");
  plan.params1.causal = is_causal ? 1 : 0;
  plan.params1.scale = utils::to_f32(scale);
  if (graph.has_feature(Feature::ShaderF16) && (query.dtype == DType::Float16)) {
    plan.route1 = 0;  // kv_attend_f16
    plan.grid1 = utils::elementwise_grid(utils::mul(utils::mul(B, Hk), S), 1,
                                         graph.limits().max_workgroups_per_dimension);
  } else if (query.dtype == DType::Float16) {
    plan.route1 = 1;  // kv_attend_f16_packed
    plan.grid1 = utils::elementwise_grid(utils::mul(utils::mul(B, Hk), S), 1,
                                         graph.limits().max_workgroups_per_dimension);
  } else {
    plan.route1 = 2;  // kv_attend
    plan.grid1 = utils::elementwise_grid(utils::mul(utils::mul(B, Hk), S), 1,
                                         graph.limits().max_workgroups_per_dimension);
  }
  plan.active1 = S != 1;
  plan.params2.B = utils::to_u32(B, kOp, "B");
  plan.params2.Hq = utils::to_u32(Hq, kOp, "Hq");
  plan.params2.Hk = utils::to_u32(Hk, kOp, "Hk");
  plan.params2.D = utils::to_u32(D, kOp, "D");
  plan.params2.G = utils::to_u32(utils::floordiv(Hq, Hk), kOp, "G");
  plan.params2.S_max = utils::to_u32(S_max, kOp, "S_max");
  plan.params2.start_pos = utils::to_u32(start_pos, kOp, "start_pos");
  plan.params2.chunks = utils::to_u32(chunks, kOp, "chunks");
  plan.params2.scale = utils::to_f32(scale);
  if (graph.has_feature(Feature::ShaderF16) && (query.dtype == DType::Float16)) {
    plan.route2 = 0;  // kv_decode_f16
    plan.grid2 = utils::elementwise_grid(utils::mul(utils::mul(B, Hk), chunks), 1,
                                         graph.limits().max_workgroups_per_dimension);
  } else if (query.dtype == DType::Float16) {
    plan.route2 = 1;  // kv_decode_f16_packed
    plan.grid2 = utils::elementwise_grid(utils::mul(utils::mul(B, Hk), chunks), 1,
                                         graph.limits().max_workgroups_per_dimension);
  } else {
    plan.route2 = 2;  // kv_decode
    plan.grid2 = utils::elementwise_grid(utils::mul(utils::mul(B, Hk), chunks), 1,
                                         graph.limits().max_workgroups_per_dimension);
  }
  plan.active2 = S == 1;
  plan.params3.D = utils::to_u32(D, kOp, "D");
  plan.params3.chunks = utils::to_u32(chunks, kOp, "chunks");
  plan.params3.num_elements = utils::to_u32(out.numel(), kOp, "num_elements");
  if (graph.has_feature(Feature::ShaderF16) && (query.dtype == DType::Float16)) {
    plan.route3 = 0;  // kv_combine_f16
    plan.grid3 = utils::elementwise_grid(out.numel(), kKvCombineF16Kernel.workgroup_size[0],
                                         graph.limits().max_workgroups_per_dimension);
  } else if (query.dtype == DType::Float16) {
    plan.route3 = 1;  // kv_combine_f16_packed
    plan.grid3 = utils::elementwise_grid(out.numel(), kKvCombineF16PackedKernel.workgroup_size[0],
                                         graph.limits().max_workgroups_per_dimension);
  } else {
    plan.route3 = 2;  // kv_combine
    plan.grid3 = utils::elementwise_grid(out.numel(), kKvCombineKernel.workgroup_size[0],
                                         graph.limits().max_workgroups_per_dimension);
  }
  return plan;
}

// Gives the outputs the shape the op's formula computes from the live inputs.
void resize_sdpa_with_kv_cache_outputs(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const Tensor& query = graph.get_tensor(args[0]);
  Tensor& out = graph.get_tensor(args[11]);
  utils::resize_output(kOp, "out", out, query.dims());
}

void add_sdpa_with_kv_cache(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const SdpaWithKvCachePlan built = plan_sdpa_with_kv_cache(graph, args);
  // Scratch tensor stats: owned by the graph, written and read by this op's dispatches.
  const ValueRef scratch_stats = graph.add_tensor(DType::Float32, built.scratch_stats);
  // Scratch tensor partial: owned by the graph, written and read by this op's dispatches.
  const ValueRef scratch_partial = graph.add_tensor(DType::Float32, built.scratch_partial);
  const DispatchId dispatch0 =
      graph.add_dispatch(*kDispatch0Kernels[built.route0], built.overrides0,
                         {Binding::params(), Binding::of(args[1]), Binding::of(args[2]),
                          Binding::of(args[3]), Binding::of(args[4])},
                         &built.params0, sizeof(built.params0), built.grid0);
  const DispatchId dispatch1 = graph.add_dispatch(
      *kDispatch1Kernels[built.route1], built.overrides1,
      {Binding::params(), Binding::of(args[0]), Binding::of(args[3]), Binding::of(args[4]),
       Binding::of(scratch_stats), Binding::of(scratch_partial)},
      &built.params1, sizeof(built.params1), built.grid1);
  graph.set_dispatch_active(dispatch1, built.active1);
  const DispatchId dispatch2 = graph.add_dispatch(
      *kDispatch2Kernels[built.route2], built.overrides2,
      {Binding::params(), Binding::of(args[0]), Binding::of(args[3]), Binding::of(args[4]),
       Binding::of(scratch_stats), Binding::of(scratch_partial)},
      &built.params2, sizeof(built.params2), built.grid2);
  graph.set_dispatch_active(dispatch2, built.active2);
  const DispatchId dispatch3 =
      graph.add_dispatch(*kDispatch3Kernels[built.route3], built.overrides3,
                         {Binding::params(), Binding::of(scratch_stats),
                          Binding::of(scratch_partial), Binding::of(args[11])},
                         &built.params3, sizeof(built.params3), built.grid3);
  graph.add_resize_hook([args, built, scratch_stats, scratch_partial, dispatch0, dispatch1,
                         dispatch2, dispatch3](WebGPUGraph& graph) {
    resize_sdpa_with_kv_cache_outputs(graph, args);
    const SdpaWithKvCachePlan plan = plan_sdpa_with_kv_cache(graph, args);
    graph.resize_tensor(scratch_stats, plan.scratch_stats);
    graph.resize_tensor(scratch_partial, plan.scratch_partial);
    if (plan.route0 != built.route0) {
      utils::fail(kOp, "inputs", "were resized into a different kernel route",
                  kDispatch0Kernels[plan.route0]->name, kDispatch0Kernels[built.route0]->name);
    }
    graph.update_dispatch(dispatch0, &plan.params0, sizeof(plan.params0), plan.grid0);
    if (plan.route1 != built.route1) {
      utils::fail(kOp, "inputs", "were resized into a different kernel route",
                  kDispatch1Kernels[plan.route1]->name, kDispatch1Kernels[built.route1]->name);
    }
    graph.set_dispatch_active(dispatch1, plan.active1);
    graph.update_dispatch(dispatch1, &plan.params1, sizeof(plan.params1), plan.grid1);
    if (plan.route2 != built.route2) {
      utils::fail(kOp, "inputs", "were resized into a different kernel route",
                  kDispatch2Kernels[plan.route2]->name, kDispatch2Kernels[built.route2]->name);
    }
    graph.set_dispatch_active(dispatch2, plan.active2);
    graph.update_dispatch(dispatch2, &plan.params2, sizeof(plan.params2), plan.grid2);
    if (plan.route3 != built.route3) {
      utils::fail(kOp, "inputs", "were resized into a different kernel route",
                  kDispatch3Kernels[plan.route3]->name, kDispatch3Kernels[built.route3]->name);
    }
    graph.update_dispatch(dispatch3, &plan.params3, sizeof(plan.params3), plan.grid3);
  });
}

}  // namespace
}  // namespace webgpu_delegate

WEBGPU_REGISTER_OP_WRITING(llama.sdpa_with_kv_cache.default,
                           webgpu_delegate::add_sdpa_with_kv_cache, 3, 4);
