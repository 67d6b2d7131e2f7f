// @generated from codegen/specs/upsample_bilinear2d/upsample_bilinear2d.py - DO NOT EDIT.
// Op upsample_bilinear2d: aten.upsample_bilinear2d.vec

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ops/upsample_bilinear2d/upsample_bilinear2d_f16_packed_wgsl.h"
#include "ops/upsample_bilinear2d/upsample_bilinear2d_f16_wgsl.h"
#include "ops/upsample_bilinear2d/upsample_bilinear2d_wgsl.h"
#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "upsample_bilinear2d";

struct UpsampleBilinear2dParams {
  uint32_t IH;
  uint32_t IW;
  uint32_t OH;
  uint32_t OW;
  float scale_h;
  float scale_w;
  uint32_t align_corners;
  uint32_t num_elements;
};
static_assert(offsetof(UpsampleBilinear2dParams, IH) == 0,
              "UpsampleBilinear2dParams.IH must sit at WGSL offset 0");
static_assert(offsetof(UpsampleBilinear2dParams, IW) == 4,
              "UpsampleBilinear2dParams.IW must sit at WGSL offset 4");
static_assert(offsetof(UpsampleBilinear2dParams, OH) == 8,
              "UpsampleBilinear2dParams.OH must sit at WGSL offset 8");
static_assert(offsetof(UpsampleBilinear2dParams, OW) == 12,
              "UpsampleBilinear2dParams.OW must sit at WGSL offset 12");
static_assert(offsetof(UpsampleBilinear2dParams, scale_h) == 16,
              "UpsampleBilinear2dParams.scale_h must sit at WGSL offset 16");
static_assert(offsetof(UpsampleBilinear2dParams, scale_w) == 20,
              "UpsampleBilinear2dParams.scale_w must sit at WGSL offset 20");
static_assert(offsetof(UpsampleBilinear2dParams, align_corners) == 24,
              "UpsampleBilinear2dParams.align_corners must sit at WGSL offset 24");
static_assert(offsetof(UpsampleBilinear2dParams, num_elements) == 28,
              "UpsampleBilinear2dParams.num_elements must sit at WGSL offset 28");
static_assert(sizeof(UpsampleBilinear2dParams) == 32,
              "UpsampleBilinear2dParams must match the WGSL struct size 32");

const KernelSource kUpsampleBilinear2dF16Kernel{
    "upsample_bilinear2d_f16",
    kUpsampleBilinear2dF16WGSL,
    "main",
    {kUpsampleBilinear2dF16WorkgroupSizeX, kUpsampleBilinear2dF16WorkgroupSizeY,
     kUpsampleBilinear2dF16WorkgroupSizeZ},
    kUpsampleBilinear2dF16Bindings,
    kUpsampleBilinear2dF16BindingCount,
    kUpsampleBilinear2dF16Features};
const KernelSource kUpsampleBilinear2dF16PackedKernel{
    "upsample_bilinear2d_f16_packed",
    kUpsampleBilinear2dF16PackedWGSL,
    "main",
    {kUpsampleBilinear2dF16PackedWorkgroupSizeX, kUpsampleBilinear2dF16PackedWorkgroupSizeY,
     kUpsampleBilinear2dF16PackedWorkgroupSizeZ},
    kUpsampleBilinear2dF16PackedBindings,
    kUpsampleBilinear2dF16PackedBindingCount};
const KernelSource kUpsampleBilinear2dKernel{
    "upsample_bilinear2d",
    kUpsampleBilinear2dWGSL,
    "main",
    {kUpsampleBilinear2dWorkgroupSizeX, kUpsampleBilinear2dWorkgroupSizeY,
     kUpsampleBilinear2dWorkgroupSizeZ},
    kUpsampleBilinear2dBindings,
    kUpsampleBilinear2dBindingCount};
// Dispatch 0's kernels, in route order.
const KernelSource* const kDispatch0Kernels[] = {
    &kUpsampleBilinear2dF16Kernel, &kUpsampleBilinear2dF16PackedKernel, &kUpsampleBilinear2dKernel};

// The argument values, checked and turned into what each dispatch needs.
struct UpsampleBilinear2dPlan {
  size_t route0 = 0;
  UpsampleBilinear2dParams params0{};
  utils::Grid grid0;
  std::vector<OverrideValue> overrides0;
};

