"""`python -m codegen.cli.samples TARGET`: the sample as one JSON line.

A module of its own because a package runs `__main__` under `-m`; the work is the
package's `_main`. `sample_call_isolated` runs this in a child process.
"""

import sys

from codegen.cli.samples import _main

sys.exit(_main(sys.argv[1:]))
