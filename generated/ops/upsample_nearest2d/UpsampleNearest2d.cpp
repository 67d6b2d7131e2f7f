// @generated from codegen/specs/upsample_nearest2d/upsample_nearest2d.py - DO NOT EDIT.
// Op upsample_nearest2d: aten.upsample_nearest2d.vec

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ops/upsample_nearest2d/upsample_nearest2d_f16_packed_wgsl.h"
#include "ops/upsample_nearest2d/upsample_nearest2d_f16_wgsl.h"
#include "ops/upsample_nearest2d/upsample_nearest2d_wgsl.h"
#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "upsample_nearest2d";

struct UpsampleNearest2dParams {
  uint32_t C;
  uint32_t IH;
  uint32_t IW;
  uint32_t OH;
  uint32_t OW;
  uint32_t num_elements;
  uint32_t col_step;
  uint32_t col_rem;
};
static_assert(offsetof(UpsampleNearest2dParams, C) == 0,
              "UpsampleNearest2dParams.C must sit at WGSL offset 0");
static_assert(offsetof(UpsampleNearest2dParams, IH) == 4,
              "UpsampleNearest2dParams.IH must sit at WGSL offset 4");
static_assert(offsetof(UpsampleNearest2dParams, IW) == 8,
              "UpsampleNearest2dParams.IW must sit at WGSL offset 8");
static_assert(offsetof(UpsampleNearest2dParams, OH) == 12,
              "UpsampleNearest2dParams.OH must sit at WGSL offset 12");
static_assert(offsetof(UpsampleNearest2dParams, OW) == 16,
              "UpsampleNearest2dParams.OW must sit at WGSL offset 16");
static_assert(offsetof(UpsampleNearest2dParams, num_elements) == 20,
              "UpsampleNearest2dParams.num_elements must sit at WGSL offset 20");
static_assert(offsetof(UpsampleNearest2dParams, col_step) == 24,
              "UpsampleNearest2dParams.col_step must sit at WGSL offset 24");
static_assert(offsetof(UpsampleNearest2dParams, col_rem) == 28,
              "UpsampleNearest2dParams.col_rem must sit at WGSL offset 28");
static_assert(sizeof(UpsampleNearest2dParams) == 32,
              "UpsampleNearest2dParams must match the WGSL struct size 32");

const KernelSource kUpsampleNearest2dF16Kernel{
    "upsample_nearest2d_f16",
    kUpsampleNearest2dF16WGSL,
    "main",
    {kUpsampleNearest2dF16WorkgroupSizeX, kUpsampleNearest2dF16WorkgroupSizeY,
     kUpsampleNearest2dF16WorkgroupSizeZ},
    kUpsampleNearest2dF16Bindings,
    kUpsampleNearest2dF16BindingCount,
    kUpsampleNearest2dF16Features};
const KernelSource kUpsampleNearest2dF16PackedKernel{
    "upsample_nearest2d_f16_packed",
    kUpsampleNearest2dF16PackedWGSL,
    "main",
    {kUpsampleNearest2dF16PackedWorkgroupSizeX, kUpsampleNearest2dF16PackedWorkgroupSizeY,
     kUpsampleNearest2dF16PackedWorkgroupSizeZ},
    kUpsampleNearest2dF16PackedBindings,
    kUpsampleNearest2dF16PackedBindingCount};
const KernelSource kUpsampleNearest2dKernel{
    "upsample_nearest2d",
    kUpsampleNearest2dWGSL,
    "main",
    {kUpsampleNearest2dWorkgroupSizeX, kUpsampleNearest2dWorkgroupSizeY,
     kUpsampleNearest2dWorkgroupSizeZ},
    kUpsampleNearest2dBindings,
    kUpsampleNearest2dBindingCount};
// Dispatch 0's kernels, in route order.
const KernelSource* const kDispatch0Kernels[] = {
    &kUpsampleNearest2dF16Kernel, &kUpsampleNearest2dF16PackedKernel, &kUpsampleNearest2dKernel};

