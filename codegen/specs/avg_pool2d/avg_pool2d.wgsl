// avg_pool2d: one invocation per output element sums its window (padded cells count as
// zeros) and divides by divisor_override, the window clipped to the padded input
// (count_include_pad) or the window clipped to the input, as torch does.

fn write_element(i: u32) {
  let ow = i % params.OW;
  let oh = (i / params.OW) % params.OH;
  let plane = i / (params.OW * params.OH);
  let base = plane * params.IH * params.IW;
  let IH = i32(params.IH);
  let IW = i32(params.IW);

  // the window, clipped to the padded input, then to the input
  let h0 = i32(oh * params.sH) - i32(params.pH);
  let w0 = i32(ow * params.sW) - i32(params.pW);
  let h1 = min(h0 + i32(params.kH), IH + i32(params.pH));
  let w1 = min(w0 + i32(params.kW), IW + i32(params.pW));
  let padded_size = (h1 - h0) * (w1 - w0);
  let ih0 = max(h0, 0);
  let iw0 = max(w0, 0);
  let ih1 = min(h1, IH);
  let iw1 = min(w1, IW);
  if (ih0 >= ih1 || iw0 >= iw1) {
    output_store(i, 0.0);
    return;
  }

  var sum = 0.0;
  for (var ih = ih0; ih < ih1; ih++) {
    let row = base + u32(ih * IW);
    for (var iw = iw0; iw < iw1; iw++) {
      sum += input_load(row + u32(iw));
    }
  }
  var divisor = params.divisor;
  if (divisor == 0) {
    divisor = select((ih1 - ih0) * (iw1 - iw0), padded_size, params.count_include_pad != 0u);
  }
  output_store(i, sum / f32(divisor));
}
