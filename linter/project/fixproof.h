/* The fix proof: a rule proposes an edit (Diagnostic.has_edit) and says
 * which name its text writes and where that name must come from
 * (Diagnostic.need); this pass reads the file's syntax tree and keeps the
 * edit only when it can show that the program means, after the edit,
 * what the rule intends:
 *
 *   - the edit lands where its text reads as intended: `${NAME}` inside
 *     the text of one template literal (not across a substitution or an
 *     escape), a name or a call over a whole expression (an object
 *     shorthand `{ sk }` keeps its property name: `sk: f(sk)`);
 *   - NAME means, at that place of that file, the intended declaration
 *     (syntax/bindings.h): the file's own module-level const, or an import
 *     of that export from that module (resolved as resolution resolves
 *     it) or package; a parameter, a local, a class, another import or
 *     any other binding of the name disproves it;
 *   - when the file does not import it yet, the import is written on the
 *     tree: the name added to an import of the same module, or a new
 *     import statement after the file's last one (never inside a literal
 *     or a comment), in the file's quotes, semicolons and line endings,
 *     with a module specifier that resolves back to the module (`.js`
 *     endings where the file's relative imports have them) and never
 *     leaves the file's package; no such import when another use of NAME
 *     in the file would be captured by it, or the file has no import to
 *     follow;
 *   - the file with every edit kept parses with no more syntax errors
 *     than before.
 *
 * An edit that fails any of these is dropped (has_edit false): the
 * finding keeps its suggestion (`fix`). */
#ifndef KEYLINT_FIXPROOF_H
#define KEYLINT_FIXPROOF_H

#include "project.h"

/* Prove the edits of p->diags not proven yet (after the rules and
 * suppressions of an analysis); reads the texts of the files that have
 * edits (from the project, or from disk when the project dropped them).
 * An analysis runs it when p->prove_fixes is set (the command line); the
 * language server proves the edits of a document when it is asked for
 * its code actions: fixproof_file. */
void fixproof_run(Project *p);
/* The same for the diagnostics of one file (display or absolute path). */
void fixproof_file(Project *p, const char *path);

#endif