// The argument values, checked and turned into what each dispatch needs.
struct UpsampleNearest2dPlan {
  size_t route0 = 0;
  UpsampleNearest2dParams params0{};
  utils::Grid grid0;
  std::vector<OverrideValue> overrides0;
};

UpsampleNearest2dPlan plan_upsample_nearest2d(WebGPUGraph& graph,
                                              const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 4);
  const Tensor& input = graph.get_tensor(args[0]);
  const std::vector<int64_t> output_size =
      graph.is_null(args[1]) ? std::vector<int64_t>{}
                             : utils::read_int_list(graph, args[1], kOp, "output_size");
  const std::vector<double> scale_factors =
      graph.is_null(args[2]) ? std::vector<double>{} : graph.get_double_list(args[2]);
  const Tensor& out = graph.get_tensor(args[3]);
  utils::check_dtype(kOp, "input", input, {DType::Float32, DType::Float16});
  utils::check_rank(kOp, "input", input, 4, 4);
  utils::check_dtype(kOp, "out", out, {DType::Float32, DType::Float16});
  utils::check_rank(kOp, "out", out, 4, 4);
  const int64_t OH = utils::let(
      kOp,
      "OH = output_size[0] if len(output_size) == 2 else floor(input.dims[2] * scale_factors[0]) "
      "if len(scale_factors) == 2 else 0",
      [&]() -> int64_t {
        return (utils::length(output_size) == 2)
                   ? utils::at(output_size, 0)
                   : ((utils::length(scale_factors) == 2)
                          ? utils::floor_to_int(input.dim(2) * utils::at(scale_factors, 0))
                          : 0);
      });
  const int64_t OW = utils::let(
      kOp,
      "OW = output_size[1] if len(output_size) == 2 else floor(input.dims[3] * scale_factors[1]) "
      "if len(scale_factors) == 2 else 0",
      [&]() -> int64_t {
        return (utils::length(output_size) == 2)
                   ? utils::at(output_size, 1)
                   : ((utils::length(scale_factors) == 2)
                          ? utils::floor_to_int(input.dim(3) * utils::at(scale_factors, 1))
                          : 0);
      });
  if ((utils::length(output_size) != 2) && (utils::length(scale_factors) != 2)) {
    utils::fail(kOp, "output_size", "and scale_factors are both missing",
                utils::format_value(utils::length(output_size)),
                "2 output sizes or 2 scale factors");
  }
  if ((input.dim(2) <= 0) || (input.dim(3) <= 0)) {
    utils::fail(kOp, "input", "has an empty spatial dim", utils::format_value(input.dims()),
                "non-zero H and W");
  }
  utils::check_output_dims(kOp, "out", out,
                           std::vector<int64_t>{input.dim(0), input.dim(1), OH, OW});

  UpsampleNearest2dPlan plan;
  plan.params0.C = utils::to_u32(input.dim(1), kOp, "C");
  plan.params0.IH = utils::to_u32(input.dim(2), kOp, "IH");
  plan.params0.IW = utils::to_u32(input.dim(3), kOp, "IW");
  plan.params0.OH = utils::to_u32(out.dim(2), kOp, "OH");
  plan.params0.OW = utils::to_u32(out.dim(3), kOp, "OW");
  plan.params0.num_elements = utils::to_u32(out.numel(), kOp, "num_elements");
  plan.params0.col_step =
      utils::to_u32(utils::floordiv(input.dim(3), utils::max_of(out.dim(3), 1)), kOp, "col_step");
  plan.params0.col_rem =
      utils::to_u32(utils::floormod(input.dim(3), utils::max_of(out.dim(3), 1)), kOp, "col_rem");
  if (graph.has_feature(Feature::ShaderF16) && (input.dtype == DType::Float16)) {
    plan.route0 = 0;  // upsample_nearest2d_f16
    plan.grid0 = utils::elementwise_grid(utils::ceil_div(out.numel(), 4),
                                         kUpsampleNearest2dF16Kernel.workgroup_size[0],
                                         graph.limits().max_workgroups_per_dimension);
  } else if (input.dtype == DType::Float16) {
    plan.route0 = 1;  // upsample_nearest2d_f16_packed
    plan.grid0 = utils::elementwise_grid(utils::ceil_div(out.numel(), 4),
                                         kUpsampleNearest2dF16PackedKernel.workgroup_size[0],
                                         graph.limits().max_workgroups_per_dimension);
  } else {
    plan.route0 = 2;  // upsample_nearest2d
    plan.grid0 = utils::elementwise_grid(utils::ceil_div(out.numel(), 4),
                                         kUpsampleNearest2dKernel.workgroup_size[0],
                                         graph.limits().max_workgroups_per_dimension);
  }
  return plan;
}

