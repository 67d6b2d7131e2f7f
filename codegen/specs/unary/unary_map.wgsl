// Every unary kernel maps each vec4 through its apply() (composed into their modules by
// opgen, after the shared entry point ../common/map_vec4s.wgsl). Vec is the kernel's
// alias for the vec4 type its bindings hold.

fn map_vec4(i: u32, x: Vec) -> Vec {
  return apply(x);
}
