/* tc5 timing model — the SASS instructions ptxas makes of each PTX line
 * (issue 47: "which SASS a PTX instruction becomes is knowable offline").
 *
 * The PTX text is rewritten with one `.loc 1 N 0` before each instruction
 * line N of the original (its own `.loc`/`.file` lines and DWARF sections
 * dropped), assembled by `ptxas -lineinfo -arch=ARCH` and disassembled by
 * `nvdisasm -g`, which names before each SASS instruction the `.loc` line
 * it came from: the count of (non-NOP) SASS instructions per PTX line. The
 * model charges a PTX instruction's dispatch by that count (warp_clock.c,
 * docs/timing.md "Issue from ptxas's SASS"). Cached by a hash of the text
 * like ptxas -v's registers (occupancy.c). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "timing/timing_impl.h"

/* the text with a .loc before every instruction line (version: the .version to write, NULL: its own) */
bool tm_sass_write_loc(FILE *f, const char *ptx, size_t len, const char *version) {
  int depth = 0;
  bool skip = false, filed = false;
  int sdepth = 0;
  size_t i = 0;
  uint32_t line = 0;
  while (i < len) {
    const char *b = ptx + i, *nl = memchr(b, '\n', len - i);
    size_t n = nl ? (size_t)(nl - b) : len - i;
    i += n + (nl ? 1 : 0);
    line++;
    const char *s = b, *e = b + n;
    while (s < e && (*s == ' ' || *s == '\t' || *s == '\r')) s++;
    size_t sl = (size_t)(e - s);
    int opens = 0, closes = 0;
    for (const char *q = s; q < e; q++) opens += *q == '{', closes += *q == '}';
    if (!skip && sl >= 8 && !memcmp(s, ".section", 8)) skip = true, sdepth = 0;
    if (skip) { /* a DWARF section: dropped whole */
      sdepth += opens - closes;
      if (closes && sdepth <= 0) skip = false;
      continue;
    }
    if ((sl >= 4 && !memcmp(s, ".loc", 4)) || (sl >= 5 && !memcmp(s, ".file", 5))) continue;
    if (version && sl >= 9 && !memcmp(s, ".version ", 9)) {
      fprintf(f, ".version %s\n", version);
      continue;
    }
    bool insn = depth > 0 && sl && *s != '.' && *s != '/' && memchr(s, ';', sl);
    if (insn) fprintf(f, "\t.loc 1 %u 0\n", line);
    fwrite(b, 1, n, f);
    fputc('\n', f);
    /* a label in a body: a loop header perhaps; ptxas must not unroll it,
     * or a line's count would be k iterations' SASS for one PTX execution */
    const char *c = s;
    while (c < e && (*c == '$' || *c == '_' || (*c >= 'A' && *c <= 'Z') || (*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9'))) c++;
    if (depth > 0 && c > s && c < e && *c == ':') fprintf(f, "\t.pragma \"nounroll\";\n");
    if (!filed && sl >= 13 && !memcmp(s, ".address_size", 13)) fprintf(f, ".file 1 \"tc5.ptx\"\n"), filed = true;
    depth += opens - closes;
  }
  return filed;
}


static const char *sw_find_in(const char *p, size_t n, const char *k) {
  size_t kl = strlen(k);
  for (size_t i = 0; i + kl <= n; i++)
    if (!memcmp(p + i, k, kl)) return p + i;
  return NULL;
}

/* the control bits ptxas writes in the high bits of every 128-bit SASS
 * instruction (Volta to Blackwell: sm_70 ... sm_100): bits 105-127 of the
 * instruction, i.e. bits 41-63 of its second 64-bit word, the one nvdisasm
 * -hex prints on the line after the instruction. From the low bit: the stall
 * count (4 bits: cycles before the warp may issue its next instruction), the
 * yield bit, the write scoreboard (3 bits, 7: none), the read scoreboard (3
 * bits, 7: none), the wait mask (6 bits: the scoreboards the instruction
 * waits for) and the operand-reuse flags (4 bits). Jia, Maggioni, Staiger,
 * Scarpazza, "Dissecting the NVIDIA Volta GPU Architecture via
 * Microbenchmarking" (arXiv:1804.06826, 2018), section 2.1; CuAssembler's
 * CuSMVersion.splitControlCodes_7x_8x (the 23 bits above bit 105) and its NOP
 * 0x7e0 = [B------:R-:W-:Y:S00]; checked on ptxas 13.0's sm_90a and sm_100a
 * SASS (tests/timing/test_timing.c test_sass_ctrl, docs/timing.md "ptxas's
 * stall schedule"). */
void tm_sass_ctrl(uint64_t hi, tm_sass_ctrl_t *c) {
  uint32_t k = (uint32_t)(hi >> 41);
  c->stall = k & 15u;
  c->yield = (k >> 4) & 1u;
  c->wbar = (k >> 5) & 7u;
  c->rbar = (k >> 8) & 7u;
  c->wait = (k >> 11) & 63u;
  c->reuse = (k >> 17) & 15u;
}

/* nvdisasm -g [-hex]'s listing: SASS instructions (NOPs excluded) per "//## File ..., line N";
 * with -hex (stall not NULL) each one's stall count (tm_sass_ctrl) summed on its line too */
void tm_sass_count(const char *dis, uint16_t *cnt, uint16_t *stall, uint32_t nlines) {
  uint32_t cur = 0;
  bool counted = false; /* the last instruction line was counted: the next hex-only line is its high word */
  for (const char *p = dis; p && *p;) {
    const char *nl = strchr(p, '\n');
    size_t n = nl ? (size_t)(nl - p) : strlen(p);
    const char *m = sw_find_in(p, n, ", line ");
    if (m) m += 7;
    if (m && sw_find_in(p, n, "//##")) {
      cur = (uint32_t)strtoul(m, NULL, 10);
    } else {
      const char *c = sw_find_in(p, n, "*/");
      const char *o = sw_find_in(p, n, "/*");
      const char *q0 = p;
      while (q0 < p + n && (*q0 == ' ' || *q0 == '\t')) q0++;
      if (q0 + 21 <= p + n && !memcmp(q0, "/* 0x", 5)) { /* the high word of the instruction before */
        if (counted && stall) {
          tm_sass_ctrl_t k;
          tm_sass_ctrl(strtoull(q0 + 3, NULL, 16), &k);
          if (stall[cur] <= UINT16_MAX - k.stall) stall[cur] = (uint16_t)(stall[cur] + k.stall);
        }
        counted = false;
      } else if (o && c && c > o && o[2] >= '0' && o[2] <= 'f' && cur && cur <= nlines) {
        const char *q = c + 2;
        while (q < p + n && (*q == ' ' || *q == '\t')) q++;
        if (*q == '@') { /* a guard */
          while (q < p + n && *q != ' ') q++;
          while (q < p + n && *q == ' ') q++;
        }
        counted = q < p + n && *q != ';' && strncmp(q, "NOP", 3);
        if (counted && cnt[cur] < UINT16_MAX) cnt[cur]++;
      } else if (o && c && c > o && o[2] >= '0' && o[2] <= 'f') {
        counted = false;
      }
    }
    p = nl ? nl + 1 : NULL;
  }
}

tc5_status tc5_timing_ptxas_sass(const char *ptx, size_t len, const char *gpu, uint16_t **per_line, uint32_t *nlines,
                                 tc5_diag *diag) {
  if (!ptx || !per_line || !nlines) return TC5_EINVAL;
  *per_line = NULL;
  *nlines = 0;
  const char *arch = gpu && !strcmp(gpu, "b200") ? "sm_100a" : gpu && (!strcmp(gpu, "h100") || !strcmp(gpu, "h200")) ? "sm_90a" : NULL;
  tm_params prm;
  if (!arch || tm_params_load(gpu, &prm))
    return tc5_diag_add(diag, TC5_EINVAL, "timing", 0, "timing: no parameter table for GPU '%.40s'", gpu ? gpu : "(null)");
  if (!prm.issue_from_sass) /* the GPU's table does not use them (params_GPU.def issue_from_sass): no ptxas run */
    return tc5_diag_add(diag, TC5_EUNSUPPORTED, "issue_from_sass", 0, "timing: %s's parameter table counts PTX instructions", gpu);
  uint32_t nl = 1;
  for (size_t k = 0; k < len; k++) nl += ptx[k] == '\n';
  /* the counts, then the stall sums (nl + 1 each: *per_line's layout, timing.h) */
  uint16_t *cnt = calloc(2 * ((size_t)nl + 1), sizeof *cnt);
  if (!cnt) return TC5_ENOMEM;
  uint16_t *stl = cnt + nl + 1;
  uint64_t h = tm_fnv(ptx, len, 14695981039346656037ull);
  h = tm_fnv(arch, strlen(arch), h);
  h = tm_fnv("sass-per-line-3", 15, h); /* the .loc text's and the rows' version: a new one re-runs ptxas */
  char dir[512], file[600];
  tm_cache_path("sass", h, dir, sizeof dir, file, sizeof file);
  FILE *f = fopen(file, "r");
  if (f) { /* "LINE COUNT STALL" rows */
    unsigned a, b, c;
    bool any = false;
    while (fscanf(f, "%u %u %u", &a, &b, &c) == 3)
      if (a <= nl) cnt[a] = (uint16_t)b, stl[a] = (uint16_t)c, any = true;
    fclose(f);
    if (any) {
      *per_line = cnt, *nlines = nl + 1;
      return TC5_OK;
    }
  }
  char pb[512], db[512];
  const char *ptxas = tm_find_exe("TC5_PTXAS", "ptxas", NULL, pb, sizeof pb);
  const char *nvd = tm_find_exe("TC5_NVDISASM", "nvdisasm", ptxas, db, sizeof db);
  if (!ptxas || !nvd) {
    free(cnt);
    return tc5_diag_add(diag, TC5_EUNSUPPORTED, ptxas ? "nvdisasm" : "ptxas", 0,
                        "timing: no %s found ($TC5_%s, PATH): issue counted per PTX instruction", ptxas ? "nvdisasm" : "ptxas",
                        ptxas ? "NVDISASM" : "PTXAS");
  }
  char src[] = "/tmp/tc5-sass-XXXXXX";
  int fd = mkstemp(src);
  if (fd < 0) {
    free(cnt);
    return TC5_EIO;
  }
  close(fd);
  char bin[64];
  snprintf(bin, sizeof bin, "%s.cubin", src);
  char ver[16] = "";
  tc5_status st = TC5_EUNSUPPORTED;
  for (int attempt = 0; attempt < 2; attempt++) {
    f = fopen(src, "w");
    if (!f) break;
    bool ok = tm_sass_write_loc(f, ptx, len, *ver ? ver : NULL);
    fclose(f);
    if (!ok) break;
    char cmd[1600], *out = NULL;
    snprintf(cmd, sizeof cmd, "'%s' -lineinfo -arch=%s -o '%s' '%s' 2>&1", ptxas, arch, bin, src);
    int rc = tm_popen(cmd, &out);
    if (rc) { /* a PTX newer than this ptxas: once more with the .version it names (as occupancy.c) */
      const char *cv = out ? strstr(out, "current version is '") : NULL;
      if (!attempt && cv && strstr(out, "Unsupported .version")) sscanf(cv + 20, "%15[0-9.]", ver);
      free(out);
      if (*ver && !attempt) continue;
      break;
    }
    free(out);
    snprintf(cmd, sizeof cmd, "'%s' -g -hex -c '%s' 2>/dev/null", nvd, bin);
    rc = tm_popen(cmd, &out);
    if (!rc && out) tm_sass_count(out, cnt, stl, nl), st = TC5_OK;
    free(out);
    break;
  }
  unlink(src);
  unlink(bin);
  bool any = false;
  for (uint32_t k = 0; k <= nl && !any; k++) any = cnt[k] != 0;
  if (st || !any) {
    free(cnt);
    return tc5_diag_add(diag, TC5_EUNSUPPORTED, "ptxas", 0, "timing: ptxas -lineinfo / nvdisasm -g -arch=%s gave no SASS lines", arch);
  }
  /* cache it (best effort) */
  tm_mkdirs(dir);
  f = fopen(file, "w");
  if (f) {
    for (uint32_t k = 0; k <= nl; k++)
      if (cnt[k] || stl[k]) fprintf(f, "%u %u %u\n", k, cnt[k], stl[k]);
    fclose(f);
  }
  *per_line = cnt, *nlines = nl + 1;
  return TC5_OK;
}

/* each instruction's share of its line's SASS: a line's count over the
 * instructions the runner decoded from it (Triton's inline-asm blocks put
 * several on one line); a line beyond the table: one */
tc5_status tm_sass_weights(tm_launch *l) {
  const tm_setup *s = &l->s;
  l->issue_w = NULL;
  l->issue_stall = NULL;
  if (!s->sass || !s->sass_lines || !s->ncode || !l->p.issue_from_sass) return TC5_OK;
  float *w = malloc((size_t)s->ncode * sizeof *w);
  uint16_t *on = calloc(s->sass_lines, sizeof *on);
  if (!w || !on) {
    free(w);
    free(on);
    return TC5_ENOMEM;
  }
  for (uint32_t pc = 0; pc < s->ncode; pc++)
    if (s->insn[pc].line < s->sass_lines && on[s->insn[pc].line] < UINT16_MAX) on[s->insn[pc].line]++;
  for (uint32_t pc = 0; pc < s->ncode; pc++) {
    uint32_t ln = s->insn[pc].line;
    w[pc] = ln < s->sass_lines && on[ln] ? (float)s->sass[ln] / on[ln] : 1.0f;
  }
  /* ptxas's stall schedule (t47z): the stall counts of a line's SASS, shared likewise;
   * a line beyond the table: -1 (unknown: the warp holds its dispatches, as without it) */
  if (s->sass_stall && l->p.stall_sched) {
    float *k = malloc((size_t)s->ncode * sizeof *k);
    if (!k) {
      free(w);
      free(on);
      return TC5_ENOMEM;
    }
    for (uint32_t pc = 0; pc < s->ncode; pc++) {
      uint32_t ln = s->insn[pc].line;
      k[pc] = ln < s->sass_lines && on[ln] ? (float)s->sass_stall[ln] / on[ln] : -1.0f;
    }
    l->issue_stall = k;
  }
  free(on);
  l->issue_w = w;
  return TC5_OK;
}
