/* libFuzzer target past the parser (issue 39): valid kernels with valid
 * launches (the recipes of tests/fuzz/launch.txt, the silicon manifests
 * tests/data/ptx/tma90/kernels.txt and sm90/kernels.txt, and ConSan's test
 * kernels, tests/data/consan/manifest.tsv, which launch.txt includes), their
 * launch mutated by the input: grid, block, cluster, dynamic shared bytes,
 * the arguments (kinds, value sizes and bits, NULL buffers, buffers too
 * small or larger, their bytes, finite noise), tensor maps'
 * cuTensorMapEncode fields (encoded by tc5_tmap's API in the launch, and
 * also directly: encode, decode, tensormap.replace), the entry's name. Each
 * launch runs on one host thread with a step limit (the recipe's steps:N,
 * else STEPS) and the checker in its default mode. Every outcome must be a
 * clean run, an error with a message (tc5_diag), or a checker finding; an
 * error without a message, a tensor map that does not read back as it was
 * encoded, a crash, a sanitizer report, a hang past libFuzzer's -timeout or
 * memory past -rss_limit_mb is a bug.
 *
 * Input, version 1: byte 0 picks one of the recipes that are not ConSan's
 * (the order of the recipe list: launch.txt, then the silicon manifests);
 * then operations, each an opcode byte and its operands, until the input
 * ends (bytes past the end read as 0).
 * Version 2 (the seeds scripts/fuzz.sh writes): bytes 0-2 are C5 4C 02,
 * bytes 3-4 the recipe's index (little-endian, any recipe), byte 5 a count
 * of data sections (at most 4), each an argument index, a 4-byte offset, a
 * 2-byte length and that many bytes, written over the argument's buffer
 * there (the seed of a recipe carries the first bytes of its input
 * buffers, so libFuzzer mutates a real kernel's input bytes); then the
 * operations of version 1.
 * TC5_FUZZ_MANIFESTS (colon-separated paths) replaces the manifests;
 * TC5_FUZZ_SEEDS=DIR writes one version-2 seed per recipe into DIR and exits
 * (scripts/fuzz.sh; TC5_FUZZ_SEEDS_EVERY=N: every N-th recipe);
 * TC5_FUZZ_RECIPES=N runs the seed of every N-th recipe (1: all) once,
 * prints a line a recipe (index, kernel, outcome, warp-instructions,
 * milliseconds) and the inputs a second, and exits; TC5_FUZZ_STEPS=N
 * replaces the default step bound (STEPS);
 * TC5_FUZZ_NOISE=raw lets the noise operation write any bytes (NaN and
 * infinity codes among them; by default noise is finite in every float
 * format). Built by scripts/fuzz.sh (clang, libFuzzer, ASan + UBSan) and,
 * with tests/fuzz/replay.c for a main, by CTest (fuzz_launch_replay runs
 * tests/data/fuzz/launch). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tc5/ptx.h"
#include "tc5/tensormap.h"

#ifndef TC5_FUZZ_ROOT
#define TC5_FUZZ_ROOT "."
#endif

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_ARGS 24
#define MAX_RECIPES 1024
#define PER_ENTRY 4               /* recipes kept of one kernel (tma_load_2d has 81) */
#define MAX_BUFFER (1u << 20)     /* the largest buffer an input makes */
#define MAX_CTAS 16               /* a valid grid larger than this is cut down: a run, not a hang */
#define STEPS 100000              /* warp-instructions a CTA (tc5_ptx_launch_cfg.max_steps) */
#define SEED_BYTES 512            /* a version-2 seed carries this many bytes of each input buffer */
static const uint8_t V2[3] = {0xC5, 0x4C, 0x02};

typedef struct rarg {
  tc5_ptx_arg_kind kind;
  uint32_t size;
  uint64_t bits;
  const uint8_t *init; /* the buffer's bytes (NULL: zeros) */
  size_t bytes;        /* buffer bytes (BUFFER, a tensor map's own, GLOBAL) */
  tc5_tmap_params tmap;
  unsigned buffer;
  bool own; /* a tensor map with a buffer of its own */
} rarg;
typedef struct recipe {
  const tc5_ptx_module *m;
  const char *file; /* the PTX file's path */
  char entry[128];
  uint32_t grid[3], block[3], cluster[3], shared;
  uint64_t steps;   /* the step limit (steps:N, a steps line), else STEPS */
  bool consan;      /* from a ConSan manifest (version 2 inputs only) */
  unsigned nargs;
  rarg a[MAX_ARGS];
} recipe;

static recipe *recipes;
static unsigned nrecipes;
static unsigned nv1; /* the recipes version-1 inputs pick among: those that are not ConSan's */
static unsigned nconsan;
static bool raw_noise;
static uint64_t default_steps = STEPS; /* TC5_FUZZ_STEPS replaces STEPS */

/* ---- the recipes: files read once ---- */
typedef struct blob {
  char path[1024];
  uint8_t *data;
  size_t n;
  tc5_ptx_module *m;
} blob;
static blob blobs[512];
static unsigned nblobs;

