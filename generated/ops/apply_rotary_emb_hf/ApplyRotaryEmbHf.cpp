// @generated from codegen/specs/apply_rotary_emb_hf/apply_rotary_emb_hf.py - DO NOT EDIT.
// Op apply_rotary_emb_hf: et_vk.apply_rotary_emb_hf.default

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ops/apply_rotary_emb_hf/rotary_emb_hf_f16_packed_wgsl.h"
#include "ops/apply_rotary_emb_hf/rotary_emb_hf_f16_wgsl.h"
#include "ops/apply_rotary_emb_hf/rotary_emb_hf_wgsl.h"
#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "apply_rotary_emb_hf";

struct ApplyRotaryEmbHfParams {
  uint32_t S;
  uint32_t Hq;
  uint32_t Hk;
  uint32_t D;
  uint32_t R;
  uint32_t half;
  uint32_t start_pos;
  uint32_t hf;
  uint32_t batch_rows;
  uint32_t q_elems;
  uint32_t num_elements;
  uint32_t _pad0;
};
static_assert(offsetof(ApplyRotaryEmbHfParams, S) == 0,
              "ApplyRotaryEmbHfParams.S must sit at WGSL offset 0");
static_assert(offsetof(ApplyRotaryEmbHfParams, Hq) == 4,
              "ApplyRotaryEmbHfParams.Hq must sit at WGSL offset 4");
static_assert(offsetof(ApplyRotaryEmbHfParams, Hk) == 8,
              "ApplyRotaryEmbHfParams.Hk must sit at WGSL offset 8");
static_assert(offsetof(ApplyRotaryEmbHfParams, D) == 12,
              "ApplyRotaryEmbHfParams.D must sit at WGSL offset 12");
static_assert(offsetof(ApplyRotaryEmbHfParams, R) == 16,
              "ApplyRotaryEmbHfParams.R must sit at WGSL offset 16");
static_assert(offsetof(ApplyRotaryEmbHfParams, half) == 20,
              "ApplyRotaryEmbHfParams.half must sit at WGSL offset 20");
static_assert(offsetof(ApplyRotaryEmbHfParams, start_pos) == 24,
              "ApplyRotaryEmbHfParams.start_pos must sit at WGSL offset 24");
static_assert(offsetof(ApplyRotaryEmbHfParams, hf) == 28,
              "ApplyRotaryEmbHfParams.hf must sit at WGSL offset 28");
static_assert(offsetof(ApplyRotaryEmbHfParams, batch_rows) == 32,
              "ApplyRotaryEmbHfParams.batch_rows must sit at WGSL offset 32");
static_assert(offsetof(ApplyRotaryEmbHfParams, q_elems) == 36,
              "ApplyRotaryEmbHfParams.q_elems must sit at WGSL offset 36");
static_assert(offsetof(ApplyRotaryEmbHfParams, num_elements) == 40,
              "ApplyRotaryEmbHfParams.num_elements must sit at WGSL offset 40");
static_assert(sizeof(ApplyRotaryEmbHfParams) == 48,
              "ApplyRotaryEmbHfParams must match the WGSL struct size 48");

const KernelSource kRotaryEmbHfF16Kernel{
    "rotary_emb_hf_f16",
    kRotaryEmbHfF16WGSL,
    "main",
    {kRotaryEmbHfF16WorkgroupSizeX, kRotaryEmbHfF16WorkgroupSizeY, kRotaryEmbHfF16WorkgroupSizeZ},
    kRotaryEmbHfF16Bindings,
    kRotaryEmbHfF16BindingCount,
    kRotaryEmbHfF16Features};
const KernelSource kRotaryEmbHfF16PackedKernel{
    "rotary_emb_hf_f16_packed",
    kRotaryEmbHfF16PackedWGSL,
    "main",
    {kRotaryEmbHfF16PackedWorkgroupSizeX, kRotaryEmbHfF16PackedWorkgroupSizeY,
     kRotaryEmbHfF16PackedWorkgroupSizeZ},
    kRotaryEmbHfF16PackedBindings,
    kRotaryEmbHfF16PackedBindingCount};
const KernelSource kRotaryEmbHfKernel{
    "rotary_emb_hf",
    kRotaryEmbHfWGSL,
    "main",
    {kRotaryEmbHfWorkgroupSizeX, kRotaryEmbHfWorkgroupSizeY, kRotaryEmbHfWorkgroupSizeZ},
    kRotaryEmbHfBindings,
    kRotaryEmbHfBindingCount};
// Dispatch 0's kernels, in route order.
const KernelSource* const kDispatch0Kernels[] = {&kRotaryEmbHfF16Kernel,
                                                 &kRotaryEmbHfF16PackedKernel, &kRotaryEmbHfKernel};

// The argument values, checked and turned into what each dispatch needs.
struct ApplyRotaryEmbHfPlan {
  size_t route0 = 0;
  ApplyRotaryEmbHfParams params0{};
  utils::Grid grid0;
  std::vector<OverrideValue> overrides0;
};

