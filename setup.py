"""The one thing pyproject.toml cannot say: the simulator's C kernels, compiled into the package at install.

The kernels (src/hazard/sim/native.c) are plain C, loaded with ctypes by hazard.sim.native; _module.c only
makes the library an importable extension module, so that setuptools builds it for the wheel's platform and
tags the wheel so. Compiler options are chosen for the compiler found: optimised, and never with fused
multiply-adds or fast math, so that the session kernel rounds the same everywhere.
"""

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

KERNELS = Extension(
    "hazard.sim._native",
    sources=["src/hazard/sim/native.c", "src/hazard/sim/_module.c"],
)

GCC_LIKE = ["-O3", "-std=c11", "-ffp-contract=off", "-fno-fast-math"]
MSVC = ["/O2", "/fp:precise", "/std:c11"]


class BuildKernels(build_ext):
    def build_extensions(self) -> None:
        flags = MSVC if self.compiler.compiler_type == "msvc" else GCC_LIKE
        for extension in self.extensions:
            extension.extra_compile_args = [*flags, *extension.extra_compile_args]
        super().build_extensions()


setup(ext_modules=[KERNELS], cmdclass={"build_ext": BuildKernels})
