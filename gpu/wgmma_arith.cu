/* tc5 on silicon: Hopper `wgmma` arithmetic against tc5's Hopper model.
 *
 * For each kind (bf16 -> f32, f16 -> f32, f16 -> f16, tf32 -> f32,
 * e4m3 x e4m3 -> f32, e5m2 x e4m3 -> f32, e4m3 x e4m3 -> f16) the H100 runs
 * m64n64 wgmma tiles — A and B in shared memory (K-major, no swizzle), C
 * loaded into the accumulator registers — on inputs drawn like MMA-Sim's
 * oracle (narrow exponent spread, any finite encoding, arbitrary bit
 * patterns with NaN/Inf), one instruction per tile and chains of four; every
 * output is compared bit for bit with tc5_gemm(TC5_MODEL_HOPPER, ...).
 * A probe then runs tiny bf16/tf32 products, with zeros, and reports which
 * values of the model's zero_exp (the exponent a zero term takes in the
 * alignment) agree with the silicon.
 *
 * Usage: wgmma_arith [--dry-run] OUTDIR   (gpu/run.sh arith builds and runs it;
 * --dry-run takes D from tc5 itself, to check the harness without a GPU)
 * TC5_ARITH_ROUNDS=R repeats the batches R times with fresh inputs;
 * TC5_ARITH_MODEL=blackwell compares f16/bf16/tf32 with the Blackwell model
 * (docs/fidelity.md: 102,236,160 outputs with R = 13, 0 mismatches).
 * Writes OUTDIR/summary.txt and, per kind, 1024 single-instruction outputs
 * as tc5 vectors (mmasim format) that `tc5 vectors check` reads.
 * Exit status: 0 when every output matches, 1 on a mismatch, 2 on errors.
 *
 * Layout facts used (PTX ISA, wgmma "Shared Memory Matrix Layout" and the
 * tcgen05 canonical layouts, ../shared/spec/ptx-tcgen05-chapter.md table of
 * canonical layouts): K-major without swizzle is
 * ((8,m),(T,2k)):((1T,SBO),(1,LBO)) in T-element (16-byte) units; the wgmma
 * descriptor holds start >> 4 in bits 0-13, LBO >> 4 in 16-29, SBO >> 4 in
 * 32-45, layout type (0: no swizzle) in 62-63. The accumulator fragment of
 * m64nN: thread t of the warpgroup holds, for i < N/2, row
 * 16 (t/32) + (t%32)/4 + 8 ((i/2)%2), column 8 (i/4) + 2 (t%4) + i%2. */
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "gpu_util.cuh"
#include "tc5/arith.h"
#include "tc5/formats.h"


#include "kernels/wgmma_arith.cuh" /* the kernels: wgmma_tiles<K, F16OUT> */

/* ---- host: inputs ------------------------------------------------------------ */

struct KindInfo {
  Kind id;
  const char *qual; /* MMA-Sim style qualifier of one instruction */
  tc5_kind kind;
  tc5_type a, b, c;
  int esz, kstep;
};

static const KindInfo kinds[NKINDS] = {
    {BF16_F32, "m64n64k16.f32.bf16.bf16", TC5_KIND_F16, TC5_BF16, TC5_BF16, TC5_F32, 2, 16},
    {F16_F32, "m64n64k16.f32.f16.f16", TC5_KIND_F16, TC5_F16, TC5_F16, TC5_F32, 2, 16},
    {F16_F16, "m64n64k16.f16.f16.f16", TC5_KIND_F16, TC5_F16, TC5_F16, TC5_F16, 2, 16},
    {TF32_F32, "m64n64k8.f32.tf32.tf32", TC5_KIND_TF32, TC5_TF32, TC5_TF32, TC5_F32, 4, 8},
    {E4M3_F32, "m64n64k32.f32.e4m3.e4m3", TC5_KIND_F8F6F4, TC5_E4M3, TC5_E4M3, TC5_F32, 1, 32},
    {E5M2_E4M3_F32, "m64n64k32.f32.e5m2.e4m3", TC5_KIND_F8F6F4, TC5_E5M2, TC5_E4M3, TC5_F32, 1, 32},
    {E4M3_F16, "m64n64k32.f16.e4m3.e4m3", TC5_KIND_F8F6F4, TC5_E4M3, TC5_E4M3, TC5_F16, 1, 32},
};

static uint64_t rnd() { return splitmix(); }
static double unif() { return splitmix_unif(); }

