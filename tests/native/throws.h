// ASSERT_THROWS_WITH(ExceptionType, expression, "substring", ...): the expression throws an
// ExceptionType whose what() contains every substring (GoogleTest's own EXPECT_THROW checks
// the type only).
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace webgpu_test {

template <class E, class Fn>
::testing::AssertionResult throws_with(Fn&& fn, const std::vector<std::string>& needles) {
  try {
    fn();
  } catch (const E& e) {
    const std::string message = e.what();
    for (const std::string& needle : needles) {
      if (message.find(needle) == std::string::npos) {
        return ::testing::AssertionFailure()
               << "threw \"" << message << "\", which lacks \"" << needle << "\"";
      }
    }
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure() << "did not throw";
}

}  // namespace webgpu_test

#define ASSERT_THROWS_WITH(E, expr, ...) \
  ASSERT_TRUE(::webgpu_test::throws_with<E>([&]() { (void)(expr); }, {__VA_ARGS__})) << #expr
