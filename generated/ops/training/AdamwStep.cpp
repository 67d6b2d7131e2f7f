// @generated from codegen/specs/training/adamw_step.py - DO NOT EDIT.
// Op adamw_step: et_vk.adamw_step.default

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ops/training/adamw_step_wgsl.h"
#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "adamw_step";

struct AdamwStepParams {
  uint32_t num_elements;
  float decay;
  float beta1;
  float one_minus_beta1;
  float beta2;
  float one_minus_beta2;
  float eps;
  float bias_correction1;
  float bias_correction2;
  float neg_lr;
  uint32_t _pad0[2];
};
static_assert(offsetof(AdamwStepParams, num_elements) == 0,
              "AdamwStepParams.num_elements must sit at WGSL offset 0");
static_assert(offsetof(AdamwStepParams, decay) == 4,
              "AdamwStepParams.decay must sit at WGSL offset 4");
static_assert(offsetof(AdamwStepParams, beta1) == 8,
              "AdamwStepParams.beta1 must sit at WGSL offset 8");
static_assert(offsetof(AdamwStepParams, one_minus_beta1) == 12,
              "AdamwStepParams.one_minus_beta1 must sit at WGSL offset 12");
static_assert(offsetof(AdamwStepParams, beta2) == 16,
              "AdamwStepParams.beta2 must sit at WGSL offset 16");
static_assert(offsetof(AdamwStepParams, one_minus_beta2) == 20,
              "AdamwStepParams.one_minus_beta2 must sit at WGSL offset 20");
static_assert(offsetof(AdamwStepParams, eps) == 24,
              "AdamwStepParams.eps must sit at WGSL offset 24");
static_assert(offsetof(AdamwStepParams, bias_correction1) == 28,
              "AdamwStepParams.bias_correction1 must sit at WGSL offset 28");
static_assert(offsetof(AdamwStepParams, bias_correction2) == 32,
              "AdamwStepParams.bias_correction2 must sit at WGSL offset 32");
static_assert(offsetof(AdamwStepParams, neg_lr) == 36,
              "AdamwStepParams.neg_lr must sit at WGSL offset 36");
static_assert(sizeof(AdamwStepParams) == 48, "AdamwStepParams must match the WGSL struct size 48");

const KernelSource kAdamwStepKernel{
    "adamw_step",
    kAdamwStepWGSL,
    "main",
    {kAdamwStepWorkgroupSizeX, kAdamwStepWorkgroupSizeY, kAdamwStepWorkgroupSizeZ},
    kAdamwStepBindings,
    kAdamwStepBindingCount};

// The argument values, checked and turned into what each dispatch needs.
struct AdamwStepPlan {
  AdamwStepParams params0{};
  utils::Grid grid0;
  std::vector<OverrideValue> overrides0;
};

