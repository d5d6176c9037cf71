/* ptx_census — the opcode census of a PTX corpus: every distinct
 * opcode (with all its modifiers, as written) and operand count, how often
 * it occurs, and whether tc5 loads it.
 *
 * usage: ptx_census [--allow FILE] [--quiet] PTX_FILE_OR_DIR...
 *
 * A file is loaded with tc5_ptx_load; while loading fails on an
 * instruction, every instruction with that combination is marked refused
 * (with tc5's message) and blanked, and the file is loaded again, so every
 * refused combination of the file is found, not only the first.
 * --allow FILE lists refusals that are expected, one per line:
 *   PREFIX  REASON...
 * (a combination whose opcode starts with PREFIX is expected: the
 * approximate instructions of the special-function unit, forms the
 * evidence does not define). Exit status: 0 when every refused combination
 * is expected, 1 otherwise, 2 on bad usage or an unreadable file. */
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tc5/ptx.h"

typedef struct combo {
  char key[160];      /* "mul.f32x2/3" */
  unsigned count;     /* occurrences */
  unsigned files;     /* files it occurs in */
  int last_file;
  bool refused;
  char why[200];      /* tc5's message for the first refusal */
  char example[320];  /* "file:line" of the first refusal */
} combo;

static combo *combos;
static unsigned ncombos, combos_cap;

typedef struct allow {
  char prefix[96];
  char reason[160];
  unsigned used;
} allow;
static allow allows[256];
static unsigned nallows;

static combo *combo_get(const char *key) {
  for (unsigned k = 0; k < ncombos; k++)
    if (!strcmp(combos[k].key, key)) return &combos[k];
  if (ncombos == combos_cap) {
    combos_cap = combos_cap ? 2 * combos_cap : 256;
    combo *n = realloc(combos, combos_cap * sizeof *combos);
    if (!n) return NULL;
    combos = n;
  }
  combo *c = &combos[ncombos++];
  memset(c, 0, sizeof *c);
  snprintf(c->key, sizeof c->key, "%s", key);
  c->last_file = -1;
  return c;
}

/* a statement: [b, e) of the text (comments blanked), its line, its key */
typedef struct stmt {
  size_t b, e;   /* the instruction (after any label and guard) */
  unsigned line;
  bool blanked;
  char key[160];
} stmt;

static char *read_file(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long len = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *s = len >= 0 ? malloc((size_t)len + 1) : NULL;
  if (s && fread(s, 1, (size_t)len, f) != (size_t)len) {
    free(s);
    s = NULL;
  }
  fclose(f);
  if (s) {
    s[len] = 0;
    *n = (size_t)len;
  }
  return s;
}

/* blanks comments (keeping newlines) so that statements can be split on ';' */
static void blank_comments(char *s, size_t n) {
  for (size_t i = 0; i < n; i++) {
    if (s[i] == '"') { /* a string: skip it */
      for (i++; i < n && s[i] != '"' && s[i] != '\n'; i++) {
      }
    } else if (s[i] == '/' && i + 1 < n && s[i + 1] == '/') {
      while (i < n && s[i] != '\n') s[i++] = ' ';
    } else if (s[i] == '/' && i + 1 < n && s[i + 1] == '*') {
      while (i < n && !(s[i] == '*' && i + 1 < n && s[i + 1] == '/')) {
        if (s[i] != '\n') s[i] = ' ';
        i++;
      }
      if (i + 1 < n) s[i] = s[i + 1] = ' ';
    }
  }
}

/* the line of position `to`, counting on from (*pos, *line) */
static unsigned line_at(const char *s, size_t to, size_t *pos, unsigned *line) {
  for (; *pos < to; (*pos)++) *line += s[*pos] == '\n';
  return *line;
}

/* the instruction statements of s: a statement ends at ';', a '{' or '}'
 * outside operands starts a new one; labels and guards are skipped */