static blob *file(const char *path) {
  for (unsigned k = 0; k < nblobs; k++)
    if (!strcmp(blobs[k].path, path)) return &blobs[k];
  if (nblobs == sizeof blobs / sizeof blobs[0]) return NULL;
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  blob *b = &blobs[nblobs];
  size_t cap = 1 << 16;
  b->data = malloc(cap);
  b->n = 0;
  for (size_t got; b->data && (got = fread(b->data + b->n, 1, cap - b->n, f)) > 0;) {
    b->n += got;
    if (b->n == cap) {
      uint8_t *nd = realloc(b->data, cap *= 2);
      if (!nd) free(b->data);
      b->data = nd;
    }
  }
  fclose(f);
  if (!b->data) return NULL;
  snprintf(b->path, sizeof b->path, "%s", path);
  nblobs++;
  return b;
}

static void dirname_of(const char *path, char *dir, size_t cap) {
  snprintf(dir, cap, "%s", path);
  char *s = strrchr(dir, '/');
  if (s) *s = 0;
  else snprintf(dir, cap, ".");
}

/* Deterministic noise into b[0, n). Finite (raw false): bit 6 of every
 * byte clear, so that every float format of 8 bits or more reads a finite
 * value of magnitude below 2 at any byte offset (e4m3, e5m2, f16, bf16,
 * tf32, f32: the exponent's top bit is bit 6 of the top byte), fp4 and fp6
 * having no NaN; raw: any bytes. */
static void noise(uint8_t *b, size_t n, uint64_t seed, bool raw) {
  for (size_t i = 0; i < n; i++) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    b[i] = (uint8_t)(seed >> 56) & (raw ? 0xff : 0xbf);
  }
}
/* deterministic finite noise for rand:N */
static uint8_t *rand_bytes(size_t n, uint64_t seed) {
  uint8_t *b = malloc(n ? n : 1);
  if (b) noise(b, n, seed, false);
  return b;
}

typedef struct tkeys {
  const char *dir;
  rarg *a;
  bool ok;
} tkeys;
/* a tmap: spec's keys that tc5_tmap_params_parse leaves to its caller */
static bool tmap_key(void *ctx, const char *key, const char *value) {
  tkeys *k = ctx;
  char path[1200];
  if (!strcmp(key, "in") || !strcmp(key, "inout")) {
    snprintf(path, sizeof path, "%s/%s", k->dir, value);
    blob *b = file(path);
    if (!b) k->ok = false;
    else k->a->init = b->data, k->a->bytes = b->n, k->a->own = true;
    return true;
  }
  if (!strcmp(key, "out")) {
    const char *c = strrchr(value, ':');
    k->a->bytes = strtoul(c ? c + 1 : value, NULL, 0);
    k->a->own = true;
    return true;
  }
  if (!strcmp(key, "buf")) {
    k->a->buffer = (unsigned)strtoul(value, NULL, 0) - 1;
    return true;
  }
  if (!strcmp(key, "offset")) {
    k->a->tmap.address = strtoull(value, NULL, 0);
    return true;
  }
  return false;
}

/* one argument in tc5 run's form (in:F out:N inout:F scratch:N u32:V s32:V
 * u64:V s64:V b32:0xH b64:0xH f32:V null tmap:...), plus rand:N */
static bool parse_arg(const char *dir, const char *spec, rarg *a) {
  memset(a, 0, sizeof *a);
  const char *v = strchr(spec, ':');
  v = v ? v + 1 : "";
  char path[1200];
  if (!strcmp(spec, "null")) {
    a->kind = TC5_PTX_ARG_VALUE, a->size = 8;
  } else if (!strncmp(spec, "u32:", 4) || !strncmp(spec, "s32:", 4) || !strncmp(spec, "b32:", 4)) {
    a->kind = TC5_PTX_ARG_VALUE, a->size = 4, a->bits = (uint32_t)strtoll(v, NULL, 0);
  } else if (!strncmp(spec, "u64:", 4) || !strncmp(spec, "s64:", 4) || !strncmp(spec, "b64:", 4)) {
    a->kind = TC5_PTX_ARG_VALUE, a->size = 8, a->bits = (uint64_t)strtoull(v, NULL, 0);
  } else if (!strncmp(spec, "f32:", 4)) {
    float f = strtof(v, NULL);
    uint32_t u;
    memcpy(&u, &f, 4);
    a->kind = TC5_PTX_ARG_VALUE, a->size = 4, a->bits = u;
  } else if (!strncmp(spec, "in:", 3) || !strncmp(spec, "inout:", 6)) {
    snprintf(path, sizeof path, "%s/%s", dir, v);
    blob *b = file(path);
    if (!b) return false;
    a->kind = TC5_PTX_ARG_BUFFER, a->init = b->data, a->bytes = b->n;
  } else if (!strncmp(spec, "out:", 4) || !strncmp(spec, "scratch:", 8)) {
    const char *c = strrchr(v, ':');
    a->kind = TC5_PTX_ARG_BUFFER, a->bytes = strtoul(c ? c + 1 : v, NULL, 0);
  } else if (!strncmp(spec, "rand:", 5)) {
    a->kind = TC5_PTX_ARG_BUFFER, a->bytes = strtoul(v, NULL, 0);
    a->init = rand_bytes(a->bytes, a->bytes); /* kept for the process's life */
  } else if (!strncmp(spec, "tmap:", 5)) {
    tkeys k = {dir, a, true};
    a->kind = TC5_PTX_ARG_TENSORMAP;
    if (tc5_tmap_params_parse(v, &a->tmap, tmap_key, &k, NULL) || !k.ok) return false;
  } else {
    return false;
  }
  return a->bytes <= (64u << 20);
}

