/* `keylint model`: the command (model_cmd.c). */
#ifndef KEYLINT_MODEL_CMD_H
#define KEYLINT_MODEL_CMD_H

/* argv[0] is "model". Returns the exit code. */
int model_main(int argc, char **argv);

#endif
