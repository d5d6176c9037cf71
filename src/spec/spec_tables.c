/* tc5 internal — the spec's tables, as data (see spec_tables.h).
 * Section and table numbers refer to ../shared/spec/ptx-tcgen05-chapter.md. */
#include "spec/spec_tables.h"

#include <stdio.h>
#include <string.h>

/* ---- element types ------------------------------------------------------- */

/* name, bits, float, signed, exponent bits, mantissa bits, bias, specials.
 * tf32 sits in an f32 container (its mantissa field is read as 10 bits);
 * ue4m3 is e4m3 without the sign (7 bits used in an 8-bit code). */
static const tc5_type_info type_table[TC5_TYPE_COUNT] = {
    [TC5_F32] = {TC5_F32, "f32", 32, true, true, 8, 23, 127, TC5_SPECIAL_IEEE},
    [TC5_TF32] = {TC5_TF32, "tf32", 32, true, true, 8, 10, 127, TC5_SPECIAL_IEEE},
    [TC5_F16] = {TC5_F16, "f16", 16, true, true, 5, 10, 15, TC5_SPECIAL_IEEE},
    [TC5_BF16] = {TC5_BF16, "bf16", 16, true, true, 8, 7, 127, TC5_SPECIAL_IEEE},
    [TC5_E4M3] = {TC5_E4M3, "e4m3", 8, true, true, 4, 3, 7, TC5_SPECIAL_FN},
    [TC5_E5M2] = {TC5_E5M2, "e5m2", 8, true, true, 5, 2, 15, TC5_SPECIAL_IEEE},
    [TC5_E2M3] = {TC5_E2M3, "e2m3", 6, true, true, 2, 3, 1, TC5_SPECIAL_NONE},
    [TC5_E3M2] = {TC5_E3M2, "e3m2", 6, true, true, 3, 2, 3, TC5_SPECIAL_NONE},
    [TC5_E2M1] = {TC5_E2M1, "e2m1", 4, true, true, 2, 1, 1, TC5_SPECIAL_NONE},
    [TC5_UE8M0] = {TC5_UE8M0, "ue8m0", 8, true, false, 8, 0, 127, TC5_SPECIAL_E8M0},
    [TC5_UE4M3] = {TC5_UE4M3, "ue4m3", 8, true, false, 4, 3, 7, TC5_SPECIAL_FN},
    [TC5_S8] = {TC5_S8, "s8", 8, false, true, 0, 0, 0, TC5_SPECIAL_INT},
    [TC5_U8] = {TC5_U8, "u8", 8, false, false, 0, 0, 0, TC5_SPECIAL_INT},
    [TC5_S32] = {TC5_S32, "s32", 32, false, true, 0, 0, 0, TC5_SPECIAL_INT},
};

/* fp4 in the middle of the byte, fp6 in the low six bits: CUTLASS,
 * include/cute/atom/mma_traits_sm120.hpp (fp4_shift_A/B): the f8f6f4 MMA
 * "expects the four-bit data to be in the middle of the eight-bit container",
 * fp6 "NOT needed" to shift. */
static const tc5_container8 container8_table[] = {
    {TC5_E2M1, 2, 4}, {TC5_E2M3, 0, 6}, {TC5_E3M2, 0, 6},
    {TC5_E4M3, 0, 8}, {TC5_E5M2, 0, 8},
};

const tc5_container8 *tc5_spec_container8(tc5_type t) {
  for (size_t i = 0; i < sizeof container8_table / sizeof container8_table[0]; i++)
    if (container8_table[i].type == t) return &container8_table[i];
  return NULL;
}

const tc5_type_info *tc5_spec_type(tc5_type t) {
  if (t <= TC5_TYPE_NONE || t >= TC5_TYPE_COUNT) return NULL;
  return &type_table[t];
}

/* ---- Tables 42, 43, 44 and 49 -------------------------------------------- */

#define F8F6F4_CODES                                                           \
  {{0, TC5_E4M3}, {1, TC5_E5M2}, {3, TC5_E2M3}, {4, TC5_E3M2}, {5, TC5_E2M1}}, 5

