// @generated from codegen/specs/index_tensor/index_tensor.py - DO NOT EDIT.
// Op index_tensor: aten.index.Tensor

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ops/index_tensor/index_tensor_bytes_wgsl.h"
#include "ops/index_tensor/index_tensor_halves_wgsl.h"
#include "ops/index_tensor/index_tensor_vec4_wgsl.h"
#include "ops/index_tensor/index_tensor_wgsl.h"
#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "index_tensor";

struct IndexTensorIndexTensorVec4Params {
  uint32_t out_dims[2][4];
  uint32_t kept_strides[2][4];
  uint32_t index_strides[8][4];
  uint32_t dim_sizes[4];
  uint32_t dim_strides[4];
  uint32_t present[4];
  uint32_t num_elements;
  uint32_t _pad0[3];
};
static_assert(offsetof(IndexTensorIndexTensorVec4Params, out_dims) == 0,
              "IndexTensorIndexTensorVec4Params.out_dims must sit at WGSL offset 0");
static_assert(offsetof(IndexTensorIndexTensorVec4Params, kept_strides) == 32,
              "IndexTensorIndexTensorVec4Params.kept_strides must sit at WGSL offset 32");
static_assert(offsetof(IndexTensorIndexTensorVec4Params, index_strides) == 64,
              "IndexTensorIndexTensorVec4Params.index_strides must sit at WGSL offset 64");
static_assert(offsetof(IndexTensorIndexTensorVec4Params, dim_sizes) == 192,
              "IndexTensorIndexTensorVec4Params.dim_sizes must sit at WGSL offset 192");
static_assert(offsetof(IndexTensorIndexTensorVec4Params, dim_strides) == 208,
              "IndexTensorIndexTensorVec4Params.dim_strides must sit at WGSL offset 208");
static_assert(offsetof(IndexTensorIndexTensorVec4Params, present) == 224,
              "IndexTensorIndexTensorVec4Params.present must sit at WGSL offset 224");
static_assert(offsetof(IndexTensorIndexTensorVec4Params, num_elements) == 240,
              "IndexTensorIndexTensorVec4Params.num_elements must sit at WGSL offset 240");
static_assert(sizeof(IndexTensorIndexTensorVec4Params) == 256,
              "IndexTensorIndexTensorVec4Params must match the WGSL struct size 256");

struct IndexTensorIndexTensorParams {
  uint32_t out_dims[2][4];
  uint32_t kept_strides[2][4];
  uint32_t index_strides[8][4];
  uint32_t dim_sizes[4];
  uint32_t dim_strides[4];
  uint32_t present[4];
  uint32_t num_elements;
  uint32_t _pad0[3];
};
static_assert(offsetof(IndexTensorIndexTensorParams, out_dims) == 0,
              "IndexTensorIndexTensorParams.out_dims must sit at WGSL offset 0");
static_assert(offsetof(IndexTensorIndexTensorParams, kept_strides) == 32,
              "IndexTensorIndexTensorParams.kept_strides must sit at WGSL offset 32");
static_assert(offsetof(IndexTensorIndexTensorParams, index_strides) == 64,
              "IndexTensorIndexTensorParams.index_strides must sit at WGSL offset 64");
static_assert(offsetof(IndexTensorIndexTensorParams, dim_sizes) == 192,
              "IndexTensorIndexTensorParams.dim_sizes must sit at WGSL offset 192");
static_assert(offsetof(IndexTensorIndexTensorParams, dim_strides) == 208,
              "IndexTensorIndexTensorParams.dim_strides must sit at WGSL offset 208");
static_assert(offsetof(IndexTensorIndexTensorParams, present) == 224,
              "IndexTensorIndexTensorParams.present must sit at WGSL offset 224");
static_assert(offsetof(IndexTensorIndexTensorParams, num_elements) == 240,
              "IndexTensorIndexTensorParams.num_elements must sit at WGSL offset 240");
static_assert(sizeof(IndexTensorIndexTensorParams) == 256,
              "IndexTensorIndexTensorParams must match the WGSL struct size 256");

const KernelSource kIndexTensorVec4Kernel{
    "index_tensor_vec4",
    kIndexTensorVec4WGSL,
    "main",
    {kIndexTensorVec4WorkgroupSizeX, kIndexTensorVec4WorkgroupSizeY,
     kIndexTensorVec4WorkgroupSizeZ},
    kIndexTensorVec4Bindings,
    kIndexTensorVec4BindingCount};
