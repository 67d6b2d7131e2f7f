// @generated from codegen/specs/apply_rotary_emb/apply_rotary_emb.py - DO NOT EDIT.
// Op apply_rotary_emb: et_vk.apply_rotary_emb.default

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ops/apply_rotary_emb/rotary_emb_meta_f16_packed_wgsl.h"
#include "ops/apply_rotary_emb/rotary_emb_meta_f16_wgsl.h"
#include "ops/apply_rotary_emb/rotary_emb_meta_wgsl.h"
#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "apply_rotary_emb";

struct ApplyRotaryEmbParams {
  uint32_t S;
  uint32_t Hq;
  uint32_t Hk;
  uint32_t half;
  uint32_t q_pairs;
  uint32_t num_elements;
  uint32_t _pad0[2];
};
static_assert(offsetof(ApplyRotaryEmbParams, S) == 0,
              "ApplyRotaryEmbParams.S must sit at WGSL offset 0");
static_assert(offsetof(ApplyRotaryEmbParams, Hq) == 4,
              "ApplyRotaryEmbParams.Hq must sit at WGSL offset 4");
static_assert(offsetof(ApplyRotaryEmbParams, Hk) == 8,
              "ApplyRotaryEmbParams.Hk must sit at WGSL offset 8");
static_assert(offsetof(ApplyRotaryEmbParams, half) == 12,
              "ApplyRotaryEmbParams.half must sit at WGSL offset 12");
static_assert(offsetof(ApplyRotaryEmbParams, q_pairs) == 16,
              "ApplyRotaryEmbParams.q_pairs must sit at WGSL offset 16");
static_assert(offsetof(ApplyRotaryEmbParams, num_elements) == 20,
              "ApplyRotaryEmbParams.num_elements must sit at WGSL offset 20");
static_assert(sizeof(ApplyRotaryEmbParams) == 32,
              "ApplyRotaryEmbParams must match the WGSL struct size 32");

const KernelSource kRotaryEmbMetaF16Kernel{
    "rotary_emb_meta_f16",
    kRotaryEmbMetaF16WGSL,
    "main",
    {kRotaryEmbMetaF16WorkgroupSizeX, kRotaryEmbMetaF16WorkgroupSizeY,
     kRotaryEmbMetaF16WorkgroupSizeZ},
    kRotaryEmbMetaF16Bindings,
    kRotaryEmbMetaF16BindingCount,
    kRotaryEmbMetaF16Features};
const KernelSource kRotaryEmbMetaF16PackedKernel{
    "rotary_emb_meta_f16_packed",
    kRotaryEmbMetaF16PackedWGSL,
    "main",
    {kRotaryEmbMetaF16PackedWorkgroupSizeX, kRotaryEmbMetaF16PackedWorkgroupSizeY,
     kRotaryEmbMetaF16PackedWorkgroupSizeZ},
    kRotaryEmbMetaF16PackedBindings,
    kRotaryEmbMetaF16PackedBindingCount};
const KernelSource kRotaryEmbMetaKernel{
    "rotary_emb_meta",
    kRotaryEmbMetaWGSL,
    "main",
    {kRotaryEmbMetaWorkgroupSizeX, kRotaryEmbMetaWorkgroupSizeY, kRotaryEmbMetaWorkgroupSizeZ},
    kRotaryEmbMetaBindings,
    kRotaryEmbMetaBindingCount};
// Dispatch 0's kernels, in route order.
const KernelSource* const kDispatch0Kernels[] = {
    &kRotaryEmbMetaF16Kernel, &kRotaryEmbMetaF16PackedKernel, &kRotaryEmbMetaKernel};

// The argument values, checked and turned into what each dispatch needs.
struct ApplyRotaryEmbPlan {
  size_t route0 = 0;
  ApplyRotaryEmbParams params0{};
  utils::Grid grid0;
  std::vector<OverrideValue> overrides0;
};

