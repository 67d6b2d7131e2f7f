#include "webgpu_delegate/json.h"

#include <charconv>
#include <cstdio>
#include <cstring>

#include "webgpu_delegate/utils.h"

namespace webgpu_delegate::json {

const char* kind_name(Value::Kind kind) {
  switch (kind) {
    case Value::Kind::Null:
      return "null";
    case Value::Kind::Bool:
      return "a boolean";
    case Value::Kind::Number:
      return "a number";
    case Value::Kind::String:
      return "a string";
    case Value::Kind::Array:
      return "an array";
    case Value::Kind::Object:
      return "an object";
  }
  return "?";
}

namespace {

[[noreturn]] void kind_error(const Value& v, const char* expected) {
  throw Error("JSON " + v.path() + ": expected " + expected + ", got " + kind_name(v.kind()));
}

}  // namespace

bool Value::as_bool() const {
  if (kind_ != Kind::Bool) kind_error(*this, "a boolean");
  return bool_;
}

double Value::as_double() const {
  if (kind_ != Kind::Number) kind_error(*this, "a number");
  return number_;
}

int64_t Value::as_int() const {
  if (kind_ != Kind::Number) kind_error(*this, "an integer");
  if (!integer_) {
    throw Error("JSON " + path_ + ": expected an integer, got " + utils::format_value(number_));
  }
  return int_;
}

const std::string& Value::as_string() const {
  if (kind_ != Kind::String) kind_error(*this, "a string");
  return string_;
}

const std::vector<Value>& Value::as_array() const {
  if (kind_ != Kind::Array) kind_error(*this, "an array");
  return array_;
}

const Value::Members& Value::as_object() const {
  if (kind_ != Kind::Object) kind_error(*this, "an object");
  return object_;
}

const Value* Value::find(const std::string& key) const {
  for (const auto& [k, v] : as_object()) {
    if (k == key) return &v;
  }
  return nullptr;
}

const Value& Value::at(const std::string& key) const {
  const Value* v = find(key);
  if (!v) throw Error("JSON " + path_ + ": missing key \"" + key + "\"");
  return *v;
}

void Value::expect_keys(std::initializer_list<const char*> allowed) const {
  for (const auto& [k, v] : as_object()) {
    bool ok = false;
    for (const char* a : allowed) ok = ok || k == a;
    if (!ok) {
      std::string names;
      for (const char* a : allowed) names += std::string(names.empty() ? "" : ", ") + a;
      throw Error("JSON " + path_ + ": unknown key \"" + k + "\" (allowed: " + names + ")");
    }
  }
}

class Parser {
 public:
  Parser(const std::string& text, const std::string& source) : text_(text), source_(source) {}

  Value document() {
    Value v = value("$", 0);
    skip_space();
    if (pos_ != text_.size()) fail("unexpected text after the document");
    return v;
  }

 private:
  static constexpr int kMaxDepth = 200;

  [[noreturn]] void fail(const std::string& what) const {
    size_t line = 1, column = 1;
    for (size_t i = 0; i < pos_ && i < text_.size(); ++i) {
      if (text_[i] == '\n') {
        ++line;
        column = 1;
      } else {
        ++column;
      }
    }
    throw Error("JSON " + source_ + ":" + std::to_string(line) + ":" + std::to_string(column) +
                ": " + what);
  }