static unsigned split(const char *s, size_t n, stmt **out) {
  unsigned cnt = 0, cap = 0;
  stmt *v = NULL;
  size_t i = 0, lpos = 0;
  unsigned line = 1;
  while (i < n) {
    /* skip blanks and scope braces */
    while (i < n && (isspace((unsigned char)s[i]) || s[i] == '{' || s[i] == '}')) i++;
    if (i >= n) break;
    size_t b = i;
    /* labels: NAME: (not ::) */
    for (;;) {
      size_t j = b;
      while (j < n && (isalnum((unsigned char)s[j]) || s[j] == '_' || s[j] == '$' || s[j] == '.')) j++;
      if (j > b && j < n && s[j] == ':' && (j + 1 >= n || s[j + 1] != ':') && s[b] != '.') {
        b = j + 1;
        while (b < n && isspace((unsigned char)s[b])) b++;
        continue;
      }
      break;
    }
    /* the statement's end: ';' at depth 0 (or a '{' / '}' starting a scope) */
    size_t e = b;
    int depth = 0;
    bool directive = b < n && s[b] == '.'; /* ends at a newline or a body's '{' too */
    while (e < n && !(depth == 0 && (s[e] == ';' || (directive && (s[e] == '\n' || s[e] == '{'))))) {
      if (s[e] == '{' || s[e] == '[' || s[e] == '(') depth++;
      if (s[e] == '}' || s[e] == ']' || s[e] == ')') depth--;
      if (depth < 0) break;
      e++;
    }
    unsigned sline = line_at(s, b, &lpos, &line);
    i = e < n ? e + 1 : n; /* past the ';' (or the '}' closing a scope) */
    if (b >= e || s[b] == '.' || s[b] == '}' || s[b] == '{') continue; /* a directive */
    size_t g = b;
    if (s[g] == '@') { /* a guard */
      while (g < e && !isspace((unsigned char)s[g])) g++;
      while (g < e && isspace((unsigned char)s[g])) g++;
    }
    size_t oe = g;
    while (oe < e && !isspace((unsigned char)s[oe])) oe++;
    if (oe == g || !isalpha((unsigned char)s[g])) continue;
    /* operands: top-level commas */
    unsigned nops = 0;
    int dep = 0;
    bool any = false;
    for (size_t k = oe; k < e; k++) {
      char ch = s[k];
      if (ch == '{' || ch == '[' || ch == '(') dep++;
      else if (ch == '}' || ch == ']' || ch == ')') dep--;
      else if (ch == ',' && dep == 0) nops++;
      if (!isspace((unsigned char)ch)) any = true;
    }
    if (any) nops++;
    if (cnt == cap) {
      cap = cap ? 2 * cap : 1024;
      stmt *nv = realloc(v, cap * sizeof *v);
      if (!nv) {
        free(v);
        *out = NULL;
        return 0;
      }
      v = nv;
    }
    stmt *st = &v[cnt++];
    st->b = b;
    st->e = e;
    st->line = sline;
    st->blanked = false;
    snprintf(st->key, sizeof st->key, "%.*s/%u", (int)(oe - g > 140 ? 140 : oe - g), s + g, nops);
  }
  *out = v;
  return cnt;
}

static int census_file(const char *path, int fileno, bool quiet) {
  size_t n;
  char *orig = read_file(path, &n);
  if (!orig) {
    fprintf(stderr, "ptx_census: cannot read %s\n", path);
    return 2;
  }
  char *s = malloc(n + 1);
  if (!s) {
    free(orig);
    return 2;
  }
  memcpy(s, orig, n + 1);
  blank_comments(s, n);
  stmt *st;
  unsigned ns = split(s, n, &st);
  for (unsigned k = 0; k < ns; k++) {
    combo *c = combo_get(st[k].key);
    if (!c) return 2;
    c->count++;
    if (c->last_file != fileno) c->files++, c->last_file = fileno;
  }
  /* load, blanking refused combinations until the file loads */
  char *text = orig;
  int rc = 0;
  for (unsigned iter = 0; iter < 10000; iter++) {
    tc5_diag dg;
    tc5_diag_init(&dg);
    tc5_ptx_module *m = NULL;
    tc5_status r = tc5_ptx_load(text, n, path, &m, &dg);
    if (r == TC5_OK) {
      tc5_ptx_free(m);
      break;
    }
    unsigned line = 0;
    if (dg.count && !strcmp(dg.issue[0].field, "line")) line = (unsigned)dg.issue[0].value;
    const char *key = NULL;
    for (unsigned k = 0; k < ns && line; k++)
      if (st[k].line == line && !st[k].blanked) {
        key = st[k].key;
        break;
      }
    if (!key) {
      fprintf(stderr, "%s: not an instruction's error: %s\n", path, dg.count ? dg.issue[0].message : tc5_strerror(r));
      rc = 1;
      break;
    }
    char keep[160];
    snprintf(keep, sizeof keep, "%s", key);
    key = keep;
    combo *c = combo_get(key);
    if (!c) return 2;
    if (!c->refused) {
      c->refused = true;
      const char *msg = dg.count ? dg.issue[0].message : tc5_strerror(r);
      const char *tail = strstr(msg, ": ");
      snprintf(c->why, sizeof c->why, "%.199s", tail ? tail + 2 : msg);
      snprintf(c->example, sizeof c->example, "%s:%u", path, line);
    }
    /* blank every statement of this combination */
    for (unsigned k = 0; k < ns; k++)
      if (!st[k].blanked && !strcmp(st[k].key, key)) {
        st[k].blanked = true;
        for (size_t j = st[k].b; j <= st[k].e && j < n; j++) /* with its ';' */
          if (text[j] != '\n') text[j] = ' ';
      }
    if (!quiet) fprintf(stderr, "%s: refused %s\n", path, key);
  }
  free(st);
  free(s);
  free(orig);
  return rc;
}

