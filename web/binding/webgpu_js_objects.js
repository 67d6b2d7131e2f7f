// The binding's objects (see webgpu_js.js): buffers, shader modules, layouts, pipelines,
// bind groups, query sets, command encoding and submission, and every object's release.
(function() {  // library files are evaluated in the compiler's scope: keep names local
var lib = {
  // --- resources ---------------------------------------------------------------------------------
  wgpuDeviceCreateBuffer: function(dev, d) {
    var desc = WGPUJS.label(d, WGPUL.BufDesc_label);
    desc.usage = WGPUJS.u64(d + WGPUL.BufDesc_usage);
    desc.size = WGPUJS.u64(d + WGPUL.BufDesc_size);
    desc.mappedAtCreation = !!WGPUJS.u32(d + WGPUL.BufDesc_mappedAtCreation);
    return WGPUJS.add(WGPUJS.get(dev).createBuffer(desc));
  },
  wgpuBufferGetSize: function(buf) { return BigInt(WGPUJS.get(buf).size); },
  wgpuBufferDestroy: function(buf) { WGPUJS.get(buf).destroy(); },
  wgpuQueueWriteBuffer: function(queue, buf, offset, data, size) {
    WGPUJS.get(queue).writeBuffer(WGPUJS.get(buf), Number(offset), HEAPU8, data >>> 0, size >>> 0);
  },
  wgpuDeviceCreateShaderModule: function(dev, d) {
    var chain = WGPUJS.u32(d + WGPUL.SMDesc_next);
    if (!chain || WGPUJS.u32(chain + WGPUL.Chain_sType) !== WGPUL.SType_ShaderSourceWGSL)
      throw new Error('wgpuDeviceCreateShaderModule: only WGPUShaderSourceWGSL is supported');
    var desc = WGPUJS.label(d, WGPUL.SMDesc_label);
    desc.code = WGPUJS.str(chain + WGPUL.WGSL_code);
    return WGPUJS.add(WGPUJS.get(dev).createShaderModule(desc));
  },
  wgpuDeviceCreateBindGroupLayout: function(dev, d) {
    var kinds = WGPUJS.bindingTypes(), entries = [];
    var n = WGPUJS.u32(d + WGPUL.BGLDesc_entryCount), p = WGPUJS.u32(d + WGPUL.BGLDesc_entries);
    for (var i = 0; i < n; ++i, p += WGPUL.sizeof_BGLEntry) {
      var type = kinds[WGPUJS.u32(p + WGPUL.BGLEntry_buffer_type)];
      if (!type) throw new Error('wgpuDeviceCreateBindGroupLayout: only buffer bindings are supported');
      entries.push({binding: WGPUJS.u32(p + WGPUL.BGLEntry_binding),
                    visibility: WGPUJS.u64(p + WGPUL.BGLEntry_visibility),
                    buffer: {type: type, hasDynamicOffset: !!WGPUJS.u32(p + WGPUL.BGLEntry_buffer_dyn),
                             minBindingSize: WGPUJS.u64(p + WGPUL.BGLEntry_buffer_minSize)}});
    }
    var desc = WGPUJS.label(d, WGPUL.BGLDesc_label);
    desc.entries = entries;
    return WGPUJS.add(WGPUJS.get(dev).createBindGroupLayout(desc));
  },
  wgpuDeviceCreatePipelineLayout: function(dev, d) {
    var n = WGPUJS.u32(d + WGPUL.PLDesc_count), p = WGPUJS.u32(d + WGPUL.PLDesc_layouts), layouts = [];
    for (var i = 0; i < n; ++i) layouts.push(WGPUJS.get(WGPUJS.u32(p + 4 * i)));
    var desc = WGPUJS.label(d, WGPUL.PLDesc_label);
    desc.bindGroupLayouts = layouts;
    return WGPUJS.add(WGPUJS.get(dev).createPipelineLayout(desc));
  },
  wgpuDeviceCreateComputePipeline: function(dev, d) {
    var layout = WGPUJS.u32(d + WGPUL.CPDesc_layout), constants = {};
    var n = WGPUJS.u32(d + WGPUL.CPDesc_constantCount), p = WGPUJS.u32(d + WGPUL.CPDesc_constants);
    for (var i = 0; i < n; ++i, p += WGPUL.sizeof_Constant)
      constants[WGPUJS.str(p + WGPUL.Constant_key)] = HEAPF64[(p + WGPUL.Constant_value) >> 3];
    var desc = WGPUJS.label(d, WGPUL.CPDesc_label);
    desc.layout = layout ? WGPUJS.get(layout) : 'auto';
    desc.compute = {module: WGPUJS.get(WGPUJS.u32(d + WGPUL.CPDesc_module)),
                    entryPoint: WGPUJS.str(d + WGPUL.CPDesc_entryPoint), constants: constants};
    return WGPUJS.add(WGPUJS.get(dev).createComputePipeline(desc));
  },
  wgpuDeviceCreateBindGroup: function(dev, d) {
    var entries = [], n = WGPUJS.u32(d + WGPUL.BGDesc_entryCount), p = WGPUJS.u32(d + WGPUL.BGDesc_entries);
    for (var i = 0; i < n; ++i, p += WGPUL.sizeof_BGEntry) {
      if (WGPUJS.u32(p + WGPUL.BGEntry_sampler) || WGPUJS.u32(p + WGPUL.BGEntry_textureView))
        throw new Error('wgpuDeviceCreateBindGroup: only buffer bindings are supported');
      entries.push({binding: WGPUJS.u32(p + WGPUL.BGEntry_binding),
                    resource: {buffer: WGPUJS.get(WGPUJS.u32(p + WGPUL.BGEntry_buffer)),
                               offset: WGPUJS.u64(p + WGPUL.BGEntry_offset),
                               size: WGPUJS.u64(p + WGPUL.BGEntry_size)}});
    }
    var desc = WGPUJS.label(d, WGPUL.BGDesc_label);
    desc.layout = WGPUJS.get(WGPUJS.u32(d + WGPUL.BGDesc_layout));
    desc.entries = entries;
    return WGPUJS.add(WGPUJS.get(dev).createBindGroup(desc));
  },
  wgpuDeviceCreateQuerySet: function(dev, d) {
    if (WGPUJS.u32(d + WGPUL.QSDesc_type) !== WGPUL.QueryType_Timestamp)
      throw new Error('wgpuDeviceCreateQuerySet: only timestamp query sets are supported');
    return WGPUJS.add(WGPUJS.get(dev).createQuerySet({type: 'timestamp', count: WGPUJS.u32(d + WGPUL.QSDesc_count)}));
  },

  // --- commands ------------------------------------------------------------------------------------
  wgpuDeviceCreateCommandEncoder: function(dev, d) { return WGPUJS.add(WGPUJS.get(dev).createCommandEncoder()); },
  wgpuCommandEncoderBeginComputePass: function(enc, d) {
    var desc = {}, w = d ? WGPUJS.u32(d + WGPUL.CPassDesc_timestampWrites) : 0;
    if (w) {
      desc.timestampWrites = {querySet: WGPUJS.get(WGPUJS.u32(w + WGPUL.TSW_querySet))};
      var begin = WGPUJS.u32(w + WGPUL.TSW_begin), end = WGPUJS.u32(w + WGPUL.TSW_end);
      if (begin !== WGPUL.QUERY_SET_INDEX_UNDEFINED) desc.timestampWrites.beginningOfPassWriteIndex = begin;
      if (end !== WGPUL.QUERY_SET_INDEX_UNDEFINED) desc.timestampWrites.endOfPassWriteIndex = end;
    }
    return WGPUJS.add(WGPUJS.get(enc).beginComputePass(desc));
  },
  wgpuComputePassEncoderSetPipeline: function(pass, pipe) { WGPUJS.get(pass).setPipeline(WGPUJS.get(pipe)); },
  wgpuComputePassEncoderSetBindGroup: function(pass, index, group, count, offsets) {
    count = count >>> 0;
    WGPUJS.get(pass).setBindGroup(index, group ? WGPUJS.get(group) : null,
                                  count ? HEAPU32.slice(offsets >> 2, (offsets >> 2) + count) : []);
  },
  wgpuComputePassEncoderDispatchWorkgroups: function(pass, x, y, z) {
    WGPUJS.get(pass).dispatchWorkgroups(x >>> 0, y >>> 0, z >>> 0);
  },
  wgpuComputePassEncoderEnd: function(pass) { WGPUJS.get(pass).end(); },
  wgpuCommandEncoderCopyBufferToBuffer: function(enc, src, srcOffset, dst, dstOffset, size) {
    var whole = BigInt.asUintN(64, size) === BigInt.asUintN(64, BigInt(-1));  // WGPU_WHOLE_SIZE
    WGPUJS.get(enc).copyBufferToBuffer(WGPUJS.get(src), Number(srcOffset), WGPUJS.get(dst),
                                       Number(dstOffset), whole ? undefined : Number(size));
  },
  wgpuCommandEncoderResolveQuerySet: function(enc, set, first, count, dst, offset) {
    WGPUJS.get(enc).resolveQuerySet(WGPUJS.get(set), first >>> 0, count >>> 0, WGPUJS.get(dst), Number(offset));
  },
  wgpuCommandEncoderFinish: function(enc, d) { return WGPUJS.add(WGPUJS.get(enc).finish()); },
  wgpuQueueSubmit: function(queue, count, cmds) {
    var list = [];
    for (var i = 0; i < (count >>> 0); ++i) list.push(WGPUJS.get(WGPUJS.u32(cmds + 4 * i)));
    WGPUJS.get(queue).submit(list);
  },
};
// Release drops the id; the JS object is then garbage. A device is destroyed with it (its
// callbacks dropped first: their owner may be gone), as the last native reference does.
['Instance', 'Adapter', 'Queue', 'Buffer', 'ShaderModule', 'BindGroupLayout', 'PipelineLayout',
 'ComputePipeline', 'BindGroup', 'CommandEncoder', 'ComputePassEncoder', 'CommandBuffer', 'QuerySet']
  .forEach(function(type) {
    lib['wgpu' + type + 'Release'] = function(id) { WGPUJS.objs[id] = null; };
  });
lib.wgpuDeviceRelease = function(id) {
  var device = WGPUJS.objs[id];
  WGPUJS.objs[id] = null;
  if (device) { device.released = true; device.destroy(); }
};
Object.keys(lib).forEach(function(name) {
  if (name[0] !== '$' && name.indexOf('__') < 0 && !lib[name + '__deps']) lib[name + '__deps'] = ['$WGPUJS'];
});
mergeInto(LibraryManager.library, lib);
})();
