// any_columns: any() over the middle of an [outer, reduce, inner] view (inner > 1). Each
// invocation owns one output word: 4 consecutive outputs, whose inputs are mostly
// neighbours in memory, each scanned along the reduced dims until a non-zero element.

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) num_workgroups: vec3<u32>) {
  let word = linear_index(gid, num_workgroups);
  if (word >= params.num_words) {
    return;
  }
  var result = vec4<bool>(false);
  for (var j = 0u; j < 4u; j++) {
    let t = 4u * word + j;
    if (t >= params.num_outputs) {
      break;
    }
    let start = (t / params.inner) * params.reduce * params.inner + t % params.inner;
    for (var r = 0u; r < params.reduce; r++) {
      let i = start + r * params.inner;
      if (truthy(element_of(input[word_of(i, KIND)], i, KIND), KIND)) {
        result[j] = true;
        break;
      }
    }
  }
  output[word] = pack_bools(result);
}
