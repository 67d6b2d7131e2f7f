// The strict JSON reader behind the op runner: no device needed.
#include "check.h"
#include "webgpu_delegate/json.h"
#include "webgpu_delegate/utils.h"

using webgpu_delegate::Error;
namespace json = webgpu_delegate::json;

TEST(parses_every_kind) {
  const json::Value v = json::parse(
      R"({"a": [1, -2, 3.5, 1e3], "s": "x\"\\\/\n\u00e9\ud83d\ude00", "t": true, "f": false, "n": null, "o": {}})",
      "doc");
  const auto& a = v.at("a").as_array();
  CHECK_EQ(a.size(), 4u);
  CHECK_EQ(a[0].as_int(), 1);
  CHECK_EQ(a[1].as_int(), -2);
  CHECK_EQ(a[2].as_double(), 3.5);
  CHECK(!a[3].is_integer());
  CHECK_EQ(a[3].as_double(), 1000.0);
  CHECK_EQ(v.at("s").as_string(), std::string("x\"\\/\n\xc3\xa9\xf0\x9f\x98\x80"));
  CHECK(v.at("t").as_bool());
  CHECK(!v.at("f").as_bool());
  CHECK(v.at("n").is_null());
  CHECK(v.at("o").as_object().empty());
  CHECK_EQ(a[2].path(), std::string("$.a[2]"));
}

TEST(int64_limits_are_exact) {
  const json::Value v = json::parse("[9223372036854775807, -9223372036854775808]", "doc");
  CHECK_EQ(v.as_array()[0].as_int(), INT64_MAX);
  CHECK_EQ(v.as_array()[1].as_int(), INT64_MIN);
  CHECK_THROWS(Error, json::parse("9223372036854775808", "doc"), "integer out of the int64 range");
}

TEST(rejects_what_rfc8259_rejects) {
  CHECK_THROWS(Error, json::parse("[1, 2,]", "case.json"), "case.json:1:7", "expected a value");
  CHECK_THROWS(Error, json::parse("{\"a\": 1, \"a\": 2}", "doc"), "duplicate key \"a\"");
  CHECK_THROWS(Error, json::parse("[1] x", "doc"), "unexpected text after the document");
  CHECK_THROWS(Error, json::parse("// c\n1", "doc"), "unexpected character '/'");
  CHECK_THROWS(Error, json::parse("01", "doc"), "leading zeros");
  CHECK_THROWS(Error, json::parse("1.", "doc"), "expected a digit after '.'");
  CHECK_THROWS(Error, json::parse("\"a\nb\"", "doc"), "control character");
  CHECK_THROWS(Error, json::parse("\"\\x\"", "doc"), "invalid escape");
  CHECK_THROWS(Error, json::parse("\"\\ud800\"", "doc"), "high surrogate");
  CHECK_THROWS(Error, json::parse("{\"a\" 1}", "doc"), "expected ':'");
  CHECK_THROWS(Error, json::parse("", "doc"), "unexpected end of input");
  CHECK_THROWS(Error, json::parse("NaN", "doc"), "unexpected character 'N'");
  CHECK_THROWS(Error, json::parse(std::string(500, '['), "doc"), "nesting deeper than");
  CHECK_THROWS(Error, json::parse("\n  [1 2]", "doc"), "doc:2:6", "expected ',' or ']'");
}

TEST(accessors_name_the_path_expected_and_actual) {
  const json::Value v = json::parse(R"({"values": [{"dims": "2x3", "n": 1.5}]})", "doc");
  const json::Value& first = v.at("values").as_array()[0];
  CHECK_THROWS(Error, first.at("dims").as_array(),
               "$.values[0].dims: expected an array, got a string");
  CHECK_THROWS(Error, first.at("n").as_int(), "$.values[0].n: expected an integer, got 1.5");
  CHECK_THROWS(Error, first.at("type"), "$.values[0]: missing key \"type\"");
  CHECK_THROWS(Error, first.expect_keys({"dims"}), "unknown key \"n\" (allowed: dims)");
}

TEST(quote_round_trips) {
  const std::string s = "a\"b\\c\nd\x01";
  CHECK_EQ(json::parse(json::quote(s), "doc").as_string(), s);
}
