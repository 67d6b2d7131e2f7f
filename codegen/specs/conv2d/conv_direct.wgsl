// The entry point of the direct conv kernels (conv2d, conv2d_vec4, conv_transpose2d; composed
// into their modules by opgen): one invocation per output element, which the kernel's
// write_output(i, o) computes and stores, o saying where element i sits.

// Output element i = ((b * OC + oc) * OH + oh) * OW + ow: its coordinates, the channels
// per group and its group's first input channel.
struct OutputElement {
  b: u32,
  oc: u32,
  oh: u32,
  ow: u32,
  icpg: u32,
  ocpg: u32,
  ic0: u32,
}

fn output_element(i: u32) -> OutputElement {
  let icpg = params.IC / params.groups;
  let ocpg = params.OC / params.groups;
  let oc = i / (params.OW * params.OH) % params.OC;
  return OutputElement(i / (params.OW * params.OH * params.OC), oc, i / params.OW % params.OH,
                       i % params.OW, icpg, ocpg, oc / ocpg * icpg);
}

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, WORKGROUP_SIZE_Z)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) num_workgroups: vec3<u32>) {
  let i = linear_index(gid, num_workgroups);
  if (i < params.B * params.OC * params.OH * params.OW) {
    write_output(i, output_element(i));
  }
}
