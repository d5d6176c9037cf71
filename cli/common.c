/* tc5 CLI — option parsing and output helpers. */
#include "common.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int cli_idx(const cli_opt *opts, int nopts, const char *name) {
  for (int i = 0; i < nopts; i++)
    if (!strcmp(opts[i].name, name)) return i;
  return -1;
}

bool cli_has(const cli_args *a, const cli_opt *opts, int nopts, const char *name) {
  int i = cli_idx(opts, nopts, name);
  return i >= 0 && a->seen[i];
}

const char *cli_get(const cli_args *a, const cli_opt *opts, int nopts, const char *name) {
  int i = cli_idx(opts, nopts, name);
  return (i >= 0 && a->seen[i]) ? a->val[i] : NULL;
}

bool cli_parse(int argc, char **argv, const cli_opt *opts, int nopts, cli_args *a,
               const char *cmd) {
  memset(a, 0, sizeof *a);
  for (int i = 0; i < argc; i++) {
    const char *s = argv[i];
    if (!strcmp(s, "--help") || !strcmp(s, "-h")) {
      a->help = true;
      continue;
    }
    if (s[0] == '-' && s[1] == '-' && s[2]) {
      const char *name = s + 2;
      const char *eq = strchr(name, '=');
      size_t nl = eq ? (size_t)(eq - name) : strlen(name);
      int found = -1;
      for (int j = 0; j < nopts; j++) {
        if ((strlen(opts[j].name) == nl && !strncmp(opts[j].name, name, nl)) ||
            (opts[j].alias && strlen(opts[j].alias) == nl &&
             !strncmp(opts[j].alias, name, nl))) {
          found = j;
          break;
        }
      }
      if (found < 0) {
        fprintf(stderr, "tc5 %s: unknown option --%.*s (see tc5 %s --help)\n", cmd,
                (int)nl, name, cmd);
        return false;
      }
      a->seen[found] = true;
      if (opts[found].has_arg) {
        if (eq) {
          a->val[found] = eq + 1;
        } else if (i + 1 < argc) {
          a->val[found] = argv[++i];
        } else {
          fprintf(stderr, "tc5 %s: option --%s needs a value\n", cmd, opts[found].name);
          return false;
        }
      } else if (eq) {
        fprintf(stderr, "tc5 %s: option --%s takes no value\n", cmd, opts[found].name);
        return false;
      }
      continue;
    }
    if (a->npos >= CLI_MAX_POS) {
      fprintf(stderr, "tc5 %s: too many arguments\n", cmd);
      return false;
    }
    a->pos[a->npos++] = s;
  }
  return true;
}

void cli_help(FILE *f, const char *usage, const char *about, const cli_opt *opts,
              int nopts) {
  fprintf(f, "usage: %s\n", usage);
  if (about) fprintf(f, "\n%s\n", about);
  if (nopts) fprintf(f, "\noptions:\n");
  for (int i = 0; i < nopts; i++) {
    char left[64];
    snprintf(left, sizeof left, "--%s%s", opts[i].name, opts[i].has_arg ? " V" : "");
    fprintf(f, "  %-26s %s", left, opts[i].help);
    if (opts[i].alias) fprintf(f, " (also --%s)", opts[i].alias);
    fputc('\n', f);
  }
  fprintf(f, "  %-26s %s\n", "--help", "show this help");
}

static bool parse_base(const char *s, int base, uint64_t *v) {
  if (!*s) return false;
  errno = 0;
  char *end;
  unsigned long long r = strtoull(s, &end, base);
  if (errno || *end || s[0] == '-') return false;
  *v = r;
  return true;
}

bool cli_u64(const char *s, uint64_t *v) {
  if (!s) return false;
  if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) return parse_base(s + 2, 16, v);
  if (s[0] == '0' && (s[1] == 'b' || s[1] == 'B')) return parse_base(s + 2, 2, v);
  return parse_base(s, 10, v);
}

bool cli_hex(const char *s, uint64_t *v) {
  if (!s) return false;
  if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) s += 2;
  return strlen(s) <= 16 && parse_base(s, 16, v);
}

bool cli_opt_u64(const cli_args *a, const cli_opt *opts, int nopts, const char *name,
                 uint64_t lo, uint64_t hi, uint64_t *v) {
  const char *s = cli_get(a, opts, nopts, name);
  if (!s) return false;
  if (!cli_u64(s, v) || *v < lo || *v > hi) {
    fprintf(stderr, "tc5: --%s %s is not a number in [%llu, %llu]\n", name, s,
            (unsigned long long)lo, (unsigned long long)hi);
    return false;
  }
  return true;
}

bool cli_device(const cli_args *a, const cli_opt *opts, int nopts, const char *cmd, bool *cuda) {
  *cuda = false;
  if (!cli_has(a, opts, nopts, "device")) return true;
  const char *dv = cli_get(a, opts, nopts, "device");
  *cuda = !strcmp(dv, "cuda");
  if (!*cuda && strcmp(dv, "cpu")) {
    fprintf(stderr, "tc5 %s: --device is cpu or cuda, not '%s'\n", cmd, dv);
    return false;
  }
#ifndef TC5_HAVE_CUDA
  if (*cuda) {
    fprintf(stderr, "tc5 %s: --device cuda: this tc5 was built without CUDA (no nvcc was found)\n", cmd);
    return false;
  }
#endif
  return true;
}

void cli_print_diag(FILE *f, const tc5_diag *d) {
  for (unsigned i = 0; i < d->count; i++) fprintf(f, "  - %s\n", d->issue[i].message);
  if (d->total > d->count)
    fprintf(f, "  - ... and %u more\n", d->total - d->count);
}

bool cli_read_file(const char *path, uint8_t **data, size_t *n, const char *cmd) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "tc5 %s: cannot read '%s': %s\n", cmd, path, strerror(errno));
    return false;
  }
  size_t cap = 1 << 16, len = 0;
  uint8_t *b = malloc(cap);
  while (b) {
    len += fread(b + len, 1, cap - len, f);
    if (len < cap) break;
    uint8_t *nb = realloc(b, cap *= 2);
    if (!nb) free(b);
    b = nb;
  }
  bool err = ferror(f), oom = !b;
  fclose(f);
  if (oom || err) {
    free(b);
    fprintf(stderr, "tc5 %s: cannot read '%s'%s\n", cmd, path, oom ? ": out of memory" : "");
    return false;
  }
  *data = b;
  *n = len;
  return true;
}
