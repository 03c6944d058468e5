/* yaml2json FILE: a YAML document as JSON on stdout (libyaml + jansson),
 * for test harnesses without a YAML parser (tests/action_test.py reads
 * action.yml with it). Every scalar becomes a JSON string (no type
 * guessing); mapping keys must be scalars. Exits 1 with `FILE:LINE:COL:
 * message` on stderr when the file cannot be read or parsed. */
#include <jansson.h>
#include <stdio.h>
#include <string.h>
#include <yaml.h>

static json_t *convert(yaml_document_t *doc, yaml_node_t *n, int depth)
{
    if (!n || depth > 64)
        return NULL;
    switch (n->type) {
    case YAML_SCALAR_NODE:
        return json_stringn((const char *)n->data.scalar.value, n->data.scalar.length);
    case YAML_SEQUENCE_NODE: {
        json_t *a = json_array();
        for (yaml_node_item_t *i = n->data.sequence.items.start;
             i < n->data.sequence.items.top; i++) {
            json_t *v = convert(doc, yaml_document_get_node(doc, *i), depth + 1);
            if (!v) {
                json_decref(a);
                return NULL;
            }
            json_array_append_new(a, v);
        }
        return a;
    }
    case YAML_MAPPING_NODE: {
        json_t *o = json_object();
        for (yaml_node_pair_t *p = n->data.mapping.pairs.start;
             p < n->data.mapping.pairs.top; p++) {
            yaml_node_t *k = yaml_document_get_node(doc, p->key);
            json_t *v = convert(doc, yaml_document_get_node(doc, p->value), depth + 1);
            if (!k || k->type != YAML_SCALAR_NODE || !v) {
                json_decref(v);
                json_decref(o);
                return NULL;
            }
            json_object_set_new(o, (const char *)k->data.scalar.value, v);
        }
        return o;
    }
    case YAML_NO_NODE:
        break;
    }
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fputs("usage: yaml2json FILE\n", stderr);
        return 2;
    }
    FILE *f = fopen(argv[1], "rb");
    if (!f) {
        perror(argv[1]);
        return 1;
    }
    yaml_parser_t parser;
    yaml_document_t doc;
    yaml_parser_initialize(&parser);
    yaml_parser_set_input_file(&parser, f);
    int rc = 1;
    if (!yaml_parser_load(&parser, &doc)) {
        fprintf(stderr, "%s:%zu:%zu: %s\n", argv[1], parser.problem_mark.line + 1,
                parser.problem_mark.column + 1,
                parser.problem ? parser.problem : "YAML error");
    } else {
        json_t *j = convert(&doc, yaml_document_get_root_node(&doc), 0);
        if (j) {
            rc = json_dumpf(j, stdout, JSON_INDENT(2)) == 0 && fputc('\n', stdout) != EOF ? 0 : 1;
            json_decref(j);
        } else {
            fprintf(stderr, "%s: empty, or a mapping key that is not a scalar\n", argv[1]);
        }
        yaml_document_delete(&doc);
    }
    yaml_parser_delete(&parser);
    fclose(f);
    return rc;
}
