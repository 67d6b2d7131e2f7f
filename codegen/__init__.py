"""opgen: a code generator for WebGPU compute delegates in the ExecuTorch style."""
