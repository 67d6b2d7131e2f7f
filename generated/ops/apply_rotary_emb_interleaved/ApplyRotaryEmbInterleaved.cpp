// @generated from codegen/specs/apply_rotary_emb_interleaved/apply_rotary_emb_interleaved.py - DO
// NOT EDIT. Op apply_rotary_emb_interleaved: et_vk.apply_rotary_emb_interleaved.default

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ops/apply_rotary_emb_interleaved/rotary_emb_interleaved_f16_packed_wgsl.h"
#include "ops/apply_rotary_emb_interleaved/rotary_emb_interleaved_f16_wgsl.h"
#include "ops/apply_rotary_emb_interleaved/rotary_emb_interleaved_wgsl.h"
#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "apply_rotary_emb_interleaved";

struct ApplyRotaryEmbInterleavedParams {
  uint32_t N;
  uint32_t half;
  uint32_t num_elements;
  uint32_t _pad0;
};
static_assert(offsetof(ApplyRotaryEmbInterleavedParams, N) == 0,
              "ApplyRotaryEmbInterleavedParams.N must sit at WGSL offset 0");
static_assert(offsetof(ApplyRotaryEmbInterleavedParams, half) == 4,
              "ApplyRotaryEmbInterleavedParams.half must sit at WGSL offset 4");
static_assert(offsetof(ApplyRotaryEmbInterleavedParams, num_elements) == 8,
              "ApplyRotaryEmbInterleavedParams.num_elements must sit at WGSL offset 8");
static_assert(sizeof(ApplyRotaryEmbInterleavedParams) == 16,
              "ApplyRotaryEmbInterleavedParams must match the WGSL struct size 16");

const KernelSource kRotaryEmbInterleavedF16Kernel{
    "rotary_emb_interleaved_f16",
    kRotaryEmbInterleavedF16WGSL,
    "main",
    {kRotaryEmbInterleavedF16WorkgroupSizeX, kRotaryEmbInterleavedF16WorkgroupSizeY,
     kRotaryEmbInterleavedF16WorkgroupSizeZ},
    kRotaryEmbInterleavedF16Bindings,
    kRotaryEmbInterleavedF16BindingCount,
    kRotaryEmbInterleavedF16Features};
const KernelSource kRotaryEmbInterleavedF16PackedKernel{
    "rotary_emb_interleaved_f16_packed",
    kRotaryEmbInterleavedF16PackedWGSL,
    "main",
    {kRotaryEmbInterleavedF16PackedWorkgroupSizeX, kRotaryEmbInterleavedF16PackedWorkgroupSizeY,
     kRotaryEmbInterleavedF16PackedWorkgroupSizeZ},
    kRotaryEmbInterleavedF16PackedBindings,
    kRotaryEmbInterleavedF16PackedBindingCount};
const KernelSource kRotaryEmbInterleavedKernel{
    "rotary_emb_interleaved",
    kRotaryEmbInterleavedWGSL,
    "main",
    {kRotaryEmbInterleavedWorkgroupSizeX, kRotaryEmbInterleavedWorkgroupSizeY,
     kRotaryEmbInterleavedWorkgroupSizeZ},
    kRotaryEmbInterleavedBindings,
    kRotaryEmbInterleavedBindingCount};
// Dispatch 0's kernels, in route order.
const KernelSource* const kDispatch0Kernels[] = {&kRotaryEmbInterleavedF16Kernel,
                                                 &kRotaryEmbInterleavedF16PackedKernel,
                                                 &kRotaryEmbInterleavedKernel};

// The argument values, checked and turned into what each dispatch needs.
struct ApplyRotaryEmbInterleavedPlan {
  size_t route0 = 0;
  ApplyRotaryEmbInterleavedParams params0{};
  utils::Grid grid0;
  std::vector<OverrideValue> overrides0;
};

