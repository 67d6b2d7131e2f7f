// @generated from codegen/specs/sdpa/sdpa.py - DO NOT EDIT.
// Op sdpa: et_vk.sdpa.default

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ops/sdpa/attn_v_f16_packed_wgsl.h"
#include "ops/sdpa/attn_v_f16_wgsl.h"
#include "ops/sdpa/attn_v_wgsl.h"
#include "ops/sdpa/qk_per_entry_f16_packed_wgsl.h"
#include "ops/sdpa/qk_per_entry_f16_wgsl.h"
#include "ops/sdpa/qk_per_entry_wgsl.h"
#include "ops/sdpa/qk_per_row_f16_packed_wgsl.h"
#include "ops/sdpa/qk_per_row_f16_wgsl.h"
#include "ops/sdpa/qk_per_row_wgsl.h"
#include "ops/sdpa/softmax_rows_wgsl.h"
#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "sdpa";

struct SdpaQkParams {
  uint32_t Sq;
  uint32_t Skv;
  uint32_t D4;
  uint32_t H;
  uint32_t num_rows;
  float scale;
  uint32_t has_mask;
  uint32_t _pad0;
  uint32_t mask_strides[4];
};
static_assert(offsetof(SdpaQkParams, Sq) == 0, "SdpaQkParams.Sq must sit at WGSL offset 0");
static_assert(offsetof(SdpaQkParams, Skv) == 4, "SdpaQkParams.Skv must sit at WGSL offset 4");
static_assert(offsetof(SdpaQkParams, D4) == 8, "SdpaQkParams.D4 must sit at WGSL offset 8");
static_assert(offsetof(SdpaQkParams, H) == 12, "SdpaQkParams.H must sit at WGSL offset 12");
static_assert(offsetof(SdpaQkParams, num_rows) == 16,
              "SdpaQkParams.num_rows must sit at WGSL offset 16");
static_assert(offsetof(SdpaQkParams, scale) == 20, "SdpaQkParams.scale must sit at WGSL offset 20");
static_assert(offsetof(SdpaQkParams, has_mask) == 24,
              "SdpaQkParams.has_mask must sit at WGSL offset 24");
static_assert(offsetof(SdpaQkParams, mask_strides) == 32,
              "SdpaQkParams.mask_strides must sit at WGSL offset 32");
static_assert(sizeof(SdpaQkParams) == 48, "SdpaQkParams must match the WGSL struct size 48");

struct SdpaSoftmaxParams {
  uint32_t Skv;
  uint32_t num_rows;
  uint32_t _pad0[2];
};
static_assert(offsetof(SdpaSoftmaxParams, Skv) == 0,
              "SdpaSoftmaxParams.Skv must sit at WGSL offset 0");
static_assert(offsetof(SdpaSoftmaxParams, num_rows) == 4,
              "SdpaSoftmaxParams.num_rows must sit at WGSL offset 4");
static_assert(sizeof(SdpaSoftmaxParams) == 16,
              "SdpaSoftmaxParams must match the WGSL struct size 16");

struct SdpaAvParams {
  uint32_t Sq;
  uint32_t Skv;
  uint32_t Dv;
  uint32_t num_elements;
};
static_assert(offsetof(SdpaAvParams, Sq) == 0, "SdpaAvParams.Sq must sit at WGSL offset 0");
static_assert(offsetof(SdpaAvParams, Skv) == 4, "SdpaAvParams.Skv must sit at WGSL offset 4");
static_assert(offsetof(SdpaAvParams, Dv) == 8, "SdpaAvParams.Dv must sit at WGSL offset 8");
static_assert(offsetof(SdpaAvParams, num_elements) == 12,
              "SdpaAvParams.num_elements must sit at WGSL offset 12");
static_assert(sizeof(SdpaAvParams) == 16, "SdpaAvParams must match the WGSL struct size 16");

const KernelSource kQkPerEntryF16Kernel{
    "qk_per_entry_f16",
    kQkPerEntryF16WGSL,
    "main",
    {kQkPerEntryF16WorkgroupSizeX, kQkPerEntryF16WorkgroupSizeY, kQkPerEntryF16WorkgroupSizeZ},
    kQkPerEntryF16Bindings,
    kQkPerEntryF16BindingCount,
    kQkPerEntryF16Features};
