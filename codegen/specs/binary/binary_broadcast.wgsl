// binary_broadcast: out = lhs <OP> alpha * rhs with NumPy broadcasting. Dims are
// right-aligned into eight slots; a broadcast operand dim has stride 0.
// OP: 0 add, 1 sub, 2 mul (alpha is 1 for mul).

// @opgen-begin declarations: generated from the op spec by `opgen generate`, do not edit
struct Params {
  out_dims: array<vec4<u32>, 2>,
  self_strides: array<vec4<u32>, 2>,
  other_strides: array<vec4<u32>, 2>,
  alpha: f32,
  num_elements: u32,
};
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> lhs: array<f32>;
@group(0) @binding(2) var<storage, read> rhs: array<f32>;
@group(0) @binding(3) var<storage, read_write> output: array<f32>;
override OP: u32 = 0u;
const WORKGROUP_SIZE_X: u32 = 256u;
const WORKGROUP_SIZE_Y: u32 = 1u;
const WORKGROUP_SIZE_Z: u32 = 1u;
// The invocation's item index in a 1-D grid that may spill into y.
fn linear_index(gid: vec3<u32>, num_workgroups: vec3<u32>) -> u32 {
  return gid.y * num_workgroups.x * WORKGROUP_SIZE_X + gid.x;
}
// @opgen-end declarations

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) num_workgroups: vec3<u32>) {
  let i = linear_index(gid, num_workgroups);
  if (i >= params.num_elements) {
    return;
  }
  var rest = i;
  var a = 0u;
  var b = 0u;
  for (var d = 7i; d >= 0; d--) {
    let size = params.out_dims[d / 4][d % 4];
    let coord = rest % size;
    rest = rest / size;
    a += coord * params.self_strides[d / 4][d % 4];
    b += coord * params.other_strides[d / 4][d % 4];
  }
  let x = lhs[a];
  let y = rhs[b];
  var r: f32;
  switch OP {
    case 0u: { r = x + params.alpha * y; }
    case 1u: { r = x - params.alpha * y; }
    default: { r = x * y; }
  }
  output[i] = r;
}
