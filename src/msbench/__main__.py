"""``python -m msbench``: the ``msbench`` command line."""

import sys

from msbench.cli import main

sys.exit(main())
