// Dispatch math and expression builtins from utils.h: no device needed.
#include <ostream>

#include "throws.h"
#include "webgpu_delegate/utils.h"

namespace webgpu_delegate::utils {
// How a failed comparison prints a grid (GoogleTest finds it beside Grid).
std::ostream& operator<<(std::ostream& os, const Grid& g) {
  return os << g.x << "x" << g.y << "x" << g.z;
}
}  // namespace webgpu_delegate::utils

using webgpu_delegate::Error;
using webgpu_delegate::utils::Grid;
namespace utils = webgpu_delegate::utils;

TEST(DispatchMath, ceil_div_rounds_up_and_rejects_bad_divisors) {
  ASSERT_EQ(utils::ceil_div(0, 64), 0);
  ASSERT_EQ(utils::ceil_div(1, 64), 1);
  ASSERT_EQ(utils::ceil_div(64, 64), 1);
  ASSERT_EQ(utils::ceil_div(65, 64), 2);
  ASSERT_EQ(utils::ceil_div(-5, 2), -2);  // Python: -(-(-5) // 2) == -2
  ASSERT_THROWS_WITH(Error, utils::ceil_div(5, 0), "ceil_div divisor must be positive", "got 0");
  ASSERT_THROWS_WITH(Error, utils::ceil_div(5, -1), "got -1");
}

TEST(DispatchMath, floordiv_and_floormod_follow_python) {
  ASSERT_EQ(utils::floordiv(7, 2), 3);
  ASSERT_EQ(utils::floordiv(-7, 2), -4);
  ASSERT_EQ(utils::floordiv(7, -2), -4);
  ASSERT_EQ(utils::floormod(-7, 2), 1);
  ASSERT_EQ(utils::floormod(7, -2), -1);
  ASSERT_THROWS_WITH(Error, utils::floordiv(1, 0), "division by zero");
  ASSERT_THROWS_WITH(Error, utils::floormod(1, 0), "modulo by zero");
}

TEST(DispatchMath, elementwise_grid_is_one_dimensional_below_the_limit) {
  ASSERT_EQ(utils::elementwise_grid(0, 64, 65535), (Grid{1, 1, 1}));  // never a 0 grid
  ASSERT_EQ(utils::elementwise_grid(1, 64, 65535), (Grid{1, 1, 1}));
  ASSERT_EQ(utils::elementwise_grid(1000, 64, 65535), (Grid{16, 1, 1}));
  ASSERT_EQ(utils::elementwise_grid(65535LL * 64, 64, 65535), (Grid{65535, 1, 1}));
}

TEST(DispatchMath, elementwise_grid_spills_into_y_past_65535_workgroups) {
  // One workgroup more than fits in x: a second row.
  ASSERT_EQ(utils::elementwise_grid(65535LL * 64 + 1, 64, 65535), (Grid{65535, 2, 1}));
  // 2^32 invocations of 256: 16777216 groups = 257 rows of 65535.
  const Grid g = utils::elementwise_grid(1LL << 32, 256, 65535);
  ASSERT_EQ(g, (Grid{65535, 257, 1}));
  ASSERT_TRUE(int64_t{g.x} * g.y * 256 >= (1LL << 32));
  // A small limit exercises the same arithmetic.
  ASSERT_EQ(utils::elementwise_grid(10 * 64, 64, 4), (Grid{4, 3, 1}));
}

TEST(DispatchMath, elementwise_grid_rejects_what_two_dimensions_cannot_hold) {
  ASSERT_THROWS_WITH(Error, utils::elementwise_grid(65535LL * 65535 * 64 + 1, 64, 65535),
                     "exceed the 2-D dispatch limit");
  ASSERT_THROWS_WITH(Error, utils::elementwise_grid(-1, 64, 65535), "negative count -1");
}

TEST(DispatchMath, tiles_grid_covers_every_item) {
  ASSERT_EQ(utils::tiles_grid(100, 33, 2, 16, 16, 65535), (Grid{7, 3, 2}));
  ASSERT_EQ(utils::tiles_grid(0, 0, 0, 8, 8, 65535), (Grid{1, 1, 1}));
  ASSERT_EQ(utils::tiles_grid(64, 64, 1, 32, 32, 65535), (Grid{2, 2, 1}));
  ASSERT_THROWS_WITH(Error, utils::tiles_grid(16LL * 70000, 1, 1, 16, 16, 65535), "70000x1x1",
                     "per-dimension limit 65535");
}

TEST(DispatchMath, checked_narrowing) {
  ASSERT_EQ(utils::to_u32(0, "op", "n"), 0u);
  ASSERT_EQ(utils::to_u32(4294967295LL, "op", "n"), 4294967295u);
  ASSERT_THROWS_WITH(Error, utils::to_u32(4294967296LL, "add", "numel"),
                     "WebGPU add: numel does not fit u32 (got 4294967296, expected 0..4294967295)");
  ASSERT_THROWS_WITH(Error, utils::to_u32(-1, "add", "numel"), "got -1");
  ASSERT_EQ(utils::to_i32(-5, "op", "n"), -5);
  ASSERT_THROWS_WITH(Error, utils::to_i32(1LL << 31, "op", "offset"), "offset does not fit i32");
}

TEST(DispatchMath, parse_hw_and_broadcast) {
  ASSERT_TRUE(utils::parse_hw({3}, "conv", "stride") == (std::vector<int64_t>{3, 3}));
  ASSERT_TRUE(utils::parse_hw({1, 2}, "conv", "stride") == (std::vector<int64_t>{1, 2}));
  ASSERT_THROWS_WITH(Error, utils::parse_hw({1, 2, 3}, "conv", "stride"),
                     "WebGPU conv: stride must hold one or two values (got [1, 2, 3]");
  ASSERT_TRUE(utils::broadcast_shape({2, 1, 4}, {3, 1}) == (std::vector<int64_t>{2, 3, 4}));
  ASSERT_THROWS_WITH(Error, utils::broadcast_shape({2, 3}, {4}),
                     "shapes [2, 3] and [4] do not broadcast");
  ASSERT_TRUE(utils::broadcast_strides({3, 1}, {2, 3, 4}) == (std::vector<int64_t>{0, 1, 0}));
}
