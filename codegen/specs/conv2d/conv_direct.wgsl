// Shared by the direct-dispatch conv kernels, one invocation per output element (emitted
// into their modules by opgen): where an output element sits.

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
