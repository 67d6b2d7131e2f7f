// @generated from codegen/specs/grid_priors/grid_priors.py - DO NOT EDIT.
// Op grid_priors: et_vk.grid_priors.default

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ops/grid_priors/grid_priors_f16_packed_wgsl.h"
#include "ops/grid_priors/grid_priors_f16_wgsl.h"
#include "ops/grid_priors/grid_priors_wgsl.h"
#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "grid_priors";

struct GridPriorsParams {
  uint32_t W;
  uint32_t num_elements;
  float stride;
  float offset;
};
static_assert(offsetof(GridPriorsParams, W) == 0, "GridPriorsParams.W must sit at WGSL offset 0");
static_assert(offsetof(GridPriorsParams, num_elements) == 4,
              "GridPriorsParams.num_elements must sit at WGSL offset 4");
static_assert(offsetof(GridPriorsParams, stride) == 8,
              "GridPriorsParams.stride must sit at WGSL offset 8");
static_assert(offsetof(GridPriorsParams, offset) == 12,
              "GridPriorsParams.offset must sit at WGSL offset 12");
static_assert(sizeof(GridPriorsParams) == 16,
              "GridPriorsParams must match the WGSL struct size 16");

const KernelSource kGridPriorsF16Kernel{
    "grid_priors_f16",
    kGridPriorsF16WGSL,
    "main",
    {kGridPriorsF16WorkgroupSizeX, kGridPriorsF16WorkgroupSizeY, kGridPriorsF16WorkgroupSizeZ},
    kGridPriorsF16Bindings,
    kGridPriorsF16BindingCount,
    kGridPriorsF16Features};
const KernelSource kGridPriorsF16PackedKernel{
    "grid_priors_f16_packed",
    kGridPriorsF16PackedWGSL,
    "main",
    {kGridPriorsF16PackedWorkgroupSizeX, kGridPriorsF16PackedWorkgroupSizeY,
     kGridPriorsF16PackedWorkgroupSizeZ},
    kGridPriorsF16PackedBindings,
    kGridPriorsF16PackedBindingCount};
const KernelSource kGridPriorsKernel{
    "grid_priors",
    kGridPriorsWGSL,
    "main",
    {kGridPriorsWorkgroupSizeX, kGridPriorsWorkgroupSizeY, kGridPriorsWorkgroupSizeZ},
    kGridPriorsBindings,
    kGridPriorsBindingCount};
// Dispatch 0's kernels, in route order.
const KernelSource* const kDispatch0Kernels[] = {&kGridPriorsF16Kernel, &kGridPriorsF16PackedKernel,
                                                 &kGridPriorsKernel};

// The argument values, checked and turned into what each dispatch needs.
struct GridPriorsPlan {
  size_t route0 = 0;
  GridPriorsParams params0{};
  utils::Grid grid0;
  std::vector<OverrideValue> overrides0;
};

GridPriorsPlan plan_grid_priors(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 4);
  const Tensor& self = graph.get_tensor(args[0]);
  const int64_t stride = utils::read_int(graph, args[1], kOp, "stride", false);
  const double offset = utils::read_double(graph, args[2], kOp, "offset");
  const Tensor& out = graph.get_tensor(args[3]);
  utils::check_dtype(kOp, "self", self, {DType::Float32, DType::Float16, DType::Int32});
  utils::check_rank(kOp, "self", self, 2, 8);
  utils::check_dtype(kOp, "out", out, {DType::Float32, DType::Float16});
  utils::check_rank(kOp, "out", out, 2, 2);
  const int64_t H = utils::let(kOp, "H = self.dims[-2]", [&]() -> int64_t { return self.dim(-2); });
  const int64_t W = utils::let(kOp, "W = self.dims[-1]", [&]() -> int64_t { return self.dim(-1); });
  utils::check_output_dims(kOp, "out", out, std::vector<int64_t>{utils::mul(H, W), 2});

  GridPriorsPlan plan;
  plan.params0.W = utils::to_u32(W, kOp, "W");
  plan.params0.num_elements = utils::to_u32(utils::mul(H, W), kOp, "num_elements");
  plan.params0.stride = utils::to_f32(static_cast<double>(stride));
  plan.params0.offset = utils::to_f32(offset);
  if (graph.has_feature(Feature::ShaderF16) && (out.dtype == DType::Float16)) {
    plan.route0 = 0;  // grid_priors_f16
    plan.grid0 = utils::elementwise_grid(utils::mul(H, W), kGridPriorsF16Kernel.workgroup_size[0],
                                         graph.limits().max_workgroups_per_dimension);
  } else if (out.dtype == DType::Float16) {
    plan.route0 = 1;  // grid_priors_f16_packed
    plan.grid0 =
        utils::elementwise_grid(utils::mul(H, W), kGridPriorsF16PackedKernel.workgroup_size[0],
                                graph.limits().max_workgroups_per_dimension);
  } else {
    plan.route0 = 2;  // grid_priors
    plan.grid0 = utils::elementwise_grid(utils::mul(H, W), kGridPriorsKernel.workgroup_size[0],
                                         graph.limits().max_workgroups_per_dimension);
  }
  return plan;
}

// Gives the outputs the shape the op's formula computes from the live inputs.
void resize_grid_priors_outputs(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const Tensor& self = graph.get_tensor(args[0]);
  Tensor& out = graph.get_tensor(args[3]);
  const int64_t H = utils::let(kOp, "H = self.dims[-2]", [&]() -> int64_t { return self.dim(-2); });
  const int64_t W = utils::let(kOp, "W = self.dims[-1]", [&]() -> int64_t { return self.dim(-1); });
  utils::resize_output(kOp, "out", out, std::vector<int64_t>{utils::mul(H, W), 2});
}

void add_grid_priors(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const GridPriorsPlan built = plan_grid_priors(graph, args);
  const DispatchId dispatch0 = graph.add_dispatch(
      *kDispatch0Kernels[built.route0], built.overrides0, {Binding::params(), Binding::of(args[3])},
      &built.params0, sizeof(built.params0), built.grid0);
  graph.add_resize_hook([args, built, dispatch0](WebGPUGraph& graph) {
    resize_grid_priors_outputs(graph, args);
    const GridPriorsPlan plan = plan_grid_priors(graph, args);
    if (plan.route0 != built.route0) {
      utils::fail(kOp, "inputs", "were resized into a different kernel route",
                  kDispatch0Kernels[plan.route0]->name, kDispatch0Kernels[built.route0]->name);
    }
    graph.update_dispatch(dispatch0, &plan.params0, sizeof(plan.params0), plan.grid0);
  });
}

}  // namespace
}  // namespace webgpu_delegate

WEBGPU_REGISTER_OP(et_vk.grid_priors.default, webgpu_delegate::add_grid_priors, None);
