// @generated from codegen/specs/permute_copy/permute_copy.py - DO NOT EDIT.
// Op as_strided_copy: aten.as_strided_copy.default

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ops/permute_copy/strided_gather_bytes_wgsl.h"
#include "ops/permute_copy/strided_gather_halves_wgsl.h"
#include "ops/permute_copy/strided_gather_vec4_wgsl.h"
#include "ops/permute_copy/strided_gather_wgsl.h"
#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "as_strided_copy";

struct AsStridedCopyStridedGatherVec4Params {
  uint32_t out_dims[2][4];
  uint32_t in_mods[2][4];
  uint32_t in_strides[2][4];
  uint32_t num_elements;
  uint32_t in_offset;
  uint32_t _pad0[2];
};
static_assert(offsetof(AsStridedCopyStridedGatherVec4Params, out_dims) == 0,
              "AsStridedCopyStridedGatherVec4Params.out_dims must sit at WGSL offset 0");
static_assert(offsetof(AsStridedCopyStridedGatherVec4Params, in_mods) == 32,
              "AsStridedCopyStridedGatherVec4Params.in_mods must sit at WGSL offset 32");
static_assert(offsetof(AsStridedCopyStridedGatherVec4Params, in_strides) == 64,
              "AsStridedCopyStridedGatherVec4Params.in_strides must sit at WGSL offset 64");
static_assert(offsetof(AsStridedCopyStridedGatherVec4Params, num_elements) == 96,
              "AsStridedCopyStridedGatherVec4Params.num_elements must sit at WGSL offset 96");
static_assert(offsetof(AsStridedCopyStridedGatherVec4Params, in_offset) == 100,
              "AsStridedCopyStridedGatherVec4Params.in_offset must sit at WGSL offset 100");
static_assert(sizeof(AsStridedCopyStridedGatherVec4Params) == 112,
              "AsStridedCopyStridedGatherVec4Params must match the WGSL struct size 112");

struct AsStridedCopyStridedGatherParams {
  uint32_t out_dims[2][4];
  uint32_t in_mods[2][4];
  uint32_t in_strides[2][4];
  uint32_t num_elements;
  uint32_t in_offset;
  uint32_t _pad0[2];
};
static_assert(offsetof(AsStridedCopyStridedGatherParams, out_dims) == 0,
              "AsStridedCopyStridedGatherParams.out_dims must sit at WGSL offset 0");
static_assert(offsetof(AsStridedCopyStridedGatherParams, in_mods) == 32,
              "AsStridedCopyStridedGatherParams.in_mods must sit at WGSL offset 32");
static_assert(offsetof(AsStridedCopyStridedGatherParams, in_strides) == 64,
              "AsStridedCopyStridedGatherParams.in_strides must sit at WGSL offset 64");
static_assert(offsetof(AsStridedCopyStridedGatherParams, num_elements) == 96,
              "AsStridedCopyStridedGatherParams.num_elements must sit at WGSL offset 96");
static_assert(offsetof(AsStridedCopyStridedGatherParams, in_offset) == 100,
              "AsStridedCopyStridedGatherParams.in_offset must sit at WGSL offset 100");
static_assert(sizeof(AsStridedCopyStridedGatherParams) == 112,
              "AsStridedCopyStridedGatherParams must match the WGSL struct size 112");

const KernelSource kStridedGatherVec4Kernel{
    "strided_gather_vec4",
    kStridedGatherVec4WGSL,
    "main",
    {kStridedGatherVec4WorkgroupSizeX, kStridedGatherVec4WorkgroupSizeY,
     kStridedGatherVec4WorkgroupSizeZ},
    kStridedGatherVec4Bindings,
    kStridedGatherVec4BindingCount};
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
// Dispatch 1's kernels, in route order.
const KernelSource* const kDispatch1Kernels[] = {
    &kStridedGatherBytesKernel, &kStridedGatherHalvesKernel, &kStridedGatherKernel};

// The argument values, checked and turned into what each dispatch needs.
struct AsStridedCopyPlan {
  bool run0 = true;
  AsStridedCopyStridedGatherVec4Params params0{};
  utils::Grid grid0;
  std::vector<OverrideValue> overrides0;
  bool run1 = true;
  size_t route1 = 0;
  AsStridedCopyStridedGatherParams params1{};
  utils::Grid grid1;
  std::vector<OverrideValue> overrides1;
};

