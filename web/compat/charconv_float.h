// Floating-point std::to_chars / std::from_chars for the browser build. Emscripten 3.1.6
// (Debian's) ships libc++ 13, which has them for integers only; the runtime uses the
// double overloads in utils.h (format_value: Python repr's shortest round-trip digits) and
// json.cpp (number parsing). Force-included by web/CMakeLists.txt (-include), and only
// where the library lacks them, so the runtime's sources stay as they are.
#pragma once

#include <charconv>

#if defined(_LIBCPP_VERSION) && _LIBCPP_VERSION < 14000

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <system_error>

namespace std {

// The shortest digits that read back as `v` ("%.*e" at growing precision: printf rounds
// correctly, so the first precision that round-trips gives the closest shortest digits),
// in scientific notation ("1.5e+16", the form to_chars writes) or in fixed notation.
inline to_chars_result to_chars(char* first, char* last, double v, chars_format fmt) {
  char sci[40];
  for (int precision = 0; precision <= 17; ++precision) {
    std::snprintf(sci, sizeof sci, "%.*e", precision, v);
    if (std::strtod(sci, nullptr) == v) break;
  }
  std::string out;
  if (fmt == chars_format::scientific || v != v || v - v != 0) {  // nan / inf as printf has them
    out = sci;
  } else {
    const char* p = sci;
    if (*p == '-') out += *p++;
    std::string digits;
    for (; *p && *p != 'e'; ++p) {
      if (*p != '.') digits += *p;
    }
    const int exponent = std::atoi(p + 1);
    if (exponent >= 0) {
      const size_t whole = static_cast<size_t>(exponent) + 1;
      if (digits.size() <= whole) {
        out += digits + std::string(whole - digits.size(), '0');
      } else {
        out += digits.substr(0, whole) + "." + digits.substr(whole);
      }
    } else {
      out += "0." + std::string(static_cast<size_t>(-exponent - 1), '0') + digits;
    }
  }
  if (static_cast<size_t>(last - first) < out.size()) return {last, errc::value_too_large};
  std::memcpy(first, out.data(), out.size());
  return {first + out.size(), errc()};
}

// General-format decimal parsing through strtod; a result beyond double's range (either
// way) is result_out_of_range, as the library's from_chars reports it.
inline from_chars_result from_chars(const char* first, const char* last, double& value) {
  const std::string text(first, last);
  char* end = nullptr;
  errno = 0;
  const double parsed = std::strtod(text.c_str(), &end);
  if (end == text.c_str()) return {first, errc::invalid_argument};
  if (errno == ERANGE) return {first + (end - text.c_str()), errc::result_out_of_range};
  value = parsed;
  return {first + (end - text.c_str()), errc()};
}

}  // namespace std

#endif
