/* tc5 run — execute a PTX kernel (nvcc's or Triton's) on the CPU. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "common.h"
#include "tc5/ptx.h"

static const char usage_text[] =
    "usage: tc5 run FILE.ptx [--entry NAME] --grid X[,Y[,Z]] --block X[,Y[,Z]]\n"
    "               [--cluster X[,Y[,Z]]] [--shared-bytes N] [--threads N] [--max-steps N] [--stats]\n"
    "               [--check=none|default|strict] [--werror] [--rule NAME=off|warning|error ...]\n"
    "               [--schedule SEED | --schedules N]\n"
    "               [--timing=b200|h100|h200 [--timing-trace=FILE.json] [--timing-sample=N|all]]\n"
    "               --arg SPEC [--arg SPEC ...] [--buffer SPEC ...]\n\n"
    "Runs the kernel, one --arg per .param of the entry, in order. SPEC:\n"
    "  u32:V s32:V u64:V s64:V   an integer (decimal, -V for s32/s64, or 0x-hex)\n"
    "  f32:V                     a decimal float\n"
    "  b32:0xH b64:0xH           raw bits\n"
    "  null                      a zero 64-bit pointer\n"
    "  in:PATH                   a global buffer holding the file's bytes\n"
    "  out:PATH:BYTES            a zeroed buffer of BYTES, written to PATH after the run\n"
    "  inout:PATH                loaded from PATH and written back after the run\n"
    "  scratch:BYTES             a zeroed buffer written nowhere\n"
    "  bytes:PATH                the file's bytes as the whole .param (a struct passed by\n"
    "                            value, such as CUTLASS's Params; sizes must agree)\n"
    "  tmap:buf=N,type=T,dims=D0xD1..,strides=S1x..,box=B0xB1..[,KEY=V...]\n"
    "                            a tensor map (cuTensorMapEncodeTiled's parameters) over\n"
    "                            the buffer of --arg N (or, instead of buf=, a buffer of its\n"
    "                            own: in=PATH, out=PATH:BYTES, inout=PATH), dims innermost\n"
    "                            first, strides in bytes; keys offset=BYTES estrides=\n"
    "                            interleave=none|16B|32B\n"
    "                            swizzle=none|32B|64B|128B|128B_atom_32B|128B_atom_64B..\n"
    "                            l2=none|64B|128B|256B oob=zero|nan (docs/tma.md)\n"
    "--buffer in:PATH|out:PATH:BYTES|inout:PATH|scratch:BYTES: a global buffer that is no\n"
    "parameter (the kernel finds it through an address inside a bytes: argument).\n"
    "Buffers get addresses in command-line order (--arg and --buffer alike): the first at\n"
    "0x200000000, each next 64 KiB past the end of the one before, 256-byte aligned\n"
    "(tmap:buf=N counts them the same way). --cluster: CTAs a cluster (default:\n"
    "the entry's .reqnctapercluster, else 1); the grid is whole clusters. --threads N runs\n"
    "clusters on N cores\n"
    "(default: all); --stats prints instructions executed and the time.\n"
    "--check: the tcgen05 checker (docs/check.md): default reports broken ordering\n"
    "rules (missing fences, early tcgen05.ld, buffers overwritten under an MMA...);\n"
    "strict adds warnings for legal but fragile code (exit 0 unless --werror); none\n"
    "turns hazard tracking off (undefined behaviour stays an error). Outputs are\n"
    "written even when the checker found something. --rule NAME=LEVEL sets one rule's\n"
    "level (tc5 check rules names them): off (not reported), warning (reported, exit 0\n"
    "unless --werror) or error (exit 1), in default and strict mode; repeatable.\n"
    "--schedule SEED: an adversarial schedule (docs/check.md, Schedules): warps in a\n"
    "seeded order, asynchronous operations (TMA, tcgen05.mma/cp/commit, cp.async) completing\n"
    "as late as the rules allow; the same seed gives the same run (also: TC5_SCHEDULE=SEED).\n"
    "--schedules N: runs the default schedule and seeds 1..N from the same inputs and\n"
    "compares every out/inout buffer byte for byte: exit 1 naming the buffer, the first\n"
    "differing byte and the two schedules when any differ; the files get the default run's.\n"
    "--timing=GPU: predicts the launch's duration on a B200 (sm_100* PTX), H100 or H200\n"
    "(sm_90*) with tc5's timing model (docs/timing.md; TC5_TIMING sets it for every run):\n"
    "a breakdown (waves, CTAs/SM, each unit's busy share, the limit) and 'tc5 run: timing:\n"
    "predicted T us on GPU'. Grids of more than 32 clusters run a sample of 16 clusters\n"
    "(a persistent grid, one wave of a multiple of the SMs: 2; only their outputs are\n"
    "computed; the line says 'sampled'); --timing-sample=N runs N,\n"
    "--timing-sample=all every one. --timing-trace=FILE.json writes a Chrome trace-event\n"
    "timeline of the CTAs run (Perfetto opens it). Registers per thread come from ptxas -v\n"
    "when ptxas is found (TC5_PTXAS, PATH), else an estimate.\n"
    "Exit status: 0 the kernel ran to completion; 1 a kernel error (the message says\n"
    "which: out of bounds, misaligned, deadlock, a tcgen05 rule...) or a checker\n"
    "finding; 2 bad usage or unreadable input.\n";

typedef struct buf_spec {
  char *path;     /* file written after the run (out/inout) or NULL */
  bool writeback;
} buf_spec;

