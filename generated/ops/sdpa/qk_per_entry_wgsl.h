// @generated from codegen/specs/sdpa/qk_per_entry.wgsl - DO NOT EDIT.
// wgsl-sha256: dbc8183a7515fceddf3130553c061b5f1c564253d76bf79cc19321e2aa5817a7
#pragma once

#include <cstdint>

inline constexpr const char* kQkPerEntryWGSL =
    R"wgsl(// qk_per_entry: attn[b, h, s, c] = dot(q[b, h, s], k[b, h, c]) * scale (+ mask), one
// invocation per entry on a 2-D grid (x: key c, y: query s, z: b*h). Chosen when there are
// too few rows to fill the GPU with one thread per row (channel attention).

// @opgen-begin declarations: generated from the op spec by `opgen generate`, do not edit
struct Params {
  Sq: u32,
  Skv: u32,
  D4: u32,
  H: u32,
  num_rows: u32,
  scale: f32,
  has_mask: u32,
  mask_strides: vec4<u32>,
};
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> q: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> k: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read> mask: array<f32>;
@group(0) @binding(4) var<storage, read_write> attn: array<f32>;
const WORKGROUP_SIZE_X: u32 = 16u;
const WORKGROUP_SIZE_Y: u32 = 16u;
const WORKGROUP_SIZE_Z: u32 = 1u;
// @opgen-end declarations

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let c = gid.x;
  let s = gid.y;
  let bh = gid.z;
  if (c >= params.Skv || s >= params.Sq) {
    return;
  }
  let row = bh * params.Sq + s;
  let q_base = row * params.D4;
  let k_row = (bh * params.Skv + c) * params.D4;
  var acc = vec4<f32>(0.0);
  for (var d = 0u; d < params.D4; d++) {
    acc += q[q_base + d] * k[k_row + d];
  }
  var value = (acc.x + acc.y + acc.z + acc.w) * params.scale;
  if (params.has_mask != 0u) {
    let m = params.mask_strides;
    value += mask[(bh / params.H) * m.x + (bh % params.H) * m.y + s * m.z + c * m.w];
  }
  attn[row * params.Skv + c] = value;
}
)wgsl";

inline constexpr uint32_t kQkPerEntryWorkgroupSizeX = 16;
inline constexpr uint32_t kQkPerEntryWorkgroupSizeY = 16;
inline constexpr uint32_t kQkPerEntryWorkgroupSizeZ = 1;