/* "2,2" -> {2, 2, 1} */
static void dim3(const char *s, uint32_t d[3]) {
  d[0] = d[1] = d[2] = 1;
  for (int k = 0; k < 3 && *s; k++) {
    char *e;
    d[k] = (uint32_t)strtoul(s, &e, 10);
    s = *e == ',' ? e + 1 : e;
  }
}

/* the step bounds of `steps PREFIX N` lines: recipes whose PTX file's
 * name starts with PREFIX run at most N warp-instructions a CTA */
static struct bound {
  char prefix[128];
  uint64_t steps;
} bounds[32];
static unsigned nbounds;

/* A recipe: PTX (a path), entry, launch, arguments in tc5 run's forms
 * (global[k]: argument k is a --buffer, a global buffer that takes no
 * .param; steps:N among them bounds the run). False (and said) when the
 * kernel does not load or an argument cannot be made. */
static bool add_recipe(const char *dir, const char *ptx, const char *entry, const uint32_t grid[3],
                       const uint32_t block[3], const uint32_t cluster[3], uint32_t shared, char **args,
                       const bool *global, unsigned nargs, bool consan) {
  if (nrecipes >= MAX_RECIPES) return false;
  blob *b = file(ptx);
  if (!b) {
    fprintf(stderr, "fuzz_launch: cannot read %s\n", ptx);
    return false;
  }
  unsigned same = 0;
  for (unsigned k = 0; k < nrecipes; k++) same += recipes[k].file == b->path && !strcmp(recipes[k].entry, entry);
  if (same >= PER_ENTRY) return false;
  if (!b->m) {
    tc5_diag dg;
    tc5_diag_init(&dg);
    if (tc5_ptx_load((const char *)b->data, b->n, b->path, &b->m, &dg)) {
      fprintf(stderr, "fuzz_launch: %s does not load: %s\n", ptx, dg.count ? dg.issue[0].message : "");
      return false;
    }
  }
  recipe *r = &recipes[nrecipes];
  memset(r, 0, sizeof *r);
  r->m = b->m;
  r->file = b->path;
  snprintf(r->entry, sizeof r->entry, "%s", entry);
  memcpy(r->grid, grid, sizeof r->grid);
  memcpy(r->block, block, sizeof r->block);
  memcpy(r->cluster, cluster, sizeof r->cluster);
  r->shared = shared;
  r->steps = default_steps;
  r->consan = consan;
  for (unsigned k = 0; k < nargs; k++) {
    if (!strncmp(args[k], "steps:", 6)) {
      r->steps = strtoull(args[k] + 6, NULL, 0);
      continue;
    }
    if (r->nargs == MAX_ARGS || !parse_arg(dir, args[k], &r->a[r->nargs])) {
      fprintf(stderr, "fuzz_launch: %s %s: an argument it cannot make (%s)\n", ptx, entry, args[k]);
      return false;
    }
    if (global && global[k]) {
      if (r->a[r->nargs].kind != TC5_PTX_ARG_BUFFER) return false;
      r->a[r->nargs].kind = TC5_PTX_ARG_GLOBAL;
    }
    r->nargs++;
  }
  nrecipes++;
  return true;
}

/* ConSan's manifest (tests/data/consan/manifest.tsv): ID EXPECT CLASSES
 * ARCH PTX OPTIONS, tab-separated; PTX in DIR/ptx/, OPTIONS tc5 run's
 * (--entry --grid --block --cluster --shared-bytes --arg --buffer) */
