// @generated from codegen/specs/max_pool2d/max_pool2d.py - DO NOT EDIT.
// Op max_pool2d_with_indices: aten.max_pool2d_with_indices.default

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ops/max_pool2d/max_pool2d_f16_packed_wgsl.h"
#include "ops/max_pool2d/max_pool2d_f16_wgsl.h"
#include "ops/max_pool2d/max_pool2d_wgsl.h"
#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "max_pool2d_with_indices";

struct MaxPool2dWithIndicesParams {
  uint32_t IH;
  uint32_t IW;
  uint32_t OH;
  uint32_t OW;
  uint32_t kH;
  uint32_t kW;
  uint32_t sH;
  uint32_t sW;
  uint32_t pH;
  uint32_t pW;
  uint32_t dH;
  uint32_t dW;
  uint32_t num_elements;
  uint32_t _pad0[3];
};
static_assert(offsetof(MaxPool2dWithIndicesParams, IH) == 0,
              "MaxPool2dWithIndicesParams.IH must sit at WGSL offset 0");
static_assert(offsetof(MaxPool2dWithIndicesParams, IW) == 4,
              "MaxPool2dWithIndicesParams.IW must sit at WGSL offset 4");
static_assert(offsetof(MaxPool2dWithIndicesParams, OH) == 8,
              "MaxPool2dWithIndicesParams.OH must sit at WGSL offset 8");
static_assert(offsetof(MaxPool2dWithIndicesParams, OW) == 12,
              "MaxPool2dWithIndicesParams.OW must sit at WGSL offset 12");
static_assert(offsetof(MaxPool2dWithIndicesParams, kH) == 16,
              "MaxPool2dWithIndicesParams.kH must sit at WGSL offset 16");
static_assert(offsetof(MaxPool2dWithIndicesParams, kW) == 20,
              "MaxPool2dWithIndicesParams.kW must sit at WGSL offset 20");
static_assert(offsetof(MaxPool2dWithIndicesParams, sH) == 24,
              "MaxPool2dWithIndicesParams.sH must sit at WGSL offset 24");
static_assert(offsetof(MaxPool2dWithIndicesParams, sW) == 28,
              "MaxPool2dWithIndicesParams.sW must sit at WGSL offset 28");
static_assert(offsetof(MaxPool2dWithIndicesParams, pH) == 32,
              "MaxPool2dWithIndicesParams.pH must sit at WGSL offset 32");
static_assert(offsetof(MaxPool2dWithIndicesParams, pW) == 36,
              "MaxPool2dWithIndicesParams.pW must sit at WGSL offset 36");
static_assert(offsetof(MaxPool2dWithIndicesParams, dH) == 40,
              "MaxPool2dWithIndicesParams.dH must sit at WGSL offset 40");
static_assert(offsetof(MaxPool2dWithIndicesParams, dW) == 44,
              "MaxPool2dWithIndicesParams.dW must sit at WGSL offset 44");
static_assert(offsetof(MaxPool2dWithIndicesParams, num_elements) == 48,
              "MaxPool2dWithIndicesParams.num_elements must sit at WGSL offset 48");
static_assert(sizeof(MaxPool2dWithIndicesParams) == 64,
              "MaxPool2dWithIndicesParams must match the WGSL struct size 64");

const KernelSource kMaxPool2dF16Kernel{
    "max_pool2d_f16",
    kMaxPool2dF16WGSL,
    "main",
    {kMaxPool2dF16WorkgroupSizeX, kMaxPool2dF16WorkgroupSizeY, kMaxPool2dF16WorkgroupSizeZ},
    kMaxPool2dF16Bindings,
    kMaxPool2dF16BindingCount,
    kMaxPool2dF16Features};
const KernelSource kMaxPool2dF16PackedKernel{
    "max_pool2d_f16_packed",
    kMaxPool2dF16PackedWGSL,
    "main",
    {kMaxPool2dF16PackedWorkgroupSizeX, kMaxPool2dF16PackedWorkgroupSizeY,
     kMaxPool2dF16PackedWorkgroupSizeZ},
    kMaxPool2dF16PackedBindings,
    kMaxPool2dF16PackedBindingCount};
const KernelSource kMaxPool2dKernel{
    "max_pool2d",
    kMaxPool2dWGSL,
    "main",
    {kMaxPool2dWorkgroupSizeX, kMaxPool2dWorkgroupSizeY, kMaxPool2dWorkgroupSizeZ},
    kMaxPool2dBindings,
    kMaxPool2dBindingCount};
