#include "wgsl_bindings.h"

#include <cctype>

#include "webgpu_delegate/utils.h"

namespace webgpu_delegate {
namespace {

bool is_ident_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

// Blanks out // and (nested) /* */ comments, keeping offsets.
std::string strip_comments(const std::string& src) {
  std::string out = src;
  size_t i = 0;
  while (i < out.size()) {
    if (out.compare(i, 2, "//") == 0) {
      while (i < out.size() && out[i] != '\n') out[i++] = ' ';
    } else if (out.compare(i, 2, "/*") == 0) {
      int depth = 0;
      do {
        if (out.compare(i, 2, "/*") == 0) {
          ++depth;
          out[i] = out[i + 1] = ' ';
          i += 2;
        } else if (out.compare(i, 2, "*/") == 0) {
          --depth;
          out[i] = out[i + 1] = ' ';
          i += 2;
        } else {
          if (out[i] != '\n') out[i] = ' ';
          ++i;
        }
      } while (depth > 0 && i < out.size());
    } else {
      ++i;
    }
  }
  return out;
}

// How many times `name` occurs in `src` as a whole identifier.
size_t count_identifier(const std::string& src, const std::string& name) {
  size_t n = 0;
  for (size_t pos = src.find(name); pos != std::string::npos; pos = src.find(name, pos + 1)) {
    const size_t end = pos + name.size();
    const bool starts = pos == 0 || !is_ident_char(src[pos - 1]);
    const bool ends = end == src.size() || !is_ident_char(src[end]);
    n += starts && ends ? 1 : 0;
  }
  return n;
}

std::string trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return {};
  size_t e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

// The integer inside `@<attr>(...)` within `attrs`, or -1 when absent.
long attribute_value(const std::string& attrs, const char* attr, const std::string& kernel) {
  const std::string key = std::string("@") + attr;
  size_t pos = 0;
  while ((pos = attrs.find(key, pos)) != std::string::npos) {
    size_t p = pos + key.size();
    if (p < attrs.size() && is_ident_char(attrs[p])) {  // e.g. @groupx
      pos = p;
      continue;
    }
    while (p < attrs.size() && std::isspace(static_cast<unsigned char>(attrs[p]))) ++p;
    const size_t close = attrs.find(')', p);
    if (p >= attrs.size() || attrs[p] != '(' || close == std::string::npos) break;
    const std::string text = trim(attrs.substr(p + 1, close - p - 1));
    size_t digits = 0;
    while (digits < text.size() && std::isdigit(static_cast<unsigned char>(text[digits]))) {
      ++digits;
    }
    // Integer literals may carry a `u` or `i` suffix.
    const bool suffix_ok = digits == text.size() || (digits + 1 == text.size() &&
                                                     (text.back() == 'u' || text.back() == 'i'));
    if (digits == 0 || !suffix_ok) {
      throw Error("WebGPU kernel " + kernel + ": " + key + "(" + text +
                  ") is not an integer literal (the runtime reads bindings from the WGSL)");
    }
    return std::stol(text.substr(0, digits));
  }
  return -1;
}

}  // namespace

const char* wgsl_binding_kind_name(WgslBinding::Kind kind) {
  switch (kind) {
    case WgslBinding::Kind::Uniform:
      return "var<uniform>";
    case WgslBinding::Kind::ReadOnlyStorage:
      return "var<storage, read>";
    case WgslBinding::Kind::Storage:
      return "var<storage, read_write>";
  }
  return "?";
}

std::vector<WgslBinding> parse_wgsl_bindings(const std::string& wgsl, const std::string& kernel) {
  const std::string src = strip_comments(wgsl);
  std::vector<WgslBinding> out;
  size_t pos = 0;
  while ((pos = src.find("var", pos)) != std::string::npos) {
    const size_t var_at = pos;
    pos += 3;
    if ((var_at > 0 && is_ident_char(src[var_at - 1])) ||
        (pos < src.size() && is_ident_char(src[pos]))) {
      continue;  // part of a longer identifier
    }
    // Attributes sit between the previous declaration's end and `var`.
    const size_t decl_start = src.find_last_of(";{}", var_at);
    const std::string attrs =
        src.substr(decl_start == std::string::npos ? 0 : decl_start + 1,
                   var_at - (decl_start == std::string::npos ? 0 : decl_start + 1));
    const long group = attribute_value(attrs, "group", kernel);
    const long binding = attribute_value(attrs, "binding", kernel);
    if (binding < 0 && group < 0) continue;  // a function-scope or private variable

    size_t p = pos;
    while (p < src.size() && std::isspace(static_cast<unsigned char>(src[p]))) ++p;
    const size_t colon = src.find(':', p);
    if (group < 0 || binding < 0 || p >= src.size() || src[p] != '<') {
      const std::string decl = trim(src.substr(var_at, std::min(colon, src.size()) - var_at));
      throw Error("WebGPU kernel " + kernel + ": resource '" + decl +
                  "' is not a buffer with @group and @binding (the runtime binds uniform and "
                  "storage buffers only)");
    }
    const size_t close = src.find('>', p);
    if (close == std::string::npos) {
      throw Error("WebGPU kernel " + kernel + ": unterminated var<...> declaration");
    }
    const std::string space_text = src.substr(p + 1, close - p - 1);
    const size_t comma = space_text.find(',');
    const std::string space = trim(space_text.substr(0, comma));
    const std::string access = comma == std::string::npos ? "" : trim(space_text.substr(comma + 1));

    WgslBinding b;
    b.group = static_cast<uint32_t>(group);
    b.binding = static_cast<uint32_t>(binding);
    size_t name_begin = close + 1;
    while (name_begin < src.size() && std::isspace(static_cast<unsigned char>(src[name_begin]))) {
      ++name_begin;
    }
    size_t name_end = name_begin;
    while (name_end < src.size() && is_ident_char(src[name_end])) ++name_end;
    b.name = src.substr(name_begin, name_end - name_begin);

    if (space == "uniform" && access.empty()) {
      b.kind = WgslBinding::Kind::Uniform;
    } else if (space == "storage" && (access.empty() || access == "read")) {
      b.kind = WgslBinding::Kind::ReadOnlyStorage;
    } else if (space == "storage" && access == "read_write") {
      b.kind = WgslBinding::Kind::Storage;
    } else {
      throw Error("WebGPU kernel " + kernel + ": binding " + std::to_string(binding) + " ('" +
                  b.name + "') has address space var<" + trim(space_text) +
                  ">, expected var<uniform>, var<storage, read> or var<storage, read_write>");
    }
    out.push_back(b);
    pos = close;
  }
  for (WgslBinding& b : out) b.referenced = count_identifier(src, b.name) > 1;
  return out;
}

}  // namespace webgpu_delegate
