/* The model's output formats by name and by file extension, and the
 * writer of each: above the writers (model_write.c, model_workbench.c,
 * model_html.c), which never call it. */
#include <string.h>
#include <strings.h>

#include "model.h"
#include "model_int.h"

/* ---- formats ----------------------------------------------------------------- */

static const char *const format_names[] = {"text", "markdown", "mermaid", "workbench", "html"};

bool model_format_parse(const char *s, ModelFormat *out)
{
    for (size_t i = 0; i < sizeof format_names / sizeof *format_names; i++)
        if (s && !strcmp(s, format_names[i])) {
            *out = (ModelFormat)i;
            return true;
        }
    return false;
}

bool model_format_for_path(const char *path, ModelFormat *out)
{
    static const struct {
        const char *ext;
        ModelFormat f;
    } exts[] = {{".md", MODEL_MARKDOWN}, {".markdown", MODEL_MARKDOWN}, {".mmd", MODEL_MERMAID},
                {".mermaid", MODEL_MERMAID}, {".json", MODEL_WORKBENCH}, {".html", MODEL_HTML},
                {".htm", MODEL_HTML}, {".txt", MODEL_TEXT}};
    const char *dot = path ? strrchr(path, '.') : NULL;
    const char *slash = path ? strrchr(path, '/') : NULL;
    if (!dot || (slash && dot < slash))
        return false;
    for (size_t i = 0; i < sizeof exts / sizeof *exts; i++)
        if (!strcasecmp(dot, exts[i].ext)) {
            *out = exts[i].f;
            return true;
        }
    return false;
}

bool model_write(FILE *out, const DesignModel *m, ModelFormat fmt, const ModelWriteOptions *o)
{
    switch (fmt) {
    case MODEL_TEXT:
        return model_write_text(out, m, o);
    case MODEL_MARKDOWN:
        return model_write_markdown(out, m, o);
    case MODEL_MERMAID:
        return model_write_mermaid(out, m, o);
    case MODEL_WORKBENCH:
        return model_write_workbench(out, m, o);
    case MODEL_HTML:
        return model_write_html(out, m, o);
    }
    return false;
}
