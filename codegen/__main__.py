import sys

from codegen.cli.main import main

sys.exit(main())
