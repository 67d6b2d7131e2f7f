// linear_q4gsw's activations as given, for the GEMV kernels (`a` bound as vec4s).

// Input row m, elements 4 * k4 .. 4 * k4 + 3.
fn input4(m: u32, k4: u32) -> vec4<f32> {
  return a[m * (params.K / 4u) + k4];
}