AsStridedCopyPlan plan_as_strided_copy(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 5);
  const Tensor& self = graph.get_tensor(args[0]);
  const std::vector<int64_t> size = utils::read_int_list(graph, args[1], kOp, "size");
  const std::vector<int64_t> stride = utils::read_int_list(graph, args[2], kOp, "stride");
  const bool storage_offset_is_null = graph.is_null(args[3]);
  const int64_t storage_offset =
      storage_offset_is_null ? 0 : utils::read_int(graph, args[3], kOp, "storage_offset", true);
  const Tensor& out = graph.get_tensor(args[4]);
  utils::check_dtype(kOp, "self", self,
                     {DType::Float32, DType::Float16, DType::Int32, DType::Bool});
  utils::check_rank(kOp, "self", self, 0, 8);
  utils::check_dtype(kOp, "out", out, {DType::Float32, DType::Float16, DType::Int32, DType::Bool});
  const int64_t last = utils::let(
      kOp,
      "last = sum([(size[k] - 1) * stride[k] for k in range(len(size))]) if len(size) == "
      "len(stride) and prod(size) > 0 else -1",
      [&]() -> int64_t {
        return ((utils::length(size) == utils::length(stride)) && (utils::prod(size) > 0))
                   ? utils::sum([&]() {
                       std::vector<int64_t> _values;
                       for (const auto& _k : utils::range(utils::length(size))) {
                         _values.push_back(
                             utils::mul(utils::sub(utils::at(size, _k), 1), utils::at(stride, _k)));
                       }
                       return _values;
                     }())
                   : -1;
      });
  if (utils::length(size) > 8) {
    utils::fail(kOp, "size", "has too many entries", utils::format_value(size),
                "at most 8 entries");
  }
  if (utils::length(stride) != utils::length(size)) {
    utils::fail(kOp, "stride", "does not give one stride per size", utils::format_value(stride),
                utils::format_value(utils::length(size)) + " strides");
  }
  if ((utils::length(size) != 0) && (utils::min_of(size) < 0)) {
    utils::fail(kOp, "size", "holds a negative size", utils::format_value(size), "sizes >= 0");
  }
  if ((utils::length(stride) != 0) && (utils::min_of(stride) < 0)) {
    utils::fail(kOp, "stride", "holds a negative stride", utils::format_value(stride),
                "strides >= 0");
  }
  if (!storage_offset_is_null && (storage_offset != 0)) {
    utils::fail(kOp, "storage_offset", "is not supported", utils::format_value(storage_offset),
                "None or 0");
  }
  if (last >= self.numel()) {
    utils::fail(kOp, "size", "reads past the end of the input's storage", utils::format_value(size),
                "a view of at most " + utils::format_value(self.numel()) +
                    " elements with strides " + utils::format_value(stride));
  }
  utils::check_output_dims(kOp, "out", out, size);

  AsStridedCopyPlan plan;
  plan.run0 =
      ((out.dtype != DType::Bool) && (out.dtype != DType::Float16)) &&
      ((utils::length(size) > 0) && (utils::at(stride, -1) == 1) &&
       (utils::floormod(utils::at(size, -1), 4) == 0) && (utils::length([&]() {
                                                            std::vector<int64_t> _values;
                                                            for (const auto& _s : stride) {
                                                              if (utils::floormod(_s, 4) != 0)
                                                                _values.push_back(_s);
                                                            }
                                                            return _values;
                                                          }()) <= 1));
  if (plan.run0) {
    utils::pack(plan.params0.out_dims, 4, utils::right_align(size, 8, 1), kOp, "out_dims");
    utils::pack(plan.params0.in_mods, 4, utils::right_align(size, 8, 1), kOp, "in_mods");
    utils::pack(plan.params0.in_strides, 4, utils::right_align(stride, 8, 0), kOp, "in_strides");
    plan.params0.num_elements = utils::to_u32(utils::floordiv(out.numel(), 4), kOp, "num_elements");
    plan.params0.in_offset = utils::to_u32(0, kOp, "in_offset");
    plan.grid0 = utils::elementwise_grid(utils::floordiv(out.numel(), 4),
                                         kStridedGatherVec4Kernel.workgroup_size[0],
                                         graph.limits().max_workgroups_per_dimension);
  }
  plan.run1 =
      (out.dtype == DType::Bool) || (out.dtype == DType::Float16) ||
      ((utils::length(size) <= 0) || (utils::at(stride, -1) != 1) ||
       (utils::floormod(utils::at(size, -1), 4) != 0) || (utils::length([&]() {
                                                            std::vector<int64_t> _values;
                                                            for (const auto& _s : stride) {
                                                              if (utils::floormod(_s, 4) != 0)
                                                                _values.push_back(_s);
                                                            }
                                                            return _values;
                                                          }()) > 1));
  if (plan.run1) {
    utils::pack(plan.params1.out_dims, 4, utils::right_align(size, 8, 1), kOp, "out_dims");
    utils::pack(plan.params1.in_mods, 4, utils::right_align(size, 8, 1), kOp, "in_mods");
    utils::pack(plan.params1.in_strides, 4, utils::right_align(stride, 8, 0), kOp, "in_strides");
    plan.params1.num_elements = utils::to_u32(utils::floordiv(out.numel(), 1), kOp, "num_elements");
    plan.params1.in_offset = utils::to_u32(0, kOp, "in_offset");
    if (out.dtype == DType::Bool) {
      plan.route1 = 0;  // strided_gather_bytes
      plan.grid1 = utils::elementwise_grid(utils::ceil_div(out.numel(), 4),
                                           kStridedGatherBytesKernel.workgroup_size[0],
                                           graph.limits().max_workgroups_per_dimension);
      plan.overrides1 = {{"ALIGNED", ((utils::length(size) > 0) && (utils::at(stride, -1) == 1) &&
                                      (utils::floormod(utils::at(size, -1), 4) == 0) &&
                                      (utils::length([&]() {
                                         std::vector<int64_t> _values;
                                         for (const auto& _s : stride) {
                                           if (utils::floormod(_s, 4) != 0) _values.push_back(_s);
                                         }
                                         return _values;
                                       }()) <= 1))
                                         ? 1.0
                                         : 0.0}};
    } else if (out.dtype == DType::Float16) {
      plan.route1 = 1;  // strided_gather_halves
      plan.grid1 = utils::elementwise_grid(utils::ceil_div(out.numel(), 2),
                                           kStridedGatherHalvesKernel.workgroup_size[0],
                                           graph.limits().max_workgroups_per_dimension);
      plan.overrides1 = {{"ALIGNED", ((utils::length(size) > 0) && (utils::at(stride, -1) == 1) &&
                                      (utils::floormod(utils::at(size, -1), 4) == 0) &&
                                      (utils::length([&]() {
                                         std::vector<int64_t> _values;
                                         for (const auto& _s : stride) {
                                           if (utils::floormod(_s, 4) != 0) _values.push_back(_s);
                                         }
                                         return _values;
                                       }()) <= 1))
                                         ? 1.0
                                         : 0.0}};
    } else {
      plan.route1 = 2;  // strided_gather
      plan.grid1 = utils::elementwise_grid(utils::floordiv(out.numel(), 1),
                                           kStridedGatherKernel.workgroup_size[0],
                                           graph.limits().max_workgroups_per_dimension);
    }
  }
  return plan;
}