ApplyRotaryEmbPlan plan_apply_rotary_emb(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 5);
  const Tensor& xq = graph.get_tensor(args[0]);
  const Tensor& xk = graph.get_tensor(args[1]);
  const Tensor& freqs_cos = graph.get_tensor(args[2]);
  const Tensor& freqs_sin = graph.get_tensor(args[3]);
  const std::vector<ValueRef>& out = graph.get_value_list(args[4]);
  const Tensor& xq_out = graph.get_tensor(utils::at(out, 0));
  const Tensor& xk_out = graph.get_tensor(utils::at(out, 1));
  utils::check_dtype(kOp, "xq", xq, {DType::Float32, DType::Float16});
  utils::check_rank(kOp, "xq", xq, 4, 4);
  utils::check_dtype(kOp, "xk", xk, {DType::Float32, DType::Float16});
  utils::check_rank(kOp, "xk", xk, 4, 4);
  utils::check_dtype(kOp, "freqs_cos", freqs_cos, {DType::Float32, DType::Float16});
  utils::check_rank(kOp, "freqs_cos", freqs_cos, 2, 2);
  utils::check_dtype(kOp, "freqs_sin", freqs_sin, {DType::Float32, DType::Float16});
  utils::check_rank(kOp, "freqs_sin", freqs_sin, 2, 2);
  utils::check_dtype(kOp, "xq_out", xq_out, {DType::Float32, DType::Float16});
  utils::check_rank(kOp, "xq_out", xq_out, 4, 4);
  utils::check_dtype(kOp, "xk_out", xk_out, {DType::Float32, DType::Float16});
  utils::check_rank(kOp, "xk_out", xk_out, 4, 4);
  const int64_t S = utils::let(kOp, "S = xq.dims[1]", [&]() -> int64_t { return xq.dim(1); });
  const int64_t D = utils::let(kOp, "D = xq.dims[3]", [&]() -> int64_t { return xq.dim(3); });
  const int64_t q_pairs = utils::let(kOp, "q_pairs = xq.numel // 2",
                                     [&]() -> int64_t { return utils::floordiv(xq.numel(), 2); });
  const int64_t k_pairs = utils::let(kOp, "k_pairs = xk.numel // 2",
                                     [&]() -> int64_t { return utils::floordiv(xk.numel(), 2); });
  if ((xk.dim(0) != xq.dim(0)) || (xk.dim(1) != S)) {
    utils::fail(kOp, "xk", "has a different batch or sequence length than xq",
                utils::format_value(xk.dims()),
                "[" + utils::format_value(xq.dim(0)) + ", " + utils::format_value(S) + ", H, D]");
  }
  if (xk.dim(3) != D) {
    utils::fail(kOp, "xk", "has a different head_dim than xq", utils::format_value(xk.dim(3)),
                utils::format_value(D));
  }
  if (utils::floormod(D, 2) != 0) {
    utils::fail(kOp, "xq", "has an odd head_dim", utils::format_value(D), "an even head_dim");
  }
  if (freqs_cos.dims() != std::vector<int64_t>{S, utils::floordiv(D, 2)}) {
    utils::fail(
        kOp, "freqs_cos", "does not hold one row of D/2 frequencies per token",
        utils::format_value(freqs_cos.dims()),
        "[" + utils::format_value(S) + ", " + utils::format_value(utils::floordiv(D, 2)) + "]");
  }
  if (freqs_sin.dims() != freqs_cos.dims()) {
    utils::fail(kOp, "freqs_sin", "has a different shape than freqs_cos",
                utils::format_value(freqs_sin.dims()), utils::format_value(freqs_cos.dims()));
  }
  if ((xk.dtype != xq.dtype) || (freqs_cos.dtype != xq.dtype) || (freqs_sin.dtype != xq.dtype)) {
    utils::fail(kOp, "xq", "does not share its dtype with xk, freqs_cos and freqs_sin",
                utils::format_value(xq.dtype), "the dtype of xk, freqs_cos and freqs_sin");
  }
  utils::check_output_dims(kOp, "xq_out", xq_out, xq.dims());
  utils::check_output_dims(kOp, "xk_out", xk_out, xk.dims());

  ApplyRotaryEmbPlan plan;
  plan.params0.S = utils::to_u32(S, kOp, "S");
  plan.params0.Hq = utils::to_u32(xq.dim(2), kOp, "Hq");
  plan.params0.Hk = utils::to_u32(xk.dim(2), kOp, "Hk");
  plan.params0.half = utils::to_u32(utils::floordiv(D, 2), kOp, "half");
  plan.params0.q_pairs = utils::to_u32(q_pairs, kOp, "q_pairs");
  plan.params0.num_elements = utils::to_u32(utils::add(q_pairs, k_pairs), kOp, "num_elements");
  if (graph.has_feature(Feature::ShaderF16) && (xq.dtype == DType::Float16)) {
    plan.route0 = 0;  // rotary_emb_meta_f16
    plan.grid0 = utils::elementwise_grid(utils::add(q_pairs, k_pairs),
                                         kRotaryEmbMetaF16Kernel.workgroup_size[0],
                                         graph.limits().max_workgroups_per_dimension);
  } else if (xq.dtype == DType::Float16) {
    plan.route0 = 1;  // rotary_emb_meta_f16_packed
    plan.grid0 = utils::elementwise_grid(utils::add(q_pairs, k_pairs),
                                         kRotaryEmbMetaF16PackedKernel.workgroup_size[0],
                                         graph.limits().max_workgroups_per_dimension);
  } else {
    plan.route0 = 2;  // rotary_emb_meta
    plan.grid0 = utils::elementwise_grid(utils::add(q_pairs, k_pairs),
                                         kRotaryEmbMetaKernel.workgroup_size[0],
                                         graph.limits().max_workgroups_per_dimension);
  }
  return plan;
}

