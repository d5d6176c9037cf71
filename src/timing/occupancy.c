/* tc5 timing model — occupancy (CTAs per SM) and ptxas's register count. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "timing/timing_impl.h"

/* runs cmd (a shell command line), its output (malloc'd, NUL-terminated; NULL when out of memory) in *out;
 * the exit status (pclose's; -1 when it could not start). Used for ptxas -v here and for ptxas/nvdisasm in
 * sass_weights.c */
int tm_popen(const char *cmd, char **out) {
  FILE *pp = popen(cmd, "r");
  size_t cap = 1 << 16, n = 0;
  char *o = malloc(cap);
  if (pp && o) {
    size_t r;
    while ((r = fread(o + n, 1, cap - 1 - n, pp)) > 0) {
      n += r;
      if (n + 1 >= cap) {
        char *o2 = realloc(o, cap * 2);
        if (!o2) break;
        o = o2, cap *= 2;
      }
    }
  }
  int rc = pp ? pclose(pp) : -1;
  if (o) o[n] = 0;
  *out = o;
  return rc;
}

/* FNV-1a over n bytes, continuing from h: the cache keys of ptxas's answers (here and sass_weights.c) */
uint64_t tm_fnv(const char *s, size_t n, uint64_t h) {
  for (size_t k = 0; k < n; k++) h = (h ^ (uint8_t)s[k]) * 1099511628211ull;
  return h;
}

/* an executable named `name`: $ENV, PATH, beside `beside` (a path; NULL: not looked for), then
 * /usr/local/cuda/bin; NULL when none (buf: cap bytes, the found path's storage) */
const char *tm_find_exe(const char *env, const char *name, const char *beside, char *buf, size_t cap) {
  const char *e = getenv(env);
  if (e && *e) return access(e, X_OK) ? NULL : e;
  const char *path = getenv("PATH");
  while (path && *path) {
    const char *c = strchr(path, ':');
    size_t n = c ? (size_t)(c - path) : strlen(path);
    snprintf(buf, cap, "%.*s/%s", (int)n, path, name);
    if (n && !access(buf, X_OK)) return buf;
    path = c ? c + 1 : NULL;
  }
  if (beside) {
    const char *sl = strrchr(beside, '/');
    if (sl) {
      snprintf(buf, cap, "%.*s/%s", (int)(sl - beside), beside, name);
      if (!access(buf, X_OK)) return buf;
    }
  }
  snprintf(buf, cap, "/usr/local/cuda/bin/%s", name);
  return access(buf, X_OK) ? NULL : buf;
}

/* the cache directory $XDG_CACHE_HOME/tc5/SUB (else ~/.cache/tc5/SUB, else /tmp/.cache/tc5/SUB) in dir, and the
 * file of key h in it in file */
void tm_cache_path(const char *sub, uint64_t h, char *dir, size_t dcap, char *file, size_t fcap) {
  const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
  if (xdg && *xdg) snprintf(dir, dcap, "%s/tc5/%s", xdg, sub);
  else snprintf(dir, dcap, "%s/.cache/tc5/%s", home && *home ? home : "/tmp", sub);
  snprintf(file, fcap, "%s/%016llx", dir, (unsigned long long)h);
}

/* mkdir -p dir (best effort: the caches are) */
void tm_mkdirs(const char *dir) {
  char mk[600];
  snprintf(mk, sizeof mk, "%s", dir);
  for (char *s = mk + 1; *s; s++)
    if (*s == '/') {
      *s = 0;
      mkdir(mk, 0777);
      *s = '/';
    }
  mkdir(mk, 0777);
}


/* CTAs per SM: the least of the CTA slots, the threads (whole warps), the
 * shared memory (the CTA's bytes, its 1 KiB reserved included) and the
 * registers (per warp, rounded up to the allocation unit), as CUDA's
 * occupancy calculator computes them; a cluster's CTAs are placed on
 * different SMs, so the cluster size does not change the per-SM count. */
void tm_occupancy_of(const tm_params *p, uint32_t threads, uint32_t smem, uint32_t regs, uint32_t cluster,
                     tm_occupancy *o) {
  (void)cluster;
  uint32_t warps = (threads + 31) / 32;
  uint32_t n = (uint32_t)p->max_ctas_per_sm;
  o->limit = "CTA slots";
  uint32_t by_threads = (uint32_t)p->max_threads_per_sm / (warps * 32);
  if (by_threads < n) n = by_threads, o->limit = "threads";
  if (smem) {
    uint32_t by_smem = (uint32_t)(p->smem_per_sm / smem);
    if (by_smem < n) n = by_smem, o->limit = "shared memory";
  }
  if (regs) {
    uint32_t unit = (uint32_t)p->reg_alloc_unit;
    uint32_t per_warp = (regs * 32 + unit - 1) / unit * unit;
    uint32_t by_regs = (uint32_t)(p->regs_per_sm / ((double)per_warp * warps));
    if (by_regs < n) n = by_regs, o->limit = "registers";
  }
  if (n < 1) n = 1; /* the launch runs: the runner checked the limits it knows */
  o->ctas = n;
  o->tmem_cols = 0;
}


/* "Used N registers" of the entry's "Function properties for NAME" /
 * "Compiling entry function 'NAME'" block of ptxas -v's output */
static bool parse_regs(const char *out, const char *entry, uint32_t *regs) {
  const char *p = out;
  if (entry) {
    char key[600];
    snprintf(key, sizeof key, "entry function '%.500s'", entry);
    p = strstr(out, key);
    if (!p) return false;
  }
  p = strstr(p, "Used ");
  if (!p) return false;
  char *end;
  unsigned long v = strtoul(p + 5, &end, 10);
  if (end == p + 5 || strncmp(end, " registers", 10)) return false;
  *regs = (uint32_t)v;
  return true;
}