const KernelSource kQkPerEntryF16PackedKernel{
    "qk_per_entry_f16_packed",
    kQkPerEntryF16PackedWGSL,
    "main",
    {kQkPerEntryF16PackedWorkgroupSizeX, kQkPerEntryF16PackedWorkgroupSizeY,
     kQkPerEntryF16PackedWorkgroupSizeZ},
    kQkPerEntryF16PackedBindings,
    kQkPerEntryF16PackedBindingCount};
const KernelSource kQkPerRowF16Kernel{
    "qk_per_row_f16",
    kQkPerRowF16WGSL,
    "main",
    {kQkPerRowF16WorkgroupSizeX, kQkPerRowF16WorkgroupSizeY, kQkPerRowF16WorkgroupSizeZ},
    kQkPerRowF16Bindings,
    kQkPerRowF16BindingCount,
    kQkPerRowF16Features};
const KernelSource kQkPerRowF16PackedKernel{
    "qk_per_row_f16_packed",
    kQkPerRowF16PackedWGSL,
    "main",
    {kQkPerRowF16PackedWorkgroupSizeX, kQkPerRowF16PackedWorkgroupSizeY,
     kQkPerRowF16PackedWorkgroupSizeZ},
    kQkPerRowF16PackedBindings,
    kQkPerRowF16PackedBindingCount};
const KernelSource kQkPerEntryKernel{
    "qk_per_entry",
    kQkPerEntryWGSL,
    "main",
    {kQkPerEntryWorkgroupSizeX, kQkPerEntryWorkgroupSizeY, kQkPerEntryWorkgroupSizeZ},
    kQkPerEntryBindings,
    kQkPerEntryBindingCount};
const KernelSource kQkPerRowKernel{
    "qk_per_row",
    kQkPerRowWGSL,
    "main",
    {kQkPerRowWorkgroupSizeX, kQkPerRowWorkgroupSizeY, kQkPerRowWorkgroupSizeZ},
    kQkPerRowBindings,
    kQkPerRowBindingCount};
const KernelSource kSoftmaxRowsKernel{
    "softmax_rows",
    kSoftmaxRowsWGSL,
    "main",
    {kSoftmaxRowsWorkgroupSizeX, kSoftmaxRowsWorkgroupSizeY, kSoftmaxRowsWorkgroupSizeZ},
    kSoftmaxRowsBindings,
    kSoftmaxRowsBindingCount};
const KernelSource kAttnVF16Kernel{
    "attn_v_f16",
    kAttnVF16WGSL,
    "main",
    {kAttnVF16WorkgroupSizeX, kAttnVF16WorkgroupSizeY, kAttnVF16WorkgroupSizeZ},
    kAttnVF16Bindings,
    kAttnVF16BindingCount,
    kAttnVF16Features};
const KernelSource kAttnVF16PackedKernel{
    "attn_v_f16_packed",
    kAttnVF16PackedWGSL,
    "main",
    {kAttnVF16PackedWorkgroupSizeX, kAttnVF16PackedWorkgroupSizeY, kAttnVF16PackedWorkgroupSizeZ},
    kAttnVF16PackedBindings,
    kAttnVF16PackedBindingCount};
const KernelSource kAttnVKernel{
    "attn_v",       kAttnVWGSL,
    "main",         {kAttnVWorkgroupSizeX, kAttnVWorkgroupSizeY, kAttnVWorkgroupSizeZ},
    kAttnVBindings, kAttnVBindingCount};
// Dispatch 0's kernels, in route order.
const KernelSource* const kDispatch0Kernels[] = {&kQkPerEntryF16Kernel, &kQkPerEntryF16PackedKernel,
                                                 &kQkPerRowF16Kernel,   &kQkPerRowF16PackedKernel,
                                                 &kQkPerEntryKernel,    &kQkPerRowKernel};
// Dispatch 2's kernels, in route order.
const KernelSource* const kDispatch2Kernels[] = {&kAttnVF16Kernel, &kAttnVF16PackedKernel,
                                                 &kAttnVKernel};

// The argument values, checked and turned into what each dispatch needs.
struct SdpaPlan {
  std::vector<int64_t> scratch_attn;  // dims of scratch tensor attn
  size_t route0 = 0;
  SdpaQkParams params0{};
  utils::Grid grid0;
  std::vector<OverrideValue> overrides0;
  SdpaSoftmaxParams params1{};
  utils::Grid grid1;
  std::vector<OverrideValue> overrides1;
  size_t route2 = 0;
  SdpaAvParams params2{};
  utils::Grid grid2;
  std::vector<OverrideValue> overrides2;
};

