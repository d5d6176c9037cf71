/* A main for a libFuzzer target without libFuzzer (CTest's build, gcc or
 * clang, plain or with the sanitizers): runs LLVMFuzzerTestOneInput on each
 * file named, and on each file of each directory named, then on an empty
 * input. The regression inputs of the fuzzers' findings
 * (tests/data/fuzz/TARGET/) run this way in every CTest run.
 * usage: REPLAY FILE|DIR...   (exit 0: every input ran; a crash or a
 * sanitizer report is the failure) */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
static void init(int *argc, char ***argv) {
#ifdef TC5_FUZZ_HAS_INIT /* the target has an LLVMFuzzerInitialize */
  LLVMFuzzerInitialize(argc, argv);
#else
  (void)argc, (void)argv;
#endif
}

static unsigned ran;

static int run_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "replay: cannot read %s\n", path);
    return 1;
  }
  size_t cap = 1 << 16, n = 0, got;
  uint8_t *b = malloc(cap);
  while (b && (got = fread(b + n, 1, cap - n, f)) > 0) {
    n += got;
    if (n == cap) {
      uint8_t *nb = realloc(b, cap *= 2);
      if (!nb) free(b);
      b = nb;
    }
  }
  fclose(f);
  if (!b) return 1;
  /* a copy of exactly n bytes: an overread past the input is the sanitizer's to see */
  uint8_t *exact = malloc(n ? n : 1);
  if (!exact) return 1;
  memcpy(exact, b, n);
  free(b);
  LLVMFuzzerTestOneInput(exact, n);
  free(exact);
  ran++;
  return 0;
}

static int cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static int run_path(const char *path) {
  struct stat sb;
  if (stat(path, &sb)) {
    fprintf(stderr, "replay: no %s\n", path);
    return 1;
  }
  if (!S_ISDIR(sb.st_mode)) return run_file(path);
  DIR *d = opendir(path);
  if (!d) return 1;
  char **names = NULL;
  size_t n = 0, cap = 0;
  int rc = 0;
  for (struct dirent *e; (e = readdir(d));) {
    if (e->d_name[0] == '.' || !strcmp(e->d_name, "README")) continue;
    if (n == cap) {
      char **nn = realloc(names, (cap = cap ? 2 * cap : 64) * sizeof *nn);
      if (!nn) break;
      names = nn;
    }
    size_t len = strlen(path) + strlen(e->d_name) + 2;
    if (!(names[n] = malloc(len))) break;
    snprintf(names[n++], len, "%s/%s", path, e->d_name);
  }
  closedir(d);
  qsort(names, n, sizeof *names, cmp); /* in a fixed order */
  for (size_t k = 0; k < n; k++) {
    rc |= run_file(names[k]);
    free(names[k]);
  }
  free(names);
  return rc;
}

int main(int argc, char **argv) {
  init(&argc, &argv);
  int rc = 0;
  for (int k = 1; k < argc; k++) rc |= run_path(argv[k]);
  LLVMFuzzerTestOneInput((const uint8_t *)"", 0);
  printf("replay: %u inputs ran\n", ran);
  return rc;
}
