// @generated from codegen/specs/matmul/matmul.py - DO NOT EDIT.
// Op addmm: aten.addmm.default

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
#include "ops/matmul/gemv_nn_f16_packed_wgsl.h"
#include "ops/matmul/gemv_nn_f16_wgsl.h"
#include "ops/matmul/gemv_nn_wgsl.h"
#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "addmm";

struct AddmmParams {
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
static_assert(offsetof(AddmmParams, M) == 0, "AddmmParams.M must sit at WGSL offset 0");
static_assert(offsetof(AddmmParams, N) == 4, "AddmmParams.N must sit at WGSL offset 4");
static_assert(offsetof(AddmmParams, K) == 8, "AddmmParams.K must sit at WGSL offset 8");
static_assert(offsetof(AddmmParams, batch) == 12, "AddmmParams.batch must sit at WGSL offset 12");
static_assert(offsetof(AddmmParams, a_batch_stride) == 16,
              "AddmmParams.a_batch_stride must sit at WGSL offset 16");
static_assert(offsetof(AddmmParams, b_batch_stride) == 20,
              "AddmmParams.b_batch_stride must sit at WGSL offset 20");
static_assert(offsetof(AddmmParams, k_chunk) == 24,
              "AddmmParams.k_chunk must sit at WGSL offset 24");
static_assert(offsetof(AddmmParams, split) == 28, "AddmmParams.split must sit at WGSL offset 28");
static_assert(offsetof(AddmmParams, has_bias) == 32,
              "AddmmParams.has_bias must sit at WGSL offset 32");
static_assert(offsetof(AddmmParams, bias_stride_m) == 36,
              "AddmmParams.bias_stride_m must sit at WGSL offset 36");
static_assert(offsetof(AddmmParams, bias_stride_n) == 40,
              "AddmmParams.bias_stride_n must sit at WGSL offset 40");
static_assert(offsetof(AddmmParams, alpha) == 44, "AddmmParams.alpha must sit at WGSL offset 44");
static_assert(offsetof(AddmmParams, beta) == 48, "AddmmParams.beta must sit at WGSL offset 48");
static_assert(sizeof(AddmmParams) == 64, "AddmmParams must match the WGSL struct size 64");

const KernelSource kGemvNnF16Kernel{
    "gemv_nn_f16",
    kGemvNnF16WGSL,
    "main",
    {kGemvNnF16WorkgroupSizeX, kGemvNnF16WorkgroupSizeY, kGemvNnF16WorkgroupSizeZ},
    kGemvNnF16Bindings,
    kGemvNnF16BindingCount,
    kGemvNnF16Features};
const KernelSource kGemvNnF16PackedKernel{
    "gemv_nn_f16_packed",
    kGemvNnF16PackedWGSL,
    "main",
    {kGemvNnF16PackedWorkgroupSizeX, kGemvNnF16PackedWorkgroupSizeY,
     kGemvNnF16PackedWorkgroupSizeZ},
    kGemvNnF16PackedBindings,
    kGemvNnF16PackedBindingCount};
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
const KernelSource kGemvNnKernel{
    "gemv_nn",       kGemvNnWGSL,
    "main",          {kGemvNnWorkgroupSizeX, kGemvNnWorkgroupSizeY, kGemvNnWorkgroupSizeZ},
    kGemvNnBindings, kGemvNnBindingCount};
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
    &kGemvNnF16Kernel,      &kGemvNnF16PackedKernel,
    &kGemmVec4M64F16Kernel, &kGemmVec4M64F16PackedKernel,
    &kGemmVec4M32F16Kernel, &kGemmVec4M32F16PackedKernel,
    &kGemmVec4F16Kernel,    &kGemmVec4F16PackedKernel,
    &kGemvNnKernel,         &kGemmVec4M64Kernel,
    &kGemmVec4M32Kernel,    &kGemmVec4Kernel};
