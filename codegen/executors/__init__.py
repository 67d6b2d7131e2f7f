"""Executors: the bound call, the one executor interface, and the executors that run a
call (the wgpu harness, the native runner, the browser) plus the spec cases that run on
any of them."""