const KernelSource kIndexTensorBytesKernel{
    "index_tensor_bytes",
    kIndexTensorBytesWGSL,
    "main",
    {kIndexTensorBytesWorkgroupSizeX, kIndexTensorBytesWorkgroupSizeY,
     kIndexTensorBytesWorkgroupSizeZ},
    kIndexTensorBytesBindings,
    kIndexTensorBytesBindingCount};
const KernelSource kIndexTensorHalvesKernel{
    "index_tensor_halves",
    kIndexTensorHalvesWGSL,
    "main",
    {kIndexTensorHalvesWorkgroupSizeX, kIndexTensorHalvesWorkgroupSizeY,
     kIndexTensorHalvesWorkgroupSizeZ},
    kIndexTensorHalvesBindings,
    kIndexTensorHalvesBindingCount};
const KernelSource kIndexTensorKernel{
    "index_tensor",
    kIndexTensorWGSL,
    "main",
    {kIndexTensorWorkgroupSizeX, kIndexTensorWorkgroupSizeY, kIndexTensorWorkgroupSizeZ},
    kIndexTensorBindings,
    kIndexTensorBindingCount};
// Dispatch 1's kernels, in route order.
const KernelSource* const kDispatch1Kernels[] = {&kIndexTensorBytesKernel,
                                                 &kIndexTensorHalvesKernel, &kIndexTensorKernel};

// The argument values, checked and turned into what each dispatch needs.
struct IndexTensorPlan {
  bool run0 = true;
  IndexTensorIndexTensorVec4Params params0{};
  utils::Grid grid0;
  std::vector<OverrideValue> overrides0;
  bool run1 = true;
  size_t route1 = 0;
  IndexTensorIndexTensorParams params1{};
  utils::Grid grid1;
  std::vector<OverrideValue> overrides1;
};