/* ptxas -v on the text (its .version line replaced by `version` when not
 * NULL): the exit status, *out its output (malloc'd) */
static int run_ptxas(const char *ptxas, const char *arch, const char *ptx, size_t len, const char *version, char **out) {
  char tmpl[] = "/tmp/tc5-ptxas-XXXXXX";
  int fd = mkstemp(tmpl);
  *out = NULL;
  if (fd < 0) return -1;
  const char *body = ptx;
  size_t blen = len;
  if (version) { /* write up to ".version ", the new number, then from the line's end */
    const char *vp = NULL;
    for (size_t i = 0; i + 9 <= len && !vp; i++)
      if (!memcmp(ptx + i, ".version ", 9)) vp = ptx + i;
    if (vp) {
      size_t head = (size_t)(vp - ptx) + 9;
      const char *eol = memchr(vp, '\n', len - (size_t)(vp - ptx));
      if (write(fd, ptx, head) < 0 || write(fd, version, strlen(version)) < 0) {
        close(fd);
        unlink(tmpl);
        return -1;
      }
      body = eol ? eol : ptx + len;
      blen = (size_t)(ptx + len - body);
    }
  }
  size_t off = 0;
  while (off < blen) {
    ssize_t w = write(fd, body + off, blen - off);
    if (w <= 0) break;
    off += (size_t)w;
  }
  close(fd);
  char cmd[1400];
  snprintf(cmd, sizeof cmd, "'%s' -v -arch=%s -o /dev/null '%s' 2>&1", ptxas, arch, tmpl);
  int rc = tm_popen(cmd, out);
  unlink(tmpl);
  return rc;
}

tc5_status tc5_timing_ptxas_regs(const char *ptx, size_t len, const char *entry, const char *gpu, uint32_t *regs,
                                 tc5_diag *diag) {
  if (!ptx || !regs) return TC5_EINVAL;
  const char *arch = gpu && !strcmp(gpu, "b200") ? "sm_100a" : gpu && (!strcmp(gpu, "h100") || !strcmp(gpu, "h200")) ? "sm_90a" : NULL;
  if (!arch) return tc5_diag_add(diag, TC5_EINVAL, "timing", 0, "timing: no parameter table for GPU '%.40s'", gpu ? gpu : "(null)");
  uint64_t h = tm_fnv(ptx, len, 14695981039346656037ull);
  h = tm_fnv(arch, strlen(arch), h);
  if (entry) h = tm_fnv(entry, strlen(entry), h);
  char dir[512], file[600];
  tm_cache_path("ptxas", h, dir, sizeof dir, file, sizeof file);
  FILE *f = fopen(file, "r");
  if (f) {
    unsigned v;
    int ok = fscanf(f, "%u", &v);
    fclose(f);
    if (ok == 1) {
      *regs = v;
      return TC5_OK;
    }
  }
  char pb[512];
  const char *ptxas = tm_find_exe("TC5_PTXAS", "ptxas", NULL, pb, sizeof pb);
  if (!ptxas) return tc5_diag_add(diag, TC5_EUNSUPPORTED, "ptxas", 0, "timing: no ptxas found ($TC5_PTXAS, PATH)");
  /* a PTX newer than this ptxas (Triton 3.9 writes .version 9.4; ptxas 13.0
   * reads 9.0): once more with the .version it names, which changes no
   * instruction of the text */
  char *out = NULL;
  int rc = run_ptxas(ptxas, arch, ptx, len, NULL, &out);
  const char *cv = out ? strstr(out, "current version is '") : NULL;
  if (rc && cv && strstr(out, "Unsupported .version")) {
    char ver[16] = "";
    sscanf(cv + 20, "%15[0-9.]", ver);
    free(out);
    out = NULL;
    if (*ver) rc = run_ptxas(ptxas, arch, ptx, len, ver, &out);
  }
  if (!out) return TC5_ENOMEM;
  uint32_t v = 0;
  bool ok = rc == 0 && parse_regs(out, entry, &v);
  free(out);
  if (!ok) return tc5_diag_add(diag, TC5_EUNSUPPORTED, "ptxas", (uint64_t)rc, "timing: ptxas -v -arch=%s gave no register count", arch);
  *regs = v;
  /* cache it (best effort) */
  tm_mkdirs(dir);
  f = fopen(file, "w");
  if (f) {
    fprintf(f, "%u\n", v);
    fclose(f);
  }
  return TC5_OK;
}

/* Tensor Memory (t47u): tcgen05.alloc blocks while the columns it asks for
 * are held, so an SM's CTAs together hold at most tmem_cols_per_sm columns
 * (the B200: 512 x 128 lanes; PTX ISA, "Tensor Memory allocation"): CTAs
 * per SM <= tmem_cols_per_sm / cols. A CTA whose allocation's nCols the
 * PTX does not make constant (unknown) is counted as holding the whole
 * Tensor Memory, the most one allocation takes: one CTA an SM, the
 * documented assumption the breakdown names. */
void tm_occupancy_tmem(const tm_params *p, uint32_t cols, bool unknown, tm_occupancy *o) {
  uint32_t per_sm = (uint32_t)p->tmem_cols_per_sm;
  if (unknown && per_sm) cols = per_sm;
  if (per_sm && cols > per_sm) cols = per_sm;
  o->tmem_cols = per_sm ? cols : 0;
  if (!per_sm || !cols) return;
  uint32_t by_tmem = per_sm / cols;
  if (by_tmem < o->ctas) o->ctas = by_tmem, o->limit = "Tensor Memory";
}
