// @generated from codegen/specs/cumsum/cumsum.py - DO NOT EDIT.
// Op cumsum: aten.cumsum.default

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ops/cumsum/cumsum_last_dim_wgsl.h"
#include "ops/cumsum/cumsum_strided_wgsl.h"
#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "cumsum";

struct CumsumParams {
  uint32_t N;
  uint32_t inner;
  uint32_t num_rows;
  uint32_t _pad0;
};
static_assert(offsetof(CumsumParams, N) == 0, "CumsumParams.N must sit at WGSL offset 0");
static_assert(offsetof(CumsumParams, inner) == 4, "CumsumParams.inner must sit at WGSL offset 4");
static_assert(offsetof(CumsumParams, num_rows) == 8,
              "CumsumParams.num_rows must sit at WGSL offset 8");
static_assert(sizeof(CumsumParams) == 16, "CumsumParams must match the WGSL struct size 16");

const KernelSource kCumsumLastDimKernel{
    "cumsum_last_dim",
    kCumsumLastDimWGSL,
    "main",
    {kCumsumLastDimWorkgroupSizeX, kCumsumLastDimWorkgroupSizeY, kCumsumLastDimWorkgroupSizeZ},
    kCumsumLastDimBindings,
    kCumsumLastDimBindingCount};
const KernelSource kCumsumStridedKernel{
    "cumsum_strided",
    kCumsumStridedWGSL,
    "main",
    {kCumsumStridedWorkgroupSizeX, kCumsumStridedWorkgroupSizeY, kCumsumStridedWorkgroupSizeZ},
    kCumsumStridedBindings,
    kCumsumStridedBindingCount};
// Dispatch 0's kernels, in route order.
const KernelSource* const kDispatch0Kernels[] = {&kCumsumLastDimKernel, &kCumsumStridedKernel};

// The argument values, checked and turned into what each dispatch needs.
struct CumsumPlan {
  size_t route0 = 0;
  CumsumParams params0{};
  utils::Grid grid0;
  std::vector<OverrideValue> overrides0;
};

CumsumPlan plan_cumsum(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 4);
  const Tensor& self = graph.get_tensor(args[0]);
  const int64_t dim = utils::read_int(graph, args[1], kOp, "dim", false);
  const Tensor& out = graph.get_tensor(args[3]);
  utils::check_dtype(kOp, "self", self, {DType::Float32, DType::Int32, DType::Bool});
  utils::check_rank(kOp, "self", self, 1, 8);
  utils::check_dtype(kOp, "out", out, {DType::Float32, DType::Int32});
  const bool in_range = (dim >= -self.rank()) && (dim < self.rank());
  const int64_t d = utils::let(kOp, "d = dim % self.rank if in_range else 0", [&]() -> int64_t {
    return in_range ? utils::floormod(dim, self.rank()) : 0;
  });
  const int64_t N = utils::let(kOp, "N = self.dims[d]", [&]() -> int64_t { return self.dim(d); });
  const int64_t inner = utils::let(kOp, "inner = prod(self.dims[d + 1:])", [&]() -> int64_t {
    return utils::prod(utils::slice(self.dims(), utils::add(d, 1), INT64_MAX));
  });
  const int64_t lines = utils::let(kOp, "lines = prod(self.dims[:d]) * inner", [&]() -> int64_t {
    return utils::mul(utils::prod(utils::slice(self.dims(), 0, d)), inner);
  });
  if (!in_range) {
    utils::fail(kOp, "dim", "names a dim the input does not have", utils::format_value(dim),
                "a dim in -" + utils::format_value(self.rank()) + ".." +
                    utils::format_value(utils::sub(self.rank(), 1)));
  }
  utils::check_output_dims(kOp, "out", out, self.dims());

  CumsumPlan plan;
  plan.params0.N = utils::to_u32(N, kOp, "N");
  plan.params0.inner = utils::to_u32(inner, kOp, "inner");
  plan.params0.num_rows = utils::to_u32(lines, kOp, "num_rows");
  if (inner == 1) {
    plan.route0 = 0;  // cumsum_last_dim
    plan.grid0 = utils::elementwise_grid(lines, 1, graph.limits().max_workgroups_per_dimension);
    plan.overrides0 = {{"IN_FLOAT", (self.dtype == DType::Float32) ? 1.0 : 0.0},
                       {"IN_BOOL", (self.dtype == DType::Bool) ? 1.0 : 0.0},
                       {"OUT_FLOAT", (out.dtype == DType::Float32) ? 1.0 : 0.0}};
  } else {
    plan.route0 = 1;  // cumsum_strided
    plan.grid0 = utils::elementwise_grid(lines, kCumsumStridedKernel.workgroup_size[0],
                                         graph.limits().max_workgroups_per_dimension);
    plan.overrides0 = {{"IN_FLOAT", (self.dtype == DType::Float32) ? 1.0 : 0.0},
                       {"IN_BOOL", (self.dtype == DType::Bool) ? 1.0 : 0.0},
                       {"OUT_FLOAT", (out.dtype == DType::Float32) ? 1.0 : 0.0}};
  }
  return plan;
}

// Gives the outputs the shape the op's formula computes from the live inputs.
void resize_cumsum_outputs(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const Tensor& self = graph.get_tensor(args[0]);
  Tensor& out = graph.get_tensor(args[3]);
  utils::resize_output(kOp, "out", out, self.dims());
}

void add_cumsum(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const CumsumPlan built = plan_cumsum(graph, args);
  const DispatchId dispatch0 =
      graph.add_dispatch(*kDispatch0Kernels[built.route0], built.overrides0,
                         {Binding::params(), Binding::of(args[0]), Binding::of(args[3])},
                         &built.params0, sizeof(built.params0), built.grid0);
  graph.add_resize_hook([args, built, dispatch0](WebGPUGraph& graph) {
    resize_cumsum_outputs(graph, args);
    const CumsumPlan plan = plan_cumsum(graph, args);
    if (plan.route0 != built.route0) {
      utils::fail(kOp, "inputs", "were resized into a different kernel route",
                  kDispatch0Kernels[plan.route0]->name, kDispatch0Kernels[built.route0]->name);
    }
    graph.update_dispatch(dispatch0, &plan.params0, sizeof(plan.params0), plan.grid0);
  });
}

}  // namespace
}  // namespace webgpu_delegate

WEBGPU_REGISTER_OP(aten.cumsum.default, webgpu_delegate::add_cumsum, None);
