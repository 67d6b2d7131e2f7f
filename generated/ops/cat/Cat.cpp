// @generated from codegen/specs/cat/cat.py - DO NOT EDIT.
// Op cat: aten.cat.default

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ops/cat/cat_copy_bytes_wgsl.h"
#include "ops/cat/cat_copy_vec4_wgsl.h"
#include "ops/cat/cat_copy_wgsl.h"
#include "webgpu_delegate/graph.h"
#include "webgpu_delegate/op_support.h"

namespace webgpu_delegate {
namespace {

constexpr const char* kOp = "cat";

struct CatCatCopyVec4Params {
  uint32_t inner;
  uint32_t in_len;
  uint32_t out_len;
  uint32_t offset;
  uint32_t num_elements;
  uint32_t _pad0[3];
};
static_assert(offsetof(CatCatCopyVec4Params, inner) == 0,
              "CatCatCopyVec4Params.inner must sit at WGSL offset 0");
static_assert(offsetof(CatCatCopyVec4Params, in_len) == 4,
              "CatCatCopyVec4Params.in_len must sit at WGSL offset 4");
static_assert(offsetof(CatCatCopyVec4Params, out_len) == 8,
              "CatCatCopyVec4Params.out_len must sit at WGSL offset 8");
static_assert(offsetof(CatCatCopyVec4Params, offset) == 12,
              "CatCatCopyVec4Params.offset must sit at WGSL offset 12");
static_assert(offsetof(CatCatCopyVec4Params, num_elements) == 16,
              "CatCatCopyVec4Params.num_elements must sit at WGSL offset 16");
static_assert(sizeof(CatCatCopyVec4Params) == 32,
              "CatCatCopyVec4Params must match the WGSL struct size 32");

struct CatCatCopyParams {
  uint32_t inner;
  uint32_t in_len;
  uint32_t out_len;
  uint32_t offset;
  uint32_t num_elements;
  uint32_t _pad0[3];
};
static_assert(offsetof(CatCatCopyParams, inner) == 0,
              "CatCatCopyParams.inner must sit at WGSL offset 0");
static_assert(offsetof(CatCatCopyParams, in_len) == 4,
              "CatCatCopyParams.in_len must sit at WGSL offset 4");
static_assert(offsetof(CatCatCopyParams, out_len) == 8,
              "CatCatCopyParams.out_len must sit at WGSL offset 8");
static_assert(offsetof(CatCatCopyParams, offset) == 12,
              "CatCatCopyParams.offset must sit at WGSL offset 12");
static_assert(offsetof(CatCatCopyParams, num_elements) == 16,
              "CatCatCopyParams.num_elements must sit at WGSL offset 16");
static_assert(sizeof(CatCatCopyParams) == 32,
              "CatCatCopyParams must match the WGSL struct size 32");

struct CatCatCopyBytesParams {
  uint32_t inner;
  uint32_t in_len;
  uint32_t out_len;
  uint32_t offset;
  uint32_t num_elements;
  uint32_t _pad0[3];
};
static_assert(offsetof(CatCatCopyBytesParams, inner) == 0,
              "CatCatCopyBytesParams.inner must sit at WGSL offset 0");
static_assert(offsetof(CatCatCopyBytesParams, in_len) == 4,
              "CatCatCopyBytesParams.in_len must sit at WGSL offset 4");
static_assert(offsetof(CatCatCopyBytesParams, out_len) == 8,
              "CatCatCopyBytesParams.out_len must sit at WGSL offset 8");
static_assert(offsetof(CatCatCopyBytesParams, offset) == 12,
              "CatCatCopyBytesParams.offset must sit at WGSL offset 12");
static_assert(offsetof(CatCatCopyBytesParams, num_elements) == 16,
              "CatCatCopyBytesParams.num_elements must sit at WGSL offset 16");
static_assert(sizeof(CatCatCopyBytesParams) == 32,
              "CatCatCopyBytesParams must match the WGSL struct size 32");

const KernelSource kCatCopyVec4Kernel{
    "cat_copy_vec4",
    kCatCopyVec4WGSL,
    "main",
    {kCatCopyVec4WorkgroupSizeX, kCatCopyVec4WorkgroupSizeY, kCatCopyVec4WorkgroupSizeZ},
    kCatCopyVec4Bindings,
    kCatCopyVec4BindingCount};
const KernelSource kCatCopyKernel{
    "cat_copy",       kCatCopyWGSL,
    "main",           {kCatCopyWorkgroupSizeX, kCatCopyWorkgroupSizeY, kCatCopyWorkgroupSizeZ},
    kCatCopyBindings, kCatCopyBindingCount};
const KernelSource kCatCopyBytesKernel{
    "cat_copy_bytes",
    kCatCopyBytesWGSL,
    "main",
    {kCatCopyBytesWorkgroupSizeX, kCatCopyBytesWorkgroupSizeY, kCatCopyBytesWorkgroupSizeZ},
    kCatCopyBytesBindings,
    kCatCopyBytesBindingCount};

// The argument values, checked and turned into what each dispatch needs.
struct CatPlan {
  // One dispatch per entry of tensors.
  bool run0 = true;
  std::vector<CatCatCopyVec4Params> params0;
  std::vector<utils::Grid> grid0;
  std::vector<OverrideValue> overrides0;
  // One dispatch per entry of tensors.
  bool run1 = true;
  std::vector<CatCatCopyParams> params1;
  std::vector<utils::Grid> grid1;
  std::vector<OverrideValue> overrides1;
  // One dispatch per entry of tensors.
  bool run2 = true;
  std::vector<CatCatCopyBytesParams> params2;
  std::vector<utils::Grid> grid2;
  std::vector<OverrideValue> overrides2;
};

CatPlan plan_cat(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  utils::check_arg_count(kOp, args, 3);
  std::vector<const Tensor*> tensors;  // nullptr for a None entry
  for (const ValueRef item : graph.get_value_list(args[0])) {
    tensors.push_back(graph.is_null(item) ? nullptr : &graph.get_tensor(item));
  }
  const int64_t dim =
      graph.is_null(args[1]) ? 0 : utils::read_int(graph, args[1], kOp, "dim", false);
  const Tensor& out = graph.get_tensor(args[2]);
  for (const Tensor* item : tensors) {
    if (item == nullptr) {
      utils::fail(kOp, "tensors", "holds a None entry", "None", "a tensor");
    }
    if (item != nullptr) {
      utils::check_dtype(kOp, "tensors", *item,
                         {DType::Float32, DType::Float16, DType::Int32, DType::Bool});
    }
  }
  utils::check_dtype(kOp, "out", out, {DType::Float32, DType::Float16, DType::Int32, DType::Bool});
  const std::vector<int64_t> skipped = utils::let(
      kOp,
      "skipped = [k for k in range(len(tensors)) if tensors[k].rank == 1 and tensors[k].numel == "
      "0]",
      [&]() -> std::vector<int64_t> {
        return [&]() {
          std::vector<int64_t> _values;
          for (const auto& _k : utils::range(utils::length(tensors))) {
            if ((utils::at(tensors, _k)->rank() == 1) && (utils::at(tensors, _k)->numel() == 0))
              _values.push_back(_k);
          }
          return _values;
        }();
      });
  const std::vector<int64_t> kept =
      utils::let(kOp, "kept = [k for k in range(len(tensors)) if k not in skipped]",
                 [&]() -> std::vector<int64_t> {
                   return [&]() {
                     std::vector<int64_t> _values;
                     for (const auto& _k : utils::range(utils::length(tensors))) {
                       if (!utils::contains(skipped, _k)) _values.push_back(_k);
                     }
                     return _values;
                   }();
                 });
  const int64_t ref = utils::let(kOp, "ref = kept[0] if len(kept) > 0 else 0", [&]() -> int64_t {
    return (utils::length(kept) > 0) ? utils::at(kept, 0) : 0;
  });
  const int64_t rank =
      utils::let(kOp, "rank = tensors[ref].rank if len(tensors) > 0 else 1", [&]() -> int64_t {
        return (utils::length(tensors) > 0) ? utils::at(tensors, ref)->rank() : 1;
      });
  const int64_t d = utils::let(kOp, "d = dim + rank if dim < 0 else dim", [&]() -> int64_t {
    return (dim < 0) ? utils::add(dim, rank) : dim;
  });
  const std::vector<int64_t> sizes =
      utils::let(kOp,
                 "sizes = [tensors[k].dims[d] if k in kept and d >= 0 and d < tensors[k].rank else "
                 "0 for k in range(len(tensors))]",
                 [&]() -> std::vector<int64_t> {
                   return [&]() {
                     std::vector<int64_t> _values;
                     for (const auto& _k : utils::range(utils::length(tensors))) {
                       _values.push_back((utils::contains(kept, _k) && (d >= 0) &&
                                          (d < utils::at(tensors, _k)->rank()))
                                             ? utils::at(tensors, _k)->dim(d)
                                             : 0);
                     }
                     return _values;
                   }();
                 });
  const std::vector<int64_t> mismatched = utils::let(
      kOp,
      "mismatched = [k for k in kept if tensors[k].rank != rank or tensors[k].dims[:d] + "
      "tensors[k].dims[d + 1:] != tensors[ref].dims[:d] + tensors[ref].dims[d + 1:]]",
      [&]() -> std::vector<int64_t> {
        return [&]() {
          std::vector<int64_t> _values;
          for (const auto& _k : kept) {
            if ((utils::at(tensors, _k)->rank() != rank) ||
                (utils::concat(
                     utils::slice(utils::at(tensors, _k)->dims(), 0, d),
                     utils::slice(utils::at(tensors, _k)->dims(), utils::add(d, 1), INT64_MAX)) !=
                 utils::concat(
                     utils::slice(utils::at(tensors, ref)->dims(), 0, d),
                     utils::slice(utils::at(tensors, ref)->dims(), utils::add(d, 1), INT64_MAX))))
              _values.push_back(_k);
          }
          return _values;
        }();
      });
  const std::vector<int64_t> mistyped =
      utils::let(kOp, "mistyped = [k for k in kept if tensors[k].dtype != out.dtype]",
                 [&]() -> std::vector<int64_t> {
                   return [&]() {
                     std::vector<int64_t> _values;
                     for (const auto& _k : kept) {
                       if (utils::at(tensors, _k)->dtype != out.dtype) _values.push_back(_k);
                     }
                     return _values;
                   }();
                 });
  const int64_t inner = utils::let(
      kOp, "inner = prod(tensors[ref].dims[d + 1:]) if len(tensors) > 0 else 1", [&]() -> int64_t {
        return (utils::length(tensors) > 0)
                   ? utils::prod(
                         utils::slice(utils::at(tensors, ref)->dims(), utils::add(d, 1), INT64_MAX))
                   : 1;
      });
  const int64_t elem_bytes =
      (out.dtype == DType::Bool) ? 1 : ((out.dtype == DType::Float16) ? 2 : 4);
  const int64_t unit = utils::let(
      kOp,
      "unit = 16 if inner * elem_bytes % 16 == 0 else (4 if inner * elem_bytes % 4 == 0 else 1)",
      [&]() -> int64_t {
        return (utils::floormod(utils::mul(inner, elem_bytes), 16) == 0)
                   ? 16
                   : ((utils::floormod(utils::mul(inner, elem_bytes), 4) == 0) ? 4 : 1);
      });
  if (utils::length(tensors) <= 0) {
    utils::fail(kOp, "tensors", "is empty", utils::format_value(utils::length(tensors)),
                "at least one tensor");
  }
  if (rank <= 0) {
    utils::fail(kOp, "tensors", "holds a zero-dimensional tensor",
                utils::format_value(utils::at(tensors, ref)->dims()), "tensors of rank >= 1");
  }
  if ((d < 0) || (d >= rank)) {
    utils::fail(kOp, "dim", "is out of range", utils::format_value(dim),
                utils::format_value(-rank) + ".." + utils::format_value(utils::sub(rank, 1)));
  }
  if (utils::length(mismatched) != 0) {
    utils::fail(kOp, "tensors",
                "holds a tensor whose dims differ from the first outside the cat dim",
                utils::format_value(utils::at(tensors, utils::at(mismatched, 0))->dims()),
                "rank " + utils::format_value(rank) + " and " +
                    utils::format_value(utils::at(tensors, ref)->dims()) + " outside dim " +
                    utils::format_value(d));
  }
  if (utils::length(mistyped) != 0) {
    utils::fail(kOp, "tensors", "holds a tensor of another dtype than the output",
                utils::format_value(utils::at(tensors, utils::at(mistyped, 0))->dtype),
                utils::format_value(out.dtype) + " (no type promotion)");
  }
  utils::check_output_dims(
      kOp, "out", out, utils::replace_at(utils::at(tensors, ref)->dims(), d, utils::sum(sizes)));

  CatPlan plan;
  plan.run0 = unit == 16;
  if (plan.run0) {
    for (int64_t i = 0; i < utils::length(tensors); ++i) {
      CatCatCopyVec4Params& params = plan.params0.emplace_back();
      params.inner =
          utils::to_u32(utils::floordiv(utils::mul(inner, elem_bytes), unit), kOp, "inner");
      params.in_len = utils::to_u32(utils::at(sizes, i), kOp, "in_len");
      params.out_len = utils::to_u32(out.dim(d), kOp, "out_len");
      params.offset = utils::to_u32(utils::sum(utils::slice(sizes, 0, i)), kOp, "offset");
      params.num_elements = utils::to_u32(
          (unit == 1)
              ? utils::mul(out.numel(), elem_bytes)
              : utils::floordiv(utils::mul(utils::at(tensors, i)->numel(), elem_bytes), unit),
          kOp, "num_elements");
      plan.grid0.push_back(utils::elementwise_grid(
          utils::floordiv(utils::mul(utils::at(tensors, i)->numel(), elem_bytes), unit),
          kCatCopyVec4Kernel.workgroup_size[0], graph.limits().max_workgroups_per_dimension));
    }
  }
  plan.run1 = unit == 4;
  if (plan.run1) {
    for (int64_t i = 0; i < utils::length(tensors); ++i) {
      CatCatCopyParams& params = plan.params1.emplace_back();
      params.inner =
          utils::to_u32(utils::floordiv(utils::mul(inner, elem_bytes), unit), kOp, "inner");
      params.in_len = utils::to_u32(utils::at(sizes, i), kOp, "in_len");
      params.out_len = utils::to_u32(out.dim(d), kOp, "out_len");
      params.offset = utils::to_u32(utils::sum(utils::slice(sizes, 0, i)), kOp, "offset");
      params.num_elements = utils::to_u32(
          (unit == 1)
              ? utils::mul(out.numel(), elem_bytes)
              : utils::floordiv(utils::mul(utils::at(tensors, i)->numel(), elem_bytes), unit),
          kOp, "num_elements");
      plan.grid1.push_back(utils::elementwise_grid(
          utils::floordiv(utils::mul(utils::at(tensors, i)->numel(), elem_bytes), unit),
          kCatCopyKernel.workgroup_size[0], graph.limits().max_workgroups_per_dimension));
    }
  }
  plan.run2 = unit == 1;
  if (plan.run2) {
    for (int64_t i = 0; i < utils::length(tensors); ++i) {
      CatCatCopyBytesParams& params = plan.params2.emplace_back();
      params.inner =
          utils::to_u32(utils::floordiv(utils::mul(inner, elem_bytes), unit), kOp, "inner");
      params.in_len = utils::to_u32(utils::at(sizes, i), kOp, "in_len");
      params.out_len = utils::to_u32(out.dim(d), kOp, "out_len");
      params.offset = utils::to_u32(utils::sum(utils::slice(sizes, 0, i)), kOp, "offset");
      params.num_elements = utils::to_u32(
          (unit == 1)
              ? utils::mul(out.numel(), elem_bytes)
              : utils::floordiv(utils::mul(utils::at(tensors, i)->numel(), elem_bytes), unit),
          kOp, "num_elements");
      plan.grid2.push_back(utils::elementwise_grid(
          (utils::at(tensors, i)->numel() > 0)
              ? utils::ceil_div(utils::mul(out.numel(), elem_bytes), 4)
              : 0,
          kCatCopyBytesKernel.workgroup_size[0], graph.limits().max_workgroups_per_dimension));
    }
  }
  return plan;
}

// Gives the outputs the shape the op's formula computes from the live inputs.
void resize_cat_outputs(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  std::vector<const Tensor*> tensors;  // nullptr for a None entry
  for (const ValueRef item : graph.get_value_list(args[0])) {
    tensors.push_back(graph.is_null(item) ? nullptr : &graph.get_tensor(item));
  }
  const int64_t dim =
      graph.is_null(args[1]) ? 0 : utils::read_int(graph, args[1], kOp, "dim", false);
  Tensor& out = graph.get_tensor(args[2]);
  const std::vector<int64_t> skipped = utils::let(
      kOp,
      "skipped = [k for k in range(len(tensors)) if tensors[k].rank == 1 and tensors[k].numel == "
      "0]",
      [&]() -> std::vector<int64_t> {
        return [&]() {
          std::vector<int64_t> _values;
          for (const auto& _k : utils::range(utils::length(tensors))) {
            if ((utils::at(tensors, _k)->rank() == 1) && (utils::at(tensors, _k)->numel() == 0))
              _values.push_back(_k);
          }
          return _values;
        }();
      });
  const std::vector<int64_t> kept =
      utils::let(kOp, "kept = [k for k in range(len(tensors)) if k not in skipped]",
                 [&]() -> std::vector<int64_t> {
                   return [&]() {
                     std::vector<int64_t> _values;
                     for (const auto& _k : utils::range(utils::length(tensors))) {
                       if (!utils::contains(skipped, _k)) _values.push_back(_k);
                     }
                     return _values;
                   }();
                 });
  const int64_t ref = utils::let(kOp, "ref = kept[0] if len(kept) > 0 else 0", [&]() -> int64_t {
    return (utils::length(kept) > 0) ? utils::at(kept, 0) : 0;
  });
  const int64_t rank =
      utils::let(kOp, "rank = tensors[ref].rank if len(tensors) > 0 else 1", [&]() -> int64_t {
        return (utils::length(tensors) > 0) ? utils::at(tensors, ref)->rank() : 1;
      });
  const int64_t d = utils::let(kOp, "d = dim + rank if dim < 0 else dim", [&]() -> int64_t {
    return (dim < 0) ? utils::add(dim, rank) : dim;
  });
  const std::vector<int64_t> sizes =
      utils::let(kOp,
                 "sizes = [tensors[k].dims[d] if k in kept and d >= 0 and d < tensors[k].rank else "
                 "0 for k in range(len(tensors))]",
                 [&]() -> std::vector<int64_t> {
                   return [&]() {
                     std::vector<int64_t> _values;
                     for (const auto& _k : utils::range(utils::length(tensors))) {
                       _values.push_back((utils::contains(kept, _k) && (d >= 0) &&
                                          (d < utils::at(tensors, _k)->rank()))
                                             ? utils::at(tensors, _k)->dim(d)
                                             : 0);
                     }
                     return _values;
                   }();
                 });
  utils::resize_output(kOp, "out", out,
                       utils::replace_at(utils::at(tensors, ref)->dims(), d, utils::sum(sizes)));
}

void add_cat(WebGPUGraph& graph, const std::vector<ValueRef>& args) {
  const CatPlan built = plan_cat(graph, args);
  std::vector<DispatchId> dispatch0;
  for (size_t i = 0; i < built.grid0.size(); ++i) {
    dispatch0.push_back(graph.add_dispatch(
        kCatCopyVec4Kernel, built.overrides0,
        {Binding::params(), Binding::of(graph.get_value_list(args[0])[i]), Binding::of(args[2])},
        &built.params0[i], sizeof(built.params0[i]), built.grid0[i]));
  }
  std::vector<DispatchId> dispatch1;
  for (size_t i = 0; i < built.grid1.size(); ++i) {
    dispatch1.push_back(graph.add_dispatch(
        kCatCopyKernel, built.overrides1,
        {Binding::params(), Binding::of(graph.get_value_list(args[0])[i]), Binding::of(args[2])},
        &built.params1[i], sizeof(built.params1[i]), built.grid1[i]));
  }
  std::vector<DispatchId> dispatch2;
  for (size_t i = 0; i < built.grid2.size(); ++i) {
    dispatch2.push_back(graph.add_dispatch(
        kCatCopyBytesKernel, built.overrides2,
        {Binding::params(), Binding::of(graph.get_value_list(args[0])[i]), Binding::of(args[2])},
        &built.params2[i], sizeof(built.params2[i]), built.grid2[i]));
  }
  graph.add_resize_hook([args, built, dispatch0, dispatch1, dispatch2](WebGPUGraph& graph) {
    resize_cat_outputs(graph, args);
    const CatPlan plan = plan_cat(graph, args);
    if (plan.run0 != built.run0) {
      utils::fail(kOp, "inputs", "were resized into a different set of dispatches",
                  utils::format_value(plan.run0), utils::format_value(built.run0));
    }
    for (size_t i = 0; i < dispatch0.size(); ++i) {
      graph.update_dispatch(dispatch0[i], &plan.params0[i], sizeof(plan.params0[i]), plan.grid0[i]);
    }
    if (plan.run1 != built.run1) {
      utils::fail(kOp, "inputs", "were resized into a different set of dispatches",
                  utils::format_value(plan.run1), utils::format_value(built.run1));
    }
    for (size_t i = 0; i < dispatch1.size(); ++i) {
      graph.update_dispatch(dispatch1[i], &plan.params1[i], sizeof(plan.params1[i]), plan.grid1[i]);
    }
    if (plan.run2 != built.run2) {
      utils::fail(kOp, "inputs", "were resized into a different set of dispatches",
                  utils::format_value(plan.run2), utils::format_value(built.run2));
    }
    for (size_t i = 0; i < dispatch2.size(); ++i) {
      graph.update_dispatch(dispatch2[i], &plan.params2[i], sizeof(plan.params2[i]), plan.grid2[i]);
    }
  });
}

}  // namespace
}  // namespace webgpu_delegate

WEBGPU_REGISTER_OP(aten.cat.default, webgpu_delegate::add_cat, None);
