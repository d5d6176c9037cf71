/* tc5 CLI — the commands. Each takes the arguments after its name and
 * returns the process exit status (0 ok, 1 rules broken / mismatch, 2 usage). */
#ifndef TC5_CLI_COMMANDS_H
#define TC5_CLI_COMMANDS_H

int cmd_desc(int argc, char **argv);
int cmd_vectors(int argc, char **argv);
int cmd_demo(int argc, char **argv);
int cmd_zcmask(int argc, char **argv);
int cmd_fmt(int argc, char **argv);
int cmd_layout(int argc, char **argv);
int cmd_mask(int argc, char **argv);
int cmd_tmem(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_gemm(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_tmap(int argc, char **argv);

#endif