// Dispatch 1's kernels, in route order.
const KernelSource* const kDispatch1Kernels[] = {
    &kGemmSmallScalarF16Kernel,  &kGemmSmallScalarF16PackedKernel, &kGemmScalarF16Kernel,
    &kGemmScalarF16PackedKernel, &kGemmSmallScalarKernel,          &kGemmScalarKernel};
// Dispatch 2's kernels, in route order.
const KernelSource* const kDispatch2Kernels[] = {
    &kGemmSplitSumF16Kernel, &kGemmSplitSumF16PackedKernel, &kGemmSplitSumKernel};

// The argument values, checked and turned into what each dispatch needs.
struct AddmmPlan {
  std::vector<int64_t> scratch_partial;  // dims of scratch tensor partial
  AddmmParams params{};
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
};

AddmmPlan plan_addmm(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 6);
  const Tensor& self = graph.get_tensor(args[0]);
  const Tensor& mat1 = graph.get_tensor(args[1]);
  const Tensor& mat2 = graph.get_tensor(args[2]);
  const double beta = graph.is_null(args[3]) ? 1 : graph.get_scalar(args[3]);
  const double alpha = graph.is_null(args[4]) ? 1 : graph.get_scalar(args[4]);
  const Tensor& out = graph.get_tensor(args[5]);
  utils::check_dtype(kOp, "self", self, {DType::Float32, DType::Float16});
  utils::check_rank(kOp, "self", self, 0, 2);
  utils::check_dtype(kOp, "mat1", mat1, {DType::Float32, DType::Float16});
  utils::check_rank(kOp, "mat1", mat1, 2, 2);
  utils::check_dtype(kOp, "mat2", mat2, {DType::Float32, DType::Float16});
  utils::check_rank(kOp, "mat2", mat2, 2, 2);
  utils::check_dtype(kOp, "out", out, {DType::Float32, DType::Float16});
  const int64_t M = utils::let(kOp, "M = mat1.dims[0]", [&]() -> int64_t { return mat1.dim(0); });
  const int64_t K = utils::let(kOp, "K = mat1.dims[1]", [&]() -> int64_t { return mat1.dim(1); });
  const int64_t N = utils::let(kOp, "N = mat2.dims[1]", [&]() -> int64_t { return mat2.dim(1); });
  const int64_t batch = 1;
  const int64_t a_batch_stride = 0;
  const int64_t b_batch_stride = 0;
  const bool aligned = utils::let(kOp, "aligned = K % 4 == 0 and N % 4 == 0", [&]() -> bool {
    return (utils::floormod(K, 4) == 0) && (utils::floormod(N, 4) == 0);
  });
  const bool gemv = (M <= 8) && aligned;
  const std::vector<int64_t> bias_dims =
      utils::let(kOp, "bias_dims = right_align(self.dims, 2, 1)",
                 [&]() -> std::vector<int64_t> { return utils::right_align(self.dims(), 2, 1); });
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
  if (mat2.dim(0) != K) {
    utils::fail(kOp, "mat2", "does not match the inner dim", utils::format_value(mat2.dims()),
                "dims[0] == " + utils::format_value(K));
  }
  if (((utils::at(bias_dims, 0) != 1) && (utils::at(bias_dims, 0) != M)) ||
      ((utils::at(bias_dims, 1) != 1) && (utils::at(bias_dims, 1) != N))) {
    utils::fail(
        kOp, "self", "does not broadcast to the output", utils::format_value(self.dims()),
        "dims broadcasting to [" + utils::format_value(M) + ", " + utils::format_value(N) + "]");
  }
  if ((mat2.dtype != mat1.dtype) || (self.dtype != mat1.dtype)) {
    utils::fail(kOp, "mat1", "does not share its dtype with mat2 and self",
                utils::format_value(mat1.dtype), "the dtype of mat2 and self");
  }
  utils::check_output_dims(kOp, "out", out, std::vector<int64_t>{M, N});
  Tensor partial;  // scratch, allocated by add_addmm
  partial.dtype = DType::Float32;
  partial.max_dims = std::vector<int64_t>{
      (split > 1) ? utils::mul(utils::mul(utils::mul(split, batch), M), N) : 0};
  partial.live_dims = partial.max_dims;

  AddmmPlan plan;
  plan.scratch_partial = partial.dims();
  plan.params.M = utils::to_u32(M, kOp, "M");
  plan.params.N = utils::to_u32(N, kOp, "N");
  plan.params.K = utils::to_u32(K, kOp, "K");
  plan.params.batch = utils::to_u32(batch, kOp, "batch");
  plan.params.a_batch_stride = utils::to_u32(a_batch_stride, kOp, "a_batch_stride");
  plan.params.b_batch_stride = utils::to_u32(b_batch_stride, kOp, "b_batch_stride");
  plan.params.k_chunk = utils::to_u32(k_chunk, kOp, "k_chunk");
  plan.params.split = utils::to_u32(split, kOp, "split");
  plan.params.has_bias = (beta != 0) ? 1 : 0;
  plan.params.bias_stride_m = utils::to_u32(
      (utils::at(bias_dims, 0) > 1) ? utils::at(bias_dims, 1) : 0, kOp, "bias_stride_m");
  plan.params.bias_stride_n =
      utils::to_u32((utils::at(bias_dims, 1) > 1) ? 1 : 0, kOp, "bias_stride_n");
  plan.params.alpha = utils::to_f32(alpha);
  plan.params.beta = utils::to_f32(beta);
  plan.run0 = aligned;
  if (plan.run0) {
    if (graph.has_feature(Feature::ShaderF16) && ((mat1.dtype == DType::Float16) && gemv)) {
      plan.route0 = 0;  // gemv_nn_f16
      plan.grid0 = utils::tiles_grid(N, M, utils::mul(batch, split), 128, 8,
                                     graph.limits().max_workgroups_per_dimension);
      plan.overrides0 = {{"B_IS_NK", 0.0}};
    } else if ((mat1.dtype == DType::Float16) && gemv) {
      plan.route0 = 1;  // gemv_nn_f16_packed
      plan.grid0 = utils::tiles_grid(N, M, utils::mul(batch, split), 128, 8,
                                     graph.limits().max_workgroups_per_dimension);
      plan.overrides0 = {{"B_IS_NK", 0.0}};
    } else if (graph.has_feature(Feature::ShaderF16) &&
               ((mat1.dtype == DType::Float16) && (tile_m == 64))) {
      plan.route0 = 2;  // gemm_vec4_m64_f16
      plan.grid0 = utils::tiles_grid(N, M, utils::mul(batch, split), 128, 64,
                                     graph.limits().max_workgroups_per_dimension);
      plan.overrides0 = {{"B_IS_NK", 0.0}};
    } else if ((mat1.dtype == DType::Float16) && (tile_m == 64)) {
      plan.route0 = 3;  // gemm_vec4_m64_f16_packed
      plan.grid0 = utils::tiles_grid(N, M, utils::mul(batch, split), 128, 64,
                                     graph.limits().max_workgroups_per_dimension);
      plan.overrides0 = {{"B_IS_NK", 0.0}};
    } else if (graph.has_feature(Feature::ShaderF16) &&
               ((mat1.dtype == DType::Float16) && (tile_m == 32))) {
      plan.route0 = 4;  // gemm_vec4_m32_f16
      plan.grid0 = utils::tiles_grid(N, M, utils::mul(batch, split), 128, 32,
                                     graph.limits().max_workgroups_per_dimension);
      plan.overrides0 = {{"B_IS_NK", 0.0}};
    } else if ((mat1.dtype == DType::Float16) && (tile_m == 32)) {
      plan.route0 = 5;  // gemm_vec4_m32_f16_packed
      plan.grid0 = utils::tiles_grid(N, M, utils::mul(batch, split), 128, 32,
                                     graph.limits().max_workgroups_per_dimension);
      plan.overrides0 = {{"B_IS_NK", 0.0}};
    } else if (graph.has_feature(Feature::ShaderF16) && (mat1.dtype == DType::Float16)) {
      plan.route0 = 6;  // gemm_vec4_f16
      plan.grid0 = utils::tiles_grid(N, M, utils::mul(batch, split), 128, 128,
                                     graph.limits().max_workgroups_per_dimension);
      plan.overrides0 = {{"B_IS_NK", 0.0}};
    } else if (mat1.dtype == DType::Float16) {
      plan.route0 = 7;  // gemm_vec4_f16_packed
      plan.grid0 = utils::tiles_grid(N, M, utils::mul(batch, split), 128, 128,
                                     graph.limits().max_workgroups_per_dimension);
      plan.overrides0 = {{"B_IS_NK", 0.0}};
    } else if (gemv) {
      plan.route0 = 8;  // gemv_nn
      plan.grid0 = utils::tiles_grid(N, M, utils::mul(batch, split), 128, 8,
                                     graph.limits().max_workgroups_per_dimension);
      plan.overrides0 = {{"B_IS_NK", 0.0}};
    } else if (tile_m == 64) {
      plan.route0 = 9;  // gemm_vec4_m64
      plan.grid0 = utils::tiles_grid(N, M, utils::mul(batch, split), 128, 64,
                                     graph.limits().max_workgroups_per_dimension);
      plan.overrides0 = {{"B_IS_NK", 0.0}};
    } else if (tile_m == 32) {
      plan.route0 = 10;  // gemm_vec4_m32
      plan.grid0 = utils::tiles_grid(N, M, utils::mul(batch, split), 128, 32,
                                     graph.limits().max_workgroups_per_dimension);
      plan.overrides0 = {{"B_IS_NK", 0.0}};
    } else {
      plan.route0 = 11;  // gemm_vec4
      plan.grid0 = utils::tiles_grid(N, M, utils::mul(batch, split), 128, 128,
                                     graph.limits().max_workgroups_per_dimension);
      plan.overrides0 = {{"B_IS_NK", 0.0}};
    }
  }
  plan.run1 = !aligned;
  if (plan.run1) {
    if (graph.has_feature(Feature::ShaderF16) && ((mat1.dtype == DType::Float16) && small)) {
      plan.route1 = 0;  // gemm_small_scalar_f16
      plan.grid1 = utils::tiles_grid(N, M, utils::mul(batch, split), 32, 32,
                                     graph.limits().max_workgroups_per_dimension);
      plan.overrides1 = {{"B_IS_NK", 0.0}};
    } else if ((mat1.dtype == DType::Float16) && small) {
      plan.route1 = 1;  // gemm_small_scalar_f16_packed
      plan.grid1 = utils::tiles_grid(N, M, utils::mul(batch, split), 32, 32,
                                     graph.limits().max_workgroups_per_dimension);
      plan.overrides1 = {{"B_IS_NK", 0.0}};
    } else if (graph.has_feature(Feature::ShaderF16) && (mat1.dtype == DType::Float16)) {
      plan.route1 = 2;  // gemm_scalar_f16
      plan.grid1 = utils::tiles_grid(N, M, utils::mul(batch, split), 128, 128,
                                     graph.limits().max_workgroups_per_dimension);
      plan.overrides1 = {{"B_IS_NK", 0.0}};
    } else if (mat1.dtype == DType::Float16) {
      plan.route1 = 3;  // gemm_scalar_f16_packed
      plan.grid1 = utils::tiles_grid(N, M, utils::mul(batch, split), 128, 128,
                                     graph.limits().max_workgroups_per_dimension);
      plan.overrides1 = {{"B_IS_NK", 0.0}};
    } else if (small) {
      plan.route1 = 4;  // gemm_small_scalar
      plan.grid1 = utils::tiles_grid(N, M, utils::mul(batch, split), 32, 32,
                                     graph.limits().max_workgroups_per_dimension);
      plan.overrides1 = {{"B_IS_NK", 0.0}};
    } else {
      plan.route1 = 5;  // gemm_scalar
      plan.grid1 = utils::tiles_grid(N, M, utils::mul(batch, split), 128, 128,
                                     graph.limits().max_workgroups_per_dimension);
      plan.overrides1 = {{"B_IS_NK", 0.0}};
    }
  }
  plan.run2 = split > 1;
  if (plan.run2) {
    if (graph.has_feature(Feature::ShaderF16) && (mat1.dtype == DType::Float16)) {
      plan.route2 = 0;  // gemm_split_sum_f16
      plan.grid2 = utils::elementwise_grid(out.numel(), kGemmSplitSumF16Kernel.workgroup_size[0],
                                           graph.limits().max_workgroups_per_dimension);
    } else if (mat1.dtype == DType::Float16) {
      plan.route2 = 1;  // gemm_split_sum_f16_packed
      plan.grid2 =
          utils::elementwise_grid(out.numel(), kGemmSplitSumF16PackedKernel.workgroup_size[0],
                                  graph.limits().max_workgroups_per_dimension);
    } else {
      plan.route2 = 2;  // gemm_split_sum
      plan.grid2 = utils::elementwise_grid(out.numel(), kGemmSplitSumKernel.workgroup_size[0],
                                           graph.limits().max_workgroups_per_dimension);
    }
  }
  return plan;
}

