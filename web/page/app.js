// The page of a site `opgen web` wrote: loads a model (models/<name>.json + .bin) into the
// WebAssembly delegate, runs it on its reference inputs (eager PyTorch's, when the site was
// written with --reference) or on random ones, and shows the outputs, their error against
// eager, the latency and the adapter. window.opgenPage is the same thing for scripts
// (tests/test_web.py drives it headless).
'use strict';

const $ = (id) => document.getElementById(id);
const state = {runtime: null, device: null, models: new Map(), index: null};

function fmt(v, digits = 4) {
  return typeof v === 'bigint' ? v.toString() : Number(v).toPrecision(digits);
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

async function adapterReport() {
  // the page's own view of the adapter, beside the device the runtime made
  const adapter = await navigator.gpu.requestAdapter();
  const info = adapter.info || {};
  const limits = {};
  for (const k of ['maxStorageBufferBindingSize', 'maxBufferSize', 'maxComputeWorkgroupStorageSize',
                   'maxComputeInvocationsPerWorkgroup', 'maxComputeWorkgroupsPerDimension',
                   'maxStorageBuffersPerShaderStage']) limits[k] = adapter.limits[k];
  return {vendor: info.vendor, architecture: info.architecture, device: info.device,
          description: info.description, type: info.type, backend: info.backend,
          isFallbackAdapter: info.isFallbackAdapter, features: [...adapter.features].sort(), limits};
}

async function init() {
  if (!navigator.gpu) throw new Error('this browser has no WebGPU (navigator.gpu is undefined)');
  state.runtime = await OpgenRuntime.create('webgpu_delegate.js');
  state.device = await state.runtime.openDevice();
  state.adapter = await adapterReport();
  const d = state.device.info, a = state.adapter;
  $('adapter').innerHTML =
    `<table><tr><th>device (runtime)</th><td>${d.describe}</td></tr>` +
    `<tr><th>adapter</th><td>${a.description || ''} · ${a.vendor || ''} ${a.architecture || ''}` +
    `${a.type ? ' · ' + a.type : ''}${a.backend ? ' · ' + a.backend : ''}</td></tr>` +
    `<tr><th>adapter features</th><td>${a.features.join(', ') || 'none'}</td></tr>` +
    `<tr><th>features the delegate uses</th><td>${d.features.join(', ') || 'none'}</td></tr>` +
    `<tr><th>limits (device)</th><td>${Object.entries(d.limits).map(([k, v]) => `${k} ${v}`).join('<br>')}</td></tr>` +
    `<tr><th>module</th><td>instantiated in ${state.runtime.instantiateMs.toFixed(0)} ms; device in ` +
    `${state.device.openMs.toFixed(0)} ms</td></tr></table>`;
  state.index = await (await fetch('models/index.json')).json();
  for (const m of state.index.models) $('model').add(new Option(`${m.name} (${m.source})`, m.name));
  return {device: d, adapter: a, models: state.index.models.map((m) => m.name)};
}

async function load(name) {
  if (!state.models.has(name)) {
    state.models.set(name, state.runtime.loadModel(state.device, `models/${name}`));
  }
  try {
    return await state.models.get(name);
  } catch (e) {
    state.models.delete(name);
    throw e;
  }
}

async function readReference(meta, kind) {
  return Promise.all(meta.reference[kind].map(async (r, i) => {
    const bytes = await (await fetch(`models/${r.file}`)).arrayBuffer();
    const dtype = kind === 'inputs' ? meta.inputs[i].dtype : meta.outputs[i].dtype;
    return {data: new OPGEN_DTYPES[dtype](bytes), dims: r.dims};
  }));
}

// Error against eager: max |got - want|, and that over max |want| (the output's scale).
function compare(got, want) {
  let err = 0, scale = 0;
  for (let i = 0; i < want.data.length; ++i) {
    const g = Number(got.data[i]), w = Number(want.data[i]);
    err = Math.max(err, Math.abs(g - w));
    scale = Math.max(scale, Math.abs(w));
  }
  return {max_abs_error: err, scale, relative: err / Math.max(scale, 1e-30)};
}

// Loads `name`, runs it `iters` times on its reference or random inputs; returns what the
// page shows: outputs (with data), errors against eager, times in ms; with `ort` (and a
// site written with --ort), the same on onnxruntime-web's WebGPU EP (ort_compare.js).
async function run(name, {iters = 10, inputs = 'reference', seed = 1, ort = false} = {}) {
  const t0 = performance.now();
  const model = await load(name);
  const loadMs = performance.now() - t0;
  const meta = model.meta;
  const useReference = inputs === 'reference' && meta.reference;
  const x = useReference ? await readReference(meta, 'inputs') : opgenRandomInputs(meta, seed);
  const first = await model.run(x);
  const times = [];
  let last = first;
  for (let k = 0; k < iters; ++k) {
    last = await model.run(x);
    times.push(last.ms);
  }
  const result = {name, inputs: useReference ? 'reference' : `random (seed ${seed})`,
                  load: Object.assign({total_ms: loadMs}, model.times), graph: model.info,
                  first_run_ms: first.ms, runs_ms: times, median_ms: median(times),
                  stats: last.stats, outputs: last.outputs};
  const want = useReference ? await readReference(meta, 'outputs') : null;
  if (want) result.errors = last.outputs.map((o, i) => compare(o, want[i]));
  if (ort && meta.onnx) {
    result.ort = await OrtCompare.run(name, meta, x, iters);
    result.ort.vs_delegate = result.ort.outputs.map((o, i) => compare(o, last.outputs[i]));
    if (want) result.ort.errors = result.ort.outputs.map((o, i) => compare(o, want[i]));
  }
  return result;
}

function show(r) {
  $('load').textContent =
    `${r.name}: ${r.graph.ops} ops, ${r.graph.dispatches} dispatches, ${r.graph.pipelines} pipelines; ` +
    `${r.graph.constant_dispatches} constant dispatches ran at load; the model file is ` +
    `${r.load.file_bytes} bytes, ${r.load.wasm_bytes} of them (header and graph) in wasm memory`;
  $('outputs').innerHTML = '<table><tr><th>#</th><th>dtype</th><th>dims</th><th>first values</th>' +
    (r.errors ? '<th>max abs error vs eager</th><th>relative to scale</th>' : '') + '</tr>' +
    r.outputs.map((o, i) => `<tr><td>${i}</td><td>${o.dtype}</td><td>[${o.dims.join(', ')}]</td>` +
      `<td class="mono">${Array.from(o.data.slice(0, 6), (v) => fmt(v)).join(', ')}…</td>` +
      (r.errors ? `<td>${r.errors[i].max_abs_error.toExponential(2)}</td><td>${r.errors[i].relative.toExponential(2)}</td>` : '') +
      '</tr>').join('') + '</table>' + `<p class="muted">inputs: ${r.inputs}</p>`;
  $('latency').innerHTML = '<table>' +
    `<tr><th>fetch model</th><td>${r.load.fetch_ms.toFixed(1)} ms</td></tr>` +
    `<tr><th>load (graph, pipelines, weights to GPU, constant dispatches)</th><td>${r.load.load_ms.toFixed(1)} ms</td></tr>` +
    `<tr><th>first run</th><td>${r.first_run_ms.toFixed(2)} ms</td></tr>` +
    `<tr><th>median of ${r.runs_ms.length} runs (inputs in, execute, outputs read back)</th><td>${r.median_ms.toFixed(2)} ms</td></tr>` +
    `<tr><th>last run, host split</th><td>record ${r.stats.record_ms.toFixed(2)} ms, submit ${r.stats.submit_ms.toFixed(2)} ms, ` +
    `wait ${r.stats.wait_ms.toFixed(2)} ms (${r.stats.dispatches} dispatches)</td></tr></table>` +
    `<p class="muted">Device: ${state.device.info.describe}${state.device.info.adapter_type === 'CPU' ?
      ' — a CPU device (e.g. SwiftShader): these times are not a GPU\'s.' : ''}</p>`;
  if (r.ort) {
    const o = r.ort, err = (e) => e ? e.map((x) => x.relative.toExponential(1)).join(', ') : '–';
    $('latency').innerHTML += `<table><tr><th></th><th>this delegate (wasm)</th><th>onnxruntime-web ${o.version} (WebGPU EP)</th></tr>` +
      `<tr><th>load</th><td>${r.load.load_ms.toFixed(0)} ms</td><td>${o.load_ms.toFixed(0)} ms (session)</td></tr>` +
      `<tr><th>first run</th><td>${r.first_run_ms.toFixed(1)} ms</td><td>${o.first_run_ms.toFixed(1)} ms</td></tr>` +
      `<tr><th>median of ${r.runs_ms.length} runs</th><td>${r.median_ms.toFixed(2)} ms</td><td>${o.median_ms.toFixed(2)} ms</td></tr>` +
      `<tr><th>error vs eager (relative to scale)</th><td>${err(r.errors)}</td><td>${err(o.errors)}</td></tr></table>` +
      `<p class="muted">onnxruntime-web compiles its shaders at the first run, this delegate at load.</p>`;
  }
}

// For scripts: outputs as base64 (Playwright moves JSON).
function portable(r) {
  const b64 = (a) => {
    const bytes = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
    let s = '';
    for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return btoa(s);
  };
  const out = Object.assign({}, r, {outputs: r.outputs.map((o) => ({dtype: o.dtype, dims: o.dims, data: b64(o.data)}))});
  if (r.ort) out.ort = Object.assign({}, r.ort, {outputs: r.ort.outputs.map((o) => ({dims: o.dims, data: b64(o.data)}))});
  return out;
}

const ready = init();
window.opgenPage = {
  ready: ready.then((info) => info),
  run: async (name, options) => { await ready; const r = await run(name, options); show(r); return portable(r); },
  load: async (name) => { await ready; const m = await load(name); return {info: m.info, times: m.times}; },
};

ready.then(() => {
  $('run').onclick = async () => {
    $('error').textContent = '';
    try {
      show(await run($('model').value, {iters: Number($('iters').value), inputs: $('inputs').value,
                                        seed: Number($('seed').value), ort: $('ort').checked}));
    } catch (e) {
      $('error').textContent = e.message;
    }
  };
  // ?manual: a script drives the page (window.opgenPage); otherwise run the first model
  if (state.index.models.length && !new URLSearchParams(location.search).has('manual')) $('run').click();
}, (e) => { $('error').textContent = e.message; $('adapter').textContent = ''; });