// Gives the outputs the shape the op's formula computes from the live inputs.
void resize_upsample_nearest2d_outputs(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const Tensor& input = graph.get_tensor(args[0]);
  const std::vector<int64_t> output_size =
      graph.is_null(args[1]) ? std::vector<int64_t>{}
                             : utils::read_int_list(graph, args[1], kOp, "output_size");
  const std::vector<double> scale_factors =
      graph.is_null(args[2]) ? std::vector<double>{} : graph.get_double_list(args[2]);
  Tensor& out = graph.get_tensor(args[3]);
  const int64_t OH = utils::let(
      kOp,
      "OH = output_size[0] if len(output_size) == 2 else floor(input.dims[2] * scale_factors[0]) "
      "if len(scale_factors) == 2 else 0",
      [&]() -> int64_t {
        return (utils::length(output_size) == 2)
                   ? utils::at(output_size, 0)
                   : ((utils::length(scale_factors) == 2)
                          ? utils::floor_to_int(input.dim(2) * utils::at(scale_factors, 0))
                          : 0);
      });
  const int64_t OW = utils::let(
      kOp,
      "OW = output_size[1] if len(output_size) == 2 else floor(input.dims[3] * scale_factors[1]) "
      "if len(scale_factors) == 2 else 0",
      [&]() -> int64_t {
        return (utils::length(output_size) == 2)
                   ? utils::at(output_size, 1)
                   : ((utils::length(scale_factors) == 2)
                          ? utils::floor_to_int(input.dim(3) * utils::at(scale_factors, 1))
                          : 0);
      });
  utils::resize_output(kOp, "out", out, std::vector<int64_t>{input.dim(0), input.dim(1), OH, OW});
}

void add_upsample_nearest2d(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const UpsampleNearest2dPlan built = plan_upsample_nearest2d(graph, args);
  const DispatchId dispatch0 =
      graph.add_dispatch(*kDispatch0Kernels[built.route0], built.overrides0,
                         {Binding::params(), Binding::of(args[0]), Binding::of(args[3])},
                         &built.params0, sizeof(built.params0), built.grid0);
  graph.add_resize_hook([args, built, dispatch0](WebGPUGraph& graph) {
    resize_upsample_nearest2d_outputs(graph, args);
    const UpsampleNearest2dPlan plan = plan_upsample_nearest2d(graph, args);
    if (plan.route0 != built.route0) {
      utils::fail(kOp, "inputs", "were resized into a different kernel route",
                  kDispatch0Kernels[plan.route0]->name, kDispatch0Kernels[built.route0]->name);
    }
    graph.update_dispatch(dispatch0, &plan.params0, sizeof(plan.params0), plan.grid0);
  });
}

}  // namespace
}  // namespace webgpu_delegate

WEBGPU_REGISTER_OP(aten.upsample_nearest2d.vec, webgpu_delegate::add_upsample_nearest2d, None);