static const tc5_kind_info kind_table[TC5_KIND_COUNT] = {
    [TC5_KIND_F16] = {TC5_KIND_F16, "f16", 42,
                      {{0, TC5_F16}, {1, TC5_BF16}}, 2, 3,
                      {{0, TC5_F16}, {1, TC5_F32}}, 2,
                      .same_ab = true, .f16_d_requires_f16_ab = true,
                      .transpose_ok = true, .negate_ok = true,
                      .saturate_ok = false, .scale_input_d_ok = true,
                      .k_dense = 16, .scale_codes = 0},
    [TC5_KIND_TF32] = {TC5_KIND_TF32, "tf32", 42,
                       {{2, TC5_TF32}}, 1, 3,
                       {{1, TC5_F32}}, 1,
                       .same_ab = true, .f16_d_requires_f16_ab = false,
                       .transpose_ok = true, .negate_ok = true,
                       .saturate_ok = false, .scale_input_d_ok = true,
                       .k_dense = 8, .scale_codes = 0},
    [TC5_KIND_F8F6F4] = {TC5_KIND_F8F6F4, "f8f6f4", 42,
                         F8F6F4_CODES, 3,
                         {{0, TC5_F16}, {1, TC5_F32}}, 2,
                         .same_ab = false, .f16_d_requires_f16_ab = false,
                         .transpose_ok = true, .negate_ok = true,
                         .saturate_ok = false, .scale_input_d_ok = false,
                         .k_dense = 32, .scale_codes = 0},
    [TC5_KIND_I8] = {TC5_KIND_I8, "i8", 42,
                     {{0, TC5_U8}, {1, TC5_S8}}, 2, 3,
                     {{2, TC5_S32}}, 1,
                     .same_ab = false, .f16_d_requires_f16_ab = false,
                     .transpose_ok = true, .negate_ok = false,
                     .saturate_ok = true, .scale_input_d_ok = false,
                     .k_dense = 32, .scale_codes = 0},
    [TC5_KIND_MXF8F6F4] = {TC5_KIND_MXF8F6F4, "mxf8f6f4", 43,
                           F8F6F4_CODES, 3,
                           {{0, TC5_TYPE_NONE}}, 0,
                           .same_ab = false, .f16_d_requires_f16_ab = false,
                           .transpose_ok = true, .negate_ok = true,
                           .saturate_ok = false, .scale_input_d_ok = false,
                           .k_dense = 32, .scale_codes = 1u << 1},
    [TC5_KIND_MXF4] = {TC5_KIND_MXF4, "mxf4", 44,
                       {{1, TC5_E2M1}}, 1, 2,
                       {{0, TC5_TYPE_NONE}}, 0,
                       .same_ab = true, .f16_d_requires_f16_ab = false,
                       .transpose_ok = false, .negate_ok = true,
                       .saturate_ok = false, .scale_input_d_ok = false,
                       .k_dense = 64, .scale_codes = 1u << 1},
    [TC5_KIND_MXF4NVF4] = {TC5_KIND_MXF4NVF4, "mxf4nvf4", 44,
                           {{1, TC5_E2M1}}, 1, 2,
                           {{0, TC5_TYPE_NONE}}, 0,
                           .same_ab = true, .f16_d_requires_f16_ab = false,
                           .transpose_ok = false, .negate_ok = true,
                           .saturate_ok = false, .scale_input_d_ok = false,
                           .k_dense = 64, .scale_codes = (1u << 1) | (1u << 0)},
};

const tc5_kind_info *tc5_spec_kind(tc5_kind k) {
  if ((unsigned)k >= TC5_KIND_COUNT) return NULL;
  return &kind_table[k];
}

/* ---- Table 39 ------------------------------------------------------------ */

#define N8 {{8, 256, 8}}
#define N16 {{16, 256, 16}}
#define N32 {{32, 256, 32}}
#define NI8 {{8, 32, 8}, {48, 256, 16}}
#define NWS {{64, 64, 64}, {128, 128, 128}, {256, 256, 256}}
#define NWSSP {{64, 128, 64}}
#define M1 {64, 128}
#define M2 {128, 256}
#define MWS {32, 64, 128}

