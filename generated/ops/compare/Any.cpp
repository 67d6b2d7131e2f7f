// @generated from codegen/specs/compare/any.py - DO NOT EDIT.
// Op any: aten.any.default

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ops/compare/any_rows_wgsl.h"
#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "any";

struct AnyParams {
  uint32_t num_outputs;
  uint32_t num_words;
  uint32_t reduce;
  uint32_t inner;
};
static_assert(offsetof(AnyParams, num_outputs) == 0,
              "AnyParams.num_outputs must sit at WGSL offset 0");
static_assert(offsetof(AnyParams, num_words) == 4, "AnyParams.num_words must sit at WGSL offset 4");
static_assert(offsetof(AnyParams, reduce) == 8, "AnyParams.reduce must sit at WGSL offset 8");
static_assert(offsetof(AnyParams, inner) == 12, "AnyParams.inner must sit at WGSL offset 12");
static_assert(sizeof(AnyParams) == 16, "AnyParams must match the WGSL struct size 16");

const KernelSource kAnyRowsKernel{
    "any_rows",       kAnyRowsWGSL,
    "main",           {kAnyRowsWorkgroupSizeX, kAnyRowsWorkgroupSizeY, kAnyRowsWorkgroupSizeZ},
    kAnyRowsBindings, kAnyRowsBindingCount};

// The argument values, checked and turned into what each dispatch needs.
struct AnyPlan {
  AnyParams params0{};
  utils::Grid grid0;
  std::vector<OverrideValue> overrides0;
};

AnyPlan plan_any(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 2);
  const Tensor& self = graph.get_tensor(args[0]);
  const Tensor& out = graph.get_tensor(args[1]);
  utils::check_dtype(kOp, "self", self,
                     {DType::Float32, DType::Float16, DType::Int32, DType::Bool});
  utils::check_rank(kOp, "self", self, 0, 8);
  utils::check_dtype(kOp, "out", out, {DType::Bool});
  const int64_t lo = 0;
  const int64_t hi = utils::let(kOp, "hi = self.rank - 1",
                                [&]() -> int64_t { return utils::sub(self.rank(), 1); });
  const int64_t outer = utils::let(kOp, "outer = prod(self.dims[:lo])", [&]() -> int64_t {
    return utils::prod(utils::slice(self.dims(), 0, lo));
  });
  const int64_t reduce = utils::let(kOp, "reduce = prod(self.dims[lo:hi + 1])", [&]() -> int64_t {
    return utils::prod(utils::slice(self.dims(), lo, utils::add(hi, 1)));
  });
  const int64_t inner = utils::let(kOp, "inner = prod(self.dims[hi + 1:])", [&]() -> int64_t {
    return utils::prod(utils::slice(self.dims(), utils::add(hi, 1), INT64_MAX));
  });
  utils::check_output_dims(kOp, "out", out, utils::ones(0));

  AnyPlan plan;
  plan.params0.num_outputs = utils::to_u32(utils::mul(outer, inner), kOp, "num_outputs");
  plan.params0.num_words =
      utils::to_u32(utils::ceil_div(utils::mul(outer, inner), 4), kOp, "num_words");
  plan.params0.reduce = utils::to_u32(reduce, kOp, "reduce");
  plan.params0.inner = utils::to_u32(inner, kOp, "inner");
  plan.grid0 = utils::elementwise_grid(utils::ceil_div(utils::mul(outer, inner), 4), 1,
                                       graph.limits().max_workgroups_per_dimension);
  plan.overrides0 = {
      {"KIND",
       static_cast<double>(
           (self.dtype == DType::Float32)
               ? 0
               : ((self.dtype == DType::Float16) ? 5 : ((self.dtype == DType::Int32) ? 1 : 2)))}};
  return plan;
}

// Gives the outputs the shape the op's formula computes from the live inputs.
void resize_any_outputs(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  Tensor& out = graph.get_tensor(args[1]);
  utils::resize_output(kOp, "out", out, utils::ones(0));
}

void add_any(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const AnyPlan built = plan_any(graph, args);
  const DispatchId dispatch0 =
      graph.add_dispatch(kAnyRowsKernel, built.overrides0,
                         {Binding::params(), Binding::of(args[0]), Binding::of(args[1])},
                         &built.params0, sizeof(built.params0), built.grid0);
  graph.add_resize_hook([args, dispatch0](WebGPUGraph& graph) {
    resize_any_outputs(graph, args);
    const AnyPlan plan = plan_any(graph, args);
    graph.update_dispatch(dispatch0, &plan.params0, sizeof(plan.params0), plan.grid0);
  });
}

}  // namespace
}  // namespace webgpu_delegate

WEBGPU_REGISTER_OP(aten.any.default, webgpu_delegate::add_any, None);
