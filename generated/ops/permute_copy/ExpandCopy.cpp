// @generated from codegen/specs/permute_copy/permute_copy.py - DO NOT EDIT.
// Op expand_copy: aten.expand_copy.default

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

constexpr const char* kOp = "expand_copy";

struct ExpandCopyStridedGatherVec4Params {
  uint32_t out_dims[2][4];
  uint32_t in_mods[2][4];
  uint32_t in_strides[2][4];
  uint32_t num_elements;
  uint32_t in_offset;
  uint32_t _pad0[2];
};
static_assert(offsetof(ExpandCopyStridedGatherVec4Params, out_dims) == 0,
              "ExpandCopyStridedGatherVec4Params.out_dims must sit at WGSL offset 0");
static_assert(offsetof(ExpandCopyStridedGatherVec4Params, in_mods) == 32,
              "ExpandCopyStridedGatherVec4Params.in_mods must sit at WGSL offset 32");
static_assert(offsetof(ExpandCopyStridedGatherVec4Params, in_strides) == 64,
              "ExpandCopyStridedGatherVec4Params.in_strides must sit at WGSL offset 64");
static_assert(offsetof(ExpandCopyStridedGatherVec4Params, num_elements) == 96,
              "ExpandCopyStridedGatherVec4Params.num_elements must sit at WGSL offset 96");
static_assert(offsetof(ExpandCopyStridedGatherVec4Params, in_offset) == 100,
              "ExpandCopyStridedGatherVec4Params.in_offset must sit at WGSL offset 100");
static_assert(sizeof(ExpandCopyStridedGatherVec4Params) == 112,
              "ExpandCopyStridedGatherVec4Params must match the WGSL struct size 112");

struct ExpandCopyStridedGatherParams {
  uint32_t out_dims[2][4];
  uint32_t in_mods[2][4];
  uint32_t in_strides[2][4];
  uint32_t num_elements;
  uint32_t in_offset;
  uint32_t _pad0[2];
};
static_assert(offsetof(ExpandCopyStridedGatherParams, out_dims) == 0,
              "ExpandCopyStridedGatherParams.out_dims must sit at WGSL offset 0");
static_assert(offsetof(ExpandCopyStridedGatherParams, in_mods) == 32,
              "ExpandCopyStridedGatherParams.in_mods must sit at WGSL offset 32");
static_assert(offsetof(ExpandCopyStridedGatherParams, in_strides) == 64,
              "ExpandCopyStridedGatherParams.in_strides must sit at WGSL offset 64");
static_assert(offsetof(ExpandCopyStridedGatherParams, num_elements) == 96,
              "ExpandCopyStridedGatherParams.num_elements must sit at WGSL offset 96");
static_assert(offsetof(ExpandCopyStridedGatherParams, in_offset) == 100,
              "ExpandCopyStridedGatherParams.in_offset must sit at WGSL offset 100");
static_assert(sizeof(ExpandCopyStridedGatherParams) == 112,
              "ExpandCopyStridedGatherParams must match the WGSL struct size 112");

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
struct ExpandCopyPlan {
  bool run0 = true;
  ExpandCopyStridedGatherVec4Params params0{};
  utils::Grid grid0;
  std::vector<OverrideValue> overrides0;
  bool run1 = true;
  size_t route1 = 0;
  ExpandCopyStridedGatherParams params1{};
  utils::Grid grid1;
  std::vector<OverrideValue> overrides1;
};

