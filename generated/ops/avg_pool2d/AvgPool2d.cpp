// @generated from codegen/specs/avg_pool2d/avg_pool2d.py - DO NOT EDIT.
// Op avg_pool2d: aten.avg_pool2d.default

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ops/avg_pool2d/avg_pool2d_f16_packed_wgsl.h"
#include "ops/avg_pool2d/avg_pool2d_f16_wgsl.h"
#include "ops/avg_pool2d/avg_pool2d_wgsl.h"
#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "avg_pool2d";

struct AvgPool2dParams {
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
  uint32_t num_elements;
  uint32_t count_include_pad;
  int32_t divisor;
  uint32_t _pad0[3];
};
static_assert(offsetof(AvgPool2dParams, IH) == 0, "AvgPool2dParams.IH must sit at WGSL offset 0");
static_assert(offsetof(AvgPool2dParams, IW) == 4, "AvgPool2dParams.IW must sit at WGSL offset 4");
static_assert(offsetof(AvgPool2dParams, OH) == 8, "AvgPool2dParams.OH must sit at WGSL offset 8");
static_assert(offsetof(AvgPool2dParams, OW) == 12, "AvgPool2dParams.OW must sit at WGSL offset 12");
static_assert(offsetof(AvgPool2dParams, kH) == 16, "AvgPool2dParams.kH must sit at WGSL offset 16");
static_assert(offsetof(AvgPool2dParams, kW) == 20, "AvgPool2dParams.kW must sit at WGSL offset 20");
static_assert(offsetof(AvgPool2dParams, sH) == 24, "AvgPool2dParams.sH must sit at WGSL offset 24");
static_assert(offsetof(AvgPool2dParams, sW) == 28, "AvgPool2dParams.sW must sit at WGSL offset 28");
static_assert(offsetof(AvgPool2dParams, pH) == 32, "AvgPool2dParams.pH must sit at WGSL offset 32");
static_assert(offsetof(AvgPool2dParams, pW) == 36, "AvgPool2dParams.pW must sit at WGSL offset 36");
static_assert(offsetof(AvgPool2dParams, num_elements) == 40,
              "AvgPool2dParams.num_elements must sit at WGSL offset 40");
static_assert(offsetof(AvgPool2dParams, count_include_pad) == 44,
              "AvgPool2dParams.count_include_pad must sit at WGSL offset 44");
static_assert(offsetof(AvgPool2dParams, divisor) == 48,
              "AvgPool2dParams.divisor must sit at WGSL offset 48");
static_assert(sizeof(AvgPool2dParams) == 64, "AvgPool2dParams must match the WGSL struct size 64");

const KernelSource kAvgPool2dF16Kernel{
    "avg_pool2d_f16",
    kAvgPool2dF16WGSL,
    "main",
    {kAvgPool2dF16WorkgroupSizeX, kAvgPool2dF16WorkgroupSizeY, kAvgPool2dF16WorkgroupSizeZ},
    kAvgPool2dF16Bindings,
    kAvgPool2dF16BindingCount,
    kAvgPool2dF16Features};
const KernelSource kAvgPool2dF16PackedKernel{
    "avg_pool2d_f16_packed",
    kAvgPool2dF16PackedWGSL,
    "main",
    {kAvgPool2dF16PackedWorkgroupSizeX, kAvgPool2dF16PackedWorkgroupSizeY,
     kAvgPool2dF16PackedWorkgroupSizeZ},
    kAvgPool2dF16PackedBindings,
    kAvgPool2dF16PackedBindingCount};
const KernelSource kAvgPool2dKernel{
    "avg_pool2d",
    kAvgPool2dWGSL,
    "main",
    {kAvgPool2dWorkgroupSizeX, kAvgPool2dWorkgroupSizeY, kAvgPool2dWorkgroupSizeZ},
    kAvgPool2dBindings,
    kAvgPool2dBindingCount};
