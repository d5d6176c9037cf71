/* The launch of Triton's bf16 matmul (tests/data/ptx's mm_bf16_f32 kernel:
 * A, B, C, M, N, K, two scratch pointers) that bench_run and bench_timing
 * both time: its eight arguments and its configuration for N = M = K. */
#ifndef TC5_BENCH_MATMUL_H
#define TC5_BENCH_MATMUL_H
#include <string.h>

#include "tc5/ptx.h"

static inline void bench_matmul_launch(tc5_ptx_arg args[8], tc5_ptx_launch_cfg *cfg, void *a, size_t na, void *b,
                                       size_t nb, void *c, size_t nc, unsigned n) {
  memset(args, 0, 8 * sizeof *args);
  args[0] = (tc5_ptx_arg){.kind = TC5_PTX_ARG_BUFFER, .data = a, .bytes = na};
  args[1] = (tc5_ptx_arg){.kind = TC5_PTX_ARG_BUFFER, .data = b, .bytes = nb};
  args[2] = (tc5_ptx_arg){.kind = TC5_PTX_ARG_BUFFER, .data = c, .bytes = nc};
  for (int k = 3; k < 6; k++) args[k] = (tc5_ptx_arg){.kind = TC5_PTX_ARG_VALUE, .size = 4, .bits = n};
  args[6] = args[7] = (tc5_ptx_arg){.kind = TC5_PTX_ARG_VALUE, .size = 8, .bits = 0};
  tc5_ptx_launch_init(cfg);
  cfg->grid[0] = cfg->grid[1] = n / 128;
  cfg->block[0] = 128;
  cfg->dynamic_shared = 65552;
  cfg->threads = 1;
}
#endif