static void read_consan(const char *path) {
  FILE *f = fopen(path, "r");
  if (!f) {
    fprintf(stderr, "fuzz_launch: cannot read the manifest %s\n", path);
    return;
  }
  char dir[1024], line[8192];
  dirname_of(path, dir, sizeof dir);
  while (fgets(line, sizeof line, f)) {
    if (line[0] == '#' || line[0] == '\n') continue;
    char *col[6], *save = NULL;
    int nc = 0;
    for (char *t = strtok_r(line, "\t\n", &save); t && nc < 6; t = strtok_r(NULL, "\t\n", &save)) col[nc++] = t;
    if (nc < 6) continue;
    char ptx[1200], entry[128] = "kernel", *args[MAX_ARGS];
    bool global[MAX_ARGS] = {false};
    uint32_t grid[3] = {1, 1, 1}, block[3] = {1, 1, 1}, cluster[3] = {0, 0, 0}, shared = 0;
    unsigned nargs = 0;
    bool ok = true;
    snprintf(ptx, sizeof ptx, "%s/ptx/%s", dir, col[4]);
    char *save2 = NULL;
    for (char *o = strtok_r(col[5], " ", &save2); o && ok; o = strtok_r(NULL, " ", &save2)) {
      char *v = strtok_r(NULL, " ", &save2);
      if (!v) ok = false;
      else if (!strcmp(o, "--entry")) snprintf(entry, sizeof entry, "%s", v);
      else if (!strcmp(o, "--grid")) dim3(v, grid);
      else if (!strcmp(o, "--block")) dim3(v, block);
      else if (!strcmp(o, "--cluster")) dim3(v, cluster);
      else if (!strcmp(o, "--shared-bytes")) shared = (uint32_t)strtoul(v, NULL, 0);
      else if ((!strcmp(o, "--arg") || !strcmp(o, "--buffer")) && nargs < MAX_ARGS) {
        global[nargs] = o[2] == 'b';
        args[nargs++] = v;
      } else ok = false;
    }
    if (!ok) fprintf(stderr, "fuzz_launch: %s: %s: options it cannot take\n", path, col[0]);
    else add_recipe(dir, ptx, entry, grid, block, cluster, shared, args, global, nargs, true);
  }
  fclose(f);
}

static void read_manifest(const char *path);
/* a manifest: ConSan's (.tsv) or fuzz_launch's own form */
static void read_any(const char *path) {
  size_t n = strlen(path);
  if (n > 4 && !strcmp(path + n - 4, ".tsv")) read_consan(path);
  else read_manifest(path);
}

/* fuzz_launch's own form, a line a recipe: FILE NAME GRID BLOCK SHARED ARG...
 * (FILE relative to the manifest; steps:N among the arguments bounds it);
 * `include PATH` reads another manifest (relative to this one); `steps
 * PREFIX N` bounds every recipe whose PTX file's name starts with PREFIX */
static void read_manifest(const char *path) {
  FILE *f = fopen(path, "r");
  if (!f) {
    fprintf(stderr, "fuzz_launch: cannot read the manifest %s\n", path);
    return;
  }
  char dir[1024], line[8192];
  dirname_of(path, dir, sizeof dir);
  while (fgets(line, sizeof line, f) && nrecipes < MAX_RECIPES) {
    if (line[0] == '#' || line[0] == '\n') continue;
    char *save = NULL, *tok[3 + 2 + MAX_ARGS];
    int nt = 0;
    for (char *t = strtok_r(line, " \t\n", &save); t && nt < (int)(sizeof tok / sizeof tok[0]);
         t = strtok_r(NULL, " \t\n", &save))
      tok[nt++] = t;
    char sub[1200];
    if (nt == 2 && !strcmp(tok[0], "include")) {
      snprintf(sub, sizeof sub, "%s/%s", dir, tok[1]);
      read_any(sub);
      continue;
    }
    if (nt == 3 && !strcmp(tok[0], "steps")) {
      if (nbounds < sizeof bounds / sizeof bounds[0]) {
        snprintf(bounds[nbounds].prefix, sizeof bounds[nbounds].prefix, "%s", tok[1]);
        bounds[nbounds++].steps = strtoull(tok[2], NULL, 0);
      }
      continue;
    }
    if (nt < 5) continue;
    char ptx[1200];
    snprintf(ptx, sizeof ptx, "%s/%s", dir, tok[0]);
    uint32_t grid[3], block[3], cluster[3] = {0, 0, 0};
    dim3(tok[2], grid);
    dim3(tok[3], block);
    add_recipe(dir, ptx, tok[1], grid, block, cluster, (uint32_t)strtoul(tok[4], NULL, 0), tok + 5, NULL,
               (unsigned)nt - 5, false);
  }
  fclose(f);
}

/* recipe k's version-2 seed: the header, the first SEED_BYTES bytes of
 * each input buffer (the recipe's own bytes) as data sections; *n its size */
static uint8_t *seed_of(unsigned k, size_t *n) {
  const recipe *r = &recipes[k];
  size_t cap = 6, len = 0;
  for (unsigned i = 0; i < r->nargs; i++) cap += 7 + SEED_BYTES;
  uint8_t *s = malloc(cap);
  if (!s) return NULL;
  memcpy(s, V2, 3);
  s[3] = (uint8_t)k, s[4] = (uint8_t)(k >> 8), s[5] = 0;
  len = 6;
  for (unsigned i = 0; i < r->nargs && s[5] < 4; i++) {
    if (!r->a[i].init || !r->a[i].bytes) continue;
    size_t b = r->a[i].bytes < SEED_BYTES ? r->a[i].bytes : SEED_BYTES;
    s[len++] = (uint8_t)i;
    memset(s + len, 0, 4); /* offset 0 */
    len += 4;
    s[len++] = (uint8_t)b, s[len++] = (uint8_t)(b >> 8);
    memcpy(s + len, r->a[i].init, b);
    len += b;
    s[5]++;
  }
  *n = len;
  return s;
}