UpsampleBilinear2dPlan plan_upsample_bilinear2d(WebGPUGraph& graph,
                                                const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 5);
  const Tensor& input = graph.get_tensor(args[0]);
  const std::vector<int64_t> output_size =
      graph.is_null(args[1]) ? std::vector<int64_t>{}
                             : utils::read_int_list(graph, args[1], kOp, "output_size");
  const bool align_corners = graph.get_bool(args[2]);
  const std::vector<double> scale_factors =
      graph.is_null(args[3]) ? std::vector<double>{} : graph.get_double_list(args[3]);
  const Tensor& out = graph.get_tensor(args[4]);
  utils::check_dtype(kOp, "input", input, {DType::Float32, DType::Float16});
  utils::check_rank(kOp, "input", input, 4, 4);
  utils::check_dtype(kOp, "out", out, {DType::Float32, DType::Float16});
  utils::check_rank(kOp, "out", out, 4, 4);
  const int64_t IH =
      utils::let(kOp, "IH = input.dims[2]", [&]() -> int64_t { return input.dim(2); });
  const int64_t IW =
      utils::let(kOp, "IW = input.dims[3]", [&]() -> int64_t { return input.dim(3); });
  const int64_t OH =
      utils::let(kOp,
                 "OH = output_size[0] if len(output_size) == 2 else floor(IH * scale_factors[0]) "
                 "if len(scale_factors) == 2 else 0",
                 [&]() -> int64_t {
                   return (utils::length(output_size) == 2)
                              ? utils::at(output_size, 0)
                              : ((utils::length(scale_factors) == 2)
                                     ? utils::floor_to_int(IH * utils::at(scale_factors, 0))
                                     : 0);
                 });
  const int64_t OW =
      utils::let(kOp,
                 "OW = output_size[1] if len(output_size) == 2 else floor(IW * scale_factors[1]) "
                 "if len(scale_factors) == 2 else 0",
                 [&]() -> int64_t {
                   return (utils::length(output_size) == 2)
                              ? utils::at(output_size, 1)
                              : ((utils::length(scale_factors) == 2)
                                     ? utils::floor_to_int(IW * utils::at(scale_factors, 1))
                                     : 0);
                 });
  if ((utils::length(output_size) != 2) && (utils::length(scale_factors) != 2)) {
    utils::fail(kOp, "output_size", "and scale_factors are both missing",
                utils::format_value(utils::length(output_size)),
                "2 output sizes or 2 scale factors");
  }
  if ((IH <= 0) || (IW <= 0)) {
    utils::fail(kOp, "input", "has an empty spatial dim", utils::format_value(input.dims()),
                "non-zero H and W");
  }
  utils::check_output_dims(kOp, "out", out,
                           std::vector<int64_t>{input.dim(0), input.dim(1), OH, OW});

  UpsampleBilinear2dPlan plan;
  plan.params0.IH = utils::to_u32(IH, kOp, "IH");
  plan.params0.IW = utils::to_u32(IW, kOp, "IW");
  plan.params0.OH = utils::to_u32(out.dim(2), kOp, "OH");
  plan.params0.OW = utils::to_u32(out.dim(3), kOp, "OW");
  plan.params0.scale_h = utils::to_f32(
      align_corners ? ((out.dim(2) > 1) ? utils::divide(static_cast<double>(utils::sub(IH, 1)),
                                                        utils::sub(out.dim(2), 1))
                                        : 0.0)
                    : (((utils::length(scale_factors) == 2) && (utils::at(scale_factors, 0) > 0.0))
                           ? utils::divide(1.0, utils::at(scale_factors, 0))
                           : utils::divide(static_cast<double>(IH), utils::max_of(out.dim(2), 1))));
  plan.params0.scale_w = utils::to_f32(
      align_corners ? ((out.dim(3) > 1) ? utils::divide(static_cast<double>(utils::sub(IW, 1)),
                                                        utils::sub(out.dim(3), 1))
                                        : 0.0)
                    : (((utils::length(scale_factors) == 2) && (utils::at(scale_factors, 1) > 0.0))
                           ? utils::divide(1.0, utils::at(scale_factors, 1))
                           : utils::divide(static_cast<double>(IW), utils::max_of(out.dim(3), 1))));
  plan.params0.align_corners = align_corners ? 1 : 0;
  plan.params0.num_elements = utils::to_u32(out.numel(), kOp, "num_elements");
  if (graph.has_feature(Feature::ShaderF16) && (input.dtype == DType::Float16)) {
    plan.route0 = 0;  // upsample_bilinear2d_f16
    plan.grid0 =
        utils::elementwise_grid(out.numel(), kUpsampleBilinear2dF16Kernel.workgroup_size[0],
                                graph.limits().max_workgroups_per_dimension);
  } else if (input.dtype == DType::Float16) {
    plan.route0 = 1;  // upsample_bilinear2d_f16_packed
    plan.grid0 =
        utils::elementwise_grid(out.numel(), kUpsampleBilinear2dF16PackedKernel.workgroup_size[0],
                                graph.limits().max_workgroups_per_dimension);
  } else {
    plan.route0 = 2;  // upsample_bilinear2d
    plan.grid0 = utils::elementwise_grid(out.numel(), kUpsampleBilinear2dKernel.workgroup_size[0],
                                         graph.limits().max_workgroups_per_dimension);
  }
  return plan;
}