/* kind, ws, cta_group, sparse, valid, M, N, K, K96 M */
#define STD_ROWS(KIND, K)                                                      \
  {KIND, false, 1, false, true, M1, N8, K, 0},                                 \
      {KIND, false, 1, true, true, M1, N8, 2 * (K), 0},                        \
      {KIND, false, 2, false, true, M2, N16, K, 0},                            \
      {KIND, false, 2, true, true, M2, N16, 2 * (K), 0},                       \
      {KIND, true, 1, false, true, MWS, NWS, K, 0},                            \
      {KIND, true, 1, true, true, MWS, NWSSP, 2 * (K), 0},                     \
      {KIND, true, 2, false, false, {0}, {{0, 0, 0}}, 0, 0},                   \
      {KIND, true, 2, true, false, {0}, {{0, 0, 0}}, 0, 0}

#define NO_WS_ROWS(KIND)                                                       \
  {KIND, true, 1, false, false, {0}, {{0, 0, 0}}, 0, 0},                       \
      {KIND, true, 1, true, false, {0}, {{0, 0, 0}}, 0, 0},                    \
      {KIND, true, 2, false, false, {0}, {{0, 0, 0}}, 0, 0},                   \
      {KIND, true, 2, true, false, {0}, {{0, 0, 0}}, 0, 0}

static const tc5_shape_row shape_table[] = {
    STD_ROWS(TC5_KIND_F16, 16),
    STD_ROWS(TC5_KIND_TF32, 8),
    STD_ROWS(TC5_KIND_F8F6F4, 32),
    /* .kind::i8: N = {8, 16, 24, 32, 48, ... 256} (steps of 16 after 32) for
     * cta_group::1, N = {32, 64, ... 256} for cta_group::2 */
    {TC5_KIND_I8, false, 1, false, true, M1, NI8, 32, 0},
    {TC5_KIND_I8, false, 1, true, true, M1, NI8, 64, 0},
    {TC5_KIND_I8, false, 2, false, true, M2, N32, 32, 0},
    {TC5_KIND_I8, false, 2, true, true, M2, N32, 64, 0},
    {TC5_KIND_I8, true, 1, false, true, MWS, NWS, 32, 0},
    {TC5_KIND_I8, true, 1, true, true, MWS, NWSSP, 64, 0},
    {TC5_KIND_I8, true, 2, false, false, {0}, {{0, 0, 0}}, 0, 0},
    {TC5_KIND_I8, true, 2, true, false, {0}, {{0, 0, 0}}, 0, 0},
    /* .kind::mxf8f6f4: M = 128 (cta_group::1), 128/256 dense and 256 sparse
     * (cta_group::2); .ws invalid */
    {TC5_KIND_MXF8F6F4, false, 1, false, true, {128}, N8, 32, 0},
    {TC5_KIND_MXF8F6F4, false, 1, true, true, {128}, N8, 64, 0},
    {TC5_KIND_MXF8F6F4, false, 2, false, true, M2, N16, 32, 0},
    {TC5_KIND_MXF8F6F4, false, 2, true, true, {256}, N16, 64, 0},
    NO_WS_ROWS(TC5_KIND_MXF8F6F4),
    /* .kind::mxf4 / mxf4nvf4: as mxf8f6f4 with K = 64 (128 sparse), and
     * 256xNxK1 with K1 = 96 (dense, cta_group::2, sm_103a) */
    {TC5_KIND_MXF4, false, 1, false, true, {128}, N8, 64, 0},
    {TC5_KIND_MXF4, false, 1, true, true, {128}, N8, 128, 0},
    {TC5_KIND_MXF4, false, 2, false, true, M2, N16, 64, 256},
    {TC5_KIND_MXF4, false, 2, true, true, {256}, N16, 128, 0},
    NO_WS_ROWS(TC5_KIND_MXF4),
    {TC5_KIND_MXF4NVF4, false, 1, false, true, {128}, N8, 64, 0},
    {TC5_KIND_MXF4NVF4, false, 1, true, true, {128}, N8, 128, 0},
    {TC5_KIND_MXF4NVF4, false, 2, false, true, M2, N16, 64, 256},
    {TC5_KIND_MXF4NVF4, false, 2, true, true, {256}, N16, 128, 0},
    NO_WS_ROWS(TC5_KIND_MXF4NVF4),
};

