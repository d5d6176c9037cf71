/* tc5 check — the tcgen05 checker's rule table (tc5/check.h), as text or
 * tab-separated fields (docs/check.md's table is made from it). */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "common.h"
#include "tc5/check.h"

static const char usage_text[] =
    "usage: tc5 check rules [--tsv] [ID]\n\n"
    "The rules `tc5 run` checks (--check=default|strict): each rule's id,\n"
    "severity (error; warning: reported with --check=strict; always: undefined\n"
    "behaviour, an error even with --check=none), the spec section it rests on,\n"
    "the spec's words, what breaking it looks like and the fix. ID: one rule.\n"
    "--tsv: one line a rule, fields separated by tabs.\n";

static const char *severity_name(tc5_check_severity s) {
  return s == TC5_CHECK_WARNING ? "warning" : s == TC5_CHECK_ALWAYS ? "always" : "error";
}

int cmd_check(int argc, char **argv) {
  bool tsv = false;
  const char *only = NULL;
  if (argc < 1 || strcmp(argv[0], "rules")) {
    if (argc >= 1 && (!strcmp(argv[0], "--help") || !strcmp(argv[0], "-h"))) {
      fputs(usage_text, stdout);
      return EXIT_OK;
    }
    fprintf(stderr, "tc5 check: expected 'rules'\n%s", usage_text);
    return EXIT_USAGE;
  }
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--tsv")) tsv = true;
    else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      fputs(usage_text, stdout);
      return EXIT_OK;
    } else if (argv[i][0] == '-') {
      fprintf(stderr, "tc5 check: unknown option '%s'\n%s", argv[i], usage_text);
      return EXIT_USAGE;
    } else {
      only = argv[i];
    }
  }
  unsigned n, first = 0;
  tc5_check_rule_count(&n);
  if (only) {
    if (tc5_check_rule_find(only, &first)) {
      fprintf(stderr, "tc5 check: no rule '%s' (tc5 check rules lists them)\n", only);
      return EXIT_USAGE;
    }
    n = first + 1;
  }
  for (unsigned k = first; k < n; k++) {
    const tc5_check_rule *r;
    tc5_check_rule_get(k, &r);
    if (tsv)
      printf("%s\t%s\t%s\t%s\t%s\t%s\n", r->id, severity_name(r->severity), r->section, r->spec, r->broken, r->fix);
    else
      printf("%s (%s, %s)\n  spec:   %s\n  broken: %s\n  fix:    %s\n", r->id, severity_name(r->severity), r->section,
             r->spec, r->broken, r->fix);
  }
  return EXIT_OK;
}
