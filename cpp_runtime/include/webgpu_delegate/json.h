// A small strict JSON reader (RFC 8259: no comments, no trailing commas, no
// duplicate keys, nothing after the document) for the op runner's case files.
// Every value remembers its path ($.values[2].dims) so accessor errors say
// which value was wrong, what was expected and what was found.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

namespace webgpu_delegate::json {

class Value {
 public:
  enum class Kind : uint8_t { Null, Bool, Number, String, Array, Object };
  using Members = std::vector<std::pair<std::string, Value>>;

  Kind kind() const { return kind_; }
  const std::string& path() const { return path_; }
  bool is_null() const { return kind_ == Kind::Null; }
  bool is_integer() const { return kind_ == Kind::Number && integer_; }

  // Accessors throw webgpu_delegate::Error naming the path on a kind mismatch.
  bool as_bool() const;
  double as_double() const;
  int64_t as_int() const;  // an integer literal (no fraction or exponent)
  const std::string& as_string() const;
  const std::vector<Value>& as_array() const;
  const Members& as_object() const;

  const Value* find(const std::string& key) const;  // null when absent
  const Value& at(const std::string& key) const;    // Error when absent
  // Error naming the first key that is not in `allowed`.
  void expect_keys(std::initializer_list<const char*> allowed) const;

 private:
  friend class Parser;
  Kind kind_ = Kind::Null;
  bool bool_ = false;
  bool integer_ = false;
  int64_t int_ = 0;
  double number_ = 0;
  std::string string_;
  std::vector<Value> array_;
  Members object_;
  std::string path_;
};

const char* kind_name(Value::Kind kind);

// Parses a whole document; errors name `source` and the line:column.
Value parse(const std::string& text, const std::string& source);

// `s` as a JSON string literal, quotes included.
std::string quote(const std::string& s);

}  // namespace webgpu_delegate::json