IndexTensorPlan plan_index_tensor(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 3);
  const Tensor& self = graph.get_tensor(args[0]);
  std::vector<const Tensor*> indices;  // nullptr for a None entry
  for (const ValueRef item : graph.get_value_list(args[1])) {
    indices.push_back(graph.is_null(item) ? nullptr : &graph.get_tensor(item));
  }
  const Tensor& out = graph.get_tensor(args[2]);
  utils::check_dtype(kOp, "self", self,
                     {DType::Float32, DType::Float16, DType::Int32, DType::Bool});
  utils::check_rank(kOp, "self", self, 1, 8);
  if (indices.size() > 4) {
    utils::fail(kOp, "indices", "holds too many tensors",
                utils::format_value(utils::length(indices)), "at most 4");
  }
  for (const Tensor* item : indices) {
    if (item != nullptr) {
      utils::check_dtype(kOp, "indices", *item, {DType::Int32});
      utils::check_rank(kOp, "indices", *item, 0, 4);
    }
  }
  utils::check_dtype(kOp, "out", out, {DType::Float32, DType::Float16, DType::Int32, DType::Bool});
  const std::vector<int64_t> present =
      utils::let(kOp, "present = [k for k in range(len(indices)) if indices[k].present]",
                 [&]() -> std::vector<int64_t> {
                   return [&]() {
                     std::vector<int64_t> _values;
                     for (const auto& _k : utils::range(utils::length(indices))) {
                       if ((utils::at(indices, _k) != nullptr)) _values.push_back(_k);
                     }
                     return _values;
                   }();
                 });
  const std::vector<int64_t> b0 =
      utils::let(kOp, "b0 = (indices[0].dims if len(indices) > 0 and indices[0].present else [])",
                 [&]() -> std::vector<int64_t> {
                   return ((utils::length(indices) > 0) && (utils::at(indices, 0) != nullptr))
                              ? utils::at(indices, 0)->dims()
                              : std::vector<int64_t>{};
                 });
  const std::vector<int64_t> b1 = utils::let(
      kOp,
      "b1 = broadcast_shape(b0, (indices[1].dims if len(indices) > 1 and indices[1].present else "
      "[])) if broadcasts(b0, (indices[1].dims if len(indices) > 1 and indices[1].present else "
      "[])) else b0",
      [&]() -> std::vector<int64_t> {
        return utils::broadcasts(
                   b0, ((utils::length(indices) > 1) && (utils::at(indices, 1) != nullptr))
                           ? utils::at(indices, 1)->dims()
                           : std::vector<int64_t>{})
                   ? utils::broadcast_shape(
                         b0, ((utils::length(indices) > 1) && (utils::at(indices, 1) != nullptr))
                                 ? utils::at(indices, 1)->dims()
                                 : std::vector<int64_t>{})
                   : b0;
      });
  const std::vector<int64_t> b2 = utils::let(
      kOp,
      "b2 = broadcast_shape(b1, (indices[2].dims if len(indices) > 2 and indices[2].present else "
      "[])) if broadcasts(b1, (indices[2].dims if len(indices) > 2 and indices[2].present else "
      "[])) else b1",
      [&]() -> std::vector<int64_t> {
        return utils::broadcasts(
                   b1, ((utils::length(indices) > 2) && (utils::at(indices, 2) != nullptr))
                           ? utils::at(indices, 2)->dims()
                           : std::vector<int64_t>{})
                   ? utils::broadcast_shape(
                         b1, ((utils::length(indices) > 2) && (utils::at(indices, 2) != nullptr))
                                 ? utils::at(indices, 2)->dims()
                                 : std::vector<int64_t>{})
                   : b1;
      });
  const std::vector<int64_t> b3 = utils::let(
      kOp,
      "b3 = broadcast_shape(b2, (indices[3].dims if len(indices) > 3 and indices[3].present else "
      "[])) if broadcasts(b2, (indices[3].dims if len(indices) > 3 and indices[3].present else "
      "[])) else b2",
      [&]() -> std::vector<int64_t> {
        return utils::broadcasts(
                   b2, ((utils::length(indices) > 3) && (utils::at(indices, 3) != nullptr))
                           ? utils::at(indices, 3)->dims()
                           : std::vector<int64_t>{})
                   ? utils::broadcast_shape(
                         b2, ((utils::length(indices) > 3) && (utils::at(indices, 3) != nullptr))
                                 ? utils::at(indices, 3)->dims()
                                 : std::vector<int64_t>{})
                   : b2;
      });
  const std::vector<int64_t> B = b3;
  const std::vector<int64_t> unbroadcast =
      utils::let(kOp,
                 "unbroadcast = [k for k in present if indices[k].rank > len(B) or not "
                 "broadcasts(indices[k].dims, B)]",
                 [&]() -> std::vector<int64_t> {
                   return [&]() {
                     std::vector<int64_t> _values;
                     for (const auto& _k : present) {
                       if ((utils::at(indices, _k)->rank() > utils::length(B)) ||
                           !utils::broadcasts(utils::at(indices, _k)->dims(), B))
                         _values.push_back(_k);
                     }
                     return _values;
                   }();
                 });
  const bool adjacent = utils::let(
      kOp, "adjacent = len(present) == 0 or present[-1] - present[0] + 1 == len(present)",
      [&]() -> bool {
        return (utils::length(present) == 0) ||
               (utils::add(utils::sub(utils::at(present, -1), utils::at(present, 0)), 1) ==
                utils::length(present));
      });
  const int64_t at =
      utils::let(kOp, "at = present[0] if len(present) > 0 and adjacent else 0", [&]() -> int64_t {
        return ((utils::length(present) > 0) && adjacent) ? utils::at(present, 0) : 0;
      });
  const std::vector<int64_t> rest =
      utils::let(kOp, "rest = [k for k in range(self.rank) if k not in present]",
                 [&]() -> std::vector<int64_t> {
                   return [&]() {
                     std::vector<int64_t> _values;
                     for (const auto& _k : utils::range(self.rank())) {
                       if (!utils::contains(present, _k)) _values.push_back(_k);
                     }
                     return _values;
                   }();
                 });
  const std::vector<int64_t> strides =
      utils::let(kOp, "strides = contiguous_strides(self.dims)",
                 [&]() -> std::vector<int64_t> { return utils::contiguous_strides(self.dims()); });
  const std::vector<int64_t> out_dims = utils::let(
      kOp, "out_dims = [self.dims[k] for k in rest[:at]] + B + [self.dims[k] for k in rest[at:]]",
      [&]() -> std::vector<int64_t> {
        return utils::concat(utils::concat(
                                 [&]() {
                                   std::vector<int64_t> _values;
                                   for (const auto& _k : utils::slice(rest, 0, at)) {
                                     _values.push_back(self.dim(_k));
                                   }
                                   return _values;
                                 }(),
                                 B),
                             [&]() {
                               std::vector<int64_t> _values;
                               for (const auto& _k : utils::slice(rest, at, INT64_MAX)) {
                                 _values.push_back(self.dim(_k));
                               }
                               return _values;
                             }());
      });
  if (utils::length(present) <= 0) {
    utils::fail(kOp, "indices", "holds no index tensor",
                utils::format_value(utils::length(indices)), "at least one non-None entry");
  }
  if (utils::length(indices) > self.rank()) {
    utils::fail(kOp, "indices", "has more entries than self has dims",
                utils::format_value(utils::length(indices)),
                "at most " + utils::format_value(self.rank()));
  }
  if (utils::length(unbroadcast) != 0) {
    utils::fail(kOp, "indices", "holds index tensors whose shapes do not broadcast",
                utils::format_value(utils::at(indices, utils::at(unbroadcast, 0))->dims()),
                "shapes that broadcast to " + utils::format_value(B));
  }
  if (utils::length(out_dims) > 8) {
    utils::fail(kOp, "indices", "give the result too many dims",
                utils::format_value(utils::length(out_dims)), "at most 8");
  }
  utils::check_output_dims(kOp, "out", out, out_dims);

  IndexTensorPlan plan;
  plan.run0 = ((self.dtype != DType::Bool) && (self.dtype != DType::Float16)) &&
              !utils::contains(present, utils::sub(self.rank(), 1)) &&
              (utils::floormod(self.dim(-1), 4) == 0);
  if (plan.run0) {
    utils::pack(plan.params0.out_dims, 4, utils::right_align(out_dims, 8, 1), kOp, "out_dims");
    utils::pack(plan.params0.kept_strides, 4,
                utils::right_align(
                    utils::concat(utils::concat(
                                      [&]() {
                                        std::vector<int64_t> _values;
                                        for (const auto& _k : utils::slice(rest, 0, at)) {
                                          _values.push_back(utils::at(strides, _k));
                                        }
                                        return _values;
                                      }(),
                                      [&]() {
                                        std::vector<int64_t> _values;
                                        for ([[maybe_unused]] const auto& _k : B) {
                                          _values.push_back(0);
                                        }
                                        return _values;
                                      }()),
                                  [&]() {
                                    std::vector<int64_t> _values;
                                    for (const auto& _k : utils::slice(rest, at, INT64_MAX)) {
                                      _values.push_back(utils::at(strides, _k));
                                    }
                                    return _values;
                                  }()),
                    8, 0),
                kOp, "kept_strides");
    utils::pack(plan.params0.index_strides, 4, utils::concat(utils::concat(utils::concat(utils::contains(present, 0) ? utils::right_align(utils::concat(utils::concat([&]() { std::vector<int64_t> _values; for ([[maybe_unused]] const auto& _k : utils::slice(rest, 0, at)) { _values.push_back(0); } return _values; }(), utils::broadcast_strides(utils::at(indices, 0)->dims(), B)), [&]() { std::vector<int64_t> _values; for ([[maybe_unused]] const auto& _k : utils::slice(rest, at, INT64_MAX)) { _values.push_back(0); } return _values; }()), 8, 0) : [&]() { std::vector<int64_t> _values; for ([[maybe_unused]] const auto& _k : utils::range(8)) { _values.push_back(0); } return _values; }(), utils::contains(present, 1) ? utils::right_align(utils::concat(utils::concat([&]() { std::vector<int64_t> _values; for ([[maybe_unused]] const auto& _k : utils::slice(rest, 0, at)) { _values.push_back(0); } return _values; }(), utils::broadcast_strides(utils::at(indices, 1)->dims(), B)), [&]() { std::vector<int64_t> _values; for ([[maybe_unused]] const auto& _k : utils::slice(rest, at, INT64_MAX)) { _values.push_back(0); } return _values; }()), 8, 0) : [&]() { std::vector<int64_t> _values; for ([[maybe_unused]] const auto& _k : utils::range(8)) { _values.push_back(0); } return _values; }()), utils::contains(present, 2) ? utils::right_align(utils::concat(utils::concat([&]() { std::vector<int64_t> _values; for ([[maybe_unused]] const auto& _k : utils::slice(rest, 0, at)) { _values.push_back(0); } return _values; }(), utils::broadcast_strides(utils::at(indices, 2)->dims(), B)), [&]() { std::vector<int64_t> _values; for ([[maybe_unused]] const auto& _k : utils::slice(rest, at, INT64_MAX)) { _values.push_back(0); } return _values; }()), 8, 0) : [&]() { std::vector<int64_t> _values; for ([[maybe_unused]] const auto& _k : utils::range(8)) { _values.push_back(0); } return _values; }()), utils::contains(present, 3) ? utils::right_align(utils::concat(utils::concat([&]() { std::vector<int64_t> _values; for ([[maybe_unused]] const auto& _k : utils::slice(rest, 0, at)) { _values.push_back(0); } return _values; }(), utils::broadcast_strides(utils::at(indices, 3)->dims(), B)), [&]() { std::vector<int64_t> _values; for ([[maybe_unused]] const auto& _k : utils::slice(rest, at, INT64_MAX)) { _values.push_back(0); } return _values; }()), 8, 0) : [&]() { std::vector<int64_t> _values; for ([[maybe_unused]] const auto& _k : utils::range(8)) { _values.push_back(0); } return _values; }()), kOp, "index_strides");
    utils::pack(
        plan.params0.dim_sizes,
        [&]() {
          std::vector<int64_t> _values;
          for (const auto& _k : utils::range(4)) {
            _values.push_back((_k < self.rank()) ? self.dim(_k) : 1);
          }
          return _values;
        }(),
        kOp, "dim_sizes");
    utils::pack(
        plan.params0.dim_strides,
        [&]() {
          std::vector<int64_t> _values;
          for (const auto& _k : utils::range(4)) {
            _values.push_back((_k < self.rank()) ? utils::at(strides, _k) : 0);
          }
          return _values;
        }(),
        kOp, "dim_strides");
    utils::pack(
        plan.params0.present,
        [&]() {
          std::vector<int64_t> _values;
          for (const auto& _k : utils::range(4)) {
            _values.push_back(utils::contains(present, _k) ? 1 : 0);
          }
          return _values;
        }(),
        kOp, "present");
    plan.params0.num_elements = utils::to_u32(utils::floordiv(out.numel(), 4), kOp, "num_elements");
    plan.grid0 = utils::elementwise_grid(utils::floordiv(out.numel(), 4),
                                         kIndexTensorVec4Kernel.workgroup_size[0],
                                         graph.limits().max_workgroups_per_dimension);
  }
  plan.run1 = (self.dtype == DType::Bool) || (self.dtype == DType::Float16) ||
              (utils::contains(present, utils::sub(self.rank(), 1)) ||
               (utils::floormod(self.dim(-1), 4) != 0));
  if (plan.run1) {
    utils::pack(plan.params1.out_dims, 4, utils::right_align(out_dims, 8, 1), kOp, "out_dims");
    utils::pack(plan.params1.kept_strides, 4,
                utils::right_align(
                    utils::concat(utils::concat(
                                      [&]() {
                                        std::vector<int64_t> _values;
                                        for (const auto& _k : utils::slice(rest, 0, at)) {
                                          _values.push_back(utils::at(strides, _k));
                                        }
                                        return _values;
                                      }(),
                                      [&]() {
                                        std::vector<int64_t> _values;
                                        for ([[maybe_unused]] const auto& _k : B) {
                                          _values.push_back(0);
                                        }
                                        return _values;
                                      }()),
                                  [&]() {
                                    std::vector<int64_t> _values;
                                    for (const auto& _k : utils::slice(rest, at, INT64_MAX)) {
                                      _values.push_back(utils::at(strides, _k));
                                    }
                                    return _values;
                                  }()),
                    8, 0),
                kOp, "kept_strides");
    utils::pack(plan.params1.index_strides, 4, utils::concat(utils::concat(utils::concat(utils::contains(present, 0) ? utils::right_align(utils::concat(utils::concat([&]() { std::vector<int64_t> _values; for ([[maybe_unused]] const auto& _k : utils::slice(rest, 0, at)) { _values.push_back(0); } return _values; }(), utils::broadcast_strides(utils::at(indices, 0)->dims(), B)), [&]() { std::vector<int64_t> _values; for ([[maybe_unused]] const auto& _k : utils::slice(rest, at, INT64_MAX)) { _values.push_back(0); } return _values; }()), 8, 0) : [&]() { std::vector<int64_t> _values; for ([[maybe_unused]] const auto& _k : utils::range(8)) { _values.push_back(0); } return _values; }(), utils::contains(present, 1) ? utils::right_align(utils::concat(utils::concat([&]() { std::vector<int64_t> _values; for ([[maybe_unused]] const auto& _k : utils::slice(rest, 0, at)) { _values.push_back(0); } return _values; }(), utils::broadcast_strides(utils::at(indices, 1)->dims(), B)), [&]() { std::vector<int64_t> _values; for ([[maybe_unused]] const auto& _k : utils::slice(rest, at, INT64_MAX)) { _values.push_back(0); } return _values; }()), 8, 0) : [&]() { std::vector<int64_t> _values; for ([[maybe_unused]] const auto& _k : utils::range(8)) { _values.push_back(0); } return _values; }()), utils::contains(present, 2) ? utils::right_align(utils::concat(utils::concat([&]() { std::vector<int64_t> _values; for ([[maybe_unused]] const auto& _k : utils::slice(rest, 0, at)) { _values.push_back(0); } return _values; }(), utils::broadcast_strides(utils::at(indices, 2)->dims(), B)), [&]() { std::vector<int64_t> _values; for ([[maybe_unused]] const auto& _k : utils::slice(rest, at, INT64_MAX)) { _values.push_back(0); } return _values; }()), 8, 0) : [&]() { std::vector<int64_t> _values; for ([[maybe_unused]] const auto& _k : utils::range(8)) { _values.push_back(0); } return _values; }()), utils::contains(present, 3) ? utils::right_align(utils::concat(utils::concat([&]() { std::vector<int64_t> _values; for ([[maybe_unused]] const auto& _k : utils::slice(rest, 0, at)) { _values.push_back(0); } return _values; }(), utils::broadcast_strides(utils::at(indices, 3)->dims(), B)), [&]() { std::vector<int64_t> _values; for ([[maybe_unused]] const auto& _k : utils::slice(rest, at, INT64_MAX)) { _values.push_back(0); } return _values; }()), 8, 0) : [&]() { std::vector<int64_t> _values; for ([[maybe_unused]] const auto& _k : utils::range(8)) { _values.push_back(0); } return _values; }()), kOp, "index_strides");
    utils::pack(
        plan.params1.dim_sizes,
        [&]() {
          std::vector<int64_t> _values;
          for (const auto& _k : utils::range(4)) {
            _values.push_back((_k < self.rank()) ? self.dim(_k) : 1);
          }
          return _values;
        }(),
        kOp, "dim_sizes");
    utils::pack(
        plan.params1.dim_strides,
        [&]() {
          std::vector<int64_t> _values;
          for (const auto& _k : utils::range(4)) {
            _values.push_back((_k < self.rank()) ? utils::at(strides, _k) : 0);
          }
          return _values;
        }(),
        kOp, "dim_strides");
    utils::pack(
        plan.params1.present,
        [&]() {
          std::vector<int64_t> _values;
          for (const auto& _k : utils::range(4)) {
            _values.push_back(utils::contains(present, _k) ? 1 : 0);
          }
          return _values;
        }(),
        kOp, "present");
    plan.params1.num_elements = utils::to_u32(utils::floordiv(out.numel(), 1), kOp, "num_elements");
    if (self.dtype == DType::Bool) {
      plan.route1 = 0;  // index_tensor_bytes
      plan.grid1 = utils::elementwise_grid(utils::ceil_div(out.numel(), 4),
                                           kIndexTensorBytesKernel.workgroup_size[0],
                                           graph.limits().max_workgroups_per_dimension);
      plan.overrides1 = {{"ALIGNED", (!utils::contains(present, utils::sub(self.rank(), 1)) &&
                                      (utils::floormod(self.dim(-1), 4) == 0))
                                         ? 1.0
                                         : 0.0}};
    } else if (self.dtype == DType::Float16) {
      plan.route1 = 1;  // index_tensor_halves
      plan.grid1 = utils::elementwise_grid(utils::ceil_div(out.numel(), 2),
                                           kIndexTensorHalvesKernel.workgroup_size[0],
                                           graph.limits().max_workgroups_per_dimension);
      plan.overrides1 = {{"ALIGNED", (!utils::contains(present, utils::sub(self.rank(), 1)) &&
                                      (utils::floormod(self.dim(-1), 4) == 0))
                                         ? 1.0
                                         : 0.0}};
    } else {
      plan.route1 = 2;  // index_tensor
      plan.grid1 = utils::elementwise_grid(utils::floordiv(out.numel(), 1),
                                           kIndexTensorKernel.workgroup_size[0],
                                           graph.limits().max_workgroups_per_dimension);
    }
  }
  return plan;
}

