/*
 * An empty extension module around the simulator's kernels (native.c), so that the build backend compiles
 * them into the package for its platform. hazard/sim/native.py loads this same file with ctypes and calls
 * the kernels' own C functions: they take no Python objects, and ctypes releases the GIL around each call.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>

static struct PyModuleDef native_module = {
    PyModuleDef_HEAD_INIT,
    "hazard.sim._native",
    "The simulator's C kernels; see hazard.sim.native, which calls them.",
    -1,
    NULL,
};

PyMODINIT_FUNC PyInit__native(void) { return PyModule_Create(&native_module); }
