// kv_decode: a decode step's attention (one query row, S = 1) over one chunk of CHUNK
// cached keys for a whole head group (the G query heads that share a key/value head, so
// every cached row is read once for them): workgroup (b, kv head, chunk). Its 256 threads
// take PARTS threads per key for the scores (a slice of head_dim each), then one thread
// per (head, vec4 of head_dim) for the values over the chunk's keys: a thread's loads do
// not wait on each other, and no thread walks the context alone (kv_attend's prefill
// loop would, 64 keys deep). Writes the chunk's max, sum and unnormalized output per
// head; kv_combine merges the chunks.

const CHUNK: u32 = 32u;  // keys per workgroup
const PARTS: u32 = 8u;  // threads per key in the score phase (CHUNK * PARTS = 256)
const MAX_G: u32 = 8u;  // query heads per key/value head
const NEG_INF: f32 = -3.4e38;  // a finite floor: exp(NEG_INF - m) is 0, never NaN

var<workgroup> q_tile: array<vec4<f32>, 256>;  // [g][d / 4]: the group's scaled queries
var<workgroup> part_scores: array<f32, 2048>;  // [key][part][g]
var<workgroup> p_tile: array<f32, 256>;  // [g][key]: scores, then probabilities
var<workgroup> m_tile: array<f32, MAX_G>;  // the chunk's largest score per head

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(workgroup_id) wid: vec3<u32>,
        @builtin(local_invocation_index) t: u32,
        @builtin(num_workgroups) num_workgroups: vec3<u32>) {
  let row = row_index(wid, num_workgroups);
  // uniform control flow: the whole workgroup leaves together
  if (row >= params.B * params.Hk * params.chunks) {
    return;
  }
  let c = row % params.chunks;
  let kvh = (row / params.chunks) % params.Hk;
  let b = row / (params.chunks * params.Hk);
  let G = params.G;
  let D4 = params.D / 4u;
  let first = c * CHUNK;
  let count = min(CHUNK, params.start_pos + 1u - first);  // the chunk's keys, at least 1
  for (var i = t; i < G * D4; i += WORKGROUP_SIZE_X) {
    q_tile[i] = query_load((b * params.Hq + kvh * G) * D4 + i) * params.scale;
  }
  workgroupBarrier();
  // scores: thread t takes slice t % PARTS of key t / PARTS, for every head of the group
  let key = t / PARTS;
  let j = first + min(key, count - 1u);  // a key past the chunk reads a valid row, unused
  let kbase = ((b * params.S_max + j) * params.Hk + kvh) * D4;
  var dots: array<f32, MAX_G>;
  for (var d4 = t % PARTS; d4 < D4; d4 += PARTS) {
    let k = key_cache_load(kbase + d4);
    for (var g = 0u; g < G; g++) {
      dots[g] += dot(q_tile[g * D4 + d4], k);
    }
  }
  for (var g = 0u; g < G; g++) {
    part_scores[t * MAX_G + g] = dots[g];
  }
  workgroupBarrier();
  if (t < G * CHUNK) {  // head t / CHUNK, key t % CHUNK
    var score = NEG_INF;
    if (t % CHUNK < count) {
      score = 0.0;
      for (var p = 0u; p < PARTS; p++) {
        score += part_scores[((t % CHUNK) * PARTS + p) * MAX_G + t / CHUNK];
      }
    }
    p_tile[t] = score;
  }
  workgroupBarrier();
  if (t < G) {
    var m = NEG_INF;
    for (var k = 0u; k < CHUNK; k++) {
      m = max(m, p_tile[t * CHUNK + k]);
    }
    m_tile[t] = m;
  }
  workgroupBarrier();
  if (t < G * CHUNK) {
    p_tile[t] = select(0.0, exp(p_tile[t] - m_tile[t / CHUNK]), t % CHUNK < count);
  }
  workgroupBarrier();
  if (t < G * D4) {  // values: head t / D4, dims 4 * (t % D4) .. + 3
    let g = t / D4;
    let d4 = t % D4;
    var acc = vec4<f32>();
    var l = 0.0;
    for (var k = 0u; k < CHUNK; k++) {  // CHUNK, not count: the loop unrolls; p is 0 past it
      let jv = first + min(k, count - 1u);
      let p = p_tile[g * CHUNK + k];
      acc += p * value_cache_load(((b * params.S_max + jv) * params.Hk + kvh) * D4 + d4);
      l += p;
    }
    let slot = (b * params.Hq + kvh * G + g) * params.chunks + c;
    if (d4 == 0u) {
      stats[2u * slot] = m_tile[g];
      stats[2u * slot + 1u] = l;
    }
    let o = slot * params.D + 4u * d4;
    partial[o] = acc.x;
    partial[o + 1u] = acc.y;
    partial[o + 2u] = acc.z;
    partial[o + 3u] = acc.w;
  }
}