// Dispatch 0's kernels, in route order.
const KernelSource* const kDispatch0Kernels[] = {&kMaxPool2dF16Kernel, &kMaxPool2dF16PackedKernel,
                                                 &kMaxPool2dKernel};

// The argument values, checked and turned into what each dispatch needs.
struct MaxPool2dWithIndicesPlan {
  size_t route0 = 0;
  MaxPool2dWithIndicesParams params0{};
  utils::Grid grid0;
  std::vector<OverrideValue> overrides0;
};

MaxPool2dWithIndicesPlan plan_max_pool2d_with_indices(WebGPUGraph& graph,
                                                      const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 7);
  const Tensor& self = graph.get_tensor(args[0]);
  const std::vector<int64_t> kernel_size =
      utils::parse_hw(utils::read_int_list(graph, args[1], kOp, "kernel_size"), kOp, "kernel_size");
  const std::vector<int64_t> stride = utils::read_int_list(graph, args[2], kOp, "stride");
  const std::vector<int64_t> padding =
      utils::parse_hw(utils::read_int_list(graph, args[3], kOp, "padding"), kOp, "padding");
  const std::vector<int64_t> dilation =
      utils::parse_hw(utils::read_int_list(graph, args[4], kOp, "dilation"), kOp, "dilation");
  const bool ceil_mode = graph.get_bool(args[5]);
  const std::vector<ValueRef>& outputs = graph.get_value_list(args[6]);
  const Tensor& out = graph.get_tensor(utils::at(outputs, 0));
  const Tensor* indices =
      outputs.size() > 1 && !graph.is_null(outputs[1]) ? &graph.get_tensor(outputs[1]) : nullptr;
  utils::check_dtype(kOp, "self", self, {DType::Float32, DType::Float16});
  utils::check_rank(kOp, "self", self, 3, 4);
  utils::check_dtype(kOp, "out", out, {DType::Float32, DType::Float16});
  utils::check_rank(kOp, "out", out, 3, 4);
  if (indices != nullptr) {
    utils::check_dtype(kOp, "indices", *indices, {DType::Int32});
    utils::check_rank(kOp, "indices", *indices, 3, 4);
  }
  const std::vector<int64_t> strides = utils::let(
      kOp,
      "strides = kernel_size if len(stride) == 0 else [stride[0], stride[0]] if len(stride) == 1 "
      "else stride",
      [&]() -> std::vector<int64_t> {
        return (utils::length(stride) == 0)
                   ? kernel_size
                   : ((utils::length(stride) == 1)
                          ? std::vector<int64_t>{utils::at(stride, 0), utils::at(stride, 0)}
                          : stride);
      });
  const int64_t IH =
      utils::let(kOp, "IH = self.dims[-2]", [&]() -> int64_t { return self.dim(-2); });
  const int64_t IW =
      utils::let(kOp, "IW = self.dims[-1]", [&]() -> int64_t { return self.dim(-1); });
  const int64_t OH = utils::let(
      kOp,
      "OH = ((IH + 2 * padding[0] - dilation[0] * (kernel_size[0] - 1) - 1) // max(strides[0], 1)) "
      "+ 1",
      [&]() -> int64_t {
        return utils::add(
            utils::floordiv(
                utils::sub(utils::sub(utils::add(IH, utils::mul(2, utils::at(padding, 0))),
                                      utils::mul(utils::at(dilation, 0),
                                                 utils::sub(utils::at(kernel_size, 0), 1))),
                           1),
                utils::max_of(utils::at(strides, 0), 1)),
            1);
      });
  const int64_t OW = utils::let(
      kOp,
      "OW = ((IW + 2 * padding[1] - dilation[1] * (kernel_size[1] - 1) - 1) // max(strides[1], 1)) "
      "+ 1",
      [&]() -> int64_t {
        return utils::add(
            utils::floordiv(
                utils::sub(utils::sub(utils::add(IW, utils::mul(2, utils::at(padding, 1))),
                                      utils::mul(utils::at(dilation, 1),
                                                 utils::sub(utils::at(kernel_size, 1), 1))),
                           1),
                utils::max_of(utils::at(strides, 1), 1)),
            1);
      });
  if (utils::length(stride) > 2) {
    utils::fail(kOp, "stride", "must hold zero, one or two values", utils::format_value(stride),
                "[], [s] or [sh, sw]");
  }
  if (utils::min_of(kernel_size) <= 0) {
    utils::fail(kOp, "kernel_size", "is not positive", utils::format_value(kernel_size),
                "sizes >= 1");
  }
  if (utils::min_of(strides) <= 0) {
    utils::fail(kOp, "stride", "is not positive", utils::format_value(stride), "strides >= 1");
  }
  if (utils::min_of(dilation) <= 0) {
    utils::fail(kOp, "dilation", "is not positive", utils::format_value(dilation),
                "dilations >= 1");
  }
  if ((utils::min_of(padding) < 0) ||
      (utils::at(padding, 0) > utils::floordiv(utils::at(kernel_size, 0), 2)) ||
      (utils::at(padding, 1) > utils::floordiv(utils::at(kernel_size, 1), 2))) {
    utils::fail(kOp, "padding", "is negative or more than half the kernel",
                utils::format_value(padding),
                "at most " + utils::format_value(std::vector<int64_t>{
                                 utils::floordiv(utils::at(kernel_size, 0), 2),
                                 utils::floordiv(utils::at(kernel_size, 1), 2)}));
  }
  if (ceil_mode) {
    utils::fail(kOp, "ceil_mode", "is not supported", utils::format_value(ceil_mode), "false");
  }
  if ((OH <= 0) || (OW <= 0)) {
    utils::fail(kOp, "self", "is smaller than the pooling window", utils::format_value(self.dims()),
                "an output of at least 1x1");
  }
  utils::check_output_dims(kOp, "out", out,
                           utils::replace_at(utils::replace_at(self.dims(), -2, OH), -1, OW));
  if (indices != nullptr) {
    utils::check_output_dims(kOp, "indices", *indices,
                             utils::replace_at(utils::replace_at(self.dims(), -2, OH), -1, OW));
  }

  MaxPool2dWithIndicesPlan plan;
  plan.params0.IH = utils::to_u32(IH, kOp, "IH");
  plan.params0.IW = utils::to_u32(IW, kOp, "IW");
  plan.params0.OH = utils::to_u32(out.dim(-2), kOp, "OH");
  plan.params0.OW = utils::to_u32(out.dim(-1), kOp, "OW");
  plan.params0.kH = utils::to_u32(utils::at(kernel_size, 0), kOp, "kH");
  plan.params0.kW = utils::to_u32(utils::at(kernel_size, 1), kOp, "kW");
  plan.params0.sH = utils::to_u32(utils::at(strides, 0), kOp, "sH");
  plan.params0.sW = utils::to_u32(utils::at(strides, 1), kOp, "sW");
  plan.params0.pH = utils::to_u32(utils::at(padding, 0), kOp, "pH");
  plan.params0.pW = utils::to_u32(utils::at(padding, 1), kOp, "pW");
  plan.params0.dH = utils::to_u32(utils::at(dilation, 0), kOp, "dH");
  plan.params0.dW = utils::to_u32(utils::at(dilation, 1), kOp, "dW");
  plan.params0.num_elements = utils::to_u32(out.numel(), kOp, "num_elements");
  if (graph.has_feature(Feature::ShaderF16) && (self.dtype == DType::Float16)) {
    plan.route0 = 0;  // max_pool2d_f16
    plan.grid0 = utils::elementwise_grid(out.numel(), kMaxPool2dF16Kernel.workgroup_size[0],
                                         graph.limits().max_workgroups_per_dimension);
    plan.overrides0 = {{"write_indices", (indices != nullptr) ? 1.0 : 0.0}};
  } else if (self.dtype == DType::Float16) {
    plan.route0 = 1;  // max_pool2d_f16_packed
    plan.grid0 = utils::elementwise_grid(out.numel(), kMaxPool2dF16PackedKernel.workgroup_size[0],
                                         graph.limits().max_workgroups_per_dimension);
    plan.overrides0 = {{"write_indices", (indices != nullptr) ? 1.0 : 0.0}};
  } else {
    plan.route0 = 2;  // max_pool2d
    plan.grid0 = utils::elementwise_grid(out.numel(), kMaxPool2dKernel.workgroup_size[0],
                                         graph.limits().max_workgroups_per_dimension);
    plan.overrides0 = {{"write_indices", (indices != nullptr) ? 1.0 : 0.0}};
  }
  return plan;
}

