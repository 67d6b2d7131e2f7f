// A minimal test harness for the native tests (no test framework is installed):
// TEST(name) { ... } blocks, CHECK* macros, and a main() (check_main.cpp) that
// runs every test, or those named on the command line.
#pragma once

#include <functional>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace check {

struct Failure {
  std::string message;
};

struct TestCase {
  const char* name;
  void (*fn)();
};

inline std::vector<TestCase>& registry() {
  static std::vector<TestCase> tests;
  return tests;
}

inline bool add(const char* name, void (*fn)()) {
  registry().push_back({name, fn});
  return true;
}

[[noreturn]] inline void fail(const char* file, int line, const std::string& what) {
  std::ostringstream s;
  s << file << ":" << line << ": " << what;
  throw Failure{s.str()};
}

// Runs `fn`, expecting an exception of type E whose what() contains every
// string in `needles`.
template <class E>
void throws_with(const char* file, int line, const char* expr, const std::function<void()>& fn,
                 const std::vector<std::string>& needles) {
  try {
    fn();
  } catch (const E& e) {
    const std::string msg = e.what();
    for (const auto& n : needles) {
      if (msg.find(n) == std::string::npos) {
        fail(file, line, std::string(expr) + " threw \"" + msg + "\", which lacks \"" + n + "\"");
      }
    }
    return;
  }
  fail(file, line, std::string(expr) + " did not throw");
}

}  // namespace check

#define TEST(name)                                                \
  static void name();                                             \
  static const bool name##_registered = check::add(#name, &name); \
  static void name()

#define CHECK(cond)                                                          \
  do {                                                                       \
    if (!(cond)) check::fail(__FILE__, __LINE__, "CHECK(" #cond ") failed"); \
  } while (0)

#define CHECK_EQ(a, b)                                                                   \
  do {                                                                                   \
    const auto check_a_ = (a);                                                           \
    const auto check_b_ = (b);                                                           \
    if (!(check_a_ == check_b_)) {                                                       \
      std::ostringstream check_s_;                                                       \
      check_s_ << "CHECK_EQ(" #a ", " #b ") failed: " << check_a_ << " != " << check_b_; \
      check::fail(__FILE__, __LINE__, check_s_.str());                                   \
    }                                                                                    \
  } while (0)

// CHECK_THROWS(ExceptionType, expression, "substring", ...)
#define CHECK_THROWS(E, expr, ...) \
  check::throws_with<E>(__FILE__, __LINE__, #expr, [&]() { (void)(expr); }, {__VA_ARGS__})