// Gives the outputs the shape the op's formula computes from the live inputs.
void resize_as_strided_copy_outputs(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const std::vector<int64_t> size = utils::read_int_list(graph, args[1], kOp, "size");
  Tensor& out = graph.get_tensor(args[4]);
  utils::resize_output(kOp, "out", out, size);
}

void add_as_strided_copy(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const AsStridedCopyPlan built = plan_as_strided_copy(graph, args);
  const DispatchId dispatch0 =
      built.run0
          ? graph.add_dispatch(kStridedGatherVec4Kernel, built.overrides0,
                               {Binding::params(), Binding::of(args[0]), Binding::of(args[4])},
                               &built.params0, sizeof(built.params0), built.grid0)
          : 0;
  const DispatchId dispatch1 =
      built.run1
          ? graph.add_dispatch(*kDispatch1Kernels[built.route1], built.overrides1,
                               {Binding::params(), Binding::of(args[0]), Binding::of(args[4])},
                               &built.params1, sizeof(built.params1), built.grid1)
          : 0;
  graph.add_resize_hook([args, built, dispatch0, dispatch1](WebGPUGraph& graph) {
    resize_as_strided_copy_outputs(graph, args);
    const AsStridedCopyPlan plan = plan_as_strided_copy(graph, args);
    if (plan.run0 != built.run0) {
      utils::fail(kOp, "inputs", "were resized into a different set of dispatches",
                  utils::format_value(plan.run0), utils::format_value(built.run0));
    }
    if (built.run0) {
      graph.update_dispatch(dispatch0, &plan.params0, sizeof(plan.params0), plan.grid0);
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
      graph.update_dispatch(dispatch1, &plan.params1, sizeof(plan.params1), plan.grid1);
    }
  });
}

}  // namespace
}  // namespace webgpu_delegate

WEBGPU_REGISTER_OP(aten.as_strided_copy.default, webgpu_delegate::add_as_strided_copy, None);
