"""The compiled core of the counting programs (engine/_kernels.pyx), built with the package.

Everything else about the package is declared in pyproject.toml; this file only declares the
extension module, so that a wheel, `pip install .` and the editable install (`make install`)
compile it with the machine's C compiler (Cython and numpy come from [build-system] requires).
"""

import sys

import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup

# the counts are int64 that wrap modulo 2**64 (engine/_kernels.pyx): -fwrapv makes the wrap defined
# for gcc and clang; MSVC does not exploit signed overflow
ARGS = ["/O2"] if sys.platform == "win32" else ["-O3", "-fwrapv"]

setup(
    ext_modules=cythonize(
        [
            Extension(
                "clue_stats.engine._kernels",
                ["engine/_kernels.pyx"],
                include_dirs=[numpy.get_include()],
                define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
                extra_compile_args=ARGS,
            )
        ],
        compiler_directives={"language_level": 3},
    )
)
