/* Test data for the PTX corpus tests (tests/ptx/run_corpus.sh):
 *   ptx_data gen TYPE COUNT SEED FILE     COUNT random finite codes of TYPE
 *                                         (f16 bf16 tf32 e4m3 e5m2), little-endian
 *   ptx_data f16 IN OUT                   f32 codes rounded to f16 (to nearest even)
 *   ptx_data padcols IN ROWS COLS NEWCOLS BYTES OUT   zero columns appended (row-major)
 * Deterministic (xorshift64*), so a failure reproduces. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tc5/formats.h"

static uint64_t s = 88172645463325252ull;
static uint64_t next(void) {
  s ^= s >> 12;
  s ^= s << 25;
  s ^= s >> 27;
  return s * 2685821657736338717ull;
}
static double uni(void) { return (double)(next() >> 11) / 9007199254740992.0; }

static int usage(void) {
  fprintf(stderr, "usage: ptx_data gen TYPE COUNT SEED FILE | f16 IN OUT | padcols IN ROWS COLS NEWCOLS BYTES OUT |\n"
                  "       meta COUNT SEED FILE | pack4 IN OUT\n");
  return 2;
}

static unsigned char *slurp(const char *p, size_t *n) {
  FILE *f = fopen(p, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long len = ftell(f);
  fseek(f, 0, SEEK_SET);
  unsigned char *b = malloc((size_t)len + 1);
  if (b && fread(b, 1, (size_t)len, f) != (size_t)len) {
    free(b);
    b = NULL;
  }
  fclose(f);
  *n = (size_t)len;
  return b;
}

int main(int argc, char **argv) {
  if (argc < 2) return usage();
  if (!strcmp(argv[1], "gen") && argc == 6) {
    tc5_type t;
    unsigned w;
    const char *tn = argv[2];
    if (!strcmp(tn, "tf32")) t = TC5_F32; /* full f32 codes: the MMA ignores the low 13 bits */
    else if (tc5_type_parse(tn, &t)) return usage();
    w = t == TC5_F32 ? 4 : (t == TC5_F16 || t == TC5_BF16) ? 2 : 1;
    size_t count = strtoull(argv[3], NULL, 0);
    s ^= strtoull(argv[4], NULL, 0) * 0x9E3779B97F4A7C15ull;
    FILE *f = fopen(argv[5], "wb");
    if (!f) return 2;
    for (size_t i = 0; i < count; i++) {
      /* magnitudes over 2^-6 .. 2^6, some zeros, both signs */
      double x = (uni() * 2 - 1) * ldexp(1.0, (int)(next() % 13) - 6);
      if (next() % 16 == 0) x = 0;
      /* scale factors: positive, 2^-6 .. 2^6 (ue4m3: with a fraction) */
      if (t == TC5_UE8M0 || t == TC5_UE4M3) x = ldexp(t == TC5_UE4M3 ? 1 + uni() : 1, (int)(next() % 13) - 6);
      uint32_t c = 0;
      if (t == TC5_F32) {
        float fl = (float)x;
        memcpy(&c, &fl, 4);
      } else if (tc5_fmt_encode(t, x, t == TC5_UE8M0 ? TC5_ROUND_RZ : TC5_ROUND_RN, true, &c)) {
        return 2;
      }
      fwrite(&c, w, 1, f);
    }
    return fclose(f) ? 2 : 0;
  }
  if (!strcmp(argv[1], "pack4") && argc == 4) { /* fp4 codes, one a byte -> two a byte, element 2i low */
    size_t n;
    unsigned char *in = slurp(argv[2], &n);
    if (!in || n % 2) return 2;
    FILE *f = fopen(argv[3], "wb");
    if (!f) return 2;
    for (size_t i = 0; i < n; i += 2) fputc((in[i] & 15) | (in[i + 1] & 15) << 4, f);
    free(in);
    return fclose(f) ? 2 : 0;
  }
  if (!strcmp(argv[1], "meta") && argc == 5) { /* 2:4 metadata: a meaningful nibble a byte */
    static const uint8_t nibs[7] = {0x4, 0x8, 0xC, 0x9, 0xD, 0x6, 0xE};
    size_t count = strtoull(argv[2], NULL, 0);
    s ^= strtoull(argv[3], NULL, 0) * 0x9E3779B97F4A7C15ull;
    FILE *f = fopen(argv[4], "wb");
    if (!f) return 2;
    for (size_t i = 0; i < count; i++) fputc(nibs[next() % 7], f);
    return fclose(f) ? 2 : 0;
  }
  if (!strcmp(argv[1], "f16") && argc == 4) {
    size_t n;
    unsigned char *b = slurp(argv[2], &n);
    FILE *f = fopen(argv[3], "wb");
    if (!b || !f) return 2;
    for (size_t i = 0; i + 4 <= n; i += 4) {
      uint32_t x, c;
      memcpy(&x, b + i, 4);
      if (tc5_fmt_encode_f32(TC5_F16, x, TC5_ROUND_RN, false, &c)) return 2;
      fwrite(&c, 2, 1, f);
    }
    free(b);
    return fclose(f) ? 2 : 0;
  }
  if (!strcmp(argv[1], "padcols") && argc == 8) {
    size_t n, rows = strtoull(argv[3], NULL, 0), cols = strtoull(argv[4], NULL, 0);
    size_t nc = strtoull(argv[5], NULL, 0), w = strtoull(argv[6], NULL, 0);
    unsigned char *b = slurp(argv[2], &n);
    FILE *f = fopen(argv[7], "wb");
    if (!b || !f || n != rows * cols * w || nc < cols) return 2;
    unsigned char zero[16] = {0};
    for (size_t r = 0; r < rows; r++) {
      fwrite(b + r * cols * w, w, cols, f);
      for (size_t c = cols; c < nc; c++) fwrite(zero, w, 1, f);
    }
    free(b);
    return fclose(f) ? 2 : 0;
  }
  return usage();
}
