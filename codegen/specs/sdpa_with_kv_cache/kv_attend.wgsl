// kv_attend: a prefill's attention of one query row against the cache, for a whole head
// group (the G query heads that share a key/value head, so every cached key and value is
// read once for them): 64 keys per step, an online softmax per head. Workgroup (b, kv
// head, s), over the row's whole context (one chunk; kv_decode splits a decode step's).
// Writes the running max, sum and unnormalized output per head; kv_combine normalizes.
// Every loop over heads runs to MAX_G and every loop over a step's keys to TILE (a key
// past the context reads the last one's row with probability 0), so they unroll and the
// per-head sums stay in registers.

const TILE: u32 = 64u;  // keys per step, one per thread in the score phase
const MAX_G: u32 = 8u;  // query heads per key/value head
const MAX_D: u32 = 128u;  // head_dim
const NEG_INF: f32 = -3.4e38;  // a finite floor: exp(NEG_INF - m) is 0, never NaN
const PARTS: u32 = 8u;  // threads per head in the max phase, TILE / PARTS keys each

var<workgroup> q_tile: array<vec4<f32>, 256>;  // [g][d / 4]: the group's scaled queries
var<workgroup> p_tile: array<f32, 512>;  // [g][key]: scores, then probabilities
var<workgroup> m_parts: array<f32, 64>;  // [g][part]: the step's largest scores
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
  let D4 = D / 4u;
  // keys this query row sees: causal up to its own position, else the whole context
  let last = select(params.start_pos + params.S, params.start_pos + s + 1u,
                    params.causal != 0u);
  for (var i = t; i < G * D4; i += TILE) {
    q_tile[i] = query_load(((b * params.S + s) * params.Hq + kvh * G) * D4 + i) * params.scale;
  }
  if (t < MAX_G) {
    m_tile[t] = NEG_INF;
  }
  var acc: array<vec2<f32>, MAX_G>;  // [g]: dims t and t + 64
  var l: array<f32, MAX_G>;
  workgroupBarrier();
  for (var k0 = 0u; k0 < last; k0 += TILE) {
    // scores: thread t takes key k0 + t for every head of the group, each key vec4 loaded
    // once for them
    let j = k0 + t;
    let kbase = ((b * params.S_max + min(j, last - 1u)) * params.Hk + kvh) * D4;
    // zeroed here each step: declared without a value in the loop body, it kept the
    // last step's sums (naga 29 on lavapipe: the second step's scores came out wrong)
    var dots: array<f32, MAX_G>;
    for (var g = 0u; g < MAX_G; g++) {
      dots[g] = 0.0;
    }
    for (var d4 = 0u; d4 < D4; d4++) {
      let k = key_cache_load(kbase + d4);
      for (var g = 0u; g < MAX_G; g++) {
        if (g < G) {
          dots[g] += dot(q_tile[g * D4 + d4], k);
        }
      }
    }
    for (var g = 0u; g < MAX_G; g++) {
      if (g < G) {
        p_tile[g * TILE + t] = select(NEG_INF, dots[g], j < last);
      }
    }
    workgroupBarrier();
    // the step's max per head: PARTS threads a head, then one
    if (t < G * PARTS) {
      let first = (t / PARTS) * TILE + (t % PARTS) * (TILE / PARTS);
      var m = NEG_INF;
      for (var i = 0u; i < TILE / PARTS; i++) {
        m = max(m, p_tile[first + i]);
      }
      m_parts[t] = m;
    }
    workgroupBarrier();
    // the new running max per head and the factor the old sums shrink by
    if (t < G) {
      var m = m_tile[t];
      for (var p = 0u; p < PARTS; p++) {
        m = max(m, m_parts[t * PARTS + p]);
      }
      alpha[t] = exp(m_tile[t] - m);
      m_tile[t] = m;
    }
    workgroupBarrier();
    for (var g = 0u; g < MAX_G; g++) {
      if (g < G) {
        p_tile[g * TILE + t] = select(0.0, exp(p_tile[g * TILE + t] - m_tile[g]), j < last);
      }
    }
    workgroupBarrier();
    // values: thread t takes dims t and t + 64 of every head, over the step's TILE keys
    for (var g = 0u; g < MAX_G; g++) {
      if (g < G) {
        acc[g] *= alpha[g];
        l[g] *= alpha[g];
      }
    }
    for (var i = 0u; i < TILE; i++) {
      let vbase = ((b * params.S_max + min(k0 + i, last - 1u)) * params.Hk + kvh) * D;
      let v = vec2<f32>(select(0.0, value_cache_load(vbase + min(t, D - 1u)), t < D),
                        select(0.0, value_cache_load(vbase + min(t + 64u, D - 1u)),
                               t + 64u < D));
      for (var g = 0u; g < MAX_G; g++) {
        if (g < G) {
          let p = p_tile[g * TILE + i];
          acc[g] += p * v;
          l[g] += p;
        }
      }
    }
    workgroupBarrier();
  }
  // the row's results, one slot per (b, s, query head)
  for (var g = 0u; g < MAX_G; g++) {
    if (g < G) {
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
}
