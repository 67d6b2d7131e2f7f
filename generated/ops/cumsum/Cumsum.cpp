// @generated from codegen/specs/cumsum/cumsum.py - DO NOT EDIT.
// Op cumsum: aten.cumsum.default

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ops/cumsum/cumsum_last_dim_f16_packed_wgsl.h"
#include "ops/cumsum/cumsum_last_dim_f16_wgsl.h"
#include "ops/cumsum/cumsum_last_dim_i32_wgsl.h"
#include "ops/cumsum/cumsum_last_dim_wgsl.h"
#include "ops/cumsum/cumsum_strided_f16_packed_wgsl.h"
#include "ops/cumsum/cumsum_strided_f16_wgsl.h"
#include "ops/cumsum/cumsum_strided_i32_wgsl.h"
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

const KernelSource kCumsumLastDimF16Kernel{
    "cumsum_last_dim_f16",
    kCumsumLastDimF16WGSL,
    "main",
    {kCumsumLastDimF16WorkgroupSizeX, kCumsumLastDimF16WorkgroupSizeY,
     kCumsumLastDimF16WorkgroupSizeZ},
    kCumsumLastDimF16Bindings,
    kCumsumLastDimF16BindingCount,
    kCumsumLastDimF16Features};
const KernelSource kCumsumLastDimF16PackedKernel{
    "cumsum_last_dim_f16_packed",
    kCumsumLastDimF16PackedWGSL,
    "main",
    {kCumsumLastDimF16PackedWorkgroupSizeX, kCumsumLastDimF16PackedWorkgroupSizeY,
     kCumsumLastDimF16PackedWorkgroupSizeZ},
    kCumsumLastDimF16PackedBindings,
    kCumsumLastDimF16PackedBindingCount};
const KernelSource kCumsumStridedF16Kernel{
    "cumsum_strided_f16",
    kCumsumStridedF16WGSL,
    "main",
    {kCumsumStridedF16WorkgroupSizeX, kCumsumStridedF16WorkgroupSizeY,
     kCumsumStridedF16WorkgroupSizeZ},
    kCumsumStridedF16Bindings,
    kCumsumStridedF16BindingCount,
    kCumsumStridedF16Features};
const KernelSource kCumsumStridedF16PackedKernel{
    "cumsum_strided_f16_packed",
    kCumsumStridedF16PackedWGSL,
    "main",
    {kCumsumStridedF16PackedWorkgroupSizeX, kCumsumStridedF16PackedWorkgroupSizeY,
     kCumsumStridedF16PackedWorkgroupSizeZ},
    kCumsumStridedF16PackedBindings,
    kCumsumStridedF16PackedBindingCount};
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
const KernelSource kCumsumLastDimI32Kernel{
    "cumsum_last_dim_i32",
    kCumsumLastDimI32WGSL,
    "main",
    {kCumsumLastDimI32WorkgroupSizeX, kCumsumLastDimI32WorkgroupSizeY,
     kCumsumLastDimI32WorkgroupSizeZ},
    kCumsumLastDimI32Bindings,
    kCumsumLastDimI32BindingCount};
const KernelSource kCumsumStridedI32Kernel{
    "cumsum_strided_i32",
    kCumsumStridedI32WGSL,
    "main",
    {kCumsumStridedI32WorkgroupSizeX, kCumsumStridedI32WorkgroupSizeY,
     kCumsumStridedI32WorkgroupSizeZ},
    kCumsumStridedI32Bindings,
    kCumsumStridedI32BindingCount};
// Dispatch 0's kernels, in route order.
const KernelSource* const kDispatch0Kernels[] = {
    &kCumsumLastDimF16Kernel,       &kCumsumLastDimF16PackedKernel, &kCumsumStridedF16Kernel,
    &kCumsumStridedF16PackedKernel, &kCumsumLastDimKernel,          &kCumsumStridedKernel};
// Dispatch 1's kernels, in route order.
const KernelSource* const kDispatch1Kernels[] = {&kCumsumLastDimI32Kernel,
                                                 &kCumsumStridedI32Kernel};

// The argument values, checked and turned into what each dispatch needs.
struct CumsumPlan {
  CumsumParams params{};
  bool run0 = true;
  size_t route0 = 0;
  utils::Grid grid0;
  std::vector<OverrideValue> overrides0;
  bool run1 = true;
  size_t route1 = 0;
  utils::Grid grid1;
  std::vector<OverrideValue> overrides1;
};

