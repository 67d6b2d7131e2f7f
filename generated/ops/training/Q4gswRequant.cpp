// @generated from codegen/specs/training/q4gsw.py - DO NOT EDIT.
// Op q4gsw_requant: et_vk.q4gsw_requant.default

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ops/training/q4gsw_requant_wgsl.h"
#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "q4gsw_requant";

struct Q4gswRequantParams {
  uint32_t N;
  uint32_t K;
  uint32_t KB;
  uint32_t group_size;
  uint32_t num_bytes;
  uint32_t num_words;
  uint32_t _pad0[2];
};
static_assert(offsetof(Q4gswRequantParams, N) == 0,
              "Q4gswRequantParams.N must sit at WGSL offset 0");
static_assert(offsetof(Q4gswRequantParams, K) == 4,
              "Q4gswRequantParams.K must sit at WGSL offset 4");
static_assert(offsetof(Q4gswRequantParams, KB) == 8,
              "Q4gswRequantParams.KB must sit at WGSL offset 8");
static_assert(offsetof(Q4gswRequantParams, group_size) == 12,
              "Q4gswRequantParams.group_size must sit at WGSL offset 12");
static_assert(offsetof(Q4gswRequantParams, num_bytes) == 16,
              "Q4gswRequantParams.num_bytes must sit at WGSL offset 16");
static_assert(offsetof(Q4gswRequantParams, num_words) == 20,
              "Q4gswRequantParams.num_words must sit at WGSL offset 20");
static_assert(sizeof(Q4gswRequantParams) == 32,
              "Q4gswRequantParams must match the WGSL struct size 32");

const KernelSource kQ4gswRequantKernel{
    "q4gsw_requant",
    kQ4gswRequantWGSL,
    "main",
    {kQ4gswRequantWorkgroupSizeX, kQ4gswRequantWorkgroupSizeY, kQ4gswRequantWorkgroupSizeZ},
    kQ4gswRequantBindings,
    kQ4gswRequantBindingCount};

// The argument values, checked and turned into what each dispatch needs.
struct Q4gswRequantPlan {
  Q4gswRequantParams params0{};
  utils::Grid grid0;
  std::vector<OverrideValue> overrides0;
};

Q4gswRequantPlan plan_q4gsw_requant(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 4);
  const Tensor& latent = graph.get_tensor(args[0]);
  const Tensor& scales = graph.get_tensor(args[1]);
  const int64_t group_size = utils::read_int(graph, args[2], kOp, "group_size", false);
  const Tensor& out = graph.get_tensor(args[3]);
  utils::check_dtype(kOp, "latent", latent, {DType::Float32});
  utils::check_rank(kOp, "latent", latent, 2, 2);
  utils::check_dtype(kOp, "scales", scales, {DType::Float32});
  utils::check_rank(kOp, "scales", scales, 2, 2);
  utils::check_dtype(kOp, "out", out, {DType::UInt8});
  utils::check_rank(kOp, "out", out, 2, 2);
  const int64_t N =
      utils::let(kOp, "N = latent.dims[0]", [&]() -> int64_t { return latent.dim(0); });
  const int64_t K =
      utils::let(kOp, "K = latent.dims[1]", [&]() -> int64_t { return latent.dim(1); });
  const int64_t KB = utils::let(kOp, "KB = ceil_div(latent.dims[1], 2)",
                                [&]() -> int64_t { return utils::ceil_div(latent.dim(1), 2); });
  if (group_size <= 0) {
    utils::fail(kOp, "group_size", "is not positive", utils::format_value(group_size),
                "a group size >= 1");
  }
  if ((scales.dim(1) != N) || (scales.dim(0) < utils::ceil_div(K, utils::max_of(group_size, 1)))) {
    utils::fail(kOp, "scales", "does not hold a scale for every group of each row",
                utils::format_value(scales.dims()),
                "[" + utils::format_value(utils::ceil_div(K, utils::max_of(group_size, 1))) + ", " +
                    utils::format_value(N) + "]");
  }
  utils::check_output_dims(kOp, "out", out, std::vector<int64_t>{N, KB});

  Q4gswRequantPlan plan;
  plan.params0.N = utils::to_u32(N, kOp, "N");
  plan.params0.K = utils::to_u32(K, kOp, "K");
  plan.params0.KB = utils::to_u32(KB, kOp, "KB");
  plan.params0.group_size = utils::to_u32(group_size, kOp, "group_size");
  plan.params0.num_bytes = utils::to_u32(utils::mul(N, KB), kOp, "num_bytes");
  plan.params0.num_words = utils::to_u32(utils::ceil_div(utils::mul(N, KB), 4), kOp, "num_words");
  plan.grid0 = utils::elementwise_grid(utils::ceil_div(utils::mul(N, KB), 4),
                                       kQ4gswRequantKernel.workgroup_size[0],
                                       graph.limits().max_workgroups_per_dimension);
  return plan;
}

void add_q4gsw_requant(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const Q4gswRequantPlan built = plan_q4gsw_requant(graph, args);
  graph.add_dispatch(
      kQ4gswRequantKernel, built.overrides0,
      {Binding::params(), Binding::of(args[0]), Binding::of(args[1]), Binding::of(args[3])},
      &built.params0, sizeof(built.params0), built.grid0);
  // Static shapes only: a resized input is an error, never a silent run at the built shape.
  graph.add_resize_hook([args](WebGPUGraph& graph) {
    utils::check_not_resized(kOp, "latent", graph.get_tensor(args[0]));
    utils::check_not_resized(kOp, "scales", graph.get_tensor(args[1]));
  });
}

}  // namespace
}  // namespace webgpu_delegate

WEBGPU_REGISTER_OP(et_vk.q4gsw_requant.default, webgpu_delegate::add_q4gsw_requant, None);
