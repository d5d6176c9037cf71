#!/usr/bin/env python3
"""A stand-in for `nvcc -arch=sm_XXa -ptx [-I DIR]... [-D NAME=V]... [-fmad=false] [-diag-suppress N] SRC -o OUT` that compiles
SRC's device code to PTX with NVRTC (libnvrtc.so through ctypes) instead of nvcc (issue 52: PyPI's
nvidia-cuda-nvcc-cu12 ships ptxas, libnvvm and headers but no nvcc driver and no cicc front end;
nvidia-cuda-nvrtc-cu12 ships the same front end as a library). NVRTC takes device code only: a file
with host code (<cuda.h> driver calls, main, std headers NVRTC does not ship) is refused with
NVRTC's log. Every __global__ of SRC is compiled (NVRTC keeps extern "C" entries; no name
expressions are needed).

    NVRTC=.../nvidia/cuda_nvrtc/lib/libnvrtc.so.12 NVCC=scripts/nvrtc_ptx.py tests/ptx/nvcc_tcgen05.sh ...

NVRTC: the library's path (default: libnvrtc.so.12 on the loader's path). NVRTC_CCCL: the CCCL
include directory for <cuda/ptx> (default /usr/local/cuda/include/cccl; the -I the caller gives is
added too). Prints NVRTC's version on stderr. Standard library only."""
import ctypes
import os
import sys
import tempfile

# NVRTC ships no C++ standard library headers (jitify's approach): <cstdint> as CCCL's
# <cuda/std/cstdint> with the fixed-width names in the global namespace, as the C header puts them
CSTDINT = """#pragma once
#include <cuda/std/cstdint>
namespace std { using namespace cuda::std; }
""" + "".join(f"typedef cuda::std::{t} {t};\n" for t in
             ("int8_t", "int16_t", "int32_t", "int64_t", "uint8_t", "uint16_t", "uint32_t", "uint64_t",
              "intptr_t", "uintptr_t"))

# device printf is NVRTC's builtin (vprintf underneath): <cstdio> declares only it
CSTDIO = """#pragma once
extern "C" __device__ int printf(const char *, ...);
"""
# <cstdlib>, <cstring>: empty (host headers a file with guarded host code includes)
# <cuda.h> (the driver API, a host header) for what device code takes from it: the tensor map's type
CUDA_H = """#pragma once
typedef struct alignas(64) CUtensorMap_st { unsigned long long opaque[16]; } CUtensorMap;
"""
# the CUDA 12 headers NVRTC lacks (cuda_fp16.h, cuda_bf16.h, cuda_fp8.h, cuda_runtime_api.h, crt/mma.h...):
# NVRTC_INCLUDE, directories separated by ':' searched after the shims, such as nvidia-cuda-runtime-cu12's
# include/ and nvidia-cuda-nvcc-cu12's (scripts/nvrtc12.sh)


def main(argv):
    arch, src, out, incs, extra = None, None, None, [], []
    i = 0
    while i < len(argv):
        a = argv[i]
        if a.startswith("-arch="):
            arch = a.split("=", 1)[1]
        elif a == "-ptx":
            pass
        elif a == "-o":
            i += 1
            out = argv[i]
        elif a.startswith("-I"):
            incs.append(a[2:] or argv[i + 1])
            i += 0 if a[2:] else 1
        elif a.startswith("-D"):
            extra.append(a)
        elif a in ("-fmad=false", "-fmad=true"):
            extra.append("--" + a[1:])
        elif a == "-diag-suppress":
            i += 1
            extra.append("--diag-suppress=" + argv[i])
        elif a.startswith("-"):
            print(f"nvrtc_ptx.py: option {a}: not supported (only -arch, -ptx, -I, -D, -fmad=, -diag-suppress, -o)", file=sys.stderr)
            return 2
        else:
            src = a
        i += 1
    if not (arch and src and out):
        print(__doc__, file=sys.stderr)
        return 2
    lib = ctypes.CDLL(os.environ.get("NVRTC", "libnvrtc.so.12"))
    major, minor = ctypes.c_int(), ctypes.c_int()
    lib.nvrtcVersion(ctypes.byref(major), ctypes.byref(minor))
    print(f"nvrtc_ptx.py: NVRTC {major.value}.{minor.value}", file=sys.stderr)
    cccl = os.environ.get("NVRTC_CCCL", "/usr/local/cuda/include/cccl")
    shim = tempfile.mkdtemp()
    for name, text in (("cstdint", CSTDINT), ("cstdio", CSTDIO), ("cuda.h", CUDA_H), ("cstdlib", "#pragma once\n"),
                       ("cstring", "#pragma once\n")):
        open(os.path.join(shim, name), "w").write(text)
    rt = [f"-I{d}" for d in os.environ.get("NVRTC_INCLUDE", "").split(":") if d]
    opts = [f"--gpu-architecture={arch.replace('sm_', 'compute_')}", "-std=c++17", "-default-device",
            f"-I{os.path.dirname(os.path.abspath(src))}", f"-I{cccl}"] + [f"-I{d}" for d in incs] + [f"-I{shim}"] + rt + extra
    prog = ctypes.c_void_p()
    text = open(src, "rb").read()
    rc = lib.nvrtcCreateProgram(ctypes.byref(prog), text, os.path.basename(src).encode(), 0, None, None)
    if rc:
        print(f"nvrtc_ptx.py: nvrtcCreateProgram: error {rc}", file=sys.stderr)
        return 1
    copts = (ctypes.c_char_p * len(opts))(*[o.encode() for o in opts])
    rc = lib.nvrtcCompileProgram(prog, len(opts), copts)
    n = ctypes.c_size_t()
    lib.nvrtcGetProgramLogSize(prog, ctypes.byref(n))
    log = ctypes.create_string_buffer(n.value)
    lib.nvrtcGetProgramLog(prog, log)
    if log.value.strip():
        sys.stderr.write(log.value.decode(errors="replace"))
    if rc:
        lib.nvrtcGetErrorString.restype = ctypes.c_char_p
        print(f"nvrtc_ptx.py: {src}: {lib.nvrtcGetErrorString(rc).decode()}", file=sys.stderr)
        return 1
    lib.nvrtcGetPTXSize(prog, ctypes.byref(n))
    ptx = ctypes.create_string_buffer(n.value)
    lib.nvrtcGetPTX(prog, ptx)
    open(out, "wb").write(ptx.value)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
