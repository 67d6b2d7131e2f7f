// kv_attend: a prefill's attention of one query row against the cache, for a whole head
// group (the G query heads that share a key/value head, so every cached key and value is
// read once for them): 64 keys per step, an online softmax per head. Workgroup (b, kv
// head, s), over the row's whole context (one chunk; kv_decode splits a decode step's).
// Writes the running max, sum and unnormalized output per head; kv_combine normalizes.

const TILE: u32 = 64u;  // keys per step, one per thread in the score phase
const MAX_G: u32 = 8u;  // query heads per key/value head
const MAX_D: u32 = 128u;  // head_dim
const NEG_INF: f32 = -3.4e38;  // a finite floor: exp(NEG_INF - m) is 0, never NaN

var<workgroup> q_tile: array<f32, 1024>;  // [g][d] of the group's query heads
var<workgroup> p_tile: array<f32, 512>;  // [g][key]: scores, then probabilities
var<workgroup> m_tile: array<f32, MAX_G>;  // running max per head
var<workgroup> alpha: array<f32, MAX_G>;  // rescale of the old sums this step

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(workgroup_id) wid: vec3<u32>,
        @builtin(local_invocation_index) t: u32,
        @builtin(num_workgroups) num_workgroups: vec3<u32>) {
  let row = row_index(wid, num_workgroups);
  // uniform control flow: the whole workgroup leaves together
  if (row >= params.B * params.Hk * params.S) {
    return;
  }
  let s = row % params.S;
  let kvh = (row / params.S) % params.Hk;
  let b = row / (params.S * params.Hk);
  let G = params.G;
  let D = params.D;
  // keys this query row sees: causal up to its own position, else the whole context
  let seen = select(params.start_pos + params.S, params.start_pos + s + 1u, params.causal != 0u);
  let last = seen;
  for (var i = t; i < G * D; i += TILE) {
    let g = i / D;
    q_tile[i] = query_load(((b * params.S + s) * params.Hq + kvh * G + g) * D + i % D) *
                params.scale;
  }
  if (t < MAX_G) {
    m_tile[t] = NEG_INF;
  }
  var acc: array<vec2<f32>, MAX_G>;  // [g]: dims t and t + 64
  var l: array<f32, MAX_G>;
  workgroupBarrier();
  for (var k0 = 0u; k0 < last; k0 += TILE) {
    // scores: thread t takes key k0 + t for every head of the group
    let j = k0 + t;
    let kbase = ((b * params.S_max + j) * params.Hk + kvh) * D;
    for (var g = 0u; g < G; g++) {
      var score = NEG_INF;
      if (j < last) {
        score = 0.0;
        for (var d = 0u; d < D; d += 4u) {
          let kv = vec4<f32>(key_cache_load(kbase + d), key_cache_load(kbase + d + 1u),
                             key_cache_load(kbase + d + 2u), key_cache_load(kbase + d + 3u));
          let qv = vec4<f32>(q_tile[g * D + d], q_tile[g * D + d + 1u], q_tile[g * D + d + 2u],
                             q_tile[g * D + d + 3u]);
          score += dot(qv, kv);
        }
      }
      p_tile[g * TILE + t] = score;
    }
    workgroupBarrier();
    // the new max per head and the factor the old sums shrink by
    if (t < G) {
      var m = m_tile[t];
      for (var i = 0u; i < TILE; i++) {
        m = max(m, p_tile[t * TILE + i]);
      }
      alpha[t] = exp(m_tile[t] - m);
      m_tile[t] = m;
    }
    workgroupBarrier();
    for (var g = 0u; g < G; g++) {
      let p = select(0.0, exp(p_tile[g * TILE + t] - m_tile[g]), j < last);
      p_tile[g * TILE + t] = p;
    }
    workgroupBarrier();
    // values: thread t takes dims t and t + 64 of every head
    let count = min(TILE, last - k0);
    for (var g = 0u; g < G; g++) {
      acc[g] *= alpha[g];
      l[g] *= alpha[g];
    }
    for (var i = 0u; i < count; i++) {
      let vbase = ((b * params.S_max + k0 + i) * params.Hk + kvh) * D;
      let v = vec2<f32>(select(0.0, value_cache_load(vbase + t), t < D),
                        select(0.0, value_cache_load(vbase + t + 64u), t + 64u < D));
      for (var g = 0u; g < G; g++) {
        let p = p_tile[g * TILE + i];
        acc[g] += p * v;
        l[g] += p;
      }
    }
    workgroupBarrier();
  }
  // the row's results, one slot per (b, s, query head)
  for (var g = 0u; g < G; g++) {
    let slot = (b * params.S + s) * params.Hq + kvh * G + g;
    if (t == 0u) {
      stats[2u * slot] = m_tile[g];
      stats[2u * slot + 1u] = l[g];
    }
    if (t < D) {
      partial[slot * D + t] = acc[g].x;
    }
    if (t + 64u < D) {
      partial[slot * D + t + 64u] = acc[g].y;
    }
  }
}