ApplyRotaryEmbInterleavedPlan plan_apply_rotary_emb_interleaved(WebGPUGraph& graph,
                                                                const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 3);
  const Tensor& x = graph.get_tensor(args[0]);
  const Tensor& freqs_cis = graph.get_tensor(args[1]);
  const Tensor& out = graph.get_tensor(args[2]);
  utils::check_dtype(kOp, "x", x, {DType::Float32, DType::Float16});
  utils::check_rank(kOp, "x", x, 3, 3);
  utils::check_dtype(kOp, "freqs_cis", freqs_cis, {DType::Float32, DType::Float16});
  utils::check_rank(kOp, "freqs_cis", freqs_cis, 1, 4);
  utils::check_dtype(kOp, "out", out, {DType::Float32, DType::Float16});
  utils::check_rank(kOp, "out", out, 3, 3);
  const int64_t N = utils::let(kOp, "N = x.dims[1]", [&]() -> int64_t { return x.dim(1); });
  const int64_t C = utils::let(kOp, "C = x.dims[2]", [&]() -> int64_t { return x.dim(2); });
  if (utils::floormod(C, 2) != 0) {
    utils::fail(kOp, "x", "has an odd last dim (it holds (real, imag) pairs)",
                utils::format_value(x.dims()), "an even C in [B, N, C]");
  }
  if (freqs_cis.numel() != utils::mul(N, C)) {
    utils::fail(kOp, "freqs_cis", "does not hold one (cos, sin) pair per pair of a row of x",
                utils::format_value(freqs_cis.dims()),
                utils::format_value(utils::mul(N, C)) + " elements ([N, C] flattened)");
  }
  if (freqs_cis.dtype != x.dtype) {
    utils::fail(kOp, "x", "does not share its dtype with freqs_cis", utils::format_value(x.dtype),
                "the dtype of freqs_cis");
  }
  utils::check_output_dims(kOp, "out", out, x.dims());

  ApplyRotaryEmbInterleavedPlan plan;
  plan.params0.N = utils::to_u32(N, kOp, "N");
  plan.params0.half = utils::to_u32(utils::floordiv(C, 2), kOp, "half");
  plan.params0.num_elements = utils::to_u32(utils::floordiv(x.numel(), 2), kOp, "num_elements");
  if (graph.has_feature(Feature::ShaderF16) && (x.dtype == DType::Float16)) {
    plan.route0 = 0;  // rotary_emb_interleaved_f16
    plan.grid0 = utils::elementwise_grid(utils::floordiv(x.numel(), 2),
                                         kRotaryEmbInterleavedF16Kernel.workgroup_size[0],
                                         graph.limits().max_workgroups_per_dimension);
  } else if (x.dtype == DType::Float16) {
    plan.route0 = 1;  // rotary_emb_interleaved_f16_packed
    plan.grid0 = utils::elementwise_grid(utils::floordiv(x.numel(), 2),
                                         kRotaryEmbInterleavedF16PackedKernel.workgroup_size[0],
                                         graph.limits().max_workgroups_per_dimension);
  } else {
    plan.route0 = 2;  // rotary_emb_interleaved
    plan.grid0 = utils::elementwise_grid(utils::floordiv(x.numel(), 2),
                                         kRotaryEmbInterleavedKernel.workgroup_size[0],
                                         graph.limits().max_workgroups_per_dimension);
  }
  return plan;
}

// Gives the outputs the shape the op's formula computes from the live inputs.
void resize_apply_rotary_emb_interleaved_outputs(WebGPUGraph& graph,
                                                 const std::vector<ValueRef>& args) {
  const Tensor& x = graph.get_tensor(args[0]);
  Tensor& out = graph.get_tensor(args[2]);
  utils::resize_output(kOp, "out", out, x.dims());
}

void add_apply_rotary_emb_interleaved(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const ApplyRotaryEmbInterleavedPlan built = plan_apply_rotary_emb_interleaved(graph, args);
  const DispatchId dispatch0 = graph.add_dispatch(
      *kDispatch0Kernels[built.route0], built.overrides0,
      {Binding::params(), Binding::of(args[0]), Binding::of(args[1]), Binding::of(args[2])},
      &built.params0, sizeof(built.params0), built.grid0);
  graph.add_resize_hook([args, built, dispatch0](WebGPUGraph& graph) {
    resize_apply_rotary_emb_interleaved_outputs(graph, args);
    const ApplyRotaryEmbInterleavedPlan plan = plan_apply_rotary_emb_interleaved(graph, args);
    if (plan.route0 != built.route0) {
      utils::fail(kOp, "inputs", "were resized into a different kernel route",
                  kDispatch0Kernels[plan.route0]->name, kDispatch0Kernels[built.route0]->name);
    }
    graph.update_dispatch(dispatch0, &plan.params0, sizeof(plan.params0), plan.grid0);
  });
}

}  // namespace
}  // namespace webgpu_delegate

WEBGPU_REGISTER_OP(et_vk.apply_rotary_emb_interleaved.default,
                   webgpu_delegate::add_apply_rotary_emb_interleaved, None);
