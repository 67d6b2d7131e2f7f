// adamw_step: one AdamW update of 4 elements per invocation, in the order of operations
// of ExecuTorch's reference (each scalar rounded to float32 as torch rounds it); param,
// m and v are updated in place and the results written to the outputs too.

fn write_element(i: u32) {
  let g = grad[i];
  let p = param[i] * params.decay;
  let new_m = m[i] * params.beta1 + params.one_minus_beta1 * g;
  let new_v = v[i] * params.beta2 + params.one_minus_beta2 * (g * g);
  let m_hat = new_m / params.bias_correction1;
  let denom = sqrt(new_v / params.bias_correction2) + params.eps;
  let new_p = p + params.neg_lr * (m_hat / denom);
  param[i] = new_p;
  m[i] = new_m;
  v[i] = new_v;
  param_out[i] = new_p;
  m_out[i] = new_m;
  v_out[i] = new_v;
}