// Gives the outputs the shape the op's formula computes from the live inputs.
void resize_addmm_outputs(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const Tensor& mat1 = graph.get_tensor(args[1]);
  const Tensor& mat2 = graph.get_tensor(args[2]);
  Tensor& out = graph.get_tensor(args[5]);
  const int64_t M = utils::let(kOp, "M = mat1.dims[0]", [&]() -> int64_t { return mat1.dim(0); });
  const int64_t N = utils::let(kOp, "N = mat2.dims[1]", [&]() -> int64_t { return mat2.dim(1); });
  utils::resize_output(kOp, "out", out, std::vector<int64_t>{M, N});
}

void add_addmm(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const AddmmPlan built = plan_addmm(graph, args);
  // Scratch tensor partial: owned by the graph, written and read by this op's dispatches.
  const ValueRef scratch_partial = graph.add_tensor(DType::Float32, built.scratch_partial);
  const DispatchId dispatch0 =
      built.run0 ? graph.add_dispatch(
                       *kDispatch0Kernels[built.route0], built.overrides0,
                       {Binding::params(), Binding::of(args[1]), Binding::of(args[2]),
                        Binding::of(args[0]), Binding::of(scratch_partial), Binding::of(args[5])},
                       &built.params, sizeof(built.params), built.grid0)
                 : 0;
  const DispatchId dispatch1 =
      built.run1 ? graph.add_dispatch(
                       *kDispatch1Kernels[built.route1], built.overrides1,
                       {Binding::params(), Binding::of(args[1]), Binding::of(args[2]),
                        Binding::of(args[0]), Binding::of(scratch_partial), Binding::of(args[5])},
                       &built.params, sizeof(built.params), built.grid1)
                 : 0;
  const DispatchId dispatch2 =
      built.run2 ? graph.add_dispatch(*kDispatch2Kernels[built.route2], built.overrides2,
                                      {Binding::params(), Binding::of(scratch_partial),
                                       Binding::of(args[0]), Binding::of(args[5])},
                                      &built.params, sizeof(built.params), built.grid2)
                 : 0;
  graph.add_resize_hook(
      [args, built, scratch_partial, dispatch0, dispatch1, dispatch2](WebGPUGraph& graph) {
        resize_addmm_outputs(graph, args);
        const AddmmPlan plan = plan_addmm(graph, args);
        graph.resize_tensor(scratch_partial, plan.scratch_partial);
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
          graph.update_dispatch(dispatch1, &plan.params, sizeof(plan.params), plan.grid1);
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
      });
}

}  // namespace
}  // namespace webgpu_delegate

WEBGPU_REGISTER_OP(aten.addmm.default, webgpu_delegate::add_addmm, None);
