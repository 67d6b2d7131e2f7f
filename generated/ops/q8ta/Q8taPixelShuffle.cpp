// @generated from codegen/specs/q8ta/q8ta_eltwise.py - DO NOT EDIT.
// Op q8ta_pixel_shuffle: et_vk.q8ta_pixel_shuffle.default

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ops/q8ta/q8ta_pixel_shuffle_wgsl.h"
#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "q8ta_pixel_shuffle";

struct Q8taPixelShuffleParams {
  uint32_t num_elements;
  uint32_t num_words;
  uint32_t C;
  uint32_t H;
  uint32_t W;
  uint32_t r;
  float in_scale;
  int32_t in_zero_point;
  float out_inv_scale;
  int32_t out_zero_point;
  uint32_t _pad0[2];
};
static_assert(offsetof(Q8taPixelShuffleParams, num_elements) == 0,
              "Q8taPixelShuffleParams.num_elements must sit at WGSL offset 0");
static_assert(offsetof(Q8taPixelShuffleParams, num_words) == 4,
              "Q8taPixelShuffleParams.num_words must sit at WGSL offset 4");
static_assert(offsetof(Q8taPixelShuffleParams, C) == 8,
              "Q8taPixelShuffleParams.C must sit at WGSL offset 8");
static_assert(offsetof(Q8taPixelShuffleParams, H) == 12,
              "Q8taPixelShuffleParams.H must sit at WGSL offset 12");
static_assert(offsetof(Q8taPixelShuffleParams, W) == 16,
              "Q8taPixelShuffleParams.W must sit at WGSL offset 16");
static_assert(offsetof(Q8taPixelShuffleParams, r) == 20,
              "Q8taPixelShuffleParams.r must sit at WGSL offset 20");
static_assert(offsetof(Q8taPixelShuffleParams, in_scale) == 24,
              "Q8taPixelShuffleParams.in_scale must sit at WGSL offset 24");
static_assert(offsetof(Q8taPixelShuffleParams, in_zero_point) == 28,
              "Q8taPixelShuffleParams.in_zero_point must sit at WGSL offset 28");
static_assert(offsetof(Q8taPixelShuffleParams, out_inv_scale) == 32,
              "Q8taPixelShuffleParams.out_inv_scale must sit at WGSL offset 32");
static_assert(offsetof(Q8taPixelShuffleParams, out_zero_point) == 36,
              "Q8taPixelShuffleParams.out_zero_point must sit at WGSL offset 36");
static_assert(sizeof(Q8taPixelShuffleParams) == 48,
              "Q8taPixelShuffleParams must match the WGSL struct size 48");

const KernelSource kQ8taPixelShuffleKernel{
    "q8ta_pixel_shuffle",
    kQ8taPixelShuffleWGSL,
    "main",
    {kQ8taPixelShuffleWorkgroupSizeX, kQ8taPixelShuffleWorkgroupSizeY,
     kQ8taPixelShuffleWorkgroupSizeZ},
    kQ8taPixelShuffleBindings,
    kQ8taPixelShuffleBindingCount};

// The argument values, checked and turned into what each dispatch needs.
struct Q8taPixelShufflePlan {
  Q8taPixelShuffleParams params0{};
  utils::Grid grid0;
  std::vector<OverrideValue> overrides0;
};

