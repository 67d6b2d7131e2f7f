// kv_cache_write: the new keys and values into their caches at rows start_pos ..
// start_pos + S - 1: invocations [0, n) copy keys, [n, 2n) values.

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) num_workgroups: vec3<u32>) {
  let i = linear_index(gid, num_workgroups);
  if (i >= 2u * params.n) {
    return;
  }
  let is_key = i < params.n;
  let e = select(i - params.n, i, is_key);  // element of the [B, S, Hk, D] input
  let inner = params.Hk * params.D;
  let r = e % inner;
  let bs = e / inner;
  let s = bs % params.S;
  let b = bs / params.S;
  let at = (b * params.S_max + params.start_pos + s) * inner + r;
  if (is_key) {
    key_cache[at] = key[e];
  } else {
    value_cache[at] = value[e];
  }
}