/* the probes: tiny products (2^-120..2^-148) with C = +-0, with C
 * subnormal, or with zeros among both C and the products */
enum Dist { NARROW, ANY_FINITE, ANY_BITS, PROBE_ZERO_C, PROBE_SUBNORMAL_C, PROBE_BOTH };
static const char *dist_name[] = {"narrow", "any-finite", "any-bits", "zero-c", "subnormal-c", "zero-c-and-products"};

static uint32_t random_bits(tc5_type t) {
  unsigned w = t == TC5_TF32 ? 32 : tc5_type_bits(t);
  return w >= 32 ? (uint32_t)rnd() : (uint32_t)(rnd() & ((1ull << w) - 1));
}

static bool finite_code(tc5_type t, uint32_t c) {
  double v;
  tc5_fmt_decode(t, c, &v, NULL);
  return v == v && v - v == 0;
}

/* one element code of type t */
static uint32_t gen(tc5_type t, Dist d, bool is_c) {
  uint32_t c = 0;
  switch (d) {
  case NARROW: {
    /* +-(1 + u) * 2^e, e in [-3, 3]: cancellation and carries */
    double v = (1 + unif()) * (double)(1 << (rnd() % 7)) / 8.0;
    if (rnd() & 1) v = -v;
    tc5_fmt_encode(t, v, TC5_ROUND_RN, true, &c);
    break;
  }
  case ANY_FINITE:
    do c = random_bits(t);
    while (!finite_code(t, c));
    break;
  case ANY_BITS:
    /* mostly finite, 1 in 32 arbitrary (NaN, Inf) */
    if (rnd() % 32 == 0) c = random_bits(t);
    else do c = random_bits(t);
      while (!finite_code(t, c));
    break;
  case PROBE_ZERO_C:
  case PROBE_SUBNORMAL_C:
  case PROBE_BOTH: {
    if (is_c) {
      if (d == PROBE_ZERO_C || (d == PROBE_BOTH && rnd() % 2)) return rnd() % 4 ? 0u : 0x80000000u;
      /* subnormal f32: 2^-127 .. 2^-149 */
      c = (uint32_t)(rnd() & 0x7FFFFF) >> (rnd() % 23);
      if (!c) c = 1;
      return c | (rnd() & 1 ? 0x80000000u : 0u);
    }
    if (d == PROBE_BOTH && rnd() % 5 == 0) return rnd() % 2 ? 0u : (t == TC5_TF32 ? 0x80000000u : 0x8000u);
    double v = (1 + unif()) * ldexp(1.0, -60 - (int)(rnd() % 14));
    if (rnd() & 1) v = -v;
    tc5_fmt_encode(t, v, TC5_ROUND_RZ, false, &c);
    break;
  }
  }
  if (t == TC5_TF32 && !is_c) c = (c & ~0x1FFFu) | (uint32_t)(rnd() & 0x1FFF); /* ignored bits */
  return c;
}

/* ---- host: runs ----------------------------------------------------------------- */

struct Batch {
  int tiles, steps;
  std::vector<Dist> dist;             /* per tile */
  std::vector<uint32_t> a, b, c, d;   /* codes: tiles x 64 x K, tiles x 64 (n) x K, C, D */
};

static void fill(const KindInfo &k, Batch &bt) {
  int K = bt.steps * k.kstep;
  bt.a.resize((size_t)bt.tiles * 64 * K);
  bt.b.resize((size_t)bt.tiles * 64 * K);
  bt.c.resize((size_t)bt.tiles * 4096);
  bt.d.assign((size_t)bt.tiles * 4096, 0);
  for (int t = 0; t < bt.tiles; t++) {
    Dist d = bt.dist[t];
    for (int x = 0; x < 64 * K; x++) bt.a[(size_t)t * 64 * K + x] = gen(k.a, d, false);
    for (int x = 0; x < 64 * K; x++) bt.b[(size_t)t * 64 * K + x] = gen(k.b, d, false);
    for (int x = 0; x < 4096; x++) bt.c[(size_t)t * 4096 + x] = gen(k.c, d, true);
  }
}

static void to_bytes(const std::vector<uint32_t> &codes, int esz, std::vector<uint8_t> &out) {
  out.resize(codes.size() * esz);
  for (size_t i = 0; i < codes.size(); i++)
    for (int j = 0; j < esz; j++) out[i * esz + j] = (uint8_t)(codes[i] >> (8 * j));
}

