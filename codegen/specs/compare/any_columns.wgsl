// any_columns: any() over the middle of an [outer, reduce, inner] view (inner > 1). Each
// invocation owns one output word: 4 consecutive outputs, whose inputs are mostly
// neighbours in memory, each scanned along the reduced dims until a non-zero element.

fn write_word(word: u32) {
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