ApplyRotaryEmbHfPlan plan_apply_rotary_emb_hf(WebGPUGraph& graph,
                                              const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 6);
  const Tensor& xq = graph.get_tensor(args[0]);
  const Tensor& xk = graph.get_tensor(args[1]);
  const Tensor& freqs_cos = graph.get_tensor(args[2]);
  const Tensor& freqs_sin = graph.get_tensor(args[3]);
  const int64_t start_pos = utils::read_int(graph, args[4], kOp, "start_pos", true);
  const std::vector<ValueRef>& out = graph.get_value_list(args[5]);
  const Tensor& xq_out = graph.get_tensor(utils::at(out, 0));
  const Tensor& xk_out = graph.get_tensor(utils::at(out, 1));
  utils::check_dtype(kOp, "xq", xq, {DType::Float32, DType::Float16});
  utils::check_rank(kOp, "xq", xq, 4, 4);
  utils::check_dtype(kOp, "xk", xk, {DType::Float32, DType::Float16});
  utils::check_rank(kOp, "xk", xk, 4, 4);
  utils::check_dtype(kOp, "freqs_cos", freqs_cos, {DType::Float32, DType::Float16});
  utils::check_rank(kOp, "freqs_cos", freqs_cos, 2, 3);
  utils::check_dtype(kOp, "freqs_sin", freqs_sin, {DType::Float32, DType::Float16});
  utils::check_rank(kOp, "freqs_sin", freqs_sin, 2, 3);
  utils::check_dtype(kOp, "xq_out", xq_out, {DType::Float32, DType::Float16});
  utils::check_rank(kOp, "xq_out", xq_out, 4, 4);
  utils::check_dtype(kOp, "xk_out", xk_out, {DType::Float32, DType::Float16});
  utils::check_rank(kOp, "xk_out", xk_out, 4, 4);
  const int64_t hf = (freqs_cos.rank() == 3) ? 1 : 0;
  const int64_t S = utils::let(kOp, "S = xq.dims[2] if hf == 1 else xq.dims[1]",
                               [&]() -> int64_t { return (hf == 1) ? xq.dim(2) : xq.dim(1); });
  const int64_t D = utils::let(kOp, "D = xq.dims[3]", [&]() -> int64_t { return xq.dim(3); });
  const int64_t R =
      utils::let(kOp, "R = freqs_cos.dims[-1]", [&]() -> int64_t { return freqs_cos.dim(-1); });
  const int64_t q_elems =
      utils::let(kOp, "q_elems = xq.numel", [&]() -> int64_t { return xq.numel(); });
  const int64_t k_elems =
      utils::let(kOp, "k_elems = xk.numel", [&]() -> int64_t { return xk.numel(); });
  if ((xk.dim(0) != xq.dim(0)) || (xk.dim((hf == 1) ? 2 : 1) != S)) {
    utils::fail(
        kOp, "xk", "has a different batch or sequence length than xq",
        utils::format_value(xk.dims()),
        "batch " + utils::format_value(xq.dim(0)) + ", sequence length " + utils::format_value(S));
  }
  if (xk.dim(3) != D) {
    utils::fail(kOp, "xk", "has a different head_dim than xq", utils::format_value(xk.dim(3)),
                utils::format_value(D));
  }
  if (freqs_sin.dims() != freqs_cos.dims()) {
    utils::fail(kOp, "freqs_sin", "has a different shape than freqs_cos",
                utils::format_value(freqs_sin.dims()), utils::format_value(freqs_cos.dims()));
  }
  if (utils::floormod(R, 2) != 0) {
    utils::fail(kOp, "freqs_cos", "covers an odd rotary dim", utils::format_value(R),
                "an even rotary dim");
  }
  if (R > D) {
    utils::fail(kOp, "freqs_cos", "covers more than xq's head_dim", utils::format_value(R),
                "at most " + utils::format_value(D));
  }
  if ((hf != 1) && ((start_pos < 0) || (utils::add(start_pos, S) > freqs_cos.dim(0)))) {
    utils::fail(kOp, "start_pos", "puts the sequence past the end of the cos/sin tables",
                utils::format_value(start_pos),
                "0.." + utils::format_value(utils::sub(freqs_cos.dim(0), S)));
  }
  if ((hf != 0) && (start_pos != 0)) {
    utils::fail(kOp, "start_pos", "must be 0 with [B, S, rotary_dim] cos/sin tables",
                utils::format_value(start_pos), "0");
  }
  if ((hf != 0) && (freqs_cos.dim(1) != S)) {
    utils::fail(kOp, "freqs_cos", "has a different sequence length than xq",
                utils::format_value(freqs_cos.dim(1)), utils::format_value(S));
  }
  if ((hf != 0) && (freqs_cos.dim(0) != 1) && (freqs_cos.dim(0) != xq.dim(0))) {
    utils::fail(kOp, "freqs_cos", "has a batch that is neither 1 nor xq's",
                utils::format_value(freqs_cos.dim(0)), "1 or " + utils::format_value(xq.dim(0)));
  }
  if ((xk.dtype != xq.dtype) || (freqs_cos.dtype != xq.dtype) || (freqs_sin.dtype != xq.dtype)) {
    utils::fail(kOp, "xq", "does not share its dtype with xk, freqs_cos and freqs_sin",
                utils::format_value(xq.dtype), "the dtype of xk, freqs_cos and freqs_sin");
  }
  utils::check_output_dims(kOp, "xq_out", xq_out, xq.dims());
  utils::check_output_dims(kOp, "xk_out", xk_out, xk.dims());

  ApplyRotaryEmbHfPlan plan;
  plan.params0.S = utils::to_u32(S, kOp, "S");
  plan.params0.Hq = utils::to_u32(xq.dim((hf == 1) ? 1 : 2), kOp, "Hq");
  plan.params0.Hk = utils::to_u32(xk.dim((hf == 1) ? 1 : 2), kOp, "Hk");
  plan.params0.D = utils::to_u32(D, kOp, "D");
  plan.params0.R = utils::to_u32(R, kOp, "R");
  plan.params0.half = utils::to_u32(utils::floordiv(R, 2), kOp, "half");
  plan.params0.start_pos = utils::to_u32(start_pos, kOp, "start_pos");
  plan.params0.hf = utils::to_u32(hf, kOp, "hf");
  plan.params0.batch_rows =
      utils::to_u32(((hf == 1) && (freqs_cos.dim(0) > 1)) ? S : 0, kOp, "batch_rows");
  plan.params0.q_elems = utils::to_u32(q_elems, kOp, "q_elems");
  plan.params0.num_elements = utils::to_u32(utils::add(q_elems, k_elems), kOp, "num_elements");
  if (graph.has_feature(Feature::ShaderF16) && (xq.dtype == DType::Float16)) {
    plan.route0 = 0;  // rotary_emb_hf_f16
    plan.grid0 = utils::elementwise_grid(utils::add(q_elems, k_elems),
                                         kRotaryEmbHfF16Kernel.workgroup_size[0],
                                         graph.limits().max_workgroups_per_dimension);
  } else if (xq.dtype == DType::Float16) {
    plan.route0 = 1;  // rotary_emb_hf_f16_packed
    plan.grid0 = utils::elementwise_grid(utils::add(q_elems, k_elems),
                                         kRotaryEmbHfF16PackedKernel.workgroup_size[0],
                                         graph.limits().max_workgroups_per_dimension);
  } else {
    plan.route0 = 2;  // rotary_emb_hf
    plan.grid0 =
        utils::elementwise_grid(utils::add(q_elems, k_elems), kRotaryEmbHfKernel.workgroup_size[0],
                                graph.limits().max_workgroups_per_dimension);
  }
  return plan;
}

