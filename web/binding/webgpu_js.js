// The JS half of the project's binding of webgpu.h (the modern header of the pinned wgpu
// package, the one the native build compiles against) onto the browser's navigator.gpu,
// as an emscripten --js-library: the 51 wgpu* functions the runtime (cpp_runtime/) and
// the generated handlers call, nothing else. This file: the shared state and helpers,
// instance, adapter and device, and the asynchronous calls; webgpu_js_objects.js: the
// resources, commands and releases. Handles are
// integer ids into WGPUJS.objs (0 is null). Descriptors are read, and the adapter's info
// and limits written, at the offsets gen_layout.c took from the header ($WGPUL).
//
// ABI facts (wasm32, -sWASM_BIGINT): a struct passed by value (callback infos, the
// WGPUAdapterInfo of wgpuAdapterInfoFreeMembers) arrives as a pointer to a copy; uint64_t
// arrives as a BigInt; a function returning WGPUFuture or uint64_t returns i64, so a
// BigInt; size_t and pointers arrive as signed i32 (use >>> 0).
//
// Asynchronous calls return a WGPUFuture and queue a completion when the JS promise
// settles; wgpuInstanceProcessEvents, the only Asyncify import, fires the queued
// completions (the runtime's waits spin on it: Device::wait_until), after unwinding to the
// browser's event loop when none is queued yet. Callbacks are never called while the
// wasm stack is unwound, and always with the webgpu.h signature, through web/binding/glue.c.
(function() {  // library files are evaluated in the compiler's scope: keep names local
var lib = {
  $WGPUJS__deps: ['$WGPUL', 'malloc', 'free'],
  $WGPUJS: {
    objs: [null],
    events: [],  // completions: closures that call a C callback
    wake: null,  // set while wgpuInstanceProcessEvents sleeps
    futures: 0,
    // waits that unwound to the event loop and their time (Module.wgpujsStats, for reports)
    stats: {sleeps: 0, sleep_ms: 0, callbacks: 0},
    add: function(o) { WGPUJS.objs.push(o); return WGPUJS.objs.length - 1; },
    get: function(id) {
      var o = WGPUJS.objs[id];
      if (!o) throw new Error('WebGPU binding: handle ' + id + ' is null or released');
      return o;
    },
    u32: function(p) { return HEAPU32[p >> 2]; },
    u64: function(p) {  // as a Number; all ones (WGPU_WHOLE_SIZE, *_UNDEFINED) -> undefined
      var lo = HEAPU32[p >> 2], hi = HEAPU32[(p + 4) >> 2];
      return (lo === 0xFFFFFFFF && hi === 0xFFFFFFFF) ? undefined : hi * 4294967296 + lo;
    },
    setU64: function(p, v) {
      HEAPU32[p >> 2] = v % 4294967296;
      HEAPU32[(p + 4) >> 2] = Math.floor(v / 4294967296);
    },
    str: function(p) {  // WGPUStringView at p -> string, or undefined for the null view
      var data = HEAPU32[(p + WGPUL.SV_data) >> 2], len = HEAPU32[(p + WGPUL.SV_length) >> 2];
      if (!data) return len === WGPUL.STRLEN ? undefined : '';
      return UTF8ToString(data, len === WGPUL.STRLEN ? undefined : len);
    },
    label: function(d, offset) {  // a descriptor's label, for the browser's error messages
      var s = d ? WGPUJS.str(d + offset) : undefined;
      return s === undefined ? {} : {label: s};
    },
    // Writes s as a malloc'd UTF-8 WGPUStringView at p (freed by wgpuAdapterInfoFreeMembers).
    setStr: function(p, s) {
      s = s || '';
      var n = lengthBytesUTF8(s), data = _malloc(n + 1);
      stringToUTF8(s, data, n + 1);
      HEAPU32[(p + WGPUL.SV_data) >> 2] = data;
      HEAPU32[(p + WGPUL.SV_length) >> 2] = n;
    },
    withString: function(s, f) {  // f(ptr, byteLength) with s as UTF-8 in the wasm heap
      s = String(s);
      var n = lengthBytesUTF8(s), p = _malloc(n + 1);
      stringToUTF8(s, p, n + 1);
      try { f(p, n); } finally { _free(p); }
    },
    event: function(fire) {  // queue a completion; wake a sleeping ProcessEvents
      WGPUJS.events.push(fire);
      if (WGPUJS.wake) WGPUJS.wake();
    },
    future: function() { return BigInt(++WGPUJS.futures); },
    // (callback, userdata1, userdata2) of a callback info struct at p
    callbackInfo: function(p, cb, u1, u2) {
      return [WGPUJS.u32(p + cb), WGPUJS.u32(p + u1), WGPUJS.u32(p + u2)];
    },
    readLimits: function(p, adapterLimits) {  // WGPULimits at p -> requiredLimits
      var out = {};
      for (var name in WGPUL.limits) {
        var at = p + WGPUL.limits[name][0];
        var v = WGPUL.limits[name][1] === 8 ? WGPUJS.u64(at) : WGPUJS.u32(at);
        if (v === undefined || v === WGPUL.LIMIT_U32_UNDEFINED) continue;
        // only what this browser knows: an unknown limit name fails requestDevice
        if (adapterLimits[name] !== undefined) out[name] = v;
      }
      return out;
    },
    writeLimits: function(p, limits) {  // GPUSupportedLimits -> WGPULimits at p
      for (var name in WGPUL.limits) {
        if (limits[name] === undefined) continue;  // left as the caller's INIT value
        var at = p + WGPUL.limits[name][0];
        if (WGPUL.limits[name][1] === 8) WGPUJS.setU64(at, limits[name]);
        else HEAPU32[at >> 2] = limits[name];
      }
      return WGPUL.Status_Success;
    },
    hasFeature: function(set, feature) {
      var name = WGPUL.features[feature];
      return name !== undefined && set.has(name) ? 1 : 0;
    },
    bindingTypes: function() {
      var kinds = {};
      kinds[WGPUL.BBT_Undefined] = 'uniform';
      kinds[WGPUL.BBT_Uniform] = 'uniform';
      kinds[WGPUL.BBT_Storage] = 'storage';
      kinds[WGPUL.BBT_ReadOnlyStorage] = 'read-only-storage';
      return kinds;
    },
    errorType: function(e) {
      return !e ? WGPUL.ErrorType_NoError
           : e instanceof GPUValidationError ? WGPUL.ErrorType_Validation
           : e instanceof GPUOutOfMemoryError ? WGPUL.ErrorType_OutOfMemory
           : e instanceof GPUInternalError ? WGPUL.ErrorType_Internal : WGPUL.ErrorType_Unknown;
    },
  },

  // --- instance, adapter, device -----------------------------------------------------------
  wgpuCreateInstance: function(desc) {
    if (!navigator.gpu) throw new Error('WebGPU is not available in this browser (navigator.gpu is undefined)');
    if (WGPUL.Usage_Storage !== GPUBufferUsage.STORAGE || WGPUL.Usage_MapRead !== GPUBufferUsage.MAP_READ ||
        WGPUL.Usage_QueryResolve !== GPUBufferUsage.QUERY_RESOLVE ||
        WGPUL.Stage_Compute !== GPUShaderStage.COMPUTE || WGPUL.MapMode_Read !== GPUMapMode.READ)
      throw new Error('WebGPU binding: webgpu.h flag bits differ from the browser\'s');
    Module['wgpujsStats'] = WGPUJS.stats;
    return WGPUJS.add({instance: true});
  },
  wgpuInstanceRequestAdapter: function(instance, options, info) {
    var cb = WGPUJS.callbackInfo(info, WGPUL.RACB_callback, WGPUL.RACB_userdata1, WGPUL.RACB_userdata2);
    var opts = {};
    if (options) {
      var power = WGPUJS.u32(options + WGPUL.RAOpts_powerPreference);
      if (power === WGPUL.Power_LowPower) opts.powerPreference = 'low-power';
      if (power === WGPUL.Power_HighPerformance) opts.powerPreference = 'high-performance';
      opts.forceFallbackAdapter = !!WGPUJS.u32(options + WGPUL.RAOpts_forceFallback);
      var backend = WGPUJS.u32(options + WGPUL.RAOpts_backendType);
      if (backend !== WGPUL.Backend_Undefined && backend !== WGPUL.Backend_WebGPU) {
        WGPUJS.event(function() {
          WGPUJS.withString('the browser\'s WebGPU is the only backend', function(p, n) {
            _wgpujs_call_adapter_cb(cb[0], WGPUL.RAStatus_Unavailable, 0, p, n, cb[1], cb[2]);
          });
        });
        return WGPUJS.future();
      }
    }
    var fire = function(status, adapter, message) {
      WGPUJS.event(function() {
        WGPUJS.withString(message, function(p, n) {
          _wgpujs_call_adapter_cb(cb[0], status, adapter, p, n, cb[1], cb[2]);
        });
      });
    };
    navigator.gpu.requestAdapter(opts).then(function(adapter) {
      if (adapter) fire(WGPUL.RAStatus_Success, WGPUJS.add(adapter), '');
      else fire(WGPUL.RAStatus_Unavailable, 0, 'navigator.gpu.requestAdapter() returned null');
    }, function(e) { fire(WGPUL.RAStatus_Error, 0, String(e)); });
    return WGPUJS.future();
  },
  wgpuAdapterGetInfo: function(adapter, out) {
    var info = WGPUJS.get(adapter).info || {};
    WGPUJS.setStr(out + WGPUL.Info_vendor, info.vendor);
    WGPUJS.setStr(out + WGPUL.Info_architecture, info.architecture);
    WGPUJS.setStr(out + WGPUL.Info_device, info.device);
    WGPUJS.setStr(out + WGPUL.Info_description, info.description);
    HEAPU32[(out + WGPUL.Info_backendType) >> 2] = WGPUL.Backend_WebGPU;
    // Chromium names the adapter type with --enable-webgpu-developer-features (info.type)
    var type = String(info.type || '').toLowerCase();
    HEAPU32[(out + WGPUL.Info_adapterType) >> 2] =
        type.indexOf('cpu') >= 0 ? WGPUL.AdapterType_CPU
      : type.indexOf('discrete') >= 0 ? WGPUL.AdapterType_DiscreteGPU
      : type.indexOf('integrated') >= 0 ? WGPUL.AdapterType_IntegratedGPU : WGPUL.AdapterType_Unknown;
    HEAPU32[(out + WGPUL.Info_vendorID) >> 2] = 0;
    HEAPU32[(out + WGPUL.Info_deviceID) >> 2] = 0;
    return WGPUL.Status_Success;
  },
  wgpuAdapterInfoFreeMembers: function(info) {  // by value: a pointer to a copy
    [WGPUL.Info_vendor, WGPUL.Info_architecture, WGPUL.Info_device, WGPUL.Info_description]
      .forEach(function(f) { _free(HEAPU32[(info + f + WGPUL.SV_data) >> 2]); });
  },
  wgpuAdapterGetLimits: function(adapter, out) { return WGPUJS.writeLimits(out, WGPUJS.get(adapter).limits); },
  wgpuDeviceGetLimits: function(device, out) { return WGPUJS.writeLimits(out, WGPUJS.get(device).limits); },
  wgpuAdapterHasFeature: function(adapter, f) { return WGPUJS.hasFeature(WGPUJS.get(adapter).features, f); },
  wgpuDeviceHasFeature: function(device, f) { return WGPUJS.hasFeature(WGPUJS.get(device).features, f); },
  wgpuAdapterRequestDevice: function(adapterId, d, info) {
    var adapter = WGPUJS.get(adapterId);
    var cb = WGPUJS.callbackInfo(info, WGPUL.RDCB_callback, WGPUL.RDCB_userdata1, WGPUL.RDCB_userdata2);
    var desc = {}, lost = [0, 0, 0], uncaptured = [0, 0, 0];
    if (d) {
      desc = WGPUJS.label(d, WGPUL.DevDesc_label);
      var n = WGPUJS.u32(d + WGPUL.DevDesc_featureCount), f = WGPUJS.u32(d + WGPUL.DevDesc_features);
      desc.requiredFeatures = [];
      for (var i = 0; i < n; ++i) {
        var name = WGPUL.features[WGPUJS.u32(f + 4 * i)];
        if (name === undefined) throw new Error('wgpuAdapterRequestDevice: unknown feature ' + WGPUJS.u32(f + 4 * i));
        desc.requiredFeatures.push(name);
      }
      var limits = WGPUJS.u32(d + WGPUL.DevDesc_limits);
      if (limits) desc.requiredLimits = WGPUJS.readLimits(limits, adapter.limits);
      lost = WGPUJS.callbackInfo(d, WGPUL.DevDesc_lost_callback, WGPUL.DevDesc_lost_userdata1, WGPUL.DevDesc_lost_userdata2);
      uncaptured = WGPUJS.callbackInfo(d, WGPUL.DevDesc_error_callback, WGPUL.DevDesc_error_userdata1, WGPUL.DevDesc_error_userdata2);
    }
    var fire = function(status, device, message) {
      WGPUJS.event(function() {
        WGPUJS.withString(message, function(p, n) {
          _wgpujs_call_device_cb(cb[0], status, device, p, n, cb[1], cb[2]);
        });
      });
    };
    adapter.requestDevice(desc).then(function(device) {
      var id = WGPUJS.add(device);
      if (uncaptured[0]) {
        device.addEventListener('uncapturederror', function(e) {
          WGPUJS.event(function() {
            if (device.released) return;
            WGPUJS.withString(e.error.message, function(p, n) {
              _wgpujs_call_error_cb(uncaptured[0], id, WGPUJS.errorType(e.error), p, n, uncaptured[1], uncaptured[2]);
            });
          });
        });
      }
      device.lost.then(function(why) {
        // a device the runtime released is gone with its callbacks (its owner may be too)
        if (!lost[0] || device.released) return;
        WGPUJS.event(function() {
          if (device.released) return;
          WGPUJS.withString(why.message, function(p, n) {
            _wgpujs_call_lost_cb(lost[0], id, why.reason === 'destroyed' ? WGPUL.LostReason_Destroyed
                                 : WGPUL.LostReason_Unknown, p, n, lost[1], lost[2]);
          });
        });
      });
      fire(WGPUL.RDStatus_Success, id, '');
    }, function(e) { fire(WGPUL.RDStatus_Error, 0, String(e)); });
    return WGPUJS.future();
  },
  wgpuDeviceGetQueue: function(dev) { return WGPUJS.add(WGPUJS.get(dev).queue); },

  // --- asynchronous calls ------------------------------------------------------------------------
  wgpuDevicePushErrorScope: function(dev, filter) {
    var names = {};
    names[WGPUL.ErrorFilter_Validation] = 'validation';
    names[WGPUL.ErrorFilter_OutOfMemory] = 'out-of-memory';
    names[WGPUL.ErrorFilter_Internal] = 'internal';
    WGPUJS.get(dev).pushErrorScope(names[filter]);
  },
  wgpuDevicePopErrorScope: function(dev, info) {
    var cb = WGPUJS.callbackInfo(info, WGPUL.PopCB_callback, WGPUL.PopCB_userdata1, WGPUL.PopCB_userdata2);
    var fire = function(status, type, message) {
      WGPUJS.event(function() {
        WGPUJS.withString(message, function(p, n) { _wgpujs_call_pop_cb(cb[0], status, type, p, n, cb[1], cb[2]); });
      });
    };
    WGPUJS.get(dev).popErrorScope().then(function(e) {
      fire(WGPUL.PopStatus_Success, WGPUJS.errorType(e), e ? e.message : '');
    }, function(e) { fire(WGPUL.PopStatus_Error, 0, String(e)); });
    return WGPUJS.future();
  },
  wgpuBufferMapAsync: function(buf, mode, offset, size, info) {
    var cb = WGPUJS.callbackInfo(info, WGPUL.MapCB_callback, WGPUL.MapCB_userdata1, WGPUL.MapCB_userdata2);
    size = size >>> 0;  // WGPU_WHOLE_MAP_SIZE is SIZE_MAX
    WGPUJS.get(buf).mapAsync(Number(mode), offset >>> 0, size === 0xFFFFFFFF ? undefined : size).then(
      function() { WGPUJS.event(function() { _wgpujs_call_map_cb(cb[0], WGPUL.MapStatus_Success, 0, 0, cb[1], cb[2]); }); },
      function(e) {
        WGPUJS.event(function() {
          WGPUJS.withString(e, function(p, n) { _wgpujs_call_map_cb(cb[0], WGPUL.MapStatus_Error, p, n, cb[1], cb[2]); });
        });
      });
    return WGPUJS.future();
  },
  wgpuQueueOnSubmittedWorkDone: function(queue, info) {
    var cb = WGPUJS.callbackInfo(info, WGPUL.DoneCB_callback, WGPUL.DoneCB_userdata1, WGPUL.DoneCB_userdata2);
    WGPUJS.get(queue).onSubmittedWorkDone().then(
      function() { WGPUJS.event(function() { _wgpujs_call_done_cb(cb[0], WGPUL.DoneStatus_Success, 0, 0, cb[1], cb[2]); }); },
      function(e) {
        WGPUJS.event(function() {
          WGPUJS.withString(e, function(p, n) { _wgpujs_call_done_cb(cb[0], WGPUL.DoneStatus_Error, p, n, cb[1], cb[2]); });
        });
      });
    return WGPUJS.future();
  },
  // The wait the runtime spins on. An Asyncify import (-sASYNCIFY_IMPORTS): when nothing
  // has completed it unwinds the wasm stack, returns to the browser's event loop and
  // resumes on the next completion (or after 10 ms); then it fires the queued callbacks.
  wgpuInstanceProcessEvents__deps: ['$WGPUJS', '$Asyncify'],
  wgpuInstanceProcessEvents: function(instance) {
    Asyncify.handleSleep(function(wakeUp) {
      if (WGPUJS.events.length) return wakeUp(0);  // synchronous: no unwind
      var timer, t0 = performance.now();
      WGPUJS.wake = function() {
        clearTimeout(timer);
        WGPUJS.wake = null;
        WGPUJS.stats.sleeps += 1;
        WGPUJS.stats.sleep_ms += performance.now() - t0;
        wakeUp(0);
      };
      timer = setTimeout(WGPUJS.wake, 10);
    });
    if (Asyncify.state !== Asyncify.State.Normal) return;  // unwinding: fire after the rewind
    var events = WGPUJS.events;
    WGPUJS.events = [];
    WGPUJS.stats.callbacks += events.length;
    events.forEach(function(fire) { fire(); });
  },
  wgpuBufferGetConstMappedRange: function(buf, offset, size) {
    // The mapped ArrayBuffer is outside wasm memory: copy it into a malloc'd block, freed on unmap.
    size = size >>> 0;
    var buffer = WGPUJS.get(buf);
    var bytes = new Uint8Array(buffer.getMappedRange(offset >>> 0, size === 0xFFFFFFFF ? undefined : size));
    var p = _malloc(Math.max(bytes.length, 1));
    HEAPU8.set(bytes, p);
    (buffer.wasmCopies = buffer.wasmCopies || []).push(p);
    return p;
  },
  wgpuBufferUnmap: function(buf) {
    var buffer = WGPUJS.get(buf);
    buffer.unmap();
    (buffer.wasmCopies || []).forEach(function(p) { _free(p); });
    buffer.wasmCopies = [];
  },
};
Object.keys(lib).forEach(function(name) {
  if (name[0] !== '$' && name.indexOf('__') < 0 && !lib[name + '__deps']) lib[name + '__deps'] = ['$WGPUJS'];
});
mergeInto(LibraryManager.library, lib);
})();