static int walk(const char *path, int *fileno, bool quiet) {
  struct stat sb;
  if (stat(path, &sb)) {
    fprintf(stderr, "ptx_census: no such file or directory: %s\n", path);
    return 2;
  }
  if (!S_ISDIR(sb.st_mode)) return census_file(path, (*fileno)++, quiet);
  DIR *d = opendir(path);
  if (!d) return 2;
  char **names = NULL;
  unsigned nn = 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (e->d_name[0] == '.') continue;
    char **nv = realloc(names, (nn + 1) * sizeof *names);
    if (!nv) break;
    names = nv;
    size_t len = strlen(path) + strlen(e->d_name) + 2;
    names[nn] = malloc(len);
    if (names[nn]) snprintf(names[nn++], len, "%s/%s", path, e->d_name);
  }
  closedir(d);
  /* in name order, for a stable report */
  for (unsigned a = 0; a < nn; a++)
    for (unsigned b = a + 1; b < nn; b++)
      if (strcmp(names[a], names[b]) > 0) {
        char *t = names[a];
        names[a] = names[b];
        names[b] = t;
      }
  int rc = 0;
  for (unsigned k = 0; k < nn; k++) {
    struct stat s2;
    size_t len = strlen(names[k]);
    if (!stat(names[k], &s2) && (S_ISDIR(s2.st_mode) || (len > 4 && !strcmp(names[k] + len - 4, ".ptx")))) {
      int r = walk(names[k], fileno, quiet);
      if (r > rc) rc = r;
    }
    free(names[k]);
  }
  free(names);
  return rc;
}

static int cmp_combo(const void *a, const void *b) {
  return strcmp(((const combo *)a)->key, ((const combo *)b)->key);
}

int main(int argc, char **argv) {
  bool quiet = false;
  int fileno = 0, rc = 0, paths = 0;
  for (int k = 1; k < argc; k++) {
    if (!strcmp(argv[k], "--quiet")) {
      quiet = true;
    } else if (!strcmp(argv[k], "--allow") && k + 1 < argc) {
      FILE *f = fopen(argv[++k], "r");
      if (!f) {
        fprintf(stderr, "ptx_census: cannot read %s\n", argv[k]);
        return 2;
      }
      char line[512];
      while (fgets(line, sizeof line, f) && nallows < 256) {
        if (line[0] == '#' || isspace((unsigned char)line[0])) continue;
        line[strcspn(line, "\n")] = 0;
        char *sp = line + strcspn(line, " \t");
        if (*sp) *sp++ = 0;
        while (*sp == ' ' || *sp == '\t') sp++;
        snprintf(allows[nallows].prefix, sizeof allows[nallows].prefix, "%.95s", line);
        snprintf(allows[nallows].reason, sizeof allows[nallows].reason, "%.159s", sp);
        nallows++;
      }
      fclose(f);
    } else if (argv[k][0] == '-') {
      fprintf(stderr, "usage: ptx_census [--allow FILE] [--quiet] PTX_FILE_OR_DIR...\n");
      return 2;
    } else {
      int r = walk(argv[k], &fileno, quiet);
      if (r > rc) rc = r;
      paths++;
    }
  }
  if (!paths) {
    fprintf(stderr, "usage: ptx_census [--allow FILE] [--quiet] PTX_FILE_OR_DIR...\n");
    return 2;
  }
  qsort(combos, ncombos, sizeof *combos, cmp_combo);
  unsigned refused = 0, expected = 0;
  printf("# ptx_census: %d files, %u distinct opcode/operand-count combinations\n", fileno, ncombos);
  printf("# STATUS    COUNT FILES  OPCODE/OPERANDS  [why]\n");
  for (unsigned k = 0; k < ncombos; k++) {
    combo *c = &combos[k];
    const char *status = "ok";
    const char *reason = "";
    if (c->refused) {
      status = "REFUSED";
      for (unsigned a = 0; a < nallows; a++)
        if (!strncmp(c->key, allows[a].prefix, strlen(allows[a].prefix))) {
          status = "expected";
          reason = allows[a].reason;
          allows[a].used++;
          break;
        }
      if (*reason) expected++;
      else refused++;
    }
    printf("%-9s %7u %5u  %s", status, c->count, c->files, c->key);
    if (c->refused) printf("  [%s%s%s; %s]", reason, *reason ? ": " : "", c->why, c->example);
    printf("\n");
  }
  printf("# %u refused combinations expected (--allow), %u refused unexpectedly\n", expected, refused);
  free(combos);
  if (refused && rc == 0) rc = 1;
  return rc;
}
