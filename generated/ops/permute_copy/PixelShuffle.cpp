// @generated from codegen/specs/permute_copy/shuffle.py - DO NOT EDIT.
// Op pixel_shuffle: aten.pixel_shuffle.default

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ops/permute_copy/strided_gather_bytes_wgsl.h"
#include "ops/permute_copy/strided_gather_halves_wgsl.h"
#include "ops/permute_copy/strided_gather_wgsl.h"
#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "pixel_shuffle";

struct PixelShuffleStridedGatherParams {
  uint32_t out_dims[2][4];
  uint32_t in_mods[2][4];
  uint32_t in_strides[2][4];
  uint32_t num_elements;
  uint32_t in_offset;
  uint32_t _pad0[2];
};
static_assert(offsetof(PixelShuffleStridedGatherParams, out_dims) == 0,
              "PixelShuffleStridedGatherParams.out_dims must sit at WGSL offset 0");
static_assert(offsetof(PixelShuffleStridedGatherParams, in_mods) == 32,
              "PixelShuffleStridedGatherParams.in_mods must sit at WGSL offset 32");
static_assert(offsetof(PixelShuffleStridedGatherParams, in_strides) == 64,
              "PixelShuffleStridedGatherParams.in_strides must sit at WGSL offset 64");
static_assert(offsetof(PixelShuffleStridedGatherParams, num_elements) == 96,
              "PixelShuffleStridedGatherParams.num_elements must sit at WGSL offset 96");
static_assert(offsetof(PixelShuffleStridedGatherParams, in_offset) == 100,
              "PixelShuffleStridedGatherParams.in_offset must sit at WGSL offset 100");
static_assert(sizeof(PixelShuffleStridedGatherParams) == 112,
              "PixelShuffleStridedGatherParams must match the WGSL struct size 112");

const KernelSource kStridedGatherBytesKernel{
    "strided_gather_bytes",
    kStridedGatherBytesWGSL,
    "main",
    {kStridedGatherBytesWorkgroupSizeX, kStridedGatherBytesWorkgroupSizeY,
     kStridedGatherBytesWorkgroupSizeZ},
    kStridedGatherBytesBindings,
    kStridedGatherBytesBindingCount};
const KernelSource kStridedGatherHalvesKernel{
    "strided_gather_halves",
    kStridedGatherHalvesWGSL,
    "main",
    {kStridedGatherHalvesWorkgroupSizeX, kStridedGatherHalvesWorkgroupSizeY,
     kStridedGatherHalvesWorkgroupSizeZ},
    kStridedGatherHalvesBindings,
    kStridedGatherHalvesBindingCount};
const KernelSource kStridedGatherKernel{
    "strided_gather",
    kStridedGatherWGSL,
    "main",
    {kStridedGatherWorkgroupSizeX, kStridedGatherWorkgroupSizeY, kStridedGatherWorkgroupSizeZ},
    kStridedGatherBindings,
    kStridedGatherBindingCount};
// Dispatch 0's kernels, in route order.
const KernelSource* const kDispatch0Kernels[] = {
    &kStridedGatherBytesKernel, &kStridedGatherHalvesKernel, &kStridedGatherKernel};

// The argument values, checked and turned into what each dispatch needs.
struct PixelShufflePlan {
  size_t route0 = 0;
  PixelShuffleStridedGatherParams params0{};
  utils::Grid grid0;
  std::vector<OverrideValue> overrides0;
};

