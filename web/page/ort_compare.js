// The same model, inputs and timing on onnxruntime-web's WebGPU execution provider, in
// the same page and on the same adapter (a site written with `opgen web --ort` holds
// models/<name>.onnx, exported from the same factory, and ort/: the npm package's
// ort.webgpu.min.js and the wasm it loads). Timed as app.js times the delegate: session
// creation as the load, then one run, then the median of `iters` runs, each from input
// tensors in to output data read back.
'use strict';

const OrtCompare = (() => {
  let loading = null;
  const sessions = new Map();

  function ortScript() {
    if (!loading) {
      loading = new Promise((resolve, reject) => {
        const s = document.createElement('script');
        s.src = 'ort/ort.webgpu.min.js';
        s.onload = () => {
          ort.env.wasm.wasmPaths = new URL('ort/', location.href).href;
          ort.env.wasm.numThreads = 1;  // no cross-origin isolation: no wasm threads
          resolve(ort);
        };
        s.onerror = () => reject(new Error('ort/ort.webgpu.min.js did not load (write the site with opgen web --ort)'));
        document.head.appendChild(s);
      });
    }
    return loading;
  }

  const ORT_TYPES = {float32: 'float32', int64: 'int64', int32: 'int32', bool: 'bool', uint8: 'uint8'};

  async function session(name, meta) {
    if (!sessions.has(name)) {
      sessions.set(name, (async () => {
        await ortScript();
        const t0 = performance.now();
        const s = await ort.InferenceSession.create(`models/${meta.onnx}`,
                                                    {executionProviders: ['webgpu']});
        return {session: s, load_ms: performance.now() - t0};
      })());
    }
    return sessions.get(name);
  }

  async function runOnce(s, feeds) {
    const t0 = performance.now();
    const results = await s.run(feeds);
    const outputs = s.outputNames.map((n) => ({dims: results[n].dims, data: results[n].data}));
    return {outputs, ms: performance.now() - t0};
  }

  // inputs: [{data, dims}] as app.js gives the delegate
  async function run(name, meta, inputs, iters) {
    const {session: s, load_ms} = await session(name, meta);
    const feeds = {};
    s.inputNames.forEach((n, i) => {
      feeds[n] = new ort.Tensor(ORT_TYPES[meta.inputs[i].dtype], inputs[i].data, inputs[i].dims);
    });
    const first = await runOnce(s, feeds);
    const times = [];
    let last = first;
    for (let k = 0; k < iters; ++k) {
      last = await runOnce(s, feeds);
      times.push(last.ms);
    }
    const sorted = [...times].sort((a, b) => a - b);
    return {load_ms, first_run_ms: first.ms, runs_ms: times, median_ms: sorted[Math.floor(sorted.length / 2)],
            outputs: last.outputs, version: ort.env.versions.web};
  }

  return {run};
})();
