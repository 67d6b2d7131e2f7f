// Reading binding declarations out of WGSL (cpp_runtime/src/wgsl_bindings.h):
// no device needed.
#include "check.h"
#include "webgpu_delegate/utils.h"
#include "wgsl_bindings.h"

using webgpu_delegate::Error;
using webgpu_delegate::parse_wgsl_bindings;
using Kind = webgpu_delegate::WgslBinding::Kind;

TEST(reads_groups_bindings_and_access) {
  const auto b = parse_wgsl_bindings(R"(
// @group(0) @binding(9) var<storage, read> commented_out: array<f32>;
/* @group(0) @binding(8) var<uniform> also /* nested */ commented: P; */
struct P { n: u32 };
@group(0) @binding(2) var<uniform> params: P;
@binding(0) @group(0)
var<storage> a: array<f32>;
@group(0) @binding(1u) var<storage, read_write> out: array<atomic<u32>>;
var<private> scratch: f32;
var<workgroup> tile: array<f32, 64>;
fn f() { var local = 1.0; var<function> v: f32 = 2.0; }
)",
                                     "k");
  CHECK_EQ(b.size(), 3u);
  CHECK_EQ(b[0].binding, 2u);
  CHECK(b[0].kind == Kind::Uniform);
  CHECK_EQ(b[0].name, std::string("params"));
  CHECK_EQ(b[1].binding, 0u);
  CHECK(b[1].kind == Kind::ReadOnlyStorage);
  CHECK_EQ(b[1].name, std::string("a"));
  CHECK_EQ(b[2].binding, 1u);
  CHECK(b[2].kind == Kind::Storage);
  CHECK_EQ(b[2].name, std::string("out"));
}

TEST(knows_which_bindings_the_module_names_beyond_their_declaration) {
  const auto b = parse_wgsl_bindings(R"(
@group(0) @binding(0) var<storage, read> used: array<f32>;
@group(0) @binding(1) var<storage, read> unused: array<f32>;  // unused is never read
@group(0) @binding(2) var<storage, read_write> out: array<f32>;
fn f(i: u32) { let unused_too = 1.0; out[i] = used[i] /* + unused[i] */ + unused_too; }
)",
                                     "k");
  CHECK_EQ(b.size(), 3u);
  CHECK(b[0].referenced);
  CHECK(!b[1].referenced);  // comments and longer identifiers do not count
  CHECK(b[2].referenced);
}

TEST(rejects_resources_it_cannot_bind) {
  CHECK_THROWS(Error, parse_wgsl_bindings("@group(0) @binding(0) var t: texture_2d<f32>;", "img"),
               "WebGPU kernel img: resource 'var t' is not a buffer");
  CHECK_THROWS(Error, parse_wgsl_bindings("@group(0) @binding(N) var<uniform> p: P;", "k"),
               "@binding(N) is not an integer literal");
  CHECK_THROWS(Error,
               parse_wgsl_bindings("@group(0) @binding(0) var<storage, write> p: array<f32>;", "k"),
               "binding 0 ('p') has address space var<storage, write>");
}