SdpaPlan plan_sdpa(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 6);
  const Tensor& q = graph.get_tensor(args[0]);
  const Tensor& k = graph.get_tensor(args[1]);
  const Tensor& v = graph.get_tensor(args[2]);
  const Tensor* attn_mask = graph.is_null(args[3]) ? nullptr : &graph.get_tensor(args[3]);
  const double scale = graph.is_null(args[4])
                           ? utils::divide(1.0, utils::sqrt_of(static_cast<double>(q.dim(-1))))
                           : utils::read_double(graph, args[4], kOp, "scale");
  const Tensor& out = graph.get_tensor(args[5]);
  utils::check_dtype(kOp, "q", q, {DType::Float32, DType::Float16});
  utils::check_rank(kOp, "q", q, 4, 4);
  utils::check_dtype(kOp, "k", k, {DType::Float32, DType::Float16});
  utils::check_rank(kOp, "k", k, 4, 4);
  utils::check_dtype(kOp, "v", v, {DType::Float32, DType::Float16});
  utils::check_rank(kOp, "v", v, 4, 4);
  if (attn_mask != nullptr) {
    utils::check_dtype(kOp, "attn_mask", *attn_mask, {DType::Float32, DType::Float16});
    utils::check_rank(kOp, "attn_mask", *attn_mask, 1, 4);
  }
  utils::check_dtype(kOp, "out", out, {DType::Float32, DType::Float16});
  utils::check_rank(kOp, "out", out, 4, 4);
  const int64_t B = utils::let(kOp, "B = q.dims[0]", [&]() -> int64_t { return q.dim(0); });
  const int64_t H = utils::let(kOp, "H = q.dims[1]", [&]() -> int64_t { return q.dim(1); });
  const int64_t Sq = utils::let(kOp, "Sq = q.dims[2]", [&]() -> int64_t { return q.dim(2); });
  const int64_t D = utils::let(kOp, "D = q.dims[3]", [&]() -> int64_t { return q.dim(3); });
  const int64_t Skv = utils::let(kOp, "Skv = k.dims[2]", [&]() -> int64_t { return k.dim(2); });
  const int64_t Dv = utils::let(kOp, "Dv = v.dims[3]", [&]() -> int64_t { return v.dim(3); });
  const int64_t num_rows = utils::let(
      kOp, "num_rows = B * H * Sq", [&]() -> int64_t { return utils::mul(utils::mul(B, H), Sq); });
  const std::vector<int64_t> mask4 = utils::let(
      kOp, "mask4 = right_align(attn_mask.dims, 4, 1) if attn_mask.present else [1, 1, 1, 1]",
      [&]() -> std::vector<int64_t> {
        return (attn_mask != nullptr) ? utils::right_align(attn_mask->dims(), 4, 1)
                                      : std::vector<int64_t>{1, 1, 1, 1};
      });
  if (utils::slice(k.dims(), 0, 2) != utils::slice(q.dims(), 0, 2)) {
    utils::fail(kOp, "k", "has a different batch or head count than q",
                utils::format_value(k.dims()),
                "[" + utils::format_value(B) + ", " + utils::format_value(H) + ", S_kv, " +
                    utils::format_value(D) + "]");
  }
  if (k.dim(3) != D) {
    utils::fail(kOp, "k", "has a different head_dim than q", utils::format_value(k.dim(3)),
                utils::format_value(D));
  }
  if (utils::slice(v.dims(), 0, 3) != utils::slice(k.dims(), 0, 3)) {
    utils::fail(kOp, "v", "does not match k's batch, heads and length",
                utils::format_value(v.dims()),
                "[" + utils::format_value(B) + ", " + utils::format_value(H) + ", " +
                    utils::format_value(Skv) + ", D_v]");
  }
  if (utils::floormod(D, 4) != 0) {
    utils::fail(kOp, "q", "has a head_dim that is not a multiple of 4 (vec4 loads)",
                utils::format_value(D), "a multiple of 4");
  }
  if (((utils::at(mask4, 0) != 1) && (utils::at(mask4, 0) != B)) ||
      ((utils::at(mask4, 1) != 1) && (utils::at(mask4, 1) != H)) ||
      ((utils::at(mask4, 2) != 1) && (utils::at(mask4, 2) != Sq)) ||
      ((utils::at(mask4, 3) != 1) && (utils::at(mask4, 3) != Skv))) {
    utils::fail(kOp, "attn_mask", "does not broadcast to the attention weights",
                utils::format_value(attn_mask->dims()),
                "a shape broadcastable to [" + utils::format_value(B) + ", " +
                    utils::format_value(H) + ", " + utils::format_value(Sq) + ", " +
                    utils::format_value(Skv) + "]");
  }
  if ((k.dtype != q.dtype) || (v.dtype != q.dtype) ||
      ((attn_mask != nullptr) && (attn_mask->dtype != q.dtype))) {
    utils::fail(kOp, "q", "does not share its dtype with k, v and attn_mask",
                utils::format_value(q.dtype), "the dtype of k, v and attn_mask");
  }
  utils::check_output_dims(kOp, "out", out, std::vector<int64_t>{B, H, Sq, Dv});
  Tensor attn;  // scratch, allocated by add_sdpa
  attn.dtype = DType::Float32;
  attn.max_dims = std::vector<int64_t>{B, H, Sq, Skv};
  attn.live_dims = attn.max_dims;

  SdpaPlan plan;
  plan.scratch_attn = attn.dims();
  plan.params0.Sq = utils::to_u32(Sq, kOp, "Sq");
  plan.params0.Skv = utils::to_u32(Skv, kOp, "Skv");
  plan.params0.D4 = utils::to_u32(utils::floordiv(D, 4), kOp, "D4");
  plan.params0.H = utils::to_u32(H, kOp, "H");
  plan.params0.num_rows = utils::to_u32(num_rows, kOp, "num_rows");
  plan.params0.scale = utils::to_f32(scale);
  plan.params0.has_mask = (attn_mask != nullptr) ? 1 : 0;
  utils::pack(plan.params0.mask_strides,
              utils::broadcast_strides(mask4, std::vector<int64_t>{B, H, Sq, Skv}), kOp,
              "mask_strides");
  if (graph.has_feature(Feature::ShaderF16) &&
      ((q.dtype == DType::Float16) && (num_rows < 262144))) {
    plan.route0 = 0;  // qk_per_entry_f16
    plan.grid0 = utils::tiles_grid(Skv, Sq, utils::mul(B, H), 16, 16,
                                   graph.limits().max_workgroups_per_dimension);
  } else if ((q.dtype == DType::Float16) && (num_rows < 262144)) {
    plan.route0 = 1;  // qk_per_entry_f16_packed
    plan.grid0 = utils::tiles_grid(Skv, Sq, utils::mul(B, H), 16, 16,
                                   graph.limits().max_workgroups_per_dimension);
  } else if (graph.has_feature(Feature::ShaderF16) && (q.dtype == DType::Float16)) {
    plan.route0 = 2;  // qk_per_row_f16
    plan.grid0 = utils::elementwise_grid(num_rows, kQkPerRowF16Kernel.workgroup_size[0],
                                         graph.limits().max_workgroups_per_dimension);
  } else if (q.dtype == DType::Float16) {
    plan.route0 = 3;  // qk_per_row_f16_packed
    plan.grid0 = utils::elementwise_grid(num_rows, kQkPerRowF16PackedKernel.workgroup_size[0],
                                         graph.limits().max_workgroups_per_dimension);
  } else if (num_rows < 262144) {
    plan.route0 = 4;  // qk_per_entry
    plan.grid0 = utils::tiles_grid(Skv, Sq, utils::mul(B, H), 16, 16,
                                   graph.limits().max_workgroups_per_dimension);
  } else {
    plan.route0 = 5;  // qk_per_row
    plan.grid0 = utils::elementwise_grid(num_rows, kQkPerRowKernel.workgroup_size[0],
                                         graph.limits().max_workgroups_per_dimension);
  }
  plan.params1.Skv = utils::to_u32(Skv, kOp, "Skv");
  plan.params1.num_rows = utils::to_u32(num_rows, kOp, "num_rows");
  plan.grid1 = utils::elementwise_grid(num_rows, 1, graph.limits().max_workgroups_per_dimension);
  plan.params2.Sq = utils::to_u32(Sq, kOp, "Sq");
  plan.params2.Skv = utils::to_u32(Skv, kOp, "Skv");
  plan.params2.Dv = utils::to_u32(Dv, kOp, "Dv");
  plan.params2.num_elements = utils::to_u32(out.numel(), kOp, "num_elements");
  if (graph.has_feature(Feature::ShaderF16) && (q.dtype == DType::Float16)) {
    plan.route2 = 0;  // attn_v_f16
    plan.grid2 = utils::elementwise_grid(out.numel(), kAttnVF16Kernel.workgroup_size[0],
                                         graph.limits().max_workgroups_per_dimension);
  } else if (q.dtype == DType::Float16) {
    plan.route2 = 1;  // attn_v_f16_packed
    plan.grid2 = utils::elementwise_grid(out.numel(), kAttnVF16PackedKernel.workgroup_size[0],
                                         graph.limits().max_workgroups_per_dimension);
  } else {
    plan.route2 = 2;  // attn_v
    plan.grid2 = utils::elementwise_grid(out.numel(), kAttnVKernel.workgroup_size[0],
                                         graph.limits().max_workgroups_per_dimension);
  }
  return plan;
}

