// any_rows: any() over rows (the reduced dims are the innermost: inner == 1). One
// workgroup per output word: 4 rows of 64 lanes each, every lane striding over its row;
// a lane that meets a non-zero element sets its row's flag, and lane 0 packs the 4
// flags into the word (rows past the last are false).

const LANES: u32 = 64u;
const_assert WORKGROUP_SIZE_X == 4u * LANES;

var<workgroup> found: array<atomic<u32>, 4>;

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(local_invocation_id) lid: vec3<u32>,
        @builtin(workgroup_id) wid: vec3<u32>,
        @builtin(num_workgroups) num_workgroups: vec3<u32>) {
  let word = row_index(wid, num_workgroups);
  if (lid.x < 4u) {  // explicitly, before anyone may set a flag
    atomicStore(&found[lid.x], 0u);
  }
  workgroupBarrier();
  let row = 4u * word + lid.x / LANES;
  if (row < params.num_outputs) {
    let start = row * params.reduce;
    for (var r = lid.x % LANES; r < params.reduce; r += LANES) {
      let i = start + r;
      if (truthy(element_of(input[word_of(i, KIND)], i, KIND), KIND)) {
        atomicStore(&found[lid.x / LANES], 1u);
        break;
      }
    }
  }
  workgroupBarrier();
  if (lid.x == 0u && word < params.num_words) {
    output[word] = atomicLoad(&found[0]) | (atomicLoad(&found[1]) << 8u) |
                   (atomicLoad(&found[2]) << 16u) | (atomicLoad(&found[3]) << 24u);
  }
}