template <int K, bool F16OUT>
static void launch(const uint8_t *A, const uint8_t *B, const uint32_t *C, uint32_t *D, int steps, int tiles) {
  int smem = steps * 4096;
  wgmma_tiles<K, F16OUT><<<tiles < 264 ? tiles : 264, 128, smem>>>(A, B, C, D, steps, tiles);
}

static bool dry_run; /* --dry-run: D from tc5 itself (checks the harness, no GPU) */
static bool run_tc5(const KindInfo &k, const Batch &bt, const tc5_dot &m, std::vector<uint32_t> &out);

static void run_gpu(const KindInfo &k, Batch &bt) {
  if (dry_run) {
    tc5_dot m;
    tc5_dot_model(TC5_MODEL_HOPPER, k.kind, k.a, k.b, k.c, TC5_TYPE_NONE, 0, false, &m, NULL);
    run_tc5(k, bt, m, bt.d);
    return;
  }
  std::vector<uint8_t> ab, bb;
  to_bytes(bt.a, k.esz, ab);
  to_bytes(bt.b, k.esz, bb);
  uint8_t *dA, *dB;
  uint32_t *dC, *dD;
  CK(cudaMalloc(&dA, ab.size()));
  CK(cudaMalloc(&dB, bb.size()));
  CK(cudaMalloc(&dC, bt.c.size() * 4));
  CK(cudaMalloc(&dD, bt.d.size() * 4));
  CK(cudaMemcpy(dA, ab.data(), ab.size(), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dB, bb.data(), bb.size(), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dC, bt.c.data(), bt.c.size() * 4, cudaMemcpyHostToDevice));
  switch (k.id) {
  case BF16_F32: launch<BF16_F32, false>(dA, dB, dC, dD, bt.steps, bt.tiles); break;
  case F16_F32: launch<F16_F32, false>(dA, dB, dC, dD, bt.steps, bt.tiles); break;
  case F16_F16: launch<F16_F16, true>(dA, dB, dC, dD, bt.steps, bt.tiles); break;
  case TF32_F32: launch<TF32_F32, false>(dA, dB, dC, dD, bt.steps, bt.tiles); break;
  case E4M3_F32: launch<E4M3_F32, false>(dA, dB, dC, dD, bt.steps, bt.tiles); break;
  case E5M2_E4M3_F32: launch<E5M2_E4M3_F32, false>(dA, dB, dC, dD, bt.steps, bt.tiles); break;
  case E4M3_F16: launch<E4M3_F16, true>(dA, dB, dC, dD, bt.steps, bt.tiles); break;
  default: break;
  }
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  CK(cudaMemcpy(bt.d.data(), dD, bt.d.size() * 4, cudaMemcpyDeviceToHost));
  cudaFree(dA), cudaFree(dB), cudaFree(dC), cudaFree(dD);
}

/* tc5's D for every tile of the batch */
static bool run_tc5(const KindInfo &k, const Batch &bt, const tc5_dot &m, std::vector<uint32_t> &out) {
  int K = bt.steps * k.kstep;
  out = bt.c;
  std::vector<uint32_t> bkn((size_t)K * 64);
  for (int t = 0; t < bt.tiles; t++) {
    const uint32_t *bt_nk = &bt.b[(size_t)t * 64 * K];
    for (int n = 0; n < 64; n++)
      for (int kk = 0; kk < K; kk++) bkn[(size_t)kk * 64 + n] = bt_nk[(size_t)n * K + kk];
    if (tc5_gemm(&m, 64, 64, (unsigned)K, &bt.a[(size_t)t * 64 * K], bkn.data(), NULL, NULL,
                 &out[(size_t)t * 4096], NULL, 0) != TC5_OK)
      return false;
  }
  return true;
}

static int hexw(tc5_type t) { return t == TC5_F32 || t == TC5_TF32 ? 8 : t == TC5_F16 || t == TC5_BF16 ? 4 : 2; }

static void print_vector(FILE *f, const KindInfo &k, const Batch &bt, int t, int r, int n, uint32_t d) {
  int K = bt.steps * k.kstep;
  fprintf(f, "a=");
  for (int x = 0; x < K; x++) fprintf(f, "%s%0*x", x ? "," : "", hexw(k.a), bt.a[((size_t)t * 64 + r) * K + x]);
  fprintf(f, " b=");
  for (int x = 0; x < K; x++) fprintf(f, "%s%0*x", x ? "," : "", hexw(k.b), bt.b[((size_t)t * 64 + n) * K + x]);
  fprintf(f, " c=%0*x d=%0*x\n", hexw(k.c), bt.c[(size_t)t * 4096 + r * 64 + n], hexw(k.c), d);
}

