# Sourced by bench scripts: list_sources DIR prints the files keylint lints
# by default under DIR (what parse-only and the other tools are given).
list_sources() {
    find "$1" \( -name node_modules -o -name .git -o -name dist -o -name cdk.out \
                 -o -name .serverless -o -name .sst -o -name __tests__ -o -name __mocks__ \) -prune -o \
         -type f \( -name '*.ts' -o -name '*.tsx' -o -name '*.mts' -o -name '*.cts' \
                    -o -name '*.js' -o -name '*.jsx' -o -name '*.mjs' -o -name '*.cjs' \) \
         ! -name '*.d.ts' ! -name '*.d.mts' ! -name '*.d.cts' ! -name '*.spec.*' ! -name '*.test.*' \
         -size -8M -print
}