static unsigned *v1idx; /* version 1's recipes, by their index among them */
static int one(const uint8_t *data, size_t size, tc5_status *status, tc5_ptx_stats *stats, char *msg, size_t cap);

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc, (void)argv;
  recipes = calloc(MAX_RECIPES, sizeof *recipes);
  v1idx = calloc(MAX_RECIPES, sizeof *v1idx);
  if (!recipes || !v1idx) abort();
  const char *ds = getenv("TC5_FUZZ_STEPS");
  if (ds && strtoull(ds, NULL, 0)) default_steps = strtoull(ds, NULL, 0);
  const char *env = getenv("TC5_FUZZ_MANIFESTS");
  char list[4096];
  if (env) snprintf(list, sizeof list, "%s", env);
  else
    snprintf(list, sizeof list,
             "%s/tests/fuzz/launch.txt:%s/tests/data/ptx/tma90/kernels.txt:%s/tests/data/ptx/sm90/kernels.txt:"
             "%s/tests/data/consan/manifest.tsv",
             TC5_FUZZ_ROOT, TC5_FUZZ_ROOT, TC5_FUZZ_ROOT, TC5_FUZZ_ROOT);
  char *save = NULL;
  for (char *p = strtok_r(list, ":", &save); p; p = strtok_r(NULL, ":", &save)) read_any(p);
  if (!nrecipes) {
    fprintf(stderr, "fuzz_launch: no recipe (TC5_FUZZ_MANIFESTS, or run from a checkout: %s)\n", TC5_FUZZ_ROOT);
    abort();
  }
  for (unsigned k = 0; k < nrecipes; k++) {
    const char *base = strrchr(recipes[k].file, '/');
    base = base ? base + 1 : recipes[k].file;
    for (unsigned b = 0; b < nbounds; b++)
      if (!strncmp(base, bounds[b].prefix, strlen(bounds[b].prefix)) && bounds[b].steps < recipes[k].steps)
        recipes[k].steps = bounds[b].steps;
    if (!recipes[k].consan) v1idx[nv1++] = k;
    else nconsan++;
  }
  if (!nv1) v1idx[nv1++] = 0;
  const char *nz = getenv("TC5_FUZZ_NOISE");
  raw_noise = nz && !strcmp(nz, "raw");
  const char *seeds = getenv("TC5_FUZZ_SEEDS");
  if (seeds) { /* one input per recipe (every TC5_FUZZ_SEEDS_EVERY-th), its launch unchanged */
    const char *ev = getenv("TC5_FUZZ_SEEDS_EVERY");
    unsigned every = ev && atoi(ev) > 0 ? (unsigned)atoi(ev) : 1;
    for (unsigned k = 0; k < nrecipes; k += every) {
      char path[1200];
      snprintf(path, sizeof path, "%s/recipe-%03u-%.60s", seeds, k, recipes[k].consan ? strrchr(recipes[k].file, '/') + 1 : recipes[k].entry);
      size_t n;
      uint8_t *s = seed_of(k, &n);
      FILE *f = fopen(path, "wb");
      if (!s || !f || fwrite(s, 1, n, f) != n) abort();
      fclose(f);
      free(s);
    }
    fprintf(stderr, "fuzz_launch: %u seeds (of %u recipes, %u ConSan's) in %s\n", (nrecipes + every - 1) / every,
            nrecipes, nconsan, seeds);
    exit(0);
  }
  const char *rc = getenv("TC5_FUZZ_RECIPES");
  if (rc) { /* each recipe's seed once: what it does, how long it takes */
    double total = 0;
    unsigned every = atoi(rc) > 0 ? (unsigned)atoi(rc) : 1, ran = 0;
    for (unsigned k = 0; k < nrecipes; k += every, ran++) {
      size_t n;
      uint8_t *s = seed_of(k, &n);
      if (!s) abort();
      tc5_status st;
      tc5_ptx_stats stats;
      char msg[160];
      one(s, n, &st, &stats, msg, sizeof msg);
      free(s);
      total += stats.seconds;
      const char *base = strrchr(recipes[k].file, '/');
      printf("%4u %-52.52s %-24.24s %-9s %9llu steps %8.1f ms  %s\n", k, base ? base + 1 : recipes[k].file,
             recipes[k].entry, st == TC5_OK ? "ok" : tc5_status_name(st), (unsigned long long)stats.warp_insns,
             1e3 * stats.seconds, msg);
    }
    printf("fuzz_launch: %u recipes (%u ConSan's, %u step bounds), %u seeds' launches in %.2f s: %.1f inputs/s\n",
           nrecipes, nconsan, nbounds, ran, total, total > 0 ? ran / total : 0.0);
    exit(0);
  }
  return 0;
}

