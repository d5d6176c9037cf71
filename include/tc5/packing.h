/* tc5 — packing formats of elements in Tensor and Shared memory (spec
 * 9.7.16.10.4) and the optional decompression of tcgen05.cp (9.7.16.9.1).
 *
 * Codes are one per uint8_t (low bits), as tc5_fmt_encode produces them.
 *
 * Where the spec's figures are missing:
 *  - fp4 two per byte: element 2i in the low nibble of byte i (the order of
 *    CUTLASS's sub-byte containers and of MMA-Sim's golden vectors);
 *  - fp4/fp6 in shared memory for .kind::mxf8f6f4: 16 elements packed
 *    contiguously, element i at bits [w*i, w*(i+1)) of the 8 (4-bit) or 12
 *    (6-bit) data bytes, then 8 or 4 bytes of padding: the .b4x16_p64 /
 *    .b6x16_p32 layouts that TMA writes (CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B,
 *    16U6_ALIGN16B);
 *  - one element in an 8-bit container (A of .kind::mxf8f6f4 in Tensor
 *    Memory, and what tcgen05.cp's decompression writes): fp6 in bits [5:0],
 *    fp4 in bits [5:2] — CUTLASS (include/cute/atom/mma_traits_sm120.hpp,
 *    fp4_shift_A/B) states that the f8f6f4 MMA datapath "expects the four-bit
 *    data to be in the middle of the eight-bit container" (0b00ABCD00) and
 *    that fp6 needs no shift. fp4 in bits [5:2] is the e2m3 code of the same
 *    value. Unconfirmed on B200 silicon (see README).
 */
#ifndef TC5_PACKING_H
#define TC5_PACKING_H

#include <stddef.h>
#include <stdint.h>

#include "tc5/formats.h"
#include "tc5/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* fp4 two per byte (mxf4/mxf4nvf4 A and B in shared memory, 9.7.16.10.4.6,
 * and A in Tensor Memory, 9.7.16.10.4.5). `bytes` holds (n + 1) / 2 bytes. */
tc5_status tc5_pack_fp4x2(const uint8_t *codes, size_t n, uint8_t *bytes);
tc5_status tc5_unpack_fp4x2(const uint8_t *bytes, size_t n, uint8_t *codes);

/* Bytes that n elements of type t take in shared memory for .kind::mxf8f6f4
 * (9.7.16.10.4.4): n for 8-bit types, 16 per group of 16 for 4/6-bit. */
tc5_status tc5_smem_f8f6f4_bytes(tc5_type t, size_t n, size_t *bytes);
/* n a multiple of 16 for the 4/6-bit types; padding bytes are written 0. */
tc5_status tc5_pack_smem_f8f6f4(tc5_type t, const uint8_t *codes, size_t n, uint8_t *out);
/* Padding is ignored, as the hardware ignores it. */
tc5_status tc5_unpack_smem_f8f6f4(tc5_type t, const uint8_t *in, size_t n, uint8_t *codes);

/* One element in an 8-bit container (9.7.16.10.4.3). Reading a container
 * whose padding bits are not 0 returns TC5_ERESERVED (the code is still set). */
tc5_status tc5_container8_pack(tc5_type t, uint32_t code, uint8_t *c8);
tc5_status tc5_container8_unpack(tc5_type t, uint8_t c8, uint32_t *code);

/* A of .kind::mxf8f6f4 in Tensor Memory: 8-bit containers, four to a 32-bit
 * word, element 4w + j in byte j of word w. `words` holds (n + 3) / 4. */
tc5_status tc5_pack_tmem_f8f6f4(tc5_type t, const uint8_t *codes, size_t n, uint32_t *words);
tc5_status tc5_unpack_tmem_f8f6f4(tc5_type t, const uint32_t *words, size_t n, uint8_t *codes);

/* D in Tensor Memory (9.7.16.10.4.1): one element per 32-bit word, a 16-bit
 * element in the low half (the high half 0). Unpacking an f16 word whose high
 * half is not 0 returns TC5_ERESERVED (the code is still set). */
tc5_status tc5_pack_d_word(tc5_type dtype, uint32_t code, uint32_t *word);
tc5_status tc5_unpack_d_word(tc5_type dtype, uint32_t word, uint32_t *code);

/* tcgen05.cp decompression (9.7.16.9.1): 16 bytes of shared memory in the
 * source format become 16 8-bit containers. */
typedef enum tc5_cp_src_fmt {
  TC5_CP_B6X16_P32 = 0, /* 16 6-bit elements + 32 bits of padding */
  TC5_CP_B4X16_P64      /* 16 4-bit elements + 64 bits of padding */
} tc5_cp_src_fmt;

const char *tc5_cp_src_fmt_name(tc5_cp_src_fmt f);
tc5_status tc5_cp_decompress(tc5_cp_src_fmt f, const uint8_t src[16], uint8_t dst[16]);
/* The inverse (what a producer writes for tcgen05.cp to decompress);
 * TC5_ERANGE when a container has bits outside its element's place. */
tc5_status tc5_cp_compress(tc5_cp_src_fmt f, const uint8_t src[16], uint8_t dst[16]);

#ifdef __cplusplus
}
#endif
#endif
