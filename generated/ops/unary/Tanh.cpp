// @generated from codegen/specs/unary/unary.py - DO NOT EDIT.
// Op tanh: aten.tanh.default

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ops/unary/tanh_wgsl.h"
#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "tanh";

struct TanhParams {
  uint32_t num_vec4;
  uint32_t _pad0[3];
};
static_assert(offsetof(TanhParams, num_vec4) == 0, "TanhParams.num_vec4 must sit at WGSL offset 0");
static_assert(sizeof(TanhParams) == 16, "TanhParams must match the WGSL struct size 16");

const KernelSource kTanhKernel{
    "tanh",        kTanhWGSL,
    "main",        {kTanhWorkgroupSizeX, kTanhWorkgroupSizeY, kTanhWorkgroupSizeZ},
    kTanhBindings, kTanhBindingCount};

// The argument values, checked and turned into what each dispatch needs.
struct TanhPlan {
  TanhParams params0{};
  utils::Grid grid0;
  std::vector<OverrideValue> overrides0;
};

TanhPlan plan_tanh(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 2);
  const Tensor& self = graph.get_tensor(args[0]);
  const Tensor& out = graph.get_tensor(args[1]);
  utils::check_dtype(kOp, "self", self, {DType::Float32});
  utils::check_dtype(kOp, "out", out, {DType::Float32});
  utils::check_output_dims(kOp, "out", out, self.dims());

  TanhPlan plan;
  plan.params0.num_vec4 = utils::to_u32(utils::ceil_div(out.numel(), 4), kOp, "num_vec4");
  plan.grid0 =
      utils::elementwise_grid(utils::ceil_div(out.numel(), 4), kTanhKernel.workgroup_size[0] * 4,
                              graph.limits().max_workgroups_per_dimension);
  return plan;
}

// Gives the outputs the shape the op's formula computes from the live inputs.
void resize_tanh_outputs(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const Tensor& self = graph.get_tensor(args[0]);
  Tensor& out = graph.get_tensor(args[1]);
  utils::resize_output(kOp, "out", out, self.dims());
}

void add_tanh(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const TanhPlan built = plan_tanh(graph, args);
  const DispatchId dispatch0 =
      graph.add_dispatch(kTanhKernel, built.overrides0,
                         {Binding::params(), Binding::of(args[0]), Binding::of(args[1])},
                         &built.params0, sizeof(built.params0), built.grid0);
  graph.add_resize_hook([args, dispatch0](WebGPUGraph& graph) {
    resize_tanh_outputs(graph, args);
    const TanhPlan plan = plan_tanh(graph, args);
    graph.update_dispatch(dispatch0, &plan.params0, sizeof(plan.params0), plan.grid0);
  });
}

}  // namespace
}  // namespace webgpu_delegate

WEBGPU_REGISTER_OP(aten.tanh.default, webgpu_delegate::add_tanh, None);