AdamwStepPlan plan_adamw_step(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 12);
  const Tensor& param = graph.get_tensor(args[0]);
  const Tensor& m = graph.get_tensor(args[1]);
  const Tensor& v = graph.get_tensor(args[2]);
  const Tensor& grad = graph.get_tensor(args[3]);
  const double lr = utils::read_double(graph, args[4], kOp, "lr");
  const double beta1 = utils::read_double(graph, args[5], kOp, "beta1");
  const double beta2 = utils::read_double(graph, args[6], kOp, "beta2");
  const double eps = utils::read_double(graph, args[7], kOp, "eps");
  const double weight_decay = utils::read_double(graph, args[8], kOp, "weight_decay");
  const double bias_correction1 = utils::read_double(graph, args[9], kOp, "bias_correction1");
  const double bias_correction2 = utils::read_double(graph, args[10], kOp, "bias_correction2");
  const std::vector<ValueRef>& out = graph.get_value_list(args[11]);
  const Tensor& param_out = graph.get_tensor(utils::at(out, 0));
  const Tensor& m_out = graph.get_tensor(utils::at(out, 1));
  const Tensor& v_out = graph.get_tensor(utils::at(out, 2));
  utils::check_dtype(kOp, "param", param, {DType::Float32});
  utils::check_dtype(kOp, "m", m, {DType::Float32});
  utils::check_dtype(kOp, "v", v, {DType::Float32});
  utils::check_dtype(kOp, "grad", grad, {DType::Float32});
  utils::check_dtype(kOp, "param_out", param_out, {DType::Float32});
  utils::check_dtype(kOp, "m_out", m_out, {DType::Float32});
  utils::check_dtype(kOp, "v_out", v_out, {DType::Float32});
  if (m.dims() != param.dims()) {
    utils::fail(kOp, "m", "does not have param's shape", utils::format_value(m.dims()),
                utils::format_value(param.dims()));
  }
  if (v.dims() != param.dims()) {
    utils::fail(kOp, "v", "does not have param's shape", utils::format_value(v.dims()),
                utils::format_value(param.dims()));
  }
  if (grad.dims() != param.dims()) {
    utils::fail(kOp, "grad", "does not have param's shape", utils::format_value(grad.dims()),
                utils::format_value(param.dims()));
  }
  if (!(bias_correction1 > 0.0)) {
    utils::fail(kOp, "bias_correction1", "is not positive (it divides)",
                utils::format_value(bias_correction1), "a value > 0");
  }
  if (!(bias_correction2 > 0.0)) {
    utils::fail(kOp, "bias_correction2", "is not positive (it divides)",
                utils::format_value(bias_correction2), "a value > 0");
  }
  utils::check_output_dims(kOp, "param_out", param_out, param.dims());
  utils::check_output_dims(kOp, "m_out", m_out, param.dims());
  utils::check_output_dims(kOp, "v_out", v_out, param.dims());

  AdamwStepPlan plan;
  plan.params0.num_elements = utils::to_u32(utils::ceil_div(param.numel(), 4), kOp, "num_elements");
  plan.params0.decay = utils::to_f32(1.0 - (lr * weight_decay));
  plan.params0.beta1 = utils::to_f32(beta1);
  plan.params0.one_minus_beta1 = utils::to_f32(1.0 - beta1);
  plan.params0.beta2 = utils::to_f32(beta2);
  plan.params0.one_minus_beta2 = utils::to_f32(1.0 - beta2);
  plan.params0.eps = utils::to_f32(eps);
  plan.params0.bias_correction1 = utils::to_f32(bias_correction1);
  plan.params0.bias_correction2 = utils::to_f32(bias_correction2);
  plan.params0.neg_lr = utils::to_f32(-lr);
  plan.grid0 =
      utils::elementwise_grid(utils::ceil_div(param.numel(), 4), kAdamwStepKernel.workgroup_size[0],
                              graph.limits().max_workgroups_per_dimension);
  return plan;
}

void add_adamw_step(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const AdamwStepPlan built = plan_adamw_step(graph, args);
  graph.add_dispatch(
      kAdamwStepKernel, built.overrides0,
      {Binding::params(), Binding::of(args[0]), Binding::of(args[1]), Binding::of(args[2]),
       Binding::of(args[3]), Binding::of(graph.get_value_list(args[11])[0]),
       Binding::of(graph.get_value_list(args[11])[1]),
       Binding::of(graph.get_value_list(args[11])[2])},
      &built.params0, sizeof(built.params0), built.grid0);
  // Static shapes only: a resized input is an error, never a silent run at the built shape.
  graph.add_resize_hook([args](WebGPUGraph& graph) {
    utils::check_not_resized(kOp, "param", graph.get_tensor(args[0]));
    utils::check_not_resized(kOp, "m", graph.get_tensor(args[1]));
    utils::check_not_resized(kOp, "v", graph.get_tensor(args[2]));
    utils::check_not_resized(kOp, "grad", graph.get_tensor(args[3]));
  });
}

}  // namespace
}  // namespace webgpu_delegate

WEBGPU_REGISTER_OP_WRITING(et_vk.adamw_step.default, webgpu_delegate::add_adamw_step, 0, 1, 2);
