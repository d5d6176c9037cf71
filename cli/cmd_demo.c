/* tc5 CLI — `tc5 demo`: the built-in example. */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "common.h"
#include "tc5/descriptors.h"

/* The descriptors a kernel issues for one 128x256x16 bf16 -> f32 MMA with
 * A and B K-major in 128B-swizzled shared memory: built, decoded, checked. */
static int descriptor_tour(void) {
  static char buf[8192];
  printf("== tc5 demo: the descriptors of a 128x256x16 bf16 tcgen05.mma ==\n\n");
  tc5_smem_desc a, b;
  tc5_smem_desc_init(&a);
  a.start_address = 0x0000;
  a.lbo = 16;     /* unused for swizzled K-major ("assumed 1") */
  a.sbo = 1024;   /* 8 rows x 128 B to the next 8-row group */
  a.swizzle = TC5_SWIZZLE_128B;
  b = a;
  b.start_address = 0x4000;
  uint64_t ra, rb;
  tc5_diag dg;
  tc5_diag_init(&dg);
  if (tc5_smem_desc_encode(&a, &ra, &dg) || tc5_smem_desc_encode(&b, &rb, &dg)) {
    cli_print_diag(stderr, &dg);
    return EXIT_RULES;
  }
  printf("A: smem desc 0x%016llx\n", (unsigned long long)ra);
  tc5_smem_desc_describe(&a, buf, sizeof buf, NULL);
  fputs(buf, stdout);
  printf("\nB: smem desc 0x%016llx\n", (unsigned long long)rb);
  tc5_idesc d;
  tc5_idesc_init(&d, TC5_KIND_F16);
  tc5_idesc_set_types(&d, TC5_BF16, TC5_BF16, TC5_F32);
  d.m = 128;
  d.n = 256;
  uint32_t ri;
  if (tc5_idesc_encode(&d, &ri, &dg)) {
    cli_print_diag(stderr, &dg);
    return EXIT_RULES;
  }
  printf("\nidesc 0x%08x\n", ri);
  tc5_idesc_describe(&d, buf, sizeof buf, NULL);
  fputs(buf, stdout);
  tc5_mma_variant v;
  tc5_mma_variant_parse("tcgen05.mma.cta_group::1.kind::f16", &v, NULL);
  tc5_status st = tc5_idesc_check(&d, &v, &dg);
  printf("\nlegal for tcgen05.mma.cta_group::1.kind::f16: %s\n", st == TC5_OK ? "yes" : "NO");
  /* and what goes wrong when the same descriptor meets cta_group::2 with N=8 */
  d.n = 8;
  tc5_idesc_encode(&d, &ri, NULL);
  tc5_mma_variant_parse("tcgen05.mma.cta_group::2.kind::f16", &v, NULL);
  tc5_diag_init(&dg);
  tc5_idesc_check(&d, &v, &dg);
  printf("idesc 0x%08x for tcgen05.mma.cta_group::2.kind::f16:\n", ri);
  cli_print_diag(stdout, &dg);
  return st == TC5_OK ? EXIT_OK : EXIT_RULES;
}

int cmd_demo(int argc, char **argv) {
  if (argc >= 1 && (!strcmp(argv[0], "--help") || !strcmp(argv[0], "-h"))) {
    printf("usage: tc5 demo\n\nRuns the built-in example.\n");
    return EXIT_OK;
  }
  return descriptor_tour();
}
