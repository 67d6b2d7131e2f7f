// bitwise_not on 32-bit words, four words per vec4: int32 (and int64, which the graph
// holds as int32) flips every bit; bool (bitwise_not_bool: four 1-byte elements per word)
// gives 1 where a byte is 0 and 0 where it is not, so any non-zero byte reads as true.

// The entry point is in ../common/map_vec4s.wgsl (through unary_map.wgsl).
fn apply(x: vec4<u32>) -> vec4<u32> {
  if (BOOL_BYTES) {
    // bit 0 of each byte gathers the byte's eight bits (no shift crosses into bit 0 of
    // another byte), then the low bits are inverted
    var any = x | (x >> vec4<u32>(4u));
    any = any | (any >> vec4<u32>(2u));
    any = any | (any >> vec4<u32>(1u));
    return ~any & vec4<u32>(0x01010101u);
  }
  return ~x;
}