int main(int argc, char **argv) {
  splitmix_state = 0x9E3779B97F4A7C15ull;
  int ai = 1;
  if (argc > 1 && !strcmp(argv[1], "--dry-run")) dry_run = true, ai++;
  const char *outdir = argc > ai ? argv[ai] : ".";
  char path[4096];
  snprintf(path, sizeof path, "%s/summary.txt", outdir);
  FILE *sum = fopen(path, "w");
  if (!sum) {
    perror(path);
    return 2;
  }
  cudaDeviceProp prop;
  memset(&prop, 0, sizeof prop);
  if (dry_run) snprintf(prop.name, sizeof prop.name, "dry run (tc5 itself)");
  else CK(cudaGetDeviceProperties(&prop, 0));
  fprintf(sum, "device: %s (sm_%d%d)\n", prop.name, prop.major, prop.minor);
  printf("device: %s (sm_%d%d)\n", prop.name, prop.major, prop.minor);
  bool all_ok = true;
  const int T1 = 384, T4 = 96; /* 384 one-instruction tiles, 96 chains of 4: 1.97e6 outputs */
  /* TC5_ARITH_ROUNDS=R repeats each kind's batches R times (new inputs each
   * time); TC5_ARITH_MODEL=blackwell compares the f16/bf16/tf32 kinds with the
   * Blackwell model instead (issue 21: where the H100 computes Blackwell's
   * bits), without the fp8 kinds, the vector files and the zero probe */
  const char *env_r = getenv("TC5_ARITH_ROUNDS"), *env_m = getenv("TC5_ARITH_MODEL");
  const int rounds = env_r && atoi(env_r) > 0 ? atoi(env_r) : 1;
  const bool blackwell = env_m && !strcmp(env_m, "blackwell");
  const tc5_model model = blackwell ? TC5_MODEL_BLACKWELL : TC5_MODEL_HOPPER;
  fprintf(sum, "model: %s, %d round%s\n", blackwell ? "blackwell" : "hopper", rounds, rounds == 1 ? "" : "s");
  for (int ki = 0; ki < NKINDS; ki++) {
    const KindInfo &k = kinds[ki];
    if (blackwell && k.kind == TC5_KIND_F8F6F4) continue; /* Hopper's fp8 is not Blackwell's */
    tc5_dot m;
    if (tc5_dot_model(model, k.kind, k.a, k.b, k.c, TC5_TYPE_NONE, 0, false, &m, NULL) != TC5_OK) {
      fprintf(stderr, "no tc5 model for %s\n", k.qual);
      return 2;
    }
    unsigned long long outputs = 0, bad = 0, per_dist[3][2] = {{0}};
    for (int chain = 0; chain < 2 * rounds; chain++) {
      Batch bt;
      bt.steps = chain % 2 ? 4 : 1;
      bt.tiles = chain % 2 ? T4 : T1;
      for (int t = 0; t < bt.tiles; t++) bt.dist.push_back(t % 8 < 4 ? NARROW : t % 8 < 7 ? ANY_FINITE : ANY_BITS);
      fill(k, bt);
      run_gpu(k, bt);
      std::vector<uint32_t> want;
      if (!run_tc5(k, bt, m, want)) {
        fprintf(stderr, "tc5_gemm failed\n");
        return 2;
      }
      FILE *vf = NULL;
      if (!chain && !blackwell) {
        snprintf(path, sizeof path, "%s/hopper.%s.txt", outdir, k.qual);
        vf = fopen(path, "w");
        if (vf)
          fprintf(vf, "# H100 wgmma outputs (gpu/wgmma_arith.cu): arch=Hopper qualifier=%s device=%s\n"
                      "# fields: a (row of A), b (column of B), c, d; raw hex codes\n", k.qual, prop.name);
      }
      for (int t = 0; t < bt.tiles; t++)
        for (int x = 0; x < 4096; x++) {
          size_t i = (size_t)t * 4096 + x;
          bool ok = want[i] == bt.d[i];
          outputs++;
          per_dist[bt.dist[t]][0]++;
          if (!ok) {
            per_dist[bt.dist[t]][1]++;
            if (bad++ < 5) {
              fprintf(sum, "MISMATCH %s steps=%d tile %d (%d,%d) %s: silicon %08x tc5 %08x\n  ", k.qual, bt.steps, t,
                      x / 64, x % 64, dist_name[bt.dist[t]], bt.d[i], want[i]);
              print_vector(sum, k, bt, t, x / 64, x % 64, bt.d[i]);
            }
          }
          /* 1024 vectors per kind for the test suite: every 24th tile's row t%64 */
          if (vf && t % 3 == 0 && x / 64 == (t / 3) % 64 && x % 8 == t % 8)
            print_vector(vf, k, bt, t, x / 64, x % 64, bt.d[i]);
        }
      if (vf) fclose(vf);
    }
    fprintf(sum, "%-26s %9llu outputs, %llu mismatches (narrow %llu/%llu, any-finite %llu/%llu, any-bits %llu/%llu)\n",
            k.qual, outputs, bad, per_dist[0][1], per_dist[0][0], per_dist[1][1], per_dist[1][0], per_dist[2][1],
            per_dist[2][0]);
    printf("%-26s %9llu outputs, %llu mismatches\n", k.qual, outputs, bad);
    if (bad) all_ok = false;
  }
  /* the zero_exp probe: which exponent does a zero term take in the
   * alignment? Per flavour (zero C only, zero products only, both), the
   * mismatches of tc5 with each candidate zero_exp; the vectors where the
   * candidates disagree go to one file per kind for offline analysis. */
  const int PT = 384;
  for (int ki : {BF16_F32, TF32_F32}) {
    if (blackwell) break; /* the probe is Hopper's */
    const KindInfo &k = kinds[ki];
    Batch bt;
    bt.steps = 1;
    bt.tiles = PT;
    for (int t = 0; t < PT; t++) bt.dist.push_back((Dist)(PROBE_ZERO_C + t % 3));
    fill(k, bt);
    run_gpu(k, bt);
    std::vector<int> zs = {-600};
    for (int z = -160; z <= -120; z++) zs.push_back(z);
    std::vector<std::vector<uint32_t>> want(zs.size());
    for (size_t h = 0; h < zs.size(); h++) {
      tc5_dot m;
      tc5_dot_model(TC5_MODEL_HOPPER, k.kind, k.a, k.b, k.c, TC5_TYPE_NONE, 0, false, &m, NULL);
      m.zero_exp = zs[h];
      run_tc5(k, bt, m, want[h]);
    }
    for (int fl = 0; fl < 3; fl++) {
      fprintf(sum, "zero_exp probe %s, %s (%d outputs): mismatches per zero_exp:", k.qual,
              dist_name[PROBE_ZERO_C + fl], PT / 3 * 4096);
      for (size_t h = 0; h < zs.size(); h++) {
        unsigned long long bad = 0;
        for (int t = fl; t < PT; t += 3)
          for (int x = 0; x < 4096; x++) bad += want[h][(size_t)t * 4096 + x] != bt.d[(size_t)t * 4096 + x];
        fprintf(sum, " %d:%llu", zs[h], bad);
      }
      fprintf(sum, "\n");
    }
    snprintf(path, sizeof path, "%s/probe.%s.txt", outdir, k.qual);
    FILE *pf = fopen(path, "w");
    if (pf) {
      fprintf(pf, "# zero_exp probe, H100 wgmma: arch=Hopper qualifier=%s (vectors where candidates disagree)\n", k.qual);
      /* candidates -600 and -160..-126 (above -126 every one fails) */
      unsigned lines = 0;
      for (int t = 0; t < PT && lines < 30000; t++)
        for (int x = 0; x < 4096; x++) {
          size_t i = (size_t)t * 4096 + x;
          bool differ = bt.d[i] != want[0][i];
          for (size_t h = 1; h < zs.size() && zs[h] <= -126 && !differ; h++) differ = want[h][i] != want[0][i];
          if (differ && lines++ < 30000) {
            fprintf(pf, "# tile %d %s\n", t, dist_name[bt.dist[t]]);
            print_vector(pf, k, bt, t, x / 64, x % 64, bt.d[i]);
          }
        }
      fclose(pf);
    }
  }
  fprintf(sum, all_ok ? "ALL MATCH\n" : "MISMATCHES FOUND\n");
  fclose(sum);
  printf(all_ok ? "ALL MATCH\n" : "MISMATCHES FOUND\n");
  return all_ok ? 0 : 1;
}