// Gives the outputs the shape the op's formula computes from the live inputs.
void resize_index_tensor_outputs(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const Tensor& self = graph.get_tensor(args[0]);
  std::vector<const Tensor*> indices;  // nullptr for a None entry
  for (const ValueRef item : graph.get_value_list(args[1])) {
    indices.push_back(graph.is_null(item) ? nullptr : &graph.get_tensor(item));
  }
  Tensor& out = graph.get_tensor(args[2]);
  const std::vector<int64_t> present =
      utils::let(kOp, "present = [k for k in range(len(indices)) if indices[k].present]",
                 [&]() -> std::vector<int64_t> {
                   return [&]() {
                     std::vector<int64_t> _values;
                     for (const auto& _k : utils::range(utils::length(indices))) {
                       if ((utils::at(indices, _k) != nullptr)) _values.push_back(_k);
                     }
                     return _values;
                   }();
                 });
  const std::vector<int64_t> b0 =
      utils::let(kOp, "b0 = (indices[0].dims if len(indices) > 0 and indices[0].present else [])",
                 [&]() -> std::vector<int64_t> {
                   return ((utils::length(indices) > 0) && (utils::at(indices, 0) != nullptr))
                              ? utils::at(indices, 0)->dims()
                              : std::vector<int64_t>{};
                 });
  const std::vector<int64_t> b1 = utils::let(
      kOp,
      "b1 = broadcast_shape(b0, (indices[1].dims if len(indices) > 1 and indices[1].present else "
      "[])) if broadcasts(b0, (indices[1].dims if len(indices) > 1 and indices[1].present else "
      "[])) else b0",
      [&]() -> std::vector<int64_t> {
        return utils::broadcasts(
                   b0, ((utils::length(indices) > 1) && (utils::at(indices, 1) != nullptr))
                           ? utils::at(indices, 1)->dims()
                           : std::vector<int64_t>{})
                   ? utils::broadcast_shape(
                         b0, ((utils::length(indices) > 1) && (utils::at(indices, 1) != nullptr))
                                 ? utils::at(indices, 1)->dims()
                                 : std::vector<int64_t>{})
                   : b0;
      });
  const std::vector<int64_t> b2 = utils::let(
      kOp,
      "b2 = broadcast_shape(b1, (indices[2].dims if len(indices) > 2 and indices[2].present else "
      "[])) if broadcasts(b1, (indices[2].dims if len(indices) > 2 and indices[2].present else "
      "[])) else b1",
      [&]() -> std::vector<int64_t> {
        return utils::broadcasts(
                   b1, ((utils::length(indices) > 2) && (utils::at(indices, 2) != nullptr))
                           ? utils::at(indices, 2)->dims()
                           : std::vector<int64_t>{})
                   ? utils::broadcast_shape(
                         b1, ((utils::length(indices) > 2) && (utils::at(indices, 2) != nullptr))
                                 ? utils::at(indices, 2)->dims()
                                 : std::vector<int64_t>{})
                   : b1;
      });
  const std::vector<int64_t> b3 = utils::let(
      kOp,
      "b3 = broadcast_shape(b2, (indices[3].dims if len(indices) > 3 and indices[3].present else "
      "[])) if broadcasts(b2, (indices[3].dims if len(indices) > 3 and indices[3].present else "
      "[])) else b2",
      [&]() -> std::vector<int64_t> {
        return utils::broadcasts(
                   b2, ((utils::length(indices) > 3) && (utils::at(indices, 3) != nullptr))
                           ? utils::at(indices, 3)->dims()
                           : std::vector<int64_t>{})
                   ? utils::broadcast_shape(
                         b2, ((utils::length(indices) > 3) && (utils::at(indices, 3) != nullptr))
                                 ? utils::at(indices, 3)->dims()
                                 : std::vector<int64_t>{})
                   : b2;
      });
  const std::vector<int64_t> B = b3;
  const bool adjacent = utils::let(
      kOp, "adjacent = len(present) == 0 or present[-1] - present[0] + 1 == len(present)",
      [&]() -> bool {
        return (utils::length(present) == 0) ||
               (utils::add(utils::sub(utils::at(present, -1), utils::at(present, 0)), 1) ==
                utils::length(present));
      });
  const int64_t at =
      utils::let(kOp, "at = present[0] if len(present) > 0 and adjacent else 0", [&]() -> int64_t {
        return ((utils::length(present) > 0) && adjacent) ? utils::at(present, 0) : 0;
      });
  const std::vector<int64_t> rest =
      utils::let(kOp, "rest = [k for k in range(self.rank) if k not in present]",
                 [&]() -> std::vector<int64_t> {
                   return [&]() {
                     std::vector<int64_t> _values;
                     for (const auto& _k : utils::range(self.rank())) {
                       if (!utils::contains(present, _k)) _values.push_back(_k);
                     }
                     return _values;
                   }();
                 });
  const std::vector<int64_t> out_dims = utils::let(
      kOp, "out_dims = [self.dims[k] for k in rest[:at]] + B + [self.dims[k] for k in rest[at:]]",
      [&]() -> std::vector<int64_t> {
        return utils::concat(utils::concat(
                                 [&]() {
                                   std::vector<int64_t> _values;
                                   for (const auto& _k : utils::slice(rest, 0, at)) {
                                     _values.push_back(self.dim(_k));
                                   }
                                   return _values;
                                 }(),
                                 B),
                             [&]() {
                               std::vector<int64_t> _values;
                               for (const auto& _k : utils::slice(rest, at, INT64_MAX)) {
                                 _values.push_back(self.dim(_k));
                               }
                               return _values;
                             }());
      });
  utils::resize_output(kOp, "out", out, out_dims);
}