const tc5_shape_row *tc5_spec_shape_row(tc5_kind kind, bool ws,
                                        unsigned cta_group, bool sparse) {
  for (size_t i = 0; i < sizeof shape_table / sizeof shape_table[0]; i++) {
    const tc5_shape_row *r = &shape_table[i];
    if (r->kind == kind && r->ws == ws && r->cta_group == cta_group &&
        r->sparse == sparse)
      return r;
  }
  return NULL;
}

static bool seg_has(const tc5_nseg *s, unsigned n) {
  return s->step && n >= s->first && n <= s->last && (n - s->first) % s->step == 0;
}

bool tc5_spec_n_legal(const tc5_shape_row *row, unsigned n) {
  if (!row || !row->valid) return false;
  for (int i = 0; i < 3 && row->n[i].step; i++)
    if (seg_has(&row->n[i], n)) return true;
  return false;
}

void tc5_spec_n_text(const tc5_shape_row *row, char *buf, unsigned cap) {
  size_t len = 0;
  buf[0] = '\0';
  for (int i = 0; i < 3 && row->n[i].step; i++) {
    const tc5_nseg *s = &row->n[i];
    int w;
    if (s->first == s->last)
      w = snprintf(buf + len, cap - len, "%s%u", i ? ", " : "", s->first);
    else
      w = snprintf(buf + len, cap - len, "%s%u..%u step %u", i ? ", " : "",
                   s->first, s->last, s->step);
    if (w < 0 || (size_t)w >= cap - len) return;
    len += (size_t)w;
  }
}

/* ---- Table 50 ------------------------------------------------------------ */

static const tc5_t50_row table50[] = {
    {1, {16, 256, 16}},
    {2, {32, 256, 32}},
};

const tc5_t50_row *tc5_spec_table50(unsigned cta_group) {
  for (size_t i = 0; i < sizeof table50 / sizeof table50[0]; i++)
    if (table50[i].cta_group == cta_group) return &table50[i];
  return NULL;
}

/* ---- Tables 41 and 53 ---------------------------------------------------- */

static const tc5_swizzle_info swizzle_table[] = {
    /* mode, name, pattern bytes, width, atomicity, MN-major atom, K-major atom
     * Table 53: 128B/32B atoms exist only with M/N as leading dimension. */
    {TC5_SWIZZLE_NONE, "none", 16, 0, 16, 1, 8, 8, 1},
    {TC5_SWIZZLE_128B_BASE32B, "128B_base32B", 1024, 128, 32, 8, 4, 0, 0},
    {TC5_SWIZZLE_128B, "128B", 1024, 128, 16, 8, 8, 8, 8},
    {TC5_SWIZZLE_64B, "64B", 512, 64, 16, 4, 8, 8, 4},
    {TC5_SWIZZLE_32B, "32B", 256, 32, 16, 2, 8, 8, 2},
};

const tc5_swizzle_info *tc5_spec_swizzle(unsigned mode) {
  for (size_t i = 0; i < sizeof swizzle_table / sizeof swizzle_table[0]; i++)
    if (swizzle_table[i].mode == mode) return &swizzle_table[i];
  return NULL;
}

/* ---- Table 52 ------------------------------------------------------------ */

#define SW(m) (uint8_t)(1u << (m))
#define SW_ALL_16B                                                             \
  (SW(TC5_SWIZZLE_NONE) | SW(TC5_SWIZZLE_128B) | SW(TC5_SWIZZLE_64B) |         \
   SW(TC5_SWIZZLE_32B))

