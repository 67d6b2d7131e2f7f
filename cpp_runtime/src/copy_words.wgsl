// copy_words: the runtimes' flat copy (a Copy(...) in an op spec), 4 vec4s of 32-bit
// words per invocation, WORKGROUP_SIZE apart. A compute pass rather than
// copy_buffer_to_buffer: on the H200 (Vulkan) the buffer copy of 256 MB moved 838 GB/s,
// this kernel 4064 GB/s. Tensor buffers are whole vec4s, so the last vec4 may run past
// the copied bytes but never past either buffer.

struct Params {
  num_vec4: u32,
};
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> src: array<vec4<u32>>;
@group(0) @binding(2) var<storage, read_write> dst: array<vec4<u32>>;

const WORKGROUP_SIZE: u32 = 256u;
const VEC4_PER_INVOCATION: u32 = 4u;

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(@builtin(workgroup_id) workgroup: vec3<u32>,
        @builtin(local_invocation_index) lane: u32,
        @builtin(num_workgroups) num_workgroups: vec3<u32>) {
  let group = workgroup.y * num_workgroups.x + workgroup.x;
  let i0 = group * WORKGROUP_SIZE * VEC4_PER_INVOCATION + lane;
  let n = params.num_vec4;
  if (i0 >= n) {
    return;
  }
  let i1 = i0 + WORKGROUP_SIZE;
  let i2 = i1 + WORKGROUP_SIZE;
  let i3 = i2 + WORKGROUP_SIZE;
  // past the end: read the last vec4 again, store nothing
  let x0 = src[i0];
  let x1 = src[min(i1, n - 1u)];
  let x2 = src[min(i2, n - 1u)];
  let x3 = src[min(i3, n - 1u)];
  dst[i0] = x0;
  if (i1 < n) {
    dst[i1] = x1;
  }
  if (i2 < n) {
    dst[i2] = x2;
  }
  if (i3 < n) {
    dst[i3] = x3;
  }
}