void add_index_tensor(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const IndexTensorPlan built = plan_index_tensor(graph, args);
  const DispatchId dispatch0 =
      built.run0 ? graph.add_dispatch(kIndexTensorVec4Kernel, built.overrides0,
                                      {Binding::params(), Binding::of(args[0]),
                                       utils::length(graph.get_value_list(args[1])) > 0 &&
                                               !graph.is_null(graph.get_value_list(args[1])[0])
                                           ? Binding::of(graph.get_value_list(args[1])[0])
                                           : Binding::dummy(),
                                       utils::length(graph.get_value_list(args[1])) > 1 &&
                                               !graph.is_null(graph.get_value_list(args[1])[1])
                                           ? Binding::of(graph.get_value_list(args[1])[1])
                                           : Binding::dummy(),
                                       utils::length(graph.get_value_list(args[1])) > 2 &&
                                               !graph.is_null(graph.get_value_list(args[1])[2])
                                           ? Binding::of(graph.get_value_list(args[1])[2])
                                           : Binding::dummy(),
                                       utils::length(graph.get_value_list(args[1])) > 3 &&
                                               !graph.is_null(graph.get_value_list(args[1])[3])
                                           ? Binding::of(graph.get_value_list(args[1])[3])
                                           : Binding::dummy(),
                                       Binding::of(args[2])},
                                      &built.params0, sizeof(built.params0), built.grid0)
                 : 0;
  const DispatchId dispatch1 =
      built.run1 ? graph.add_dispatch(*kDispatch1Kernels[built.route1], built.overrides1,
                                      {Binding::params(), Binding::of(args[0]),
                                       utils::length(graph.get_value_list(args[1])) > 0 &&
                                               !graph.is_null(graph.get_value_list(args[1])[0])
                                           ? Binding::of(graph.get_value_list(args[1])[0])
                                           : Binding::dummy(),
                                       utils::length(graph.get_value_list(args[1])) > 1 &&
                                               !graph.is_null(graph.get_value_list(args[1])[1])
                                           ? Binding::of(graph.get_value_list(args[1])[1])
                                           : Binding::dummy(),
                                       utils::length(graph.get_value_list(args[1])) > 2 &&
                                               !graph.is_null(graph.get_value_list(args[1])[2])
                                           ? Binding::of(graph.get_value_list(args[1])[2])
                                           : Binding::dummy(),
                                       utils::length(graph.get_value_list(args[1])) > 3 &&
                                               !graph.is_null(graph.get_value_list(args[1])[3])
                                           ? Binding::of(graph.get_value_list(args[1])[3])
                                           : Binding::dummy(),
                                       Binding::of(args[2])},
                                      &built.params1, sizeof(built.params1), built.grid1)
                 : 0;
  graph.add_resize_hook([args, built, dispatch0, dispatch1](WebGPUGraph& graph) {
    resize_index_tensor_outputs(graph, args);
    const IndexTensorPlan plan = plan_index_tensor(graph, args);
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

WEBGPU_REGISTER_OP(aten.index.Tensor, webgpu_delegate::add_index_tensor, None);