// Gives the outputs the shape the op's formula computes from the live inputs.
void resize_apply_rotary_emb_hf_outputs(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const Tensor& xq = graph.get_tensor(args[0]);
  const Tensor& xk = graph.get_tensor(args[1]);
  const std::vector<ValueRef>& out = graph.get_value_list(args[5]);
  Tensor& xq_out = graph.get_tensor(utils::at(out, 0));
  Tensor& xk_out = graph.get_tensor(utils::at(out, 1));
  utils::resize_output(kOp, "xq_out", xq_out, xq.dims());
  utils::resize_output(kOp, "xk_out", xk_out, xk.dims());
}

void add_apply_rotary_emb_hf(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const ApplyRotaryEmbHfPlan built = plan_apply_rotary_emb_hf(graph, args);
  const DispatchId dispatch0 = graph.add_dispatch(
      *kDispatch0Kernels[built.route0], built.overrides0,
      {Binding::params(), Binding::of(args[0]), Binding::of(args[1]), Binding::of(args[2]),
       Binding::of(args[3]), Binding::of(graph.get_value_list(args[5])[0]),
       Binding::of(graph.get_value_list(args[5])[1])},
      &built.params0, sizeof(built.params0), built.grid0);
  graph.add_resize_hook([args, built, dispatch0](WebGPUGraph& graph) {
    resize_apply_rotary_emb_hf_outputs(graph, args);
    const ApplyRotaryEmbHfPlan plan = plan_apply_rotary_emb_hf(graph, args);
    if (plan.route0 != built.route0) {
      utils::fail(kOp, "inputs", "were resized into a different kernel route",
                  kDispatch0Kernels[plan.route0]->name, kDispatch0Kernels[built.route0]->name);
    }
    graph.update_dispatch(dispatch0, &plan.params0, sizeof(plan.params0), plan.grid0);
  });
}

}  // namespace
}  // namespace webgpu_delegate

WEBGPU_REGISTER_OP(et_vk.apply_rotary_emb_hf.default, webgpu_delegate::add_apply_rotary_emb_hf,
                   None);