// Gives the outputs the shape the op's formula computes from the live inputs.
void resize_upsample_bilinear2d_outputs(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const Tensor& input = graph.get_tensor(args[0]);
  const std::vector<int64_t> output_size =
      graph.is_null(args[1]) ? std::vector<int64_t>{}
                             : utils::read_int_list(graph, args[1], kOp, "output_size");
  const std::vector<double> scale_factors =
      graph.is_null(args[3]) ? std::vector<double>{} : graph.get_double_list(args[3]);
  Tensor& out = graph.get_tensor(args[4]);
  const int64_t IH =
      utils::let(kOp, "IH = input.dims[2]", [&]() -> int64_t { return input.dim(2); });
  const int64_t IW =
      utils::let(kOp, "IW = input.dims[3]", [&]() -> int64_t { return input.dim(3); });
  const int64_t OH =
      utils::let(kOp,
                 "OH = output_size[0] if len(output_size) == 2 else floor(IH * scale_factors[0]) "
                 "if len(scale_factors) == 2 else 0",
                 [&]() -> int64_t {
                   return (utils::length(output_size) == 2)
                              ? utils::at(output_size, 0)
                              : ((utils::length(scale_factors) == 2)
                                     ? utils::floor_to_int(IH * utils::at(scale_factors, 0))
                                     : 0);
                 });
  const int64_t OW =
      utils::let(kOp,
                 "OW = output_size[1] if len(output_size) == 2 else floor(IW * scale_factors[1]) "
                 "if len(scale_factors) == 2 else 0",
                 [&]() -> int64_t {
                   return (utils::length(output_size) == 2)
                              ? utils::at(output_size, 1)
                              : ((utils::length(scale_factors) == 2)
                                     ? utils::floor_to_int(IW * utils::at(scale_factors, 1))
                                     : 0);
                 });
  utils::resize_output(kOp, "out", out, std::vector<int64_t>{input.dim(0), input.dim(1), OH, OW});
}

void add_upsample_bilinear2d(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const UpsampleBilinear2dPlan built = plan_upsample_bilinear2d(graph, args);
  const DispatchId dispatch0 =
      graph.add_dispatch(*kDispatch0Kernels[built.route0], built.overrides0,
                         {Binding::params(), Binding::of(args[0]), Binding::of(args[4])},
                         &built.params0, sizeof(built.params0), built.grid0);
  graph.add_resize_hook([args, built, dispatch0](WebGPUGraph& graph) {
    resize_upsample_bilinear2d_outputs(graph, args);
    const UpsampleBilinear2dPlan plan = plan_upsample_bilinear2d(graph, args);
    if (plan.route0 != built.route0) {
      utils::fail(kOp, "inputs", "were resized into a different kernel route",
                  kDispatch0Kernels[plan.route0]->name, kDispatch0Kernels[built.route0]->name);
    }
    graph.update_dispatch(dispatch0, &plan.params0, sizeof(plan.params0), plan.grid0);
  });
}

}  // namespace
}  // namespace webgpu_delegate

WEBGPU_REGISTER_OP(aten.upsample_bilinear2d.vec, webgpu_delegate::add_upsample_bilinear2d, None);