PixelShufflePlan plan_pixel_shuffle(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 3);
  const Tensor& self = graph.get_tensor(args[0]);
  const int64_t upscale_factor = utils::read_int(graph, args[1], kOp, "upscale_factor", false);
  const Tensor& out = graph.get_tensor(args[2]);
  utils::check_dtype(kOp, "self", self,
                     {DType::Float32, DType::Float16, DType::Int32, DType::Bool});
  utils::check_rank(kOp, "self", self, 3, 8);
  utils::check_dtype(kOp, "out", out, {DType::Float32, DType::Float16, DType::Int32, DType::Bool});
  utils::check_rank(kOp, "out", out, 3, 8);
  const int64_t r = upscale_factor;
  const int64_t C_in =
      utils::let(kOp, "C_in = self.dims[-3]", [&]() -> int64_t { return self.dim(-3); });
  const int64_t H = utils::let(kOp, "H = self.dims[-2]", [&]() -> int64_t { return self.dim(-2); });
  const int64_t W = utils::let(kOp, "W = self.dims[-1]", [&]() -> int64_t { return self.dim(-1); });
  const int64_t C = utils::let(kOp, "C = C_in // (r * r) if r > 0 else 0", [&]() -> int64_t {
    return (r > 0) ? utils::floordiv(C_in, utils::mul(r, r)) : 0;
  });
  const int64_t B = utils::let(kOp, "B = prod(self.dims[:-3])", [&]() -> int64_t {
    return utils::prod(utils::slice(self.dims(), 0, -3));
  });
  if (r <= 0) {
    utils::fail(kOp, "upscale_factor", "is not positive", utils::format_value(upscale_factor),
                "an upscale_factor >= 1");
  }
  if (utils::floormod(C_in, utils::mul(r, r)) != 0) {
    utils::fail(kOp, "self", "has channels not divisible by upscale_factor squared",
                utils::format_value(self.dims()),
                "dim -3 a multiple of " + utils::format_value(utils::mul(r, r)));
  }
  utils::check_output_dims(
      kOp, "out", out,
      utils::concat(utils::slice(self.dims(), 0, -3),
                    std::vector<int64_t>{C, utils::mul(H, r), utils::mul(W, r)}));

  PixelShufflePlan plan;
  utils::pack(plan.params0.out_dims, 4,
              utils::right_align(std::vector<int64_t>{B, C, H, r, W, r}, 8, 1), kOp, "out_dims");
  utils::pack(plan.params0.in_mods, 4,
              utils::right_align(std::vector<int64_t>{B, C, H, r, W, r}, 8, 1), kOp, "in_mods");
  utils::pack(
      plan.params0.in_strides, 4,
      utils::right_align(std::vector<int64_t>{utils::mul(utils::mul(C_in, H), W),
                                              utils::mul(utils::mul(utils::mul(r, r), H), W), W,
                                              utils::mul(utils::mul(r, H), W), 1, utils::mul(H, W)},
                         8, 0),
      kOp, "in_strides");
  plan.params0.num_elements = utils::to_u32(utils::floordiv(out.numel(), 1), kOp, "num_elements");
  plan.params0.in_offset = utils::to_u32(0, kOp, "in_offset");
  if (out.dtype == DType::Bool) {
    plan.route0 = 0;  // strided_gather_bytes
    plan.grid0 = utils::elementwise_grid(utils::ceil_div(out.numel(), 4),
                                         kStridedGatherBytesKernel.workgroup_size[0],
                                         graph.limits().max_workgroups_per_dimension);
    plan.overrides0 = {{"ALIGNED", 0.0}};
  } else if (out.dtype == DType::Float16) {
    plan.route0 = 1;  // strided_gather_halves
    plan.grid0 = utils::elementwise_grid(utils::ceil_div(out.numel(), 2),
                                         kStridedGatherHalvesKernel.workgroup_size[0],
                                         graph.limits().max_workgroups_per_dimension);
    plan.overrides0 = {{"ALIGNED", 0.0}};
  } else {
    plan.route0 = 2;  // strided_gather
    plan.grid0 = utils::elementwise_grid(utils::floordiv(out.numel(), 1),
                                         kStridedGatherKernel.workgroup_size[0],
                                         graph.limits().max_workgroups_per_dimension);
  }
  return plan;
}

// Gives the outputs the shape the op's formula computes from the live inputs.
void resize_pixel_shuffle_outputs(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const Tensor& self = graph.get_tensor(args[0]);
  const int64_t upscale_factor = utils::read_int(graph, args[1], kOp, "upscale_factor", false);
  Tensor& out = graph.get_tensor(args[2]);
  const int64_t r = upscale_factor;
  const int64_t C_in =
      utils::let(kOp, "C_in = self.dims[-3]", [&]() -> int64_t { return self.dim(-3); });
  const int64_t H = utils::let(kOp, "H = self.dims[-2]", [&]() -> int64_t { return self.dim(-2); });
  const int64_t W = utils::let(kOp, "W = self.dims[-1]", [&]() -> int64_t { return self.dim(-1); });
  const int64_t C = utils::let(kOp, "C = C_in // (r * r) if r > 0 else 0", [&]() -> int64_t {
    return (r > 0) ? utils::floordiv(C_in, utils::mul(r, r)) : 0;
  });
  utils::resize_output(kOp, "out", out,
                       utils::concat(utils::slice(self.dims(), 0, -3),
                                     std::vector<int64_t>{C, utils::mul(H, r), utils::mul(W, r)}));
}

void add_pixel_shuffle(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const PixelShufflePlan built = plan_pixel_shuffle(graph, args);
  const DispatchId dispatch0 =
      graph.add_dispatch(*kDispatch0Kernels[built.route0], built.overrides0,
                         {Binding::params(), Binding::of(args[0]), Binding::of(args[2])},
                         &built.params0, sizeof(built.params0), built.grid0);
  graph.add_resize_hook([args, built, dispatch0](WebGPUGraph& graph) {
    resize_pixel_shuffle_outputs(graph, args);
    const PixelShufflePlan plan = plan_pixel_shuffle(graph, args);
    if (plan.route0 != built.route0) {
      utils::fail(kOp, "inputs", "were resized into a different kernel route",
                  kDispatch0Kernels[plan.route0]->name, kDispatch0Kernels[built.route0]->name);
    }
    graph.update_dispatch(dispatch0, &plan.params0, sizeof(plan.params0), plan.grid0);
  });
}

}  // namespace
}  // namespace webgpu_delegate

WEBGPU_REGISTER_OP(aten.pixel_shuffle.default, webgpu_delegate::add_pixel_shuffle, None);