uint8_t tc5_spec_table52(unsigned bits, bool transposed) {
  /* Non-transposed (K-major) A/B: "all swizzling modes" for every size —
   * but Table 53 and CUTLASS (mma_traits_sm100.hpp make_umma_desc:
   * "SWIZZLE_128B_BASE32B is invalid for Major-K") have no K-major
   * 128B/32B-atom layout, so that mode is excluded. */
  if (!transposed)
    return (bits == 4 || bits == 6 || bits == 8 || bits == 16 || bits == 32)
               ? SW_ALL_16B
               : 0;
  if (bits == 8 || bits == 16) return SW_ALL_16B;
  if (bits == 32) return SW(TC5_SWIZZLE_128B_BASE32B);
  /* 4-bit and 6-bit: Table 52 lists no transposed layout, but CUTLASS
   * (media/docs/cpp/blackwell_functionality.md, Tables 2 and 3: f4/f6 with
   * .kind::f8f6f4 and .kind::mxf8f6f4 in "TN, NN, NT, TT" layouts, each with
   * unit tests) and Triton 3.9 (test_matmul.py's mxfp8 x mxfp4 matmul, fp4
   * packed along N, compiled for and tested on B200s) run them on the
   * hardware: a 16-byte chunk of 16 padded elements along M/N, as the 8-bit
   * layouts (docs/spec-departures.md). Two fp4 a byte (.kind::mxf4,
   * .kind::mxf4nvf4) stay K-major: Table 49 has no transpose there. */
  if (bits == 4 || bits == 6) return SW_ALL_16B;
  return 0;
}

/* ---- Tables 54 and 55 ---------------------------------------------------- */

static const tc5_scale_row scale_table[] = {
    {TC5_KIND_MXF8F6F4, 1, 32, 1},
    {TC5_KIND_MXF4, 1, 32, 2},
    {TC5_KIND_MXF4NVF4, 1, 32, 2},
    {TC5_KIND_MXF4NVF4, 1, 16, 4},
    {TC5_KIND_MXF4NVF4, 0, 16, 4},
};

const tc5_scale_row *tc5_spec_scale_rows(tc5_kind kind, unsigned *n) {
  const tc5_scale_row *first = NULL;
  unsigned cnt = 0;
  for (size_t i = 0; i < sizeof scale_table / sizeof scale_table[0]; i++) {
    if (scale_table[i].kind != kind) continue;
    if (!first) first = &scale_table[i];
    cnt++;
  }
  if (n) *n = cnt;
  return first;
}

/* ---- Tables 47 and 48 ---------------------------------------------------- */

static const uint8_t ldst_regs[3][8] = {
    /* .x1 .x2 .x4 .x8 .x16 .x32 .x64 .x128 */
    {1, 2, 4, 8, 16, 32, 64, 128}, /* .16x32bx2 / .16x64b / .32x32b */
    {2, 4, 8, 16, 32, 64, 128, 0}, /* .16x128b                      */
    {4, 8, 16, 32, 64, 128, 0, 0}, /* .16x256b                      */
};

unsigned tc5_spec_ldst_regs(unsigned shape_class, unsigned lognum) {
  if (shape_class >= 3 || lognum >= 8) return 0;
  return ldst_regs[shape_class][lognum];
}

/* ---- 9.7.16.2.3 data movement shapes of tcgen05.ld/st ------------------- */

static const tc5_ldst_shape_info ldst_shapes[TC5_TMEM_NSHAPES] = {
    [TC5_TMEM_32x32b] = {"32x32b", 32, 32, 0, true, false},
    [TC5_TMEM_16x64b] = {"16x64b", 16, 64, 0, false, false},
    [TC5_TMEM_16x128b] = {"16x128b", 16, 128, 1, false, false},
    [TC5_TMEM_16x256b] = {"16x256b", 16, 256, 2, false, false},
    [TC5_TMEM_16x32bx2] = {"16x32bx2", 16, 32, 0, true, true},
};

const tc5_ldst_shape_info *tc5_spec_ldst_shape(tc5_tmem_shape s) {
  if ((unsigned)s >= TC5_TMEM_NSHAPES) return NULL;
  return &ldst_shapes[s];
}
