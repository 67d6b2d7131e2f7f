import os

os.environ.setdefault("XDG_RUNTIME_DIR", "/tmp")