Q8taPixelShufflePlan plan_q8ta_pixel_shuffle(WebGPUGraph& graph,
                                             const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 7);
  const Tensor& input = graph.get_tensor(args[0]);
  const double input_scale = utils::read_double(graph, args[1], kOp, "input_scale");
  const int64_t input_zero_point = utils::read_int(graph, args[2], kOp, "input_zero_point", false);
  const double output_inv_scale = utils::read_double(graph, args[3], kOp, "output_inv_scale");
  const int64_t output_zero_point =
      utils::read_int(graph, args[4], kOp, "output_zero_point", false);
  const int64_t upscale_factor = utils::read_int(graph, args[5], kOp, "upscale_factor", false);
  const Tensor& out = graph.get_tensor(args[6]);
  utils::check_dtype(kOp, "input", input, {DType::Int8});
  utils::check_rank(kOp, "input", input, 3, 6);
  utils::check_dtype(kOp, "out", out, {DType::Int8});
  utils::check_rank(kOp, "out", out, 3, 6);
  const int64_t r = upscale_factor;
  const int64_t C = utils::let(kOp, "C = input.dims[-3] // max(r * r, 1)", [&]() -> int64_t {
    return utils::floordiv(input.dim(-3), utils::max_of(utils::mul(r, r), 1));
  });
  const int64_t H =
      utils::let(kOp, "H = input.dims[-2]", [&]() -> int64_t { return input.dim(-2); });
  const int64_t W =
      utils::let(kOp, "W = input.dims[-1]", [&]() -> int64_t { return input.dim(-1); });
  if (r <= 0) {
    utils::fail(kOp, "upscale_factor", "is not positive", utils::format_value(upscale_factor),
                "a factor >= 1");
  }
  if (utils::floormod(input.dim(-3), utils::mul(r, r)) != 0) {
    utils::fail(kOp, "input", "has channels that upscale_factor squared does not divide",
                utils::format_value(input.dims()),
                "channels a multiple of " + utils::format_value(utils::mul(r, r)));
  }
  if (!(input_scale > 0.0)) {
    utils::fail(kOp, "input_scale", "is not positive", utils::format_value(input_scale),
                "a scale > 0");
  }
  if (!(output_inv_scale > 0.0)) {
    utils::fail(kOp, "output_inv_scale", "is not positive", utils::format_value(output_inv_scale),
                "a scale > 0");
  }
  utils::check_output_dims(
      kOp, "out", out,
      utils::concat(utils::slice(input.dims(), 0, -3),
                    std::vector<int64_t>{C, utils::mul(H, r), utils::mul(W, r)}));

  Q8taPixelShufflePlan plan;
  plan.params0.num_elements = utils::to_u32(out.numel(), kOp, "num_elements");
  plan.params0.num_words = utils::to_u32(utils::ceil_div(out.numel(), 4), kOp, "num_words");
  plan.params0.C = utils::to_u32(C, kOp, "C");
  plan.params0.H = utils::to_u32(H, kOp, "H");
  plan.params0.W = utils::to_u32(W, kOp, "W");
  plan.params0.r = utils::to_u32(r, kOp, "r");
  plan.params0.in_scale = utils::to_f32(input_scale);
  plan.params0.in_zero_point = utils::to_i32(input_zero_point, kOp, "in_zero_point");
  plan.params0.out_inv_scale =
      utils::to_f32(utils::divide(1.0, utils::divide(1.0, output_inv_scale)));
  plan.params0.out_zero_point = utils::to_i32(output_zero_point, kOp, "out_zero_point");
  plan.grid0 = utils::elementwise_grid(utils::ceil_div(out.numel(), 4),
                                       kQ8taPixelShuffleKernel.workgroup_size[0],
                                       graph.limits().max_workgroups_per_dimension);
  return plan;
}

// Gives the outputs the shape the op's formula computes from the live inputs.
void resize_q8ta_pixel_shuffle_outputs(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const Tensor& input = graph.get_tensor(args[0]);
  const int64_t upscale_factor = utils::read_int(graph, args[5], kOp, "upscale_factor", false);
  Tensor& out = graph.get_tensor(args[6]);
  const int64_t r = upscale_factor;
  const int64_t C = utils::let(kOp, "C = input.dims[-3] // max(r * r, 1)", [&]() -> int64_t {
    return utils::floordiv(input.dim(-3), utils::max_of(utils::mul(r, r), 1));
  });
  const int64_t H =
      utils::let(kOp, "H = input.dims[-2]", [&]() -> int64_t { return input.dim(-2); });
  const int64_t W =
      utils::let(kOp, "W = input.dims[-1]", [&]() -> int64_t { return input.dim(-1); });
  utils::resize_output(kOp, "out", out,
                       utils::concat(utils::slice(input.dims(), 0, -3),
                                     std::vector<int64_t>{C, utils::mul(H, r), utils::mul(W, r)}));
}

void add_q8ta_pixel_shuffle(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const Q8taPixelShufflePlan built = plan_q8ta_pixel_shuffle(graph, args);
  const DispatchId dispatch0 =
      graph.add_dispatch(kQ8taPixelShuffleKernel, built.overrides0,
                         {Binding::params(), Binding::of(args[0]), Binding::of(args[6])},
                         &built.params0, sizeof(built.params0), built.grid0);
  graph.add_resize_hook([args, dispatch0](WebGPUGraph& graph) {
    resize_q8ta_pixel_shuffle_outputs(graph, args);
    const Q8taPixelShufflePlan plan = plan_q8ta_pixel_shuffle(graph, args);
    graph.update_dispatch(dispatch0, &plan.params0, sizeof(plan.params0), plan.grid0);
  });
}

}  // namespace
}  // namespace webgpu_delegate

WEBGPU_REGISTER_OP(et_vk.q8ta_pixel_shuffle.default, webgpu_delegate::add_q8ta_pixel_shuffle, None);