static void print_finding(void *ctx, const tc5_check_finding *f) {
  (void)ctx;
  fprintf(stderr, "tc5 run: %s", f->text);
  if (f->src[0]) fprintf(stderr, "  source: %s\n", f->src);
  if (f->count > 1) fprintf(stderr, "  (seen %llu times)\n", (unsigned long long)f->count);
}

static bool parse_dim3(const char *s, uint32_t d[3], const char *what) {
  d[0] = d[1] = d[2] = 1;
  char *end;
  for (int k = 0; k < 3; k++) {
    errno = 0;
    unsigned long v = strtoul(s, &end, 10);
    if (end == s || errno || v == 0 || v > 0x7fffffffUL) break;
    d[k] = (uint32_t)v;
    if (*end == 0) return true;
    if (*end != ',') break;
    s = end + 1;
  }
  fprintf(stderr, "tc5 run: --%s takes X[,Y[,Z]] with positive integers\n", what);
  return false;
}

static bool parse_int(const char *s, bool sgn, unsigned bits, uint64_t *out) {
  char *end;
  errno = 0;
  if (sgn && s[0] == '-') {
    long long v = strtoll(s, &end, 0);
    if (*end || errno || end == s) return false;
    if (bits == 32 && v < INT32_MIN) return false;
    *out = bits == 32 ? (uint32_t)(int32_t)v : (uint64_t)v;
    return true;
  }
  if (s[0] == '-' || s[0] == '+') return false;
  unsigned long long v = strtoull(s, &end, 0);
  if (*end || errno || end == s) return false;
  if (bits == 32 && v > (sgn ? 0x7fffffffULL : 0xffffffffULL)) return false;
  *out = v;
  return true;
}

/* the keys of tmap: that tc5_tmap_params_parse leaves to the launcher */
typedef struct tmap_keys {
  bool have_buf;
  unsigned buf;
  uint64_t offset;
  bool ok;
  char own[8];      /* "in", "out", "inout": the tensor's own buffer ... */
  char path[400];   /* ... from / to this file (out: PATH:BYTES) */
} tmap_keys;
static bool tmap_key(void *ctx, const char *key, const char *value) {
  tmap_keys *k = ctx;
  uint64_t v;
  if (!strcmp(key, "in") || !strcmp(key, "out") || !strcmp(key, "inout")) {
    if (k->own[0] || strlen(value) >= sizeof k->path || !value[0]) k->ok = false;
    snprintf(k->own, sizeof k->own, "%s", key);
    snprintf(k->path, sizeof k->path, "%s", value);
    return true;
  }
  if (!strcmp(key, "buf")) {
    if (!cli_u64(value, &v) || v == 0 || v > 64) k->ok = false;
    k->buf = (unsigned)v;
    k->have_buf = true;
    return true;
  }
  if (!strcmp(key, "offset")) {
    if (!cli_u64(value, &v)) k->ok = false;
    k->offset = v;
    return true;
  }
  return false;
}