  void skip_space() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t' ||
                                   text_[pos_] == '\n' || text_[pos_] == '\r')) {
      ++pos_;
    }
  }

  bool consume(const char* word) {
    const size_t n = std::strlen(word);
    if (text_.compare(pos_, n, word) != 0) return false;
    pos_ += n;
    return true;
  }

  Value value(const std::string& path, int depth) {
    if (depth > kMaxDepth) fail("nesting deeper than " + std::to_string(kMaxDepth));
    skip_space();
    if (pos_ >= text_.size()) fail("unexpected end of input, expected a value");
    Value v;
    v.path_ = path;
    const char c = text_[pos_];
    if (c == '{') {
      v.kind_ = Value::Kind::Object;
      object(v, depth);
    } else if (c == '[') {
      v.kind_ = Value::Kind::Array;
      array(v, depth);
    } else if (c == '"') {
      v.kind_ = Value::Kind::String;
      v.string_ = string();
    } else if (consume("true")) {
      v.kind_ = Value::Kind::Bool;
      v.bool_ = true;
    } else if (consume("false")) {
      v.kind_ = Value::Kind::Bool;
    } else if (consume("null")) {
      v.kind_ = Value::Kind::Null;
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      v.kind_ = Value::Kind::Number;
      number(v);
    } else {
      fail(std::string("unexpected character '") + c + "', expected a value");
    }
    return v;
  }

  void object(Value& v, int depth) {
    ++pos_;  // {
    skip_space();
    if (pos_ < text_.size() && text_[pos_] == '}') {
      ++pos_;
      return;
    }
    while (true) {
      skip_space();
      if (pos_ >= text_.size() || text_[pos_] != '"') fail("expected a string key");
      const size_t key_at = pos_;
      std::string key = string();
      for (const auto& [k, unused] : v.object_) {
        if (k == key) {
          pos_ = key_at;
          fail("duplicate key \"" + key + "\"");
        }
      }
      skip_space();
      if (pos_ >= text_.size() || text_[pos_] != ':') fail("expected ':' after a key");
      ++pos_;
      Value member = value(v.path_ + "." + key, depth + 1);
      v.object_.emplace_back(std::move(key), std::move(member));
      skip_space();
      if (pos_ < text_.size() && text_[pos_] == ',') {
        ++pos_;
        continue;
      }
      if (pos_ < text_.size() && text_[pos_] == '}') {
        ++pos_;
        return;
      }
      fail("expected ',' or '}' in an object");
    }
  }

  void array(Value& v, int depth) {
    ++pos_;  // [
    skip_space();
    if (pos_ < text_.size() && text_[pos_] == ']') {
      ++pos_;
      return;
    }
    while (true) {
      v.array_.push_back(value(v.path_ + "[" + std::to_string(v.array_.size()) + "]", depth + 1));
      skip_space();
      if (pos_ < text_.size() && text_[pos_] == ',') {
        ++pos_;
        continue;
      }
      if (pos_ < text_.size() && text_[pos_] == ']') {
        ++pos_;
        return;
      }
      fail("expected ',' or ']' in an array");
    }
  }

  unsigned hex4() {
    if (pos_ + 4 > text_.size()) fail("truncated \\u escape");
    unsigned code = 0;
    for (int i = 0; i < 4; ++i) {
      const char h = text_[pos_++];
      code <<= 4;
      if (h >= '0' && h <= '9')
        code |= static_cast<unsigned>(h - '0');
      else if (h >= 'a' && h <= 'f')
        code |= static_cast<unsigned>(h - 'a' + 10);
      else if (h >= 'A' && h <= 'F')
        code |= static_cast<unsigned>(h - 'A' + 10);
      else
        fail("invalid hex digit in a \\u escape");
    }
    return code;
  }

  static void append_utf8(std::string& out, unsigned cp) {
    if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      out += static_cast<char>(0xC0 | (cp >> 6));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += static_cast<char>(0xE0 | (cp >> 12));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (cp >> 18));
      out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }

  std::string string() {
    ++pos_;  // "
    std::string out;
    while (true) {
      if (pos_ >= text_.size()) fail("unterminated string");
      const char c = text_[pos_++];
      if (c == '"') return out;
      if (static_cast<unsigned char>(c) < 0x20) {
        --pos_;
        fail("control character in a string (escape it)");
      }
      if (c != '\\') {
        out += c;
        continue;
      }
      if (pos_ >= text_.size()) fail("unterminated escape");
      const char e = text_[pos_++];
      switch (e) {
        case '"':
          out += '"';
          break;
        case '\\':
          out += '\\';
          break;
        case '/':
          out += '/';
          break;
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'n':
          out += '\n';
          break;
        case 'r':
          out += '\r';
          break;
        case 't':
          out += '\t';
          break;
        case 'u': {
          unsigned cp = hex4();
          if (cp >= 0xD800 && cp <= 0xDBFF) {
            if (!consume("\\u")) fail("a high surrogate without its low surrogate");
            const unsigned low = hex4();
            if (low < 0xDC00 || low > 0xDFFF) fail("invalid low surrogate");
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
          } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
            fail("a low surrogate without its high surrogate");
          }
          append_utf8(out, cp);
          break;
        }
        default:
          --pos_;
          fail(std::string("invalid escape '\\") + e + "'");
      }
    }
  }

  bool digit_at(size_t p) const { return p < text_.size() && text_[p] >= '0' && text_[p] <= '9'; }

  void number(Value& v) {
    const size_t start = pos_;
    if (text_[pos_] == '-') ++pos_;
    if (!digit_at(pos_)) fail("expected a digit");
    if (text_[pos_] == '0') {
      ++pos_;
      if (digit_at(pos_)) fail("leading zeros are not allowed");
    } else {
      while (digit_at(pos_)) ++pos_;
    }
    bool integer = true;
    if (pos_ < text_.size() && text_[pos_] == '.') {
      integer = false;
      ++pos_;
      if (!digit_at(pos_)) fail("expected a digit after '.'");
      while (digit_at(pos_)) ++pos_;
    }
    if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
      integer = false;
      ++pos_;
      if (pos_ < text_.size() && (text_[pos_] == '+' || text_[pos_] == '-')) ++pos_;
      if (!digit_at(pos_)) fail("expected a digit in the exponent");
      while (digit_at(pos_)) ++pos_;
    }
    const char* first = text_.data() + start;
    const char* last = text_.data() + pos_;
    auto d = std::from_chars(first, last, v.number_);
    if (d.ec != std::errc() || d.ptr != last) {
      pos_ = start;
      fail("number out of range");
    }
    if (integer) {
      auto i = std::from_chars(first, last, v.int_);
      if (i.ec != std::errc() || i.ptr != last) {
        pos_ = start;
        fail("integer out of the int64 range");
      }
      v.integer_ = true;
    }
  }

  const std::string& text_;
  const std::string& source_;
  size_t pos_ = 0;
};

Value parse(const std::string& text, const std::string& source) {
  return Parser(text, source).document();
}

std::string quote(const std::string& s) {
  std::string out = "\"";
  for (const char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(c));
          out += buf;
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

}  // namespace webgpu_delegate::json