/* ---- the input ---- */
typedef struct in {
  const uint8_t *p;
  size_t n, i;
} in;
static uint8_t u8(in *x) { return x->i < x->n ? x->p[x->i++] : 0; }
static uint32_t u32(in *x) {
  uint32_t v = 0;
  for (int k = 0; k < 4; k++) v |= (uint32_t)u8(x) << 8 * k;
  return v;
}
static uint64_t u64(in *x) { return u32(x) | (uint64_t)u32(x) << 32; }
/* a value: one of the interesting ones, a small one, or 4 raw bytes */
static uint32_t val(in *x) {
  static const uint32_t interesting[] = {0,      1,          2,          3,          4,     5,       7,     8,
                                         15,     16,         17,         31,         32,    33,      63,    64,
                                         65,     96,         127,        128,        129,   255,     256,   257,
                                         1023,   1024,       1025,       4096,       65535, 65536,   65537, 232448,
                                         232449, 0x7fffffff, 0x80000000, 0xffffffff, 1u << 20, 1u << 24, 6, 24};
  uint8_t b = u8(x);
  if (b < 2 * sizeof interesting / sizeof interesting[0]) return interesting[b % (sizeof interesting / sizeof interesting[0])];
  if (b < 200) return b - 80u;
  return u32(x);
}

/* field f of a tensor map's parameters = v */
static void set_tmap_field(tc5_tmap_params *t, unsigned f, uint32_t v) {
  switch (f) {
  case 0: t->mode = (tc5_tmap_mode)(v % 3); break;
  case 1: t->type = (tc5_tmap_type)(v % (TC5_TMAP_TYPE_COUNT + 2)); break;
  case 2: t->rank = v; break;
  case 3: case 4: case 5: case 6: case 7: t->dims[f - 3] = v; break;
  case 8: case 9: case 10: case 11: t->strides[f - 8] = v; break;
  case 12: case 13: case 14: case 15: case 16: t->box[f - 12] = v; break;
  case 17: case 18: case 19: case 20: case 21: t->estrides[f - 17] = v; break;
  case 22: t->interleave = (tc5_tmap_interleave)(v % 4); break;
  case 23: t->swizzle = (tc5_tmap_swizzle)(v % (TC5_TMAP_SWIZZLE_COUNT + 1)); break;
  case 24: t->l2 = (tc5_tmap_l2)(v % 5); break;
  case 25: t->oob = (tc5_tmap_oob)(v % 3); break;
  case 26: case 27: case 28: t->lower[f - 26] = (int32_t)v; break;
  case 29: case 30: case 31: t->upper[f - 29] = (int32_t)v; break;
  case 32: t->channels = v; break;
  case 33: t->pixels = v; break;
  default: t->address = v; break;
  }
}

static void bug(const char *what, const tc5_tmap_params *p) {
  fprintf(stderr, "fuzz_launch: %s (rank %u type %d mode %d)\n", what, p->rank, (int)p->type, (int)p->mode);
  abort();
}

/* the tensor-map API on its own: encode; what encodes decodes to the same
 * parameters; tensormap.replace of any field never breaks decode's checks
 * into a crash */
static void tmap_api(in *x, const tc5_tmap_params *base) {
  tc5_tmap_params p = *base;
  for (unsigned k = u8(x) % 6; k; k--) {
    unsigned f = u8(x) % 35;
    set_tmap_field(&p, f, val(x));
  }
  tc5_tensormap m;
  tc5_diag dg;
  tc5_diag_init(&dg);
  tc5_status st = tc5_tensormap_encode(&m, &p, &dg);
  if (st) {
    if (!dg.count) bug("tc5_tensormap_encode: an error without a message", &p);
    return;
  }
  tc5_tmap_params q;
  tc5_diag_init(&dg);
  if (tc5_tensormap_decode(&m, &q, &dg)) bug("a tensor map that encodes does not decode", &p);
  bool same = q.mode == p.mode && q.type == p.type && q.rank == p.rank && q.address == p.address &&
              q.interleave == p.interleave && q.swizzle == p.swizzle && q.l2 == p.l2 && q.oob == p.oob;
  for (unsigned i = 0; same && i < p.rank; i++) {
    same = q.dims[i] == p.dims[i] && q.estrides[i] == p.estrides[i] && (i + 1 == p.rank || q.strides[i] == p.strides[i]);
    if (same && p.mode == TC5_TMAP_TILED) same = q.box[i] == p.box[i];
  }
  for (unsigned i = 0; same && p.mode == TC5_TMAP_IM2COL && i + 2 < p.rank; i++)
    same = q.lower[i] == p.lower[i] && q.upper[i] == p.upper[i];
  if (same && p.mode == TC5_TMAP_IM2COL) same = q.channels == p.channels && q.pixels == p.pixels;
  if (!same) bug("a tensor map does not decode to the parameters it was encoded from", &p);
  /* tensormap.replace: any field, any value; then decode (errors named) */
  tc5_tmap_field field = (tc5_tmap_field)(u8(x) % (TC5_TMAP_F_COUNT + 1));
  unsigned ord = u8(x) % 7;
  uint64_t v = u8(x) & 1 ? val(x) : u64(x);
  tc5_diag_init(&dg);
  st = tc5_tensormap_replace(&m, field, ord, v, &dg);
  if (st && !dg.count && st != TC5_EINVAL) bug("tc5_tensormap_replace: an error without a message", &p);
  tc5_diag_init(&dg);
  if (tc5_tensormap_decode(&m, &q, &dg) && !dg.count) bug("tc5_tensormap_decode: an error without a message", &p);
}

