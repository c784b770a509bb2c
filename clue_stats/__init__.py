"""clue-stats: clue_stats.

The counting programs are machine code built with the package (engine/_kernels.pyx, compiled when
the wheel or the editable install is built): a command never compiles anything at run time.
"""

import os

# numpy's OpenBLAS starts a thread per core when numpy is imported (0.06 CPU s a process, issue
# 37): nothing here multiplies matrices, so one thread serves; a user's own setting is kept
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