// Gives the outputs the shape the op's formula computes from the live inputs.
void resize_apply_rotary_emb_outputs(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const Tensor& xq = graph.get_tensor(args[0]);
  const Tensor& xk = graph.get_tensor(args[1]);
  const std::vector<ValueRef>& out = graph.get_value_list(args[4]);
  Tensor& xq_out = graph.get_tensor(utils::at(out, 0));
  Tensor& xk_out = graph.get_tensor(utils::at(out, 1));
  utils::resize_output(kOp, "xq_out", xq_out, xq.dims());
  utils::resize_output(kOp, "xk_out", xk_out, xk.dims());
}

void add_apply_rotary_emb(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const ApplyRotaryEmbPlan built = plan_apply_rotary_emb(graph, args);
  const DispatchId dispatch0 = graph.add_dispatch(
      *kDispatch0Kernels[built.route0], built.overrides0,
      {Binding::params(), Binding::of(args[0]), Binding::of(args[1]), Binding::of(args[2]),
       Binding::of(args[3]), Binding::of(graph.get_value_list(args[4])[0]),
       Binding::of(graph.get_value_list(args[4])[1])},
      &built.params0, sizeof(built.params0), built.grid0);
  graph.add_resize_hook([args, built, dispatch0](WebGPUGraph& graph) {
    resize_apply_rotary_emb_outputs(graph, args);
    const ApplyRotaryEmbPlan plan = plan_apply_rotary_emb(graph, args);
    if (plan.route0 != built.route0) {
      utils::fail(kOp, "inputs", "were resized into a different kernel route",
                  kDispatch0Kernels[plan.route0]->name, kDispatch0Kernels[built.route0]->name);
    }
    graph.update_dispatch(dispatch0, &plan.params0, sizeof(plan.params0), plan.grid0);
  });
}

}  // namespace
}  // namespace webgpu_delegate

WEBGPU_REGISTER_OP(et_vk.apply_rotary_emb.default, webgpu_delegate::add_apply_rotary_emb, None);