/* tc5_tmap_params_parse on text from the input */
static void tmap_text(in *x) {
  char text[256];
  unsigned n = u8(x);
  unsigned k;
  for (k = 0; k < n && k + 1 < sizeof text && x->i < x->n; k++) text[k] = (char)u8(x);
  text[k] = 0;
  tc5_tmap_params p;
  tc5_diag dg;
  tc5_diag_init(&dg);
  if (tc5_tmap_params_parse(text, &p, NULL, NULL, &dg) && !dg.count) {
    fprintf(stderr, "fuzz_launch: tc5_tmap_params_parse('%s'): an error without a message\n", text);
    abort();
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  tc5_status st;
  tc5_ptx_stats stats;
  return one(data, size, &st, &stats, NULL, 0);
}

/* one input: the launch's status and stats, its first message into msg */
static int one(const uint8_t *data, size_t size, tc5_status *status, tc5_ptx_stats *statsp, char *msg, size_t cap) {
  in x = {data, size, 0};
  bool v2 = size >= 5 && !memcmp(data, V2, 3);
  const recipe *r;
  struct {
    unsigned i;
    uint32_t at;
    const uint8_t *b;
    unsigned n;
  } sections[4];
  unsigned nsections = 0;
  if (v2) { /* the recipe by its index, then the data sections */
    x.i = 3;
    uint32_t k = u8(&x);
    k |= (uint32_t)u8(&x) << 8;
    r = &recipes[k % nrecipes];
    for (unsigned ns = u8(&x) % 5; nsections < ns && x.i < x.n; nsections++) {
      sections[nsections].i = u8(&x);
      sections[nsections].at = u32(&x);
      sections[nsections].n = u8(&x);
      sections[nsections].n |= (unsigned)u8(&x) << 8;
      sections[nsections].b = x.p + x.i;
      if (sections[nsections].n > x.n - x.i) sections[nsections].n = (unsigned)(x.n - x.i);
      x.i += sections[nsections].n;
    }
  } else {
    r = &recipes[v1idx[u8(&x) % nv1]];
  }
  *status = TC5_OK;
  memset(statsp, 0, sizeof *statsp);
  if (msg && cap) msg[0] = 0;
  tc5_ptx_launch_cfg cfg;
  tc5_ptx_launch_init(&cfg);
  cfg.entry = r->entry;
  memcpy(cfg.grid, r->grid, sizeof cfg.grid);
  memcpy(cfg.block, r->block, sizeof cfg.block);
  memcpy(cfg.cluster, r->cluster, sizeof cfg.cluster);
  cfg.dynamic_shared = r->shared;
  cfg.threads = 1;
  cfg.max_steps = r->steps;
  cfg.check = TC5_CHECK_DEFAULT;
  unsigned nargs = r->nargs;
  rarg a[MAX_ARGS];
  memcpy(a, r->a, sizeof a);
  bool null_data[MAX_ARGS] = {false};
  struct {
    unsigned at;
    uint8_t b[16];
    unsigned n;
  } pokes[8];
  unsigned npokes = 0;
  struct {
    unsigned i;
    uint32_t seed, at;
    bool raw;
  } noises[4];
  unsigned nnoises = 0;
  /* the operations (version 2 has one more: noise) */
  while (x.i < x.n) {
    uint8_t op = u8(&x) % (v2 ? 21 : 20);
    unsigned i = nargs ? u8(&x) % nargs : 0;
    switch (op) {
    case 0: case 1: case 2: cfg.grid[op] = val(&x); break;
    case 3: case 4: case 5: cfg.block[op - 3] = val(&x); break;
    case 6: case 7: case 8: cfg.cluster[op - 6] = val(&x); break;
    case 9: cfg.dynamic_shared = val(&x); break;
    case 10: if (nargs) a[i].kind = (tc5_ptx_arg_kind)(u8(&x) % 6); break; /* 5: no such kind */
    case 11: if (nargs) a[i].size = val(&x); break;
    case 12: if (nargs) a[i].bits = u64(&x); break;
    case 13: if (nargs) null_data[i] = true; break;
    case 14: /* a smaller buffer (its bytes from the recipe, cut) or a larger one */
      if (nargs) {
        uint32_t v = val(&x);
        a[i].bytes = u8(&x) & 1 ? (a[i].bytes ? v % (a[i].bytes + 1) : 0) : v % (MAX_BUFFER + 1);
      }
      break;
    case 15: /* bytes written into a buffer */
      if (nargs && npokes < 8) {
        pokes[npokes].at = i | val(&x) << 5;
        pokes[npokes].n = u8(&x) % 17;
        for (unsigned k = 0; k < pokes[npokes].n; k++) pokes[npokes].b[k] = u8(&x);
        npokes++;
      }
      break;
    case 16: /* a tensor map's field */
      if (nargs) {
        unsigned f = u8(&x) % 35;
        set_tmap_field(&a[i].tmap, f, val(&x));
      }
      break;
    case 17: if (nargs) a[i].buffer = u8(&x) % (nargs + 2); break;
    case 18: { /* arguments dropped, or added (4-byte values) */
      unsigned n = u8(&x) % (nargs + 3);
      if (n > MAX_ARGS) n = MAX_ARGS;
      for (unsigned k = nargs; k < n; k++) {
        memset(&a[k], 0, sizeof a[k]);
        a[k].kind = TC5_PTX_ARG_VALUE, a[k].size = 4;
        null_data[k] = false;
      }
      nargs = n;
      break;
    }
    case 20: /* a buffer's bytes from `at` on: noise, finite unless TC5_FUZZ_NOISE=raw and asked */
      if (nargs && nnoises < 4) {
        noises[nnoises].i = i;
        noises[nnoises].seed = u32(&x);
        noises[nnoises].at = val(&x);
        noises[nnoises].raw = raw_noise && (u8(&x) & 1);
        nnoises++;
      }
      break;
    default: { /* the tensor-map API directly; the entry's name; the text form */
      uint8_t w = u8(&x) % 4;
      if (w == 0) tmap_api(&x, nargs ? &a[i].tmap : &r->a[0].tmap);
      else if (w == 1) cfg.entry = u8(&x) & 1 ? NULL : "no_such_entry";
      else tmap_text(&x);
      break;
    }
    }
  }
  /* a valid grid of many CTAs runs (slowly), it does not fail: cut down */
  uint64_t ncta = (uint64_t)cfg.grid[0] * cfg.grid[1] * cfg.grid[2];
  if (ncta > MAX_CTAS && cfg.grid[1] <= 65535 && cfg.grid[2] <= 65535 && cfg.grid[0] <= 0x7fffffffu) {
    cfg.grid[0] = cfg.grid[0] % MAX_CTAS + 1;
    cfg.grid[1] = cfg.grid[2] = 1;
  }
  /* the buffers: exactly their bytes (ASan sees one past the end) */
  tc5_ptx_arg args[MAX_ARGS];
  uint8_t *mem[MAX_ARGS] = {NULL};
  for (unsigned k = 0; k < nargs; k++) {
    memset(&args[k], 0, sizeof args[k]);
    args[k].kind = a[k].kind;
    args[k].size = a[k].size;
    args[k].bits = a[k].bits;
    args[k].tmap = a[k].tmap;
    args[k].buffer = a[k].buffer;
    bool has_buffer = a[k].kind == TC5_PTX_ARG_BUFFER || a[k].kind == TC5_PTX_ARG_GLOBAL || a[k].kind == TC5_PTX_ARG_BYTES ||
                      (a[k].kind == TC5_PTX_ARG_TENSORMAP && a[k].own);
    if (!has_buffer) continue;
    size_t n = a[k].bytes > MAX_BUFFER && a[k].bytes != r->a[k].bytes ? MAX_BUFFER : a[k].bytes;
    mem[k] = malloc(n ? n : 1);
    if (!mem[k]) abort();
    if (a[k].init) memcpy(mem[k], a[k].init, n < r->a[k].bytes || k >= r->nargs ? n : r->a[k].bytes);
    else memset(mem[k], 0, n);
    if (a[k].init && n > r->a[k].bytes && k < r->nargs) memset(mem[k] + r->a[k].bytes, 0, n - r->a[k].bytes);
    args[k].data = null_data[k] ? NULL : mem[k];
    args[k].bytes = n;
  }
  for (unsigned k = 0; k < nsections; k++) { /* the recipe's bytes, as the input carries them */
    unsigned i = sections[k].i;
    if (i < nargs && mem[i] && args[i].bytes && args[i].data)
      for (unsigned j = 0; j < sections[k].n; j++) mem[i][((size_t)sections[k].at + j) % args[i].bytes] = sections[k].b[j];
  }
  for (unsigned k = 0; k < nnoises; k++) {
    unsigned i = noises[k].i;
    if (i < nargs && mem[i] && args[i].bytes && args[i].data) {
      size_t at = noises[k].at % args[i].bytes;
      noise(mem[i] + at, args[i].bytes - at, noises[k].seed, noises[k].raw);
    }
  }
  for (unsigned k = 0; k < npokes; k++) {
    unsigned i = pokes[k].at & 31;
    size_t at = pokes[k].at >> 5;
    if (i < nargs && mem[i] && args[i].bytes && args[i].data)
      for (unsigned j = 0; j < pokes[k].n; j++) mem[i][(at + j) % args[i].bytes] = pokes[k].b[j];
  }
  tc5_diag dg;
  tc5_diag_init(&dg);
  tc5_status st = tc5_ptx_launch(r->m, &cfg, args, nargs, statsp, &dg);
  if (st && st != TC5_ENOMEM && !dg.count) {
    fprintf(stderr, "fuzz_launch: %s (%s): %s without a message\n", r->entry, cfg.entry ? cfg.entry : "(null)",
            tc5_status_name(st));
    abort();
  }
  *status = st;
  if (msg && cap) snprintf(msg, cap, "%.159s", st && dg.count ? dg.issue[0].message : "");
  for (unsigned k = 0; k < nargs; k++) free(mem[k]);
  return 0;
}
