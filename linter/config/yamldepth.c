/* The YAML nesting limit (yamldepth.h). */
#include "yamldepth.h"

#include <yaml.h>

bool yaml_depth_ok(const char *buf, size_t len, size_t *line, size_t *col)
{
    yaml_parser_t p;
    if (!yaml_parser_initialize(&p))
        return true; /* out of memory: the load says so */
    yaml_parser_set_input_string(&p, (const unsigned char *)buf, len);
    size_t depth = 0;
    bool ok = true;
    for (bool done = false; !done;) {
        yaml_event_t e;
        if (!yaml_parser_parse(&p, &e))
            break;
        switch (e.type) {
        case YAML_SEQUENCE_START_EVENT:
        case YAML_MAPPING_START_EVENT:
            if (++depth > YAML_MAX_DEPTH) {
                *line = e.start_mark.line + 1;
                *col = e.start_mark.column + 1;
                ok = false;
                done = true;
            }
            break;
        case YAML_SEQUENCE_END_EVENT:
        case YAML_MAPPING_END_EVENT:
            depth--;
            break;
        case YAML_STREAM_END_EVENT:
            done = true;
            break;
        default:
            break;
        }
        yaml_event_delete(&e);
    }
    yaml_parser_delete(&p);
    return ok;
}