// Dispatch 0's kernels, in route order.
const KernelSource* const kDispatch0Kernels[] = {&kAvgPool2dF16Kernel, &kAvgPool2dF16PackedKernel,
                                                 &kAvgPool2dKernel};

// The argument values, checked and turned into what each dispatch needs.
struct AvgPool2dPlan {
  size_t route0 = 0;
  AvgPool2dParams params0{};
  utils::Grid grid0;
  std::vector<OverrideValue> overrides0;
};

AvgPool2dPlan plan_avg_pool2d(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 8);
  const Tensor& self = graph.get_tensor(args[0]);
  const std::vector<int64_t> kernel_size =
      utils::parse_hw(utils::read_int_list(graph, args[1], kOp, "kernel_size"), kOp, "kernel_size");
  const std::vector<int64_t> stride = utils::read_int_list(graph, args[2], kOp, "stride");
  const std::vector<int64_t> padding =
      utils::parse_hw(utils::read_int_list(graph, args[3], kOp, "padding"), kOp, "padding");
  const bool ceil_mode = graph.get_bool(args[4]);
  const bool count_include_pad = graph.get_bool(args[5]);
  const bool divisor_override_is_null = graph.is_null(args[6]);
  const int64_t divisor_override =
      divisor_override_is_null ? 0
                               : utils::read_int(graph, args[6], kOp, "divisor_override", false);
  const Tensor& out = graph.get_tensor(args[7]);
  utils::check_dtype(kOp, "self", self, {DType::Float32, DType::Float16});
  utils::check_rank(kOp, "self", self, 3, 4);
  utils::check_dtype(kOp, "out", out, {DType::Float32, DType::Float16});
  utils::check_rank(kOp, "out", out, 3, 4);
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
      "OH = ((IH + 2 * padding[0] - kernel_size[0] + (strides[0] - 1 if ceil_mode else 0)) // "
      "max(strides[0], 1) + 1) - (1 if ceil_mode and (((IH + 2 * padding[0] - kernel_size[0] + "
      "(strides[0] - 1 if ceil_mode else 0)) // max(strides[0], 1) + 1) - 1) * strides[0] >= IH + "
      "padding[0] else 0)",
      [&]() -> int64_t {
        return utils::sub(
            utils::add(
                utils::floordiv(
                    utils::add(utils::sub(utils::add(IH, utils::mul(2, utils::at(padding, 0))),
                                          utils::at(kernel_size, 0)),
                               ceil_mode ? utils::sub(utils::at(strides, 0), 1) : 0),
                    utils::max_of(utils::at(strides, 0), 1)),
                1),
            (ceil_mode &&
             (utils::mul(
                  utils::sub(
                      utils::add(
                          utils::floordiv(
                              utils::add(
                                  utils::sub(utils::add(IH, utils::mul(2, utils::at(padding, 0))),
                                             utils::at(kernel_size, 0)),
                                  ceil_mode ? utils::sub(utils::at(strides, 0), 1) : 0),
                              utils::max_of(utils::at(strides, 0), 1)),
                          1),
                      1),
                  utils::at(strides, 0)) >= utils::add(IH, utils::at(padding, 0))))
                ? 1
                : 0);
      });
  const int64_t OW = utils::let(
      kOp,
      "OW = ((IW + 2 * padding[1] - kernel_size[1] + (strides[1] - 1 if ceil_mode else 0)) // "
      "max(strides[1], 1) + 1) - (1 if ceil_mode and (((IW + 2 * padding[1] - kernel_size[1] + "
      "(strides[1] - 1 if ceil_mode else 0)) // max(strides[1], 1) + 1) - 1) * strides[1] >= IW + "
      "padding[1] else 0)",
      [&]() -> int64_t {
        return utils::sub(
            utils::add(
                utils::floordiv(
                    utils::add(utils::sub(utils::add(IW, utils::mul(2, utils::at(padding, 1))),
                                          utils::at(kernel_size, 1)),
                               ceil_mode ? utils::sub(utils::at(strides, 1), 1) : 0),
                    utils::max_of(utils::at(strides, 1), 1)),
                1),
            (ceil_mode &&
             (utils::mul(
                  utils::sub(
                      utils::add(
                          utils::floordiv(
                              utils::add(
                                  utils::sub(utils::add(IW, utils::mul(2, utils::at(padding, 1))),
                                             utils::at(kernel_size, 1)),
                                  ceil_mode ? utils::sub(utils::at(strides, 1), 1) : 0),
                              utils::max_of(utils::at(strides, 1), 1)),
                          1),
                      1),
                  utils::at(strides, 1)) >= utils::add(IW, utils::at(padding, 1))))
                ? 1
                : 0);
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
  if ((utils::min_of(padding) < 0) ||
      (utils::at(padding, 0) > utils::floordiv(utils::at(kernel_size, 0), 2)) ||
      (utils::at(padding, 1) > utils::floordiv(utils::at(kernel_size, 1), 2))) {
    utils::fail(kOp, "padding", "is negative or more than half the kernel",
                utils::format_value(padding),
                "at most " + utils::format_value(std::vector<int64_t>{
                                 utils::floordiv(utils::at(kernel_size, 0), 2),
                                 utils::floordiv(utils::at(kernel_size, 1), 2)}));
  }
  if (!divisor_override_is_null && (divisor_override == 0)) {
    utils::fail(kOp, "divisor_override", "is zero", utils::format_value(divisor_override),
                "None or a non-zero divisor");
  }
  if ((OH <= 0) || (OW <= 0)) {
    utils::fail(kOp, "self", "is smaller than the pooling window", utils::format_value(self.dims()),
                "an output of at least 1x1");
  }
  utils::check_output_dims(kOp, "out", out,
                           utils::replace_at(utils::replace_at(self.dims(), -2, OH), -1, OW));

  AvgPool2dPlan plan;
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
  plan.params0.num_elements = utils::to_u32(out.numel(), kOp, "num_elements");
  plan.params0.count_include_pad = count_include_pad ? 1 : 0;
  plan.params0.divisor =
      utils::to_i32(divisor_override_is_null ? 0 : divisor_override, kOp, "divisor");
  if (graph.has_feature(Feature::ShaderF16) && (self.dtype == DType::Float16)) {
    plan.route0 = 0;  // avg_pool2d_f16
    plan.grid0 = utils::elementwise_grid(out.numel(), kAvgPool2dF16Kernel.workgroup_size[0],
                                         graph.limits().max_workgroups_per_dimension);
  } else if (self.dtype == DType::Float16) {
    plan.route0 = 1;  // avg_pool2d_f16_packed
    plan.grid0 = utils::elementwise_grid(out.numel(), kAvgPool2dF16PackedKernel.workgroup_size[0],
                                         graph.limits().max_workgroups_per_dimension);
  } else {
    plan.route0 = 2;  // avg_pool2d
    plan.grid0 = utils::elementwise_grid(out.numel(), kAvgPool2dKernel.workgroup_size[0],
                                         graph.limits().max_workgroups_per_dimension);
  }
  return plan;
}

// Gives the outputs the shape the op's formula computes from the live inputs.
void resize_avg_pool2d_outputs(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const Tensor& self = graph.get_tensor(args[0]);
  const std::vector<int64_t> kernel_size =
      utils::parse_hw(utils::read_int_list(graph, args[1], kOp, "kernel_size"), kOp, "kernel_size");
  const std::vector<int64_t> stride = utils::read_int_list(graph, args[2], kOp, "stride");
  const std::vector<int64_t> padding =
      utils::parse_hw(utils::read_int_list(graph, args[3], kOp, "padding"), kOp, "padding");
  const bool ceil_mode = graph.get_bool(args[4]);
  Tensor& out = graph.get_tensor(args[7]);
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
      "OH = ((IH + 2 * padding[0] - kernel_size[0] + (strides[0] - 1 if ceil_mode else 0)) // "
      "max(strides[0], 1) + 1) - (1 if ceil_mode and (((IH + 2 * padding[0] - kernel_size[0] + "
      "(strides[0] - 1 if ceil_mode else 0)) // max(strides[0], 1) + 1) - 1) * strides[0] >= IH + "
      "padding[0] else 0)",
      [&]() -> int64_t {
        return utils::sub(
            utils::add(
                utils::floordiv(
                    utils::add(utils::sub(utils::add(IH, utils::mul(2, utils::at(padding, 0))),
                                          utils::at(kernel_size, 0)),
                               ceil_mode ? utils::sub(utils::at(strides, 0), 1) : 0),
                    utils::max_of(utils::at(strides, 0), 1)),
                1),
            (ceil_mode &&
             (utils::mul(
                  utils::sub(
                      utils::add(
                          utils::floordiv(
                              utils::add(
                                  utils::sub(utils::add(IH, utils::mul(2, utils::at(padding, 0))),
                                             utils::at(kernel_size, 0)),
                                  ceil_mode ? utils::sub(utils::at(strides, 0), 1) : 0),
                              utils::max_of(utils::at(strides, 0), 1)),
                          1),
                      1),
                  utils::at(strides, 0)) >= utils::add(IH, utils::at(padding, 0))))
                ? 1
                : 0);
      });
  const int64_t OW = utils::let(
      kOp,
      "OW = ((IW + 2 * padding[1] - kernel_size[1] + (strides[1] - 1 if ceil_mode else 0)) // "
      "max(strides[1], 1) + 1) - (1 if ceil_mode and (((IW + 2 * padding[1] - kernel_size[1] + "
      "(strides[1] - 1 if ceil_mode else 0)) // max(strides[1], 1) + 1) - 1) * strides[1] >= IW + "
      "padding[1] else 0)",
      [&]() -> int64_t {
        return utils::sub(
            utils::add(
                utils::floordiv(
                    utils::add(utils::sub(utils::add(IW, utils::mul(2, utils::at(padding, 1))),
                                          utils::at(kernel_size, 1)),
                               ceil_mode ? utils::sub(utils::at(strides, 1), 1) : 0),
                    utils::max_of(utils::at(strides, 1), 1)),
                1),
            (ceil_mode &&
             (utils::mul(
                  utils::sub(
                      utils::add(
                          utils::floordiv(
                              utils::add(
                                  utils::sub(utils::add(IW, utils::mul(2, utils::at(padding, 1))),
                                             utils::at(kernel_size, 1)),
                                  ceil_mode ? utils::sub(utils::at(strides, 1), 1) : 0),
                              utils::max_of(utils::at(strides, 1), 1)),
                          1),
                      1),
                  utils::at(strides, 1)) >= utils::add(IW, utils::at(padding, 1))))
                ? 1
                : 0);
      });
  utils::resize_output(kOp, "out", out,
                       utils::replace_at(utils::replace_at(self.dims(), -2, OH), -1, OW));
}

void add_avg_pool2d(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const AvgPool2dPlan built = plan_avg_pool2d(graph, args);
  const DispatchId dispatch0 =
      graph.add_dispatch(*kDispatch0Kernels[built.route0], built.overrides0,
                         {Binding::params(), Binding::of(args[0]), Binding::of(args[7])},
                         &built.params0, sizeof(built.params0), built.grid0);
  graph.add_resize_hook([args, built, dispatch0](WebGPUGraph& graph) {
    resize_avg_pool2d_outputs(graph, args);
    const AvgPool2dPlan plan = plan_avg_pool2d(graph, args);
    if (plan.route0 != built.route0) {
      utils::fail(kOp, "inputs", "were resized into a different kernel route",
                  kDispatch0Kernels[plan.route0]->name, kDispatch0Kernels[built.route0]->name);
    }
    graph.update_dispatch(dispatch0, &plan.params0, sizeof(plan.params0), plan.grid0);
  });
}

}  // namespace
}  // namespace webgpu_delegate

WEBGPU_REGISTER_OP(aten.avg_pool2d.default, webgpu_delegate::add_avg_pool2d, None);
