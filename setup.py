"""The one thing pyproject.toml cannot say: the simulator's C kernels, compiled into the package at install.

The kernels (src/hazard/sim/native.c) are plain C, loaded with ctypes by hazard.sim.native; _module.c only
makes the library an importable extension module, so that setuptools builds it for the wheel's platform and
tags the wheel so. Compiler options are chosen for the compiler found: optimised, and never with fused
multiply-adds or fast math, so that the session kernel rounds the same everywhere.

_module.c uses only Python's limited API (3.11's), so one wheel per platform serves every Python from 3.11
on: the extension is built as ``_native.abi3.so`` (``.pyd`` on Windows) and the wheel tagged ``cp311-abi3``
(docs/packaging.md: how the release wheels are built and repaired to a manylinux tag).

Without a C compiler a source install cannot succeed: BuildKernels says so in hazard's words, naming what
to install, instead of the compiler driver's bare ``No such file or directory: 'gcc'``.
"""

import shutil
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.errors import CompileError, ExecError, PlatformError

LIMITED_API = "cp311"
"""The oldest Python the wheel serves (requires-python), as the wheel's tag names it."""

KERNELS = Extension(
    "hazard.sim._native",
    sources=[
        "src/hazard/sim/native.c",
        "src/hazard/sim/tally.c",
        "src/hazard/sim/session.c",
        "src/hazard/sim/seed.c",
        "src/hazard/sim/simd.c",
        "src/hazard/sim/simd256.c",
        "src/hazard/sim/simd512.c",
        "src/hazard/sim/simdneon.c",
        "src/hazard/sim/_module.c",
    ],
    # what the kernels share; setuptools puts them in the sdist
    depends=["src/hazard/sim/kernels.h", "src/hazard/sim/simd.h"],
    py_limited_api=True,
    define_macros=[("Py_LIMITED_API", "0x030B0000")],  # 3.11's limited API: what _module.c is held to
)

GCC_LIKE = ["-O3", "-std=c11", "-ffp-contract=off", "-fno-fast-math"]
MSVC = ["/O2", "/fp:precise", "/std:c11"]

NO_COMPILER = """\
hazard cannot be built from source here: its simulator's kernels are C (src/hazard/sim/native.c), and no C \
compiler was found ({found}).
Install one and run the install again:
  Debian or Ubuntu:  sudo apt-get install gcc     (Fedora: sudo dnf install gcc; Alpine: apk add gcc musl-dev)
  macOS:             xcode-select --install       (Xcode's command line tools: clang)
  Windows:           the Microsoft C++ Build Tools (MSVC): https://visualstudio.microsoft.com/visual-cpp-build-tools/
or set CC to an installed compiler (gcc or clang). A wheel needs no compiler: docs/packaging.md lists the \
platforms hazard's wheels are built for."""


class BuildKernels(build_ext):
    def build_extensions(self) -> None:
        self._check_the_compiler()
        if self.compiler.compiler_type == "unix":
            # The kernels link only libc: an rpath taken from this Python's own link line (pyenv's, say)
            # would ship the build machine's folder in the wheel, for the loader to search on the user's.
            linker = self.compiler.linker_so
            self.compiler.linker_so = [arg for arg in linker if not arg.startswith(("-Wl,-rpath", "-Wl,-R"))]
        flags = MSVC if self.compiler.compiler_type == "msvc" else GCC_LIKE
        for extension in self.extensions:
            extension.extra_compile_args = [*flags, *extension.extra_compile_args]
        try:
            super().build_extensions()
        except (CompileError, ExecError, PlatformError) as error:
            # MSVC is looked for only when the first file is compiled; a missing one says so here
            if self.compiler.compiler_type == "msvc" and "Visual C++" in str(error):
                raise PlatformError(NO_COMPILER.format(found=error)) from None
            raise

    def _check_the_compiler(self) -> None:
        """A Unix compiler's program (gcc, clang, cc or $CC) must exist before the first file is compiled."""
        if self.compiler.compiler_type != "unix":
            return
        program = self.compiler.compiler_so[0]
        if shutil.which(program) is None:
            raise PlatformError(NO_COMPILER.format(found=f"{program!r} is not on PATH"))

    def copy_extensions_to_source(self) -> None:
        """An editable install copies the build into src/; a per-version build left there from before the
        kernels were abi3 (``_native.cpython-311-*.so``) would be imported in place of the new one."""
        super().copy_extensions_to_source()
        build_py = self.get_finalized_command("build_py")
        for extension in self.extensions:
            fullname = self.get_ext_fullname(extension.name)
            package, _, name = fullname.rpartition(".")
            folder = Path(build_py.get_package_dir(package))
            built = folder / Path(self.get_ext_filename(fullname)).name
            for old in folder.glob(f"{name}.*"):
                if old != built and old.suffix in {".so", ".pyd"}:
                    old.unlink()


setup(
    ext_modules=[KERNELS],
    cmdclass={"build_ext": BuildKernels},
    # the wheel's tag: cp311-abi3, for every CPython from 3.11 on (the extension is built for it above)
    options={"bdist_wheel": {"py_limited_api": LIMITED_API}},
)
