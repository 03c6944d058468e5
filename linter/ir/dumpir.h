/* `keylint --dump-ir FILE`: what extraction and resolution saw in a file. */
#ifndef KEYLINT_DUMPIR_H
#define KEYLINT_DUMPIR_H

#include <stdio.h>

#include "ir.h"

void dump_ir(FILE *out, const FileIR *ir);

#endif
