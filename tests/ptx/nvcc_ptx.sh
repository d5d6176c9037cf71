# Sourced by the nvcc test scripts: finds nvcc (exit 77, CTest's "skipped",
# without it), makes a scratch directory (removed at exit) and compiles
# $src there for sm_100a into k.ptx with CCCL's <cuda/ptx>.
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
[ -x "$NVCC" ] || { echo "$(basename "$0"): nvcc not found: skipped"; exit 77; }
cccl=$(dirname "$(dirname "$NVCC")")/include/cccl
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
"$NVCC" -arch=sm_100a -ptx -I"$cccl" "$src" -o k.ptx
