// Helpers the generated handlers call: the C++ twins of the spec expression
// language's builtins (codegen/language/expr.py), checked narrowing for uniform packing
// and the dispatch-grid math; error formatting comes from message.h. Header-only and
// device-free so the expression and dispatch tests compile it on its own.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "webgpu_delegate/message.h"

namespace webgpu_delegate {
namespace utils {

// --- expression builtins ---------------------------------------------------
// int64 + - * of spec expressions: an overflow (which a hostile graph can provoke) is an
// error, as in the Python evaluation, never undefined behaviour.
inline int64_t add(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r)) throw Error("integer overflow");
  return r;
}
inline int64_t sub(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_sub_overflow(a, b, &r)) throw Error("integer overflow");
  return r;
}
inline int64_t mul(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r)) throw Error("integer overflow");
  return r;
}

inline int64_t floordiv(int64_t a, int64_t b) {
  if (b == 0) throw Error("integer division by zero");
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

inline int64_t floormod(int64_t a, int64_t b) {
  if (b == 0) throw Error("integer modulo by zero");
  int64_t r = a % b;
  if (r != 0 && ((r < 0) != (b < 0))) r += b;
  return r;
}

inline int64_t ceil_div(int64_t a, int64_t b) {
  if (b <= 0) throw Error(message("ceil_div divisor must be positive (got ", b, ")"));
  return -floordiv(-a, b);
}

inline double divide(double a, double b) {
  if (b == 0) throw Error("division by zero");
  return a / b;
}

inline int64_t min_of(int64_t a, int64_t b) {
  return std::min(a, b);
}
inline double min_of(double a, double b) {
  return std::min(a, b);
}
inline int64_t max_of(int64_t a, int64_t b) {
  return std::max(a, b);
}
inline double max_of(double a, double b) {
  return std::max(a, b);
}
inline int64_t min_of(const std::vector<int64_t>& values) {
  if (values.empty()) throw Error("min() of an empty list");
  return *std::min_element(values.begin(), values.end());
}
inline int64_t max_of(const std::vector<int64_t>& values) {
  if (values.empty()) throw Error("max() of an empty list");
  return *std::max_element(values.begin(), values.end());
}

inline int64_t floor_to_int(double v) {
  const double f = std::floor(v);
  if (!std::isfinite(f) || f < -9223372036854775808.0 || f >= 9223372036854775808.0) {
    throw Error(message(v, " does not fit int64"));
  }
  return static_cast<int64_t>(f);
}

// xs[lo:hi] with Python's clamping of out-of-range and negative bounds.
template <class T>
std::vector<T> slice(const std::vector<T>& values, int64_t lo, int64_t hi) {
  const int64_t n = static_cast<int64_t>(values.size());
  auto clamp = [n](int64_t i) { return i < 0 ? std::max<int64_t>(0, i + n) : std::min(i, n); };
  lo = clamp(lo);
  hi = clamp(hi);
  if (hi <= lo) return {};
  return std::vector<T>(values.begin() + lo, values.begin() + hi);
}

inline int64_t abs_value(int64_t v) {
  return v < 0 ? -v : v;
}
inline double abs_value(double v) {
  return std::fabs(v);
}

template <class T>
T at(const std::vector<T>& values, int64_t i) {
  const int64_t n = static_cast<int64_t>(values.size());
  if (i < -n || i >= n) {
    throw Error(message("index ", i, " out of range for ", n, " values"));
  }
  return values[static_cast<size_t>(i < 0 ? i + n : i)];
}

template <class T>
int64_t length(const std::vector<T>& values) {
  return static_cast<int64_t>(values.size());
}

inline int64_t prod(const std::vector<int64_t>& values) {
  int64_t p = 1;
  for (int64_t v : values) p = mul(p, v);
  return p;
}

inline int64_t sum(const std::vector<int64_t>& values) {
  int64_t s = 0;
  for (int64_t v : values) s += v;
  return s;
}

// `v in values` of the expression language.
inline bool contains(const std::vector<int64_t>& values, int64_t v) {
  return std::find(values.begin(), values.end(), v) != values.end();
}

// [0, 1, ..., n - 1] (empty when n <= 0), as Python's list(range(n)).
inline std::vector<int64_t> range(int64_t n) {
  std::vector<int64_t> out;
  for (int64_t i = 0; i < n; ++i) out.push_back(i);
  return out;
}

// Dims as non-negative indices (negatives count from the end), each within -rank..rank-1.
inline std::vector<int64_t> normalize_dims(const std::vector<int64_t>& dims, int64_t rank) {
  std::vector<int64_t> out;
  for (int64_t d : dims) {
    if (d < -rank || d >= rank) {
      throw Error(message("dim ", d, " out of range for rank ", rank));
    }
    out.push_back(d < 0 ? d + rank : d);
  }
  return out;
}

// n ones (a keepdim shape's reduced dims).
inline std::vector<int64_t> ones(int64_t n) {
  if (n < 0) throw Error(message("ones: negative length ", n));
  return std::vector<int64_t>(static_cast<size_t>(n), 1);
}

// `values` with values[i] = v (Python-style index, bounds checked).
inline std::vector<int64_t> replace_at(const std::vector<int64_t>& values, int64_t i, int64_t v) {
  const int64_t n = static_cast<int64_t>(values.size());
  if (i < -n || i >= n) {
    throw Error(message("index ", i, " out of range for ", n, " values"));
  }
  std::vector<int64_t> out = values;
  out[static_cast<size_t>(i < 0 ? i + n : i)] = v;
  return out;
}

// A view size with its single -1 replaced by what makes `numel` elements; any
// other size (two -1s, no fit) comes back unchanged for a guard to reject.
inline std::vector<int64_t> infer_size(const std::vector<int64_t>& size, int64_t numel) {
  int64_t known = 1;
  int64_t holes = 0;
  for (int64_t s : size) {
    if (s == -1) {
      ++holes;
    } else {
      known *= s;
    }
  }
  if (holes != 1 || known <= 0 || numel % known != 0) return size;
  std::vector<int64_t> out = size;
  for (int64_t& s : out) {
    if (s == -1) s = numel / known;
  }
  return out;
}

inline std::vector<int64_t> right_align(const std::vector<int64_t>& values, int64_t n,
                                        int64_t fill) {
  if (static_cast<int64_t>(values.size()) > n) {
    throw Error(message("right_align: ", values.size(), " values do not fit ", n, " slots"));
  }
  std::vector<int64_t> out(static_cast<size_t>(n) - values.size(), fill);
  out.insert(out.end(), values.begin(), values.end());
  return out;
}

// Whether `a` and `b` broadcast (right-aligned dims equal or 1).
inline bool broadcasts(const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
  for (size_t i = 1; i <= std::min(a.size(), b.size()); ++i) {
    const int64_t x = a[a.size() - i];
    const int64_t y = b[b.size() - i];
    if (x != y && x != 1 && y != 1) return false;
  }
  return true;
}

inline std::vector<int64_t> broadcast_shape(const std::vector<int64_t>& a,
                                            const std::vector<int64_t>& b) {
  const int64_t n = static_cast<int64_t>(std::max(a.size(), b.size()));
  const auto pa = right_align(a, n, 1);
  const auto pb = right_align(b, n, 1);
  std::vector<int64_t> out(static_cast<size_t>(n));
  for (size_t i = 0; i < out.size(); ++i) {
    if (pa[i] != pb[i] && pa[i] != 1 && pb[i] != 1) {
      throw Error(message("shapes ", a, " and ", b, " do not broadcast"));
    }
    out[i] = pa[i] == 1 ? pb[i] : pa[i];
  }
  return out;
}

inline std::vector<int64_t> contiguous_strides(const std::vector<int64_t>& dims) {
  std::vector<int64_t> strides(dims.size());
  int64_t acc = 1;
  for (size_t i = dims.size(); i-- > 0;) {
    strides[i] = acc;
    acc *= dims[i];
  }
  return strides;
}

// sqrt() of the expression language: a negative (or NaN) operand is an error.
inline double sqrt_of(double v) {
  if (!(v >= 0.0)) throw Error(message("sqrt of a negative number (got ", v, ")"));
  return std::sqrt(v);
}

// `a + b` on two int lists: concatenation.
inline std::vector<int64_t> concat(const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
  std::vector<int64_t> out(a);
  out.insert(out.end(), b.begin(), b.end());
  return out;
}

// [values[order[0]], values[order[1]], ...]; negative entries count from the end.
inline std::vector<int64_t> permute(const std::vector<int64_t>& values,
                                    const std::vector<int64_t>& order) {
  const int64_t n = static_cast<int64_t>(values.size());
  std::vector<int64_t> out;
  out.reserve(order.size());
  for (int64_t i : order) {
    if (i < -n || i >= n) {
      throw Error(message("permute: index ", i, " out of range for ", n, " values"));
    }
    out.push_back(values[static_cast<size_t>(i < 0 ? i + n : i)]);
  }
  return out;
}

// Whether `order` names each of 0..n-1 exactly once (negatives wrap like dims).
inline bool is_permutation(const std::vector<int64_t>& order, int64_t n) {
  if (static_cast<int64_t>(order.size()) != n) return false;
  std::vector<bool> seen(static_cast<size_t>(n), false);
  for (int64_t d : order) {
    if (d < -n || d >= n) return false;
    const size_t k = static_cast<size_t>(d < 0 ? d + n : d);
    if (seen[k]) return false;
    seen[k] = true;
  }
  return true;
}

// Strides of `dims` read at `out_dims` coordinates: 0 on broadcast dims.
inline std::vector<int64_t> broadcast_strides(const std::vector<int64_t>& dims,
                                              const std::vector<int64_t>& out_dims) {
  const auto aligned = right_align(dims, static_cast<int64_t>(out_dims.size()), 1);
  auto strides = contiguous_strides(aligned);
  for (size_t i = 0; i < strides.size(); ++i) {
    if (aligned[i] == 1 && out_dims[i] != 1) strides[i] = 0;
  }
  return strides;
}

// An `int` argument that arrived as a Double: accepted only when it is integral
// and fits int64 (checked before any cast; NaN, infinities and fractions fail).
inline int64_t integral_to_int(double v, const char* op, const char* argument) {
  if (!(std::isfinite(v) && v == std::trunc(v) && v >= -9223372036854775808.0 &&
        v < 9223372036854775808.0)) {
    fail(op, argument, "is not an integral number", v, "an integer in int64 range");
  }
  return static_cast<int64_t>(v);
}

// --- checked narrowing for uniform packing --------------------------------
inline uint32_t to_u32(int64_t v, const char* op, const char* field) {
  if (v < 0 || v > int64_t{std::numeric_limits<uint32_t>::max()}) {
    fail(op, field, "does not fit u32", v, "0..4294967295");
  }
  return static_cast<uint32_t>(v);
}

inline int32_t to_i32(int64_t v, const char* op, const char* field) {
  if (v < std::numeric_limits<int32_t>::min() || v > std::numeric_limits<int32_t>::max()) {
    fail(op, field, "does not fit i32", v, "-2147483648..2147483647");
  }
  return static_cast<int32_t>(v);
}

inline float to_f32(double v) {
  return static_cast<float>(v);
}

// --- dispatch math ----------------------------------------------------------
struct Grid {
  uint32_t x = 1;
  uint32_t y = 1;
  uint32_t z = 1;
  bool operator==(const Grid& o) const { return x == o.x && y == o.y && z == o.z; }
};

// `count` invocations in workgroups of `wg_x`, 1-D, spilling into y once x
// would pass `max_per_dim`. Kernels rebuild the linear index from
// num_workgroups, so a resize only changes the grid, never the pipeline.
inline Grid elementwise_grid(int64_t count, uint32_t wg_x, uint32_t max_per_dim) {
  if (count < 0) throw Error(message("elementwise_grid: negative count ", count));
  const int64_t groups = std::max<int64_t>(1, ceil_div(count, wg_x));
  if (groups <= max_per_dim) return Grid{static_cast<uint32_t>(groups), 1, 1};
  const int64_t rows = ceil_div(groups, max_per_dim);
  if (rows > max_per_dim) {
    throw Error(message("elementwise_grid: ", count, " invocations exceed the 2-D dispatch limit"));
  }
  return Grid{max_per_dim, static_cast<uint32_t>(rows), 1};
}

// A grid of `tile_x` x `tile_y` tiles covering `x` x `y` items (times `z`).
inline Grid tiles_grid(int64_t x, int64_t y, int64_t z, uint32_t tile_x, uint32_t tile_y,
                       uint32_t max_per_dim) {
  const int64_t gx = std::max<int64_t>(1, ceil_div(x, tile_x));
  const int64_t gy = std::max<int64_t>(1, ceil_div(y, tile_y));
  const int64_t gz = std::max<int64_t>(1, z);
  if (gx > max_per_dim || gy > max_per_dim || gz > max_per_dim) {
    throw Error(message("tiles_grid: ", gx, "x", gy, "x", gz,
                        " workgroups exceed the per-dimension limit ", max_per_dim));
  }
  return Grid{static_cast<uint32_t>(gx), static_cast<uint32_t>(gy), static_cast<uint32_t>(gz)};
}

// An IntList in the one-or-two-value H/W form, broadcast to two values.
inline std::vector<int64_t> parse_hw(const std::vector<int64_t>& values, const char* op,
                                     const char* argument) {
  if (values.size() == 1) return {values[0], values[0]};
  if (values.size() == 2) return values;
  fail(op, argument, "must hold one or two values", format_value(values), "[h, w] or [v]");
}

}  // namespace utils
}  // namespace webgpu_delegate
