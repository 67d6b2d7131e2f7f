"""Executors beyond the wgpu harness (the browser executor lives here)."""