// Gives the outputs the shape the op's formula computes from the live inputs.
void resize_sdpa_outputs(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const Tensor& q = graph.get_tensor(args[0]);
  const Tensor& v = graph.get_tensor(args[2]);
  Tensor& out = graph.get_tensor(args[5]);
  const int64_t B = utils::let(kOp, "B = q.dims[0]", [&]() -> int64_t { return q.dim(0); });
  const int64_t H = utils::let(kOp, "H = q.dims[1]", [&]() -> int64_t { return q.dim(1); });
  const int64_t Sq = utils::let(kOp, "Sq = q.dims[2]", [&]() -> int64_t { return q.dim(2); });
  const int64_t Dv = utils::let(kOp, "Dv = v.dims[3]", [&]() -> int64_t { return v.dim(3); });
  utils::resize_output(kOp, "out", out, std::vector<int64_t>{B, H, Sq, Dv});
}

void add_sdpa(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const SdpaPlan built = plan_sdpa(graph, args);
  // Scratch tensor attn: owned by the graph, written and read by this op's dispatches.
  const ValueRef scratch_attn = graph.add_tensor(DType::Float32, built.scratch_attn);
  const DispatchId dispatch0 =
      graph.add_dispatch(*kDispatch0Kernels[built.route0], built.overrides0,
                         {Binding::params(), Binding::of(args[0]), Binding::of(args[1]),
                          !graph.is_null(args[3]) ? Binding::of(args[3]) : Binding::dummy(),
                          Binding::of(scratch_attn)},
                         &built.params0, sizeof(built.params0), built.grid0);
  const DispatchId dispatch1 = graph.add_dispatch(
      kSoftmaxRowsKernel, built.overrides1, {Binding::params(), Binding::of(scratch_attn)},
      &built.params1, sizeof(built.params1), built.grid1);
  const DispatchId dispatch2 = graph.add_dispatch(
      *kDispatch2Kernels[built.route2], built.overrides2,
      {Binding::params(), Binding::of(scratch_attn), Binding::of(args[2]), Binding::of(args[5])},
      &built.params2, sizeof(built.params2), built.grid2);
  graph.add_resize_hook(
      [args, built, scratch_attn, dispatch0, dispatch1, dispatch2](WebGPUGraph& graph) {
        resize_sdpa_outputs(graph, args);
        const SdpaPlan plan = plan_sdpa(graph, args);
        graph.resize_tensor(scratch_attn, plan.scratch_attn);
        if (plan.route0 != built.route0) {
          utils::fail(kOp, "inputs", "were resized into a different kernel route",
                      kDispatch0Kernels[plan.route0]->name, kDispatch0Kernels[built.route0]->name);
        }
        graph.update_dispatch(dispatch0, &plan.params0, sizeof(plan.params0), plan.grid0);
        graph.update_dispatch(dispatch1, &plan.params1, sizeof(plan.params1), plan.grid1);
        if (plan.route2 != built.route2) {
          utils::fail(kOp, "inputs", "were resized into a different kernel route",
                      kDispatch2Kernels[plan.route2]->name, kDispatch2Kernels[built.route2]->name);
        }
        graph.update_dispatch(dispatch2, &plan.params2, sizeof(plan.params2), plan.grid2);
      });
}

}  // namespace
}  // namespace webgpu_delegate

WEBGPU_REGISTER_OP(et_vk.sdpa.default, webgpu_delegate::add_sdpa, None);
