"""clue-stats: clue_stats.

The counting programs are machine code built with the package (engine/_kernels.pyx, compiled when
the wheel or the editable install is built): a command never compiles anything at run time.
"""