// Gives the outputs the shape the op's formula computes from the live inputs.
void resize_max_pool2d_with_indices_outputs(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const Tensor& self = graph.get_tensor(args[0]);
  const std::vector<int64_t> kernel_size =
      utils::parse_hw(utils::read_int_list(graph, args[1], kOp, "kernel_size"), kOp, "kernel_size");
  const std::vector<int64_t> stride = utils::read_int_list(graph, args[2], kOp, "stride");
  const std::vector<int64_t> padding =
      utils::parse_hw(utils::read_int_list(graph, args[3], kOp, "padding"), kOp, "padding");
  const std::vector<int64_t> dilation =
      utils::parse_hw(utils::read_int_list(graph, args[4], kOp, "dilation"), kOp, "dilation");
  const std::vector<ValueRef>& outputs = graph.get_value_list(args[6]);
  Tensor& out = graph.get_tensor(utils::at(outputs, 0));
  Tensor* indices =
      outputs.size() > 1 && !graph.is_null(outputs[1]) ? &graph.get_tensor(outputs[1]) : nullptr;
  const std::vector<int64_t> strides = utils::let(
      kOp,
      "strides = kernel_size if len(stride) == 0 else [stride[0], stride[0]] if len(stride) == 1 "
      "else stride",
      [&]() -> std::vector<int64_t> {
        return (utils::length(stride) == 0)
                   ? kernel_size
                   : ((utils::length(stride) == 1)
                          ? std::vector<int64_t>{utils::at(stride, 0), utils::at(stride, 0)}
                          : stride);
      });
  const int64_t IH =
      utils::let(kOp, "IH = self.dims[-2]", [&]() -> int64_t { return self.dim(-2); });
  const int64_t IW =
      utils::let(kOp, "IW = self.dims[-1]", [&]() -> int64_t { return self.dim(-1); });
  const int64_t OH = utils::let(
      kOp,
      "OH = ((IH + 2 * padding[0] - dilation[0] * (kernel_size[0] - 1) - 1) // max(strides[0], 1)) "
      "+ 1",
      [&]() -> int64_t {
        return utils::add(
            utils::floordiv(
                utils::sub(utils::sub(utils::add(IH, utils::mul(2, utils::at(padding, 0))),
                                      utils::mul(utils::at(dilation, 0),
                                                 utils::sub(utils::at(kernel_size, 0), 1))),
                           1),
                utils::max_of(utils::at(strides, 0), 1)),
            1);
      });
  const int64_t OW = utils::let(
      kOp,
      "OW = ((IW + 2 * padding[1] - dilation[1] * (kernel_size[1] - 1) - 1) // max(strides[1], 1)) "
      "+ 1",
      [&]() -> int64_t {
        return utils::add(
            utils::floordiv(
                utils::sub(utils::sub(utils::add(IW, utils::mul(2, utils::at(padding, 1))),
                                      utils::mul(utils::at(dilation, 1),
                                                 utils::sub(utils::at(kernel_size, 1), 1))),
                           1),
                utils::max_of(utils::at(strides, 1), 1)),
            1);
      });
  utils::resize_output(kOp, "out", out,
                       utils::replace_at(utils::replace_at(self.dims(), -2, OH), -1, OW));
  if (indices != nullptr) {
    utils::resize_output(kOp, "indices", *indices,
                         utils::replace_at(utils::replace_at(self.dims(), -2, OH), -1, OW));
  }
}