ExpandCopyPlan plan_expand_copy(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 4);
  const Tensor& self = graph.get_tensor(args[0]);
  const std::vector<int64_t> size = utils::read_int_list(graph, args[1], kOp, "size");
  const Tensor& out = graph.get_tensor(args[3]);
  utils::check_dtype(kOp, "self", self,
                     {DType::Float32, DType::Float16, DType::Int32, DType::Bool});
  utils::check_rank(kOp, "self", self, 0, 8);
  utils::check_dtype(kOp, "out", out, {DType::Float32, DType::Float16, DType::Int32, DType::Bool});
  const int64_t lead = utils::let(kOp, "lead = len(size) - self.rank", [&]() -> int64_t {
    return utils::sub(utils::length(size), self.rank());
  });
  const std::vector<int64_t> target =
      utils::let(kOp,
                 "target = [size[k] if k < lead or size[k] != -1 else self.dims[k - lead] for k in "
                 "range(len(size))]",
                 [&]() -> std::vector<int64_t> {
                   return [&]() {
                     std::vector<int64_t> _values;
                     for (const auto& _k : utils::range(utils::length(size))) {
                       _values.push_back(((_k < lead) || (utils::at(size, _k) != -1))
                                             ? utils::at(size, _k)
                                             : self.dim(utils::sub(_k, lead)));
                     }
                     return _values;
                   }();
                 });
  const std::vector<int64_t> negative =
      utils::let(kOp, "negative = [k for k in range(len(target)) if target[k] < 0]",
                 [&]() -> std::vector<int64_t> {
                   return [&]() {
                     std::vector<int64_t> _values;
                     for (const auto& _k : utils::range(utils::length(target))) {
                       if (utils::at(target, _k) < 0) _values.push_back(_k);
                     }
                     return _values;
                   }();
                 });
  const std::vector<int64_t> clashing =
      utils::let(kOp,
                 "clashing = [k for k in range(len(size)) if k >= lead and lead >= 0 and "
                 "self.dims[k - lead] != 1 and target[k] != self.dims[k - lead]]",
                 [&]() -> std::vector<int64_t> {
                   return [&]() {
                     std::vector<int64_t> _values;
                     for (const auto& _k : utils::range(utils::length(size))) {
                       if ((_k >= lead) && (lead >= 0) && (self.dim(utils::sub(_k, lead)) != 1) &&
                           (utils::at(target, _k) != self.dim(utils::sub(_k, lead))))
                         _values.push_back(_k);
                     }
                     return _values;
                   }();
                 });
  if (lead < 0) {
    utils::fail(kOp, "size", "has fewer entries than the input has dims", utils::format_value(size),
                "at least " + utils::format_value(self.rank()) + " entries");
  }
  if (utils::length(size) > 8) {
    utils::fail(kOp, "size", "has too many entries", utils::format_value(size),
                "at most 8 entries");
  }
  if (utils::length(negative) != 0) {
    utils::fail(
        kOp, "size", "holds a negative size where no input dim is kept", utils::format_value(size),
        "sizes >= 0, or -1 for one of the last " + utils::format_value(self.rank()) + " entries");
  }
  if (utils::length(clashing) != 0) {
    utils::fail(
        kOp, "size", "changes an input dim that is not 1", utils::format_value(size),
        "-1 or the input's size where its dims " + utils::format_value(self.dims()) + " are not 1");
  }
  utils::check_output_dims(kOp, "out", out, target);

  ExpandCopyPlan plan;
  plan.run0 = ((out.dtype != DType::Bool) && (out.dtype != DType::Float16)) &&
              ((self.rank() > 0) && (self.dim(-1) == utils::at(target, -1)) &&
               (utils::floormod(utils::at(target, -1), 4) == 0));
  if (plan.run0) {
    utils::pack(plan.params0.out_dims, 4, utils::right_align(target, 8, 1), kOp, "out_dims");
    utils::pack(plan.params0.in_mods, 4, utils::right_align(target, 8, 1), kOp, "in_mods");
    utils::pack(plan.params0.in_strides, 4,
                utils::right_align(utils::broadcast_strides(self.dims(), target), 8, 0), kOp,
                "in_strides");
    plan.params0.num_elements = utils::to_u32(utils::floordiv(out.numel(), 4), kOp, "num_elements");
    plan.params0.in_offset = utils::to_u32(0, kOp, "in_offset");
    plan.grid0 = utils::elementwise_grid(utils::floordiv(out.numel(), 4),
                                         kStridedGatherVec4Kernel.workgroup_size[0],
                                         graph.limits().max_workgroups_per_dimension);
  }
  plan.run1 = (out.dtype == DType::Bool) || (out.dtype == DType::Float16) ||
              ((self.rank() <= 0) || (self.dim(-1) != utils::at(target, -1)) ||
               (utils::floormod(utils::at(target, -1), 4) != 0));
  if (plan.run1) {
    utils::pack(plan.params1.out_dims, 4, utils::right_align(target, 8, 1), kOp, "out_dims");
    utils::pack(plan.params1.in_mods, 4, utils::right_align(target, 8, 1), kOp, "in_mods");
    utils::pack(plan.params1.in_strides, 4,
                utils::right_align(utils::broadcast_strides(self.dims(), target), 8, 0), kOp,
                "in_strides");
    plan.params1.num_elements = utils::to_u32(utils::floordiv(out.numel(), 1), kOp, "num_elements");
    plan.params1.in_offset = utils::to_u32(0, kOp, "in_offset");
    if (out.dtype == DType::Bool) {
      plan.route1 = 0;  // strided_gather_bytes
      plan.grid1 = utils::elementwise_grid(utils::ceil_div(out.numel(), 4),
                                           kStridedGatherBytesKernel.workgroup_size[0],
                                           graph.limits().max_workgroups_per_dimension);
      plan.overrides1 = {
          {"ALIGNED", ((self.rank() > 0) && (self.dim(-1) == utils::at(target, -1)) &&
                       (utils::floormod(utils::at(target, -1), 4) == 0))
                          ? 1.0
                          : 0.0}};
    } else if (out.dtype == DType::Float16) {
      plan.route1 = 1;  // strided_gather_halves
      plan.grid1 = utils::elementwise_grid(utils::ceil_div(out.numel(), 2),
                                           kStridedGatherHalvesKernel.workgroup_size[0],
                                           graph.limits().max_workgroups_per_dimension);
      plan.overrides1 = {
          {"ALIGNED", ((self.rank() > 0) && (self.dim(-1) == utils::at(target, -1)) &&
                       (utils::floormod(utils::at(target, -1), 4) == 0))
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
void resize_expand_copy_outputs(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const Tensor& self = graph.get_tensor(args[0]);
  const std::vector<int64_t> size = utils::read_int_list(graph, args[1], kOp, "size");
  Tensor& out = graph.get_tensor(args[3]);
  const int64_t lead = utils::let(kOp, "lead = len(size) - self.rank", [&]() -> int64_t {
    return utils::sub(utils::length(size), self.rank());
  });
  const std::vector<int64_t> target =
      utils::let(kOp,
                 "target = [size[k] if k < lead or size[k] != -1 else self.dims[k - lead] for k in "
                 "range(len(size))]",
                 [&]() -> std::vector<int64_t> {
                   return [&]() {
                     std::vector<int64_t> _values;
                     for (const auto& _k : utils::range(utils::length(size))) {
                       _values.push_back(((_k < lead) || (utils::at(size, _k) != -1))
                                             ? utils::at(size, _k)
                                             : self.dim(utils::sub(_k, lead)));
                     }
                     return _values;
                   }();
                 });
  utils::resize_output(kOp, "out", out, target);
}

void add_expand_copy(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const ExpandCopyPlan built = plan_expand_copy(graph, args);
  const DispatchId dispatch0 =
      built.run0
          ? graph.add_dispatch(kStridedGatherVec4Kernel, built.overrides0,
                               {Binding::params(), Binding::of(args[0]), Binding::of(args[3])},
                               &built.params0, sizeof(built.params0), built.grid0)
          : 0;
  const DispatchId dispatch1 =
      built.run1
          ? graph.add_dispatch(*kDispatch1Kernels[built.route1], built.overrides1,
                               {Binding::params(), Binding::of(args[0]), Binding::of(args[3])},
                               &built.params1, sizeof(built.params1), built.grid1)
          : 0;
  graph.add_resize_hook([args, built, dispatch0, dispatch1](WebGPUGraph& graph) {
    resize_expand_copy_outputs(graph, args);
    const ExpandCopyPlan plan = plan_expand_copy(graph, args);
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

WEBGPU_REGISTER_OP(aten.expand_copy.default, webgpu_delegate::add_expand_copy, None);
