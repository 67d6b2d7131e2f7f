// @generated from codegen/specs/compare/compare.py - DO NOT EDIT.
// Op ne_scalar: aten.ne.Scalar

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ops/compare/predicate_broadcast_wgsl.h"
#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "ne_scalar";

struct NeScalarParams {
  uint32_t out_dims[2][4];
  uint32_t a_strides[2][4];
  uint32_t b_strides[2][4];
  uint32_t c_strides[2][4];
  uint32_t num_elements;
  uint32_t num_quads;
  uint32_t rank;
  uint32_t same_shape;
  float scalar;
  int32_t scalar_int;
  uint32_t scalar_is_int;
  uint32_t _pad0;
};
static_assert(offsetof(NeScalarParams, out_dims) == 0,
              "NeScalarParams.out_dims must sit at WGSL offset 0");
static_assert(offsetof(NeScalarParams, a_strides) == 32,
              "NeScalarParams.a_strides must sit at WGSL offset 32");
static_assert(offsetof(NeScalarParams, b_strides) == 64,
              "NeScalarParams.b_strides must sit at WGSL offset 64");
static_assert(offsetof(NeScalarParams, c_strides) == 96,
              "NeScalarParams.c_strides must sit at WGSL offset 96");
static_assert(offsetof(NeScalarParams, num_elements) == 128,
              "NeScalarParams.num_elements must sit at WGSL offset 128");
static_assert(offsetof(NeScalarParams, num_quads) == 132,
              "NeScalarParams.num_quads must sit at WGSL offset 132");
static_assert(offsetof(NeScalarParams, rank) == 136,
              "NeScalarParams.rank must sit at WGSL offset 136");
static_assert(offsetof(NeScalarParams, same_shape) == 140,
              "NeScalarParams.same_shape must sit at WGSL offset 140");
static_assert(offsetof(NeScalarParams, scalar) == 144,
              "NeScalarParams.scalar must sit at WGSL offset 144");
static_assert(offsetof(NeScalarParams, scalar_int) == 148,
              "NeScalarParams.scalar_int must sit at WGSL offset 148");
static_assert(offsetof(NeScalarParams, scalar_is_int) == 152,
              "NeScalarParams.scalar_is_int must sit at WGSL offset 152");
static_assert(sizeof(NeScalarParams) == 160, "NeScalarParams must match the WGSL struct size 160");

const KernelSource kPredicateBroadcastKernel{
    "predicate_broadcast",
    kPredicateBroadcastWGSL,
    "main",
    {kPredicateBroadcastWorkgroupSizeX, kPredicateBroadcastWorkgroupSizeY,
     kPredicateBroadcastWorkgroupSizeZ},
    kPredicateBroadcastBindings,
    kPredicateBroadcastBindingCount};

// The argument values, checked and turned into what each dispatch needs.
struct NeScalarPlan {
  NeScalarParams params0{};
  utils::Grid grid0;
  std::vector<OverrideValue> overrides0;
};

NeScalarPlan plan_ne_scalar(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 3);
  const Tensor& self = graph.get_tensor(args[0]);
  const double other = graph.get_scalar(args[1]);
  const Tensor& out = graph.get_tensor(args[2]);
  utils::check_dtype(kOp, "self", self,
                     {DType::Float32, DType::Float16, DType::Int32, DType::Bool});
  utils::check_rank(kOp, "self", self, 0, 8);
  utils::check_dtype(kOp, "out", out, {DType::Bool});
  utils::check_rank(kOp, "out", out, 0, 8);
  const bool int_scalar = utils::let(
      kOp, "int_scalar = abs(other) <= 2147483647.0 and floor(other) == other", [&]() -> bool {
        return (utils::abs_value(other) <= 2147483647.0) && (utils::floor_to_int(other) == other);
      });
  utils::check_output_dims(kOp, "out", out, self.dims());

  NeScalarPlan plan;
  utils::pack(plan.params0.out_dims, 4, utils::right_align(out.dims(), 8, 1), kOp, "out_dims");
  utils::pack(plan.params0.a_strides, 4,
              utils::broadcast_strides(self.dims(), utils::right_align(out.dims(), 8, 1)), kOp,
              "a_strides");
  utils::pack(plan.params0.b_strides, 4,
              utils::broadcast_strides(self.dims(), utils::right_align(out.dims(), 8, 1)), kOp,
              "b_strides");
  utils::pack(plan.params0.c_strides, 4,
              utils::broadcast_strides(self.dims(), utils::right_align(out.dims(), 8, 1)), kOp,
              "c_strides");
  plan.params0.num_elements = utils::to_u32(out.numel(), kOp, "num_elements");
  plan.params0.num_quads = utils::to_u32(utils::ceil_div(out.numel(), 4), kOp, "num_quads");
  plan.params0.rank = utils::to_u32(out.rank(), kOp, "rank");
  plan.params0.same_shape = (self.dims() == out.dims()) ? 1 : 0;
  plan.params0.scalar = utils::to_f32(other);
  plan.params0.scalar_int =
      utils::to_i32(int_scalar ? utils::floor_to_int(other) : 0, kOp, "scalar_int");
  plan.params0.scalar_is_int =
      (int_scalar && (self.dtype != DType::Float32) && (self.dtype != DType::Float16)) ? 1 : 0;
  plan.grid0 = utils::elementwise_grid(utils::ceil_div(out.numel(), 4),
                                       kPredicateBroadcastKernel.workgroup_size[0] * 4,
                                       graph.limits().max_workgroups_per_dimension);
  plan.overrides0 = {
      {"OP", 1.0},
      {"A_KIND",
       static_cast<double>(
           (self.dtype == DType::Float32)
               ? 0
               : ((self.dtype == DType::Int32) ? 1 : ((self.dtype == DType::Float16) ? 5 : 2)))},
      {"B_KIND", 3.0},
      {"C_KIND", 4.0}};
  return plan;
}

// Gives the outputs the shape the op's formula computes from the live inputs.
void resize_ne_scalar_outputs(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const Tensor& self = graph.get_tensor(args[0]);
  Tensor& out = graph.get_tensor(args[2]);
  utils::resize_output(kOp, "out", out, self.dims());
}

void add_ne_scalar(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const NeScalarPlan built = plan_ne_scalar(graph, args);
  const DispatchId dispatch0 =
      graph.add_dispatch(kPredicateBroadcastKernel, built.overrides0,
                         {Binding::params(), Binding::of(args[0]), Binding::of(args[0]),
                          Binding::of(args[0]), Binding::of(args[2])},
                         &built.params0, sizeof(built.params0), built.grid0);
  graph.add_resize_hook([args, dispatch0](WebGPUGraph& graph) {
    resize_ne_scalar_outputs(graph, args);
    const NeScalarPlan plan = plan_ne_scalar(graph, args);
    graph.update_dispatch(dispatch0, &plan.params0, sizeof(plan.params0), plan.grid0);
  });
}

}  // namespace
}  // namespace webgpu_delegate

WEBGPU_REGISTER_OP(aten.ne.Scalar, webgpu_delegate::add_ne_scalar, None);