void add_max_pool2d_with_indices(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const MaxPool2dWithIndicesPlan built = plan_max_pool2d_with_indices(graph, args);
  const DispatchId dispatch0 = graph.add_dispatch(
      *kDispatch0Kernels[built.route0], built.overrides0,
      {Binding::params(), Binding::of(args[0]), Binding::of(graph.get_value_list(args[6])[0]),
       graph.get_value_list(args[6]).size() > 1 && !graph.is_null(graph.get_value_list(args[6])[1])
           ? Binding::of(graph.get_value_list(args[6])[1])
           : Binding::dummy()},
      &built.params0, sizeof(built.params0), built.grid0);
  graph.add_resize_hook([args, built, dispatch0](WebGPUGraph& graph) {
    resize_max_pool2d_with_indices_outputs(graph, args);
    const MaxPool2dWithIndicesPlan plan = plan_max_pool2d_with_indices(graph, args);
    if (plan.route0 != built.route0) {
      utils::fail(kOp, "inputs", "were resized into a different kernel route",
                  kDispatch0Kernels[plan.route0]->name, kDispatch0Kernels[built.route0]->name);
    }
    graph.update_dispatch(dispatch0, &plan.params0, sizeof(plan.params0), plan.grid0);
  });
}

}  // namespace
}  // namespace webgpu_delegate

WEBGPU_REGISTER_OP(aten.max_pool2d_with_indices.default,
                   webgpu_delegate::add_max_pool2d_with_indices, None);