/* one --arg SPEC */
static bool parse_arg(const char *spec, tc5_ptx_arg *a, buf_spec *b, unsigned index);
static bool parse_arg(const char *spec, tc5_ptx_arg *a, buf_spec *b, unsigned index) {
  memset(a, 0, sizeof *a);
  memset(b, 0, sizeof *b);
  const char *colon = strchr(spec, ':');
  size_t kl = colon ? (size_t)(colon - spec) : strlen(spec);
  const char *v = colon ? colon + 1 : "";
#define KIND(s) (kl == strlen(s) && !strncmp(spec, s, kl))
  if (KIND("null") && !colon) {
    a->kind = TC5_PTX_ARG_VALUE;
    a->size = 8;
    return true;
  }
  if (KIND("u32") || KIND("s32") || KIND("u64") || KIND("s64") || KIND("b32") || KIND("b64")) {
    unsigned bits = spec[1] == '3' ? 32 : 64;
    bool raw = spec[0] == 'b';
    if (raw && strncmp(v, "0x", 2) && strncmp(v, "0X", 2)) {
      fprintf(stderr, "tc5 run: --arg %u: %.*s takes 0x-hexadecimal bits\n", index, (int)kl, spec);
      return false;
    }
    if (!parse_int(v, spec[0] == 's', bits, &a->bits)) {
      fprintf(stderr, "tc5 run: --arg %u: '%s' is not a %.*s value\n", index, v, (int)kl, spec);
      return false;
    }
    a->kind = TC5_PTX_ARG_VALUE;
    a->size = bits / 8;
    return true;
  }
  if (KIND("f32")) {
    char *end;
    errno = 0;
    float f = strtof(v, &end);
    if (!*v || *end || errno) {
      fprintf(stderr, "tc5 run: --arg %u: '%s' is not a decimal float\n", index, v);
      return false;
    }
    uint32_t bits;
    memcpy(&bits, &f, 4);
    a->kind = TC5_PTX_ARG_VALUE;
    a->size = 4;
    a->bits = bits;
    return true;
  }
  if (KIND("bytes")) {
    uint8_t *d;
    size_t n;
    if (!*v || !cli_read_file(v, &d, &n, "run")) return false;
    a->kind = TC5_PTX_ARG_BYTES;
    a->data = d;
    a->bytes = n;
    return true;
  }
  if (KIND("tmap")) {
    tmap_keys k;
    memset(&k, 0, sizeof k);
    k.ok = true;
    tc5_diag dg;
    tc5_diag_init(&dg);
    if (tc5_tmap_params_parse(v, &a->tmap, tmap_key, &k, &dg) || !k.ok || k.have_buf == (k.own[0] != 0)) {
      fprintf(stderr, "tc5 run: --arg %u: %s\n", index,
              dg.count ? dg.issue[0].message
                       : "tmap: needs its tensor: buf=N (the --arg number of a buffer) or in=PATH, out=PATH:BYTES, "
                         "inout=PATH (a buffer of its own); and a valid offset=");
      return false;
    }
    a->kind = TC5_PTX_ARG_TENSORMAP;
    a->buffer = k.have_buf ? k.buf - 1 : 0;
    a->tmap.address = k.offset;
    if (!k.own[0]) return true;
    /* the tensor's own buffer, as in:/out:/inout: give theirs */
    char own[420];
    snprintf(own, sizeof own, "%s:%s", k.own, k.path);
    tc5_ptx_arg buf;
    if (!parse_arg(own, &buf, b, index)) {
      free(buf.data); /* out=:BYTES fails after its buffer was allocated: buf is no argument of cmd_run's to free */
      return false;
    }
    a->data = buf.data;
    a->bytes = buf.bytes;
    return true;
  }
  a->kind = TC5_PTX_ARG_BUFFER;
  if (KIND("in") || KIND("inout")) {
    uint8_t *d;
    size_t n;
    if (!*v || !cli_read_file(v, &d, &n, "run")) return false;
    a->data = d;
    a->bytes = n;
    if (KIND("inout")) {
      b->path = strdup(v);
      b->writeback = true;
    }
    return true;
  }
  if (KIND("out") || KIND("scratch")) {
    const char *last = KIND("out") ? strrchr(v, ':') : NULL;
    const char *num = KIND("out") ? (last ? last + 1 : NULL) : v;
    uint64_t n;
    if (!num || !cli_u64(num, &n) || n == 0 || n > (1ull << 36)) {
      fprintf(stderr, "tc5 run: --arg %u: %s needs a size in bytes (%s)\n", index, KIND("out") ? "out:PATH:BYTES" : "scratch:BYTES", spec);
      return false;
    }
    a->data = calloc(n, 1);
    if (!a->data) {
      fprintf(stderr, "tc5 run: --arg %u: out of memory for %llu bytes\n", index, (unsigned long long)n);
      return false;
    }
    a->bytes = n;
    if (last) {
      b->path = strndup(v, (size_t)(last - v));
      b->writeback = true;
      if (!b->path[0]) {
        fprintf(stderr, "tc5 run: --arg %u: out:PATH:BYTES needs a path\n", index);
        return false;
      }
    }
    return true;
  }
  fprintf(stderr, "tc5 run: --arg %u: unknown kind in '%s' (u32 s32 u64 s64 f32 b32 b64 null in out inout scratch bytes tmap)\n",
          index, spec);
  return false;
#undef KIND
}

