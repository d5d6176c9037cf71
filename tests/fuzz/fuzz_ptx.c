/* libFuzzer target for the PTX front-end: any byte string must load or fail
 * with a status and a message, never crash, leak or hang
 * (scripts/fuzz.sh builds and runs it under ASan + UBSan). A module that
 * loads is also launched on one tiny CTA with a step limit, so the decoder's
 * output is exercised too. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tc5/ptx.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  tc5_diag dg;
  tc5_diag_init(&dg);
  tc5_ptx_module *m = NULL;
  if (tc5_ptx_load((const char *)data, size, "fuzz", &m, &dg) != TC5_OK) return 0;
  unsigned n = 0;
  tc5_ptx_entry_count(m, &n);
  if (n == 1 && !getenv("TC5_FUZZ_NO_LAUNCH")) {
    unsigned np = 0;
    const char *name;
    tc5_ptx_param_info p[16];
    tc5_ptx_entry_info(m, 0, &name, &np, p, 16, NULL, NULL);
    static uint8_t buf[16][256];
    memset(buf, 0, sizeof buf); /* each input starts from the same memory */
    tc5_ptx_arg args[16];
    if (np <= 16) {
      for (unsigned k = 0; k < np; k++) {
        memset(&args[k], 0, sizeof args[k]);
        if (p[k].size == 8) {
          args[k].kind = TC5_PTX_ARG_BUFFER;
          args[k].data = buf[k];
          args[k].bytes = sizeof buf[k];
        } else {
          args[k].kind = TC5_PTX_ARG_VALUE;
          args[k].size = p[k].size;
          args[k].bits = 3;
        }
      }
      tc5_ptx_launch_cfg cfg;
      tc5_ptx_launch_init(&cfg);
      cfg.block[0] = 32;
      cfg.threads = 1;
      cfg.max_steps = 2000;
      tc5_ptx_launch(m, &cfg, args, np, NULL, &dg);
    }
  }
  tc5_ptx_free(m);
  return 0;
}
