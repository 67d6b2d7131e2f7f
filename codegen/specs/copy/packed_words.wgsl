// The entry point and word assembly of the gathers of tensors whose elements are smaller
// than a u32 word: PER_WORD of them to a word, little-endian (4 bools of a byte each, 2
// halves), composed into their modules by opgen. Each invocation owns one output word and
// gathers its elements, so no two invocations write the same word. The kernel supplies
// elem_source(e), the input element that output element e reads, and the constants
// PER_WORD and ALIGNED (an override where the word's elements may be one aligned input
// word, copied whole; else false).

const ELEM_BITS: u32 = 32u / PER_WORD;
const ELEM_MASK: u32 = 0xffffffffu >> (32u - ELEM_BITS);

fn elem_at(i: u32) -> u32 {
  return (input[i / PER_WORD] >> (ELEM_BITS * (i % PER_WORD))) & ELEM_MASK;
}

// Output word w: elements PER_WORD * w.. that lie below num_elements, each from
// elem_source.
fn gathered_word(w: u32) -> u32 {
  let first = PER_WORD * w;
  var word = 0u;
  for (var j = 0u; j < PER_WORD && first + j < params.num_elements; j++) {
    word |= elem_at(elem_source(first + j)) << (ELEM_BITS * j);
  }
  return word;
}

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) num_workgroups: vec3<u32>) {
  let w = linear_index(gid, num_workgroups);
  if (PER_WORD * w >= params.num_elements) {
    return;
  }
  if (ALIGNED) {
    output[w] = input[elem_source(PER_WORD * w) / PER_WORD];
    return;
  }
  output[w] = gathered_word(w);
}