CumsumPlan plan_cumsum(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 4);
  const Tensor& self = graph.get_tensor(args[0]);
  const int64_t dim = utils::read_int(graph, args[1], kOp, "dim", false);
  const Tensor& out = graph.get_tensor(args[3]);
  utils::check_dtype(kOp, "self", self,
                     {DType::Float32, DType::Float16, DType::Int32, DType::Bool});
  utils::check_rank(kOp, "self", self, 1, 8);
  utils::check_dtype(kOp, "out", out, {DType::Float32, DType::Float16, DType::Int32});
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
  plan.params.N = utils::to_u32(N, kOp, "N");
  plan.params.inner = utils::to_u32(inner, kOp, "inner");
  plan.params.num_rows = utils::to_u32(lines, kOp, "num_rows");
  plan.run0 = (out.dtype == DType::Float32) || (out.dtype == DType::Float16);
  if (plan.run0) {
    if (graph.has_feature(Feature::ShaderF16) && ((out.dtype == DType::Float16) && (inner == 1))) {
      plan.route0 = 0;  // cumsum_last_dim_f16
      plan.grid0 = utils::elementwise_grid(lines, 1, graph.limits().max_workgroups_per_dimension);
      plan.overrides0 = {
          {"IN_FLOAT",
           ((self.dtype == DType::Float32) || (self.dtype == DType::Float16)) ? 1.0 : 0.0},
          {"IN_HALF", (self.dtype == DType::Float16) ? 1.0 : 0.0},
          {"IN_BOOL", (self.dtype == DType::Bool) ? 1.0 : 0.0},
          {"OUT_FLOAT",
           ((out.dtype == DType::Float32) || (out.dtype == DType::Float16)) ? 1.0 : 0.0},
          {"OUT_HALF", (out.dtype == DType::Float16) ? 1.0 : 0.0}};
    } else if ((out.dtype == DType::Float16) && (inner == 1)) {
      plan.route0 = 1;  // cumsum_last_dim_f16_packed
      plan.grid0 = utils::elementwise_grid(lines, 1, graph.limits().max_workgroups_per_dimension);
      plan.overrides0 = {
          {"IN_FLOAT",
           ((self.dtype == DType::Float32) || (self.dtype == DType::Float16)) ? 1.0 : 0.0},
          {"IN_HALF", (self.dtype == DType::Float16) ? 1.0 : 0.0},
          {"IN_BOOL", (self.dtype == DType::Bool) ? 1.0 : 0.0},
          {"OUT_FLOAT",
           ((out.dtype == DType::Float32) || (out.dtype == DType::Float16)) ? 1.0 : 0.0},
          {"OUT_HALF", (out.dtype == DType::Float16) ? 1.0 : 0.0}};
    } else if (graph.has_feature(Feature::ShaderF16) && (out.dtype == DType::Float16)) {
      plan.route0 = 2;  // cumsum_strided_f16
      plan.grid0 = utils::elementwise_grid(lines, kCumsumStridedF16Kernel.workgroup_size[0],
                                           graph.limits().max_workgroups_per_dimension);
      plan.overrides0 = {
          {"IN_FLOAT",
           ((self.dtype == DType::Float32) || (self.dtype == DType::Float16)) ? 1.0 : 0.0},
          {"IN_HALF", (self.dtype == DType::Float16) ? 1.0 : 0.0},
          {"IN_BOOL", (self.dtype == DType::Bool) ? 1.0 : 0.0},
          {"OUT_FLOAT",
           ((out.dtype == DType::Float32) || (out.dtype == DType::Float16)) ? 1.0 : 0.0},
          {"OUT_HALF", (out.dtype == DType::Float16) ? 1.0 : 0.0}};
    } else if (out.dtype == DType::Float16) {
      plan.route0 = 3;  // cumsum_strided_f16_packed
      plan.grid0 = utils::elementwise_grid(lines, kCumsumStridedF16PackedKernel.workgroup_size[0],
                                           graph.limits().max_workgroups_per_dimension);
      plan.overrides0 = {
          {"IN_FLOAT",
           ((self.dtype == DType::Float32) || (self.dtype == DType::Float16)) ? 1.0 : 0.0},
          {"IN_HALF", (self.dtype == DType::Float16) ? 1.0 : 0.0},
          {"IN_BOOL", (self.dtype == DType::Bool) ? 1.0 : 0.0},
          {"OUT_FLOAT",
           ((out.dtype == DType::Float32) || (out.dtype == DType::Float16)) ? 1.0 : 0.0},
          {"OUT_HALF", (out.dtype == DType::Float16) ? 1.0 : 0.0}};
    } else if (inner == 1) {
      plan.route0 = 4;  // cumsum_last_dim
      plan.grid0 = utils::elementwise_grid(lines, 1, graph.limits().max_workgroups_per_dimension);
      plan.overrides0 = {
          {"IN_FLOAT",
           ((self.dtype == DType::Float32) || (self.dtype == DType::Float16)) ? 1.0 : 0.0},
          {"IN_HALF", (self.dtype == DType::Float16) ? 1.0 : 0.0},
          {"IN_BOOL", (self.dtype == DType::Bool) ? 1.0 : 0.0},
          {"OUT_FLOAT",
           ((out.dtype == DType::Float32) || (out.dtype == DType::Float16)) ? 1.0 : 0.0},
          {"OUT_HALF", (out.dtype == DType::Float16) ? 1.0 : 0.0}};
    } else {
      plan.route0 = 5;  // cumsum_strided
      plan.grid0 = utils::elementwise_grid(lines, kCumsumStridedKernel.workgroup_size[0],
                                           graph.limits().max_workgroups_per_dimension);
      plan.overrides0 = {
          {"IN_FLOAT",
           ((self.dtype == DType::Float32) || (self.dtype == DType::Float16)) ? 1.0 : 0.0},
          {"IN_HALF", (self.dtype == DType::Float16) ? 1.0 : 0.0},
          {"IN_BOOL", (self.dtype == DType::Bool) ? 1.0 : 0.0},
          {"OUT_FLOAT",
           ((out.dtype == DType::Float32) || (out.dtype == DType::Float16)) ? 1.0 : 0.0},
          {"OUT_HALF", (out.dtype == DType::Float16) ? 1.0 : 0.0}};
    }
  }
  plan.run1 = (out.dtype != DType::Float32) && (out.dtype != DType::Float16);
  if (plan.run1) {
    if (inner == 1) {
      plan.route1 = 0;  // cumsum_last_dim_i32
      plan.grid1 = utils::elementwise_grid(lines, 1, graph.limits().max_workgroups_per_dimension);
      plan.overrides1 = {
          {"IN_FLOAT",
           ((self.dtype == DType::Float32) || (self.dtype == DType::Float16)) ? 1.0 : 0.0},
          {"IN_HALF", (self.dtype == DType::Float16) ? 1.0 : 0.0},
          {"IN_BOOL", (self.dtype == DType::Bool) ? 1.0 : 0.0},
          {"OUT_FLOAT",
           ((out.dtype == DType::Float32) || (out.dtype == DType::Float16)) ? 1.0 : 0.0},
          {"OUT_HALF", (out.dtype == DType::Float16) ? 1.0 : 0.0}};
    } else {
      plan.route1 = 1;  // cumsum_strided_i32
      plan.grid1 = utils::elementwise_grid(lines, kCumsumStridedI32Kernel.workgroup_size[0],
                                           graph.limits().max_workgroups_per_dimension);
      plan.overrides1 = {
          {"IN_FLOAT",
           ((self.dtype == DType::Float32) || (self.dtype == DType::Float16)) ? 1.0 : 0.0},
          {"IN_HALF", (self.dtype == DType::Float16) ? 1.0 : 0.0},
          {"IN_BOOL", (self.dtype == DType::Bool) ? 1.0 : 0.0},
          {"OUT_FLOAT",
           ((out.dtype == DType::Float32) || (out.dtype == DType::Float16)) ? 1.0 : 0.0},
          {"OUT_HALF", (out.dtype == DType::Float16) ? 1.0 : 0.0}};
    }
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
      built.run0
          ? graph.add_dispatch(*kDispatch0Kernels[built.route0], built.overrides0,
                               {Binding::params(), Binding::of(args[0]), Binding::of(args[3])},
                               &built.params, sizeof(built.params), built.grid0)
          : 0;
  const DispatchId dispatch1 =
      built.run1
          ? graph.add_dispatch(*kDispatch1Kernels[built.route1], built.overrides1,
                               {Binding::params(), Binding::of(args[0]), Binding::of(args[3])},
                               &built.params, sizeof(built.params), built.grid1)
          : 0;
  graph.add_resize_hook([args, built, dispatch0, dispatch1](WebGPUGraph& graph) {
    resize_cumsum_outputs(graph, args);
    const CumsumPlan plan = plan_cumsum(graph, args);
    if (plan.run0 != built.run0) {
      utils::fail(kOp, "inputs", "were resized into a different set of dispatches",
                  utils::format_value(plan.run0), utils::format_value(built.run0));
    }
    if (plan.route0 != built.route0) {
      utils::fail(kOp, "inputs", "were resized into a different kernel route",
                  kDispatch0Kernels[plan.route0]->name, kDispatch0Kernels[built.route0]->name);
    }
    if (built.run0) {
      graph.update_dispatch(dispatch0, &plan.params, sizeof(plan.params), plan.grid0);
    }
    if (plan.run1 != built.run1) {
      utils::fail(kOp, "inputs", "were resized into a different set of dispatches",
                  utils::format_value(plan.run1), utils::format_value(built.run1));
    }
    if (plan.route1 != built.route1) {
      utils::fail(kOp, "inputs", "were resized into a different kernel route",
                  kDispatch1Kernels[plan.route1]->name, kDispatch1Kernels[built.route1]->name);
    }
    if (built.run1) {
      graph.update_dispatch(dispatch1, &plan.params, sizeof(plan.params), plan.grid1);
    }
  });
}

}  // namespace
}  // namespace webgpu_delegate

WEBGPU_REGISTER_OP(aten.cumsum.default, webgpu_delegate::add_cumsum, None);