static void print_out(void *ctx, const char *text, size_t len) {
  (void)ctx;
  fwrite(text, 1, len, stdout);
}

int cmd_run(int argc, char **argv) {
  const char *file = NULL, *entry = NULL;
  tc5_ptx_launch_cfg cfg;
  tc5_ptx_launch_init(&cfg);
  bool have_grid = false, have_block = false, stats = false, werror = false;
  uint64_t nsched = 0;
  tc5_ptx_arg args[64];
  tc5_check_override rules[64];
  buf_spec bufs[64];
  unsigned nargs = 0;
  int rc = EXIT_USAGE;
  memset(bufs, 0, sizeof bufs);
  memset(args, 0, sizeof args);
  for (int i = 0; i < argc; i++) {
    const char *o = argv[i];
    const char *val = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(o, "--help") || !strcmp(o, "-h")) {
      fputs(usage_text, stdout);
      rc = EXIT_OK;
      goto out;
    }
    bool takes = !strcmp(o, "--entry") || !strcmp(o, "--grid") || !strcmp(o, "--block") || !strcmp(o, "--cluster") ||
                 !strcmp(o, "--shared-bytes") || !strcmp(o, "--threads") || !strcmp(o, "--arg") || !strcmp(o, "--buffer") ||
                 !strcmp(o, "--max-steps") || !strcmp(o, "--schedule") || !strcmp(o, "--schedules");
    if (!strncmp(o, "--timing=", 9)) {
      cfg.timing = o + 9;
      continue;
    }
    if (!strncmp(o, "--timing-trace=", 15)) {
      cfg.timing_trace = o + 15;
      continue;
    }
    if (!strncmp(o, "--timing-sample=", 16)) {
      char *end;
      unsigned long v = strtoul(o + 16, &end, 10);
      if (!strcmp(o + 16, "all")) cfg.timing_sample = TC5_TIMING_SAMPLE_ALL;
      else if (*end || !v || o[16] == '-' || v > 0xFFFFFFFEul) {
        fprintf(stderr, "tc5 run: --timing-sample takes a positive count of clusters or all, not '%s'\n", o + 16);
        goto out;
      } else cfg.timing_sample = (uint32_t)v;
      continue;
    }
    if (!strncmp(o, "--schedule=", 11) || !strncmp(o, "--schedules=", 12)) { /* --schedule=SEED */
      bool many = o[10] == 's';
      val = o + (many ? 12 : 11);
      o = many ? "--schedules" : "--schedule";
      i--; /* the value is this argument's */
    }
    if (takes && !val) {
      fprintf(stderr, "tc5 run: %s needs a value\n", o);
      goto out;
    }
    uint64_t n;
    if (!strcmp(o, "--entry")) entry = val;
    else if (!strcmp(o, "--grid")) {
      if (!parse_dim3(val, cfg.grid, "grid")) goto out;
      have_grid = true;
    } else if (!strcmp(o, "--cluster")) {
      if (!parse_dim3(val, cfg.cluster, "cluster")) goto out;
    } else if (!strcmp(o, "--block")) {
      if (!parse_dim3(val, cfg.block, "block")) goto out;
      have_block = true;
    } else if (!strcmp(o, "--shared-bytes")) {
      if (!cli_u64(val, &n) || n > 0xffffffffu) {
        fprintf(stderr, "tc5 run: --shared-bytes takes a byte count\n");
        goto out;
      }
      cfg.dynamic_shared = (uint32_t)n;
    } else if (!strcmp(o, "--threads")) {
      if (!cli_u64(val, &n) || n == 0 || n > 256) {
        fprintf(stderr, "tc5 run: --threads takes 1 to 256\n");
        goto out;
      }
      cfg.threads = (unsigned)n;
    } else if (!strcmp(o, "--max-steps")) {
      if (!cli_u64(val, &n) || n == 0) {
        fprintf(stderr, "tc5 run: --max-steps takes a positive count\n");
        goto out;
      }
      cfg.max_steps = n;
    } else if (!strcmp(o, "--schedule")) {
      if (!cli_u64(val, &n)) {
        fprintf(stderr, "tc5 run: --schedule takes a seed (a number; 0: the default schedule), not '%s'\n", val);
        goto out;
      }
      cfg.schedule = n;
    } else if (!strcmp(o, "--schedules")) {
      if (!cli_u64(val, &n) || n == 0 || n > 1000000) {
        fprintf(stderr, "tc5 run: --schedules takes a count of schedules from 1 to 1000000, not '%s'\n", val);
        goto out;
      }
      nsched = n;
    } else if (!strcmp(o, "--arg") || !strcmp(o, "--buffer")) {
      if (nargs >= 64) {
        fprintf(stderr, "tc5 run: at most 64 --arg and --buffer\n");
        goto out;
      }
      if (!parse_arg(val, &args[nargs], &bufs[nargs], nargs + 1)) goto out;
      if (o[2] == 'b') {
        if (args[nargs].kind != TC5_PTX_ARG_BUFFER) {
          fprintf(stderr, "tc5 run: --buffer takes in:PATH, out:PATH:BYTES, inout:PATH or scratch:BYTES, not '%s'\n", val);
          goto out;
        }
        args[nargs].kind = TC5_PTX_ARG_GLOBAL;
      }
      nargs++;
    } else if (!strcmp(o, "--stats")) {
      stats = true;
      continue;
    } else if (!strncmp(o, "--check=", 8)) {
      if (tc5_check_mode_parse(o + 8, &cfg.check)) {
        fprintf(stderr, "tc5 run: --check takes none, default or strict, not '%s'\n", o + 8);
        goto out;
      }
      continue;
    } else if (!strcmp(o, "--rule")) {
      if (!val) {
        fprintf(stderr, "tc5 run: --rule needs NAME=off|warning|error\n");
        goto out;
      }
      if (cfg.nrules == sizeof rules / sizeof *rules) {
        fprintf(stderr, "tc5 run: at most %zu --rule options\n", sizeof rules / sizeof *rules);
        goto out;
      }
      tc5_diag rd;
      tc5_diag_init(&rd);
      if (tc5_check_override_parse(val, &rules[cfg.nrules], &rd)) {
        fprintf(stderr, "tc5 run: %s\n", rd.count ? rd.issue[0].message : "bad --rule");
        if (rd.count && !strcmp(rd.issue[0].field, "rule") && strstr(rd.issue[0].message, "no rule")) {
          unsigned nr;
          tc5_check_rule_count(&nr);
          fputs("tc5 run: the rules --rule takes:", stderr);
          for (unsigned k = 0; k < nr; k++) {
            const tc5_check_rule *r;
            tc5_check_rule_get(k, &r);
            if (r->severity != TC5_CHECK_ALWAYS) fprintf(stderr, " %s", r->id);
          }
          fputc('\n', stderr);
        }
        goto out;
      }
      cfg.nrules++;
      cfg.rules = rules;
    } else if (!strcmp(o, "--werror")) {
      werror = true;
      continue;
    } else if (o[0] == '-' && o[1]) {
      fprintf(stderr, "tc5 run: unknown option '%s'\n%s", o, usage_text);
      goto out;
    } else {
      if (file) {
        fprintf(stderr, "tc5 run: one PTX file, not '%s' and '%s'\n", file, o);
        goto out;
      }
      file = o;
      continue;
    }
    i++;
  }
  if (!file || !have_grid || !have_block) {
    fprintf(stderr, "tc5 run: needs FILE.ptx, --grid and --block\n%s", usage_text);
    goto out;
  }
  uint8_t *text;
  size_t len;
  if (!cli_read_file(file, &text, &len, "run")) goto out;
  tc5_diag dg;
  tc5_diag_init(&dg);
  tc5_ptx_module *m = NULL;
  tc5_status st = tc5_ptx_load((const char *)text, len, file, &m, &dg);
  tc5_timing_result tres;
  memset(&tres, 0, sizeof tres);
  cfg.timing_result = &tres;
  const char *tgpu = cfg.timing ? cfg.timing : getenv("TC5_TIMING");
  if ((cfg.timing_trace || cfg.timing_sample) && (!tgpu || !*tgpu || !strcmp(tgpu, "none"))) {
    fprintf(stderr, "tc5 run: --timing-trace and --timing-sample need --timing=GPU (or TC5_TIMING)\n");
    free(text);
    tc5_ptx_free(m);
    goto out;
  }
  if (!st && tgpu && *tgpu && strcmp(tgpu, "none")) {
    uint32_t regs = 0; /* ptxas's count, else the model's estimate */
    if (!tc5_timing_ptxas_regs((const char *)text, len, entry, tgpu, &regs, NULL)) cfg.timing_regs = regs;
    uint16_t *sass = NULL; /* ptxas's SASS per PTX line, else one issue per PTX instruction */
    uint32_t nsl = 0;
    if (!tc5_timing_ptxas_sass((const char *)text, len, tgpu, &sass, &nsl, NULL))
      cfg.timing_sass = sass, cfg.timing_sass_lines = nsl, cfg.timing_sass_stall = sass + nsl;
  }
  free(text);
  if (st) {
    fprintf(stderr, "tc5 run: %s\n", tc5_strerror(st));
    cli_print_diag(stderr, &dg);
    rc = EXIT_USAGE;
    goto out;
  }
  cfg.entry = entry;
  cfg.print = print_out;
  cfg.on_finding = print_finding;
  tc5_ptx_stats s;
  memset(&s, 0, sizeof s);
  tc5_ptx_schedules_report sr;
  if (nsched) {
    bool compare[64];
    for (unsigned k = 0; k < nargs; k++) compare[k] = bufs[k].writeback;
    st = tc5_ptx_launch_schedules(m, &cfg, args, nargs, compare, (unsigned)nsched, &sr, &s, &dg);
  } else
    st = tc5_ptx_launch(m, &cfg, args, nargs, &s, &dg);
  fflush(stdout);
  tc5_ptx_free(m);
  if (nsched && st == TC5_EMISMATCH) {
    unsigned long long first = cfg.schedule ? cfg.schedule : 1;
    fprintf(stderr,
            "tc5 run: schedules disagree: %s (argument %u): byte %llu is 0x%02x under the default schedule, 0x%02x "
            "under schedule %llu (seeds %llu..%llu)\n",
            bufs[sr.arg].path ? bufs[sr.arg].path : "a buffer", sr.arg + 1, (unsigned long long)sr.offset, sr.byte_a,
            sr.byte_b, (unsigned long long)sr.seed_b, first, first + nsched - 1);
    rc = EXIT_RULES;
    goto out;
  }
  if (st && st != TC5_EHAZARD) {
    fprintf(stderr, "tc5 run: %s\n", tc5_strerror(st));
    cli_print_diag(stderr, &dg);
    rc = st == TC5_EINVAL ? EXIT_USAGE : EXIT_RULES;
    goto out;
  }
  if (s.findings || s.warnings)
    fprintf(stderr, "tc5 run: checker: %llu error%s, %llu warning%s\n", (unsigned long long)s.findings,
            s.findings == 1 ? "" : "s", (unsigned long long)s.warnings, s.warnings == 1 ? "" : "s");
  rc = s.findings || (werror && s.warnings) ? EXIT_RULES : EXIT_OK;
  if (nsched) {
    unsigned long long first = cfg.schedule ? cfg.schedule : 1;
    fprintf(stderr, "tc5 run: %llu schedules agreed with the default one (seeds %llu..%llu): every out/inout buffer byte for byte\n",
            (unsigned long long)nsched, first, first + nsched - 1);
  }
  for (unsigned k = 0; k < nargs; k++) {
    if (!bufs[k].writeback) continue;
    FILE *f = fopen(bufs[k].path, "wb");
    if (!f || fwrite(args[k].data, 1, args[k].bytes, f) != args[k].bytes) {
      fprintf(stderr, "tc5 run: cannot write '%s'\n", bufs[k].path);
      rc = EXIT_USAGE;
    }
    if (f && fclose(f)) rc = EXIT_USAGE;
  }
  if (tres.valid) {
    char tb[2048];
    tc5_timing_format(&tres, tb, sizeof tb);
    fputs(tb, stderr);
  }
  if (stats)
    fprintf(stderr, "tc5 run: %llu thread-instructions (%llu warp-instructions) in %llu CTAs, %.3f s, %.3g thread-instructions/s\n",
            (unsigned long long)s.thread_insns, (unsigned long long)s.warp_insns, (unsigned long long)s.ctas,
            s.seconds, s.seconds > 0 ? (double)s.thread_insns / s.seconds : 0.0);
out:
  for (unsigned k = 0; k < 64; k++) {
    free(bufs[k].path);
    if (args[k].kind != TC5_PTX_ARG_VALUE) free(args[k].data);
  }
  free((void *)cfg.timing_sass);
  return rc;
}
