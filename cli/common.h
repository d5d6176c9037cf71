/* tc5 CLI — option parsing and output helpers shared by the commands. */
#ifndef TC5_CLI_COMMON_H
#define TC5_CLI_COMMON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "tc5/status.h"

/* Exit statuses of every command. */
enum { EXIT_OK = 0, EXIT_RULES = 1, EXIT_USAGE = 2 };

typedef struct cli_opt {
  const char *name;  /* long option without dashes */
  const char *alias; /* alternative long name, or NULL */
  bool has_arg;
  const char *help;
} cli_opt;

#define CLI_MAX_OPTS 64
#define CLI_MAX_POS 32

typedef struct cli_args {
  const char *pos[CLI_MAX_POS];
  int npos;
  const char *val[CLI_MAX_OPTS];
  bool seen[CLI_MAX_OPTS];
  bool help;
} cli_args;

/* Parses argv[0..argc) (argv[0] is the first argument, not the program).
 * --name value, --name=value and flags. --help/-h sets args->help.
 * Prints a message and returns false on an unknown option. */
bool cli_parse(int argc, char **argv, const cli_opt *opts, int nopts, cli_args *a,
               const char *cmd);
/* Index of option `name` in opts (asserted to exist by the caller). */
int cli_idx(const cli_opt *opts, int nopts, const char *name);
bool cli_has(const cli_args *a, const cli_opt *opts, int nopts, const char *name);
const char *cli_get(const cli_args *a, const cli_opt *opts, int nopts, const char *name);

void cli_help(FILE *f, const char *usage, const char *about, const cli_opt *opts,
              int nopts);

/* Numbers: decimal, 0x hex, 0b binary. */
bool cli_u64(const char *s, uint64_t *v);
/* Hexadecimal with or without 0x (descriptor values). */
bool cli_hex(const char *s, uint64_t *v);
/* Option value as a number within [lo, hi]; prints an error when not. */
bool cli_opt_u64(const cli_args *a, const cli_opt *opts, int nopts, const char *name,
                 uint64_t lo, uint64_t hi, uint64_t *v);

/* Reads a whole file into *data (malloc'd, *n bytes); prints
 * "tc5 CMD: cannot read 'PATH': reason" and returns false when it cannot. */
bool cli_read_file(const char *path, uint8_t **data, size_t *n, const char *cmd);
/* --device: *cuda false for cpu (the default), true for cuda; prints "tc5
 * CMD: ..." and returns false for any other value, or cuda in a tc5 built
 * without CUDA. */
bool cli_device(const cli_args *a, const cli_opt *opts, int nopts, const char *cmd, bool *cuda);
/* Prints the diagnostics list, one "  - message" a line. */
void cli_print_diag(FILE *f, const tc5_diag *d);

#endif
