// @generated from codegen/specs/grid_sampler_2d/grid_sampler_2d.py - DO NOT EDIT.
// Op grid_sampler_2d: aten.grid_sampler_2d.default

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ops/grid_sampler_2d/grid_sampler_2d_f16_packed_wgsl.h"
#include "ops/grid_sampler_2d/grid_sampler_2d_f16_wgsl.h"
#include "ops/grid_sampler_2d/grid_sampler_2d_wgsl.h"
#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "grid_sampler_2d";

struct GridSampler2dParams {
  uint32_t C;
  uint32_t IH;
  uint32_t IW;
  uint32_t OH;
  uint32_t OW;
  uint32_t num_pixels;
  uint32_t _pad0[2];
};
static_assert(offsetof(GridSampler2dParams, C) == 0,
              "GridSampler2dParams.C must sit at WGSL offset 0");
static_assert(offsetof(GridSampler2dParams, IH) == 4,
              "GridSampler2dParams.IH must sit at WGSL offset 4");
static_assert(offsetof(GridSampler2dParams, IW) == 8,
              "GridSampler2dParams.IW must sit at WGSL offset 8");
static_assert(offsetof(GridSampler2dParams, OH) == 12,
              "GridSampler2dParams.OH must sit at WGSL offset 12");
static_assert(offsetof(GridSampler2dParams, OW) == 16,
              "GridSampler2dParams.OW must sit at WGSL offset 16");
static_assert(offsetof(GridSampler2dParams, num_pixels) == 20,
              "GridSampler2dParams.num_pixels must sit at WGSL offset 20");
static_assert(sizeof(GridSampler2dParams) == 32,
              "GridSampler2dParams must match the WGSL struct size 32");

const KernelSource kGridSampler2dF16Kernel{
    "grid_sampler_2d_f16",
    kGridSampler2dF16WGSL,
    "main",
    {kGridSampler2dF16WorkgroupSizeX, kGridSampler2dF16WorkgroupSizeY,
     kGridSampler2dF16WorkgroupSizeZ},
    kGridSampler2dF16Bindings,
    kGridSampler2dF16BindingCount,
    kGridSampler2dF16Features};
const KernelSource kGridSampler2dF16PackedKernel{
    "grid_sampler_2d_f16_packed",
    kGridSampler2dF16PackedWGSL,
    "main",
    {kGridSampler2dF16PackedWorkgroupSizeX, kGridSampler2dF16PackedWorkgroupSizeY,
     kGridSampler2dF16PackedWorkgroupSizeZ},
    kGridSampler2dF16PackedBindings,
    kGridSampler2dF16PackedBindingCount};
const KernelSource kGridSampler2dKernel{
    "grid_sampler_2d",
    kGridSampler2dWGSL,
    "main",
    {kGridSampler2dWorkgroupSizeX, kGridSampler2dWorkgroupSizeY, kGridSampler2dWorkgroupSizeZ},
    kGridSampler2dBindings,
    kGridSampler2dBindingCount};
// Dispatch 0's kernels, in route order.
const KernelSource* const kDispatch0Kernels[] = {
    &kGridSampler2dF16Kernel, &kGridSampler2dF16PackedKernel, &kGridSampler2dKernel};

// The argument values, checked and turned into what each dispatch needs.
struct GridSampler2dPlan {
  size_t route0 = 0;
  GridSampler2dParams params0{};
  utils::Grid grid0;
  std::vector<OverrideValue> overrides0;
};

