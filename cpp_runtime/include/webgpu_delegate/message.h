// Error messages: the delegate's one exception type, values written as the spec language
// writes them (codegen.language.expr.format_value), and message(), which every error text
// is built with. Header-only and device-free.
#pragma once

#include <charconv>
#include <cmath>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace webgpu_delegate {

// Every failure the delegate reports: bad inputs, failed guards, device errors.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

namespace utils {

// --- value formatting (identical to codegen.language.expr.format_value) ---------------
template <class T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool> &&
                                        !std::is_same_v<T, char>,
                                    int> = 0>
std::string format_value(T v) {
  return std::to_string(v);
}
inline std::string format_value(bool v) {
  return v ? "true" : "false";
}
inline std::string format_value(char c) {
  return std::string(1, c);
}
// As Python's repr(): the shortest round-trip digits, written in fixed notation for
// decimal exponents -4..15 (3000000000.0) and in scientific notation otherwise (1e+16).
inline std::string format_value(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[400];
  auto sci = std::to_chars(buf, buf + sizeof(buf), v, std::chars_format::scientific);
  std::string s(buf, sci.ptr);
  const int exponent = std::stoi(s.substr(s.find('e') + 1));
  if (exponent < -4 || exponent >= 16) return s;
  auto fixed = std::to_chars(buf, buf + sizeof(buf), v, std::chars_format::fixed);
  s.assign(buf, fixed.ptr);
  if (s.find('.') == std::string::npos) s += ".0";
  return s;
}
inline std::string format_value(const std::string& v) {
  return v;
}
inline std::string format_value(const char* v) {
  return v;
}
template <class T>
std::string format_value(const std::vector<T>& values) {
  std::string s = "[";
  for (size_t i = 0; i < values.size(); ++i) {
    if (i) s += ", ";
    s += format_value(values[i]);
  }
  return s + "]";
}

// Every error message is built here: the parts concatenated, text as it is and any other
// value as format_value writes it. message("value ", 3, " of ", dims) == "value 3 of [2, 4]"
template <class... Parts>
std::string message(const Parts&... parts) {
  std::string text;
  ((text += format_value(parts)), ...);
  return text;
}

// "WebGPU <op>: <argument> <what is wrong> (got <x>, expected <y>)"; `got` and `expected`
// are text or values (formatted as message() formats them).
template <class Got, class Expected>
[[noreturn]] void fail(const std::string& op, const std::string& argument, const std::string& what,
                       const Got& got, const Expected& expected) {
  throw Error(message("WebGPU ", op, ": ", argument, " ", what, " (got ", got, ", expected ",
                      expected, ")"));
}

}  // namespace utils
}  // namespace webgpu_delegate