GridSampler2dPlan plan_grid_sampler_2d(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 6);
  const Tensor& input = graph.get_tensor(args[0]);
  const Tensor& grid = graph.get_tensor(args[1]);
  const int64_t interpolation_mode =
      utils::read_int(graph, args[2], kOp, "interpolation_mode", false);
  const int64_t padding_mode = utils::read_int(graph, args[3], kOp, "padding_mode", false);
  const bool align_corners = graph.get_bool(args[4]);
  const Tensor& out = graph.get_tensor(args[5]);
  utils::check_dtype(kOp, "input", input, {DType::Float32, DType::Float16});
  utils::check_rank(kOp, "input", input, 4, 4);
  utils::check_dtype(kOp, "grid", grid, {DType::Float32, DType::Float16});
  utils::check_rank(kOp, "grid", grid, 4, 4);
  utils::check_dtype(kOp, "out", out, {DType::Float32, DType::Float16});
  utils::check_rank(kOp, "out", out, 4, 4);
  const int64_t N = utils::let(kOp, "N = input.dims[0]", [&]() -> int64_t { return input.dim(0); });
  const int64_t C = utils::let(kOp, "C = input.dims[1]", [&]() -> int64_t { return input.dim(1); });
  const int64_t IH =
      utils::let(kOp, "IH = input.dims[2]", [&]() -> int64_t { return input.dim(2); });
  const int64_t IW =
      utils::let(kOp, "IW = input.dims[3]", [&]() -> int64_t { return input.dim(3); });
  const int64_t OH = utils::let(kOp, "OH = grid.dims[1]", [&]() -> int64_t { return grid.dim(1); });
  const int64_t OW = utils::let(kOp, "OW = grid.dims[2]", [&]() -> int64_t { return grid.dim(2); });
  if ((interpolation_mode != 0) && (interpolation_mode != 1)) {
    utils::fail(kOp, "interpolation_mode", "is not supported",
                utils::format_value(interpolation_mode), "0 (bilinear) or 1 (nearest)");
  }
  if ((padding_mode < 0) || (padding_mode > 2)) {
    utils::fail(kOp, "padding_mode", "is not supported", utils::format_value(padding_mode),
                "0 (zeros), 1 (border) or 2 (reflection)");
  }
  if (grid.dim(0) != N) {
    utils::fail(kOp, "grid", "has a different batch from input", utils::format_value(grid.dim(0)),
                utils::format_value(N));
  }
  if (grid.dim(3) != 2) {
    utils::fail(kOp, "grid", "does not hold (x, y) pairs", utils::format_value(grid.dims()),
                "a last dim of 2");
  }
  if ((IH <= 0) || (IW <= 0)) {
    utils::fail(kOp, "input", "has an empty image", utils::format_value(input.dims()),
                "non-zero height and width");
  }
  if (grid.dtype != input.dtype) {
    utils::fail(kOp, "input", "does not share its dtype with grid",
                utils::format_value(input.dtype), "the dtype of grid");
  }
  utils::check_output_dims(kOp, "out", out, std::vector<int64_t>{N, C, OH, OW});

  GridSampler2dPlan plan;
  plan.params0.C = utils::to_u32(C, kOp, "C");
  plan.params0.IH = utils::to_u32(IH, kOp, "IH");
  plan.params0.IW = utils::to_u32(IW, kOp, "IW");
  plan.params0.OH = utils::to_u32(OH, kOp, "OH");
  plan.params0.OW = utils::to_u32(OW, kOp, "OW");
  plan.params0.num_pixels = utils::to_u32(utils::mul(utils::mul(N, OH), OW), kOp, "num_pixels");
  if (graph.has_feature(Feature::ShaderF16) && (input.dtype == DType::Float16)) {
    plan.route0 = 0;  // grid_sampler_2d_f16
    plan.grid0 = utils::elementwise_grid(utils::mul(utils::mul(N, OH), OW),
                                         kGridSampler2dF16Kernel.workgroup_size[0],
                                         graph.limits().max_workgroups_per_dimension);
    plan.overrides0 = {{"NEAREST", (interpolation_mode == 1) ? 1.0 : 0.0},
                       {"PADDING", static_cast<double>(padding_mode)},
                       {"ALIGN_CORNERS", align_corners ? 1.0 : 0.0}};
  } else if (input.dtype == DType::Float16) {
    plan.route0 = 1;  // grid_sampler_2d_f16_packed
    plan.grid0 = utils::elementwise_grid(utils::mul(utils::mul(N, OH), OW),
                                         kGridSampler2dF16PackedKernel.workgroup_size[0],
                                         graph.limits().max_workgroups_per_dimension);
    plan.overrides0 = {{"NEAREST", (interpolation_mode == 1) ? 1.0 : 0.0},
                       {"PADDING", static_cast<double>(padding_mode)},
                       {"ALIGN_CORNERS", align_corners ? 1.0 : 0.0}};
  } else {
    plan.route0 = 2;  // grid_sampler_2d
    plan.grid0 = utils::elementwise_grid(utils::mul(utils::mul(N, OH), OW),
                                         kGridSampler2dKernel.workgroup_size[0],
                                         graph.limits().max_workgroups_per_dimension);
    plan.overrides0 = {{"NEAREST", (interpolation_mode == 1) ? 1.0 : 0.0},
                       {"PADDING", static_cast<double>(padding_mode)},
                       {"ALIGN_CORNERS", align_corners ? 1.0 : 0.0}};
  }
  return plan;
}

// Gives the outputs the shape the op's formula computes from the live inputs.
void resize_grid_sampler_2d_outputs(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const Tensor& input = graph.get_tensor(args[0]);
  const Tensor& grid = graph.get_tensor(args[1]);
  Tensor& out = graph.get_tensor(args[5]);
  const int64_t N = utils::let(kOp, "N = input.dims[0]", [&]() -> int64_t { return input.dim(0); });
  const int64_t C = utils::let(kOp, "C = input.dims[1]", [&]() -> int64_t { return input.dim(1); });
  const int64_t OH = utils::let(kOp, "OH = grid.dims[1]", [&]() -> int64_t { return grid.dim(1); });
  const int64_t OW = utils::let(kOp, "OW = grid.dims[2]", [&]() -> int64_t { return grid.dim(2); });
  utils::resize_output(kOp, "out", out, std::vector<int64_t>{N, C, OH, OW});
}

void add_grid_sampler_2d(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const GridSampler2dPlan built = plan_grid_sampler_2d(graph, args);
  const DispatchId dispatch0 = graph.add_dispatch(
      *kDispatch0Kernels[built.route0], built.overrides0,
      {Binding::params(), Binding::of(args[0]), Binding::of(args[1]), Binding::of(args[5])},
      &built.params0, sizeof(built.params0), built.grid0);
  graph.add_resize_hook([args, built, dispatch0](WebGPUGraph& graph) {
    resize_grid_sampler_2d_outputs(graph, args);
    const GridSampler2dPlan plan = plan_grid_sampler_2d(graph, args);
    if (plan.route0 != built.route0) {
      utils::fail(kOp, "inputs", "were resized into a different kernel route",
                  kDispatch0Kernels[plan.route0]->name, kDispatch0Kernels[built.route0]->name);
    }
    graph.update_dispatch(dispatch0, &plan.params0, sizeof(plan.params0), plan.grid0);
  });
}

}  // namespace
}  // namespace webgpu_delegate

WEBGPU_REGISTER_OP(aten.grid_sampler_2d.default, webgpu_delegate::add_grid_sampler_2d, None);
