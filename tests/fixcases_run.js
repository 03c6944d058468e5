// Type-check, compile and run fix cases, as a user's build would:
//   node fixcases_run.js TYPESCRIPT_DIR CASE_DIR...
// Each CASE_DIR holds src/service.ts (which exports run(id)), maybe a
// tsconfig.json and a package.json, and node_modules/ with the stubbed
// SDK packages (fixcases_test.py writes them). Prints one JSON document
// per case, one per line:
// { "diagnostics": ["src/x.ts TS2835", ...], "keys": [...], "error": "..." }
// where keys are the requests the stubbed SDK received from run('ID').
'use strict';
const path = require('path');
const fs = require('fs');
const { pathToFileURL } = require('url');

const ts = require(path.resolve(process.argv[2], 'typescript'));

function options(dir, out) {
    const base = {
        target: ts.ScriptTarget.ES2020,
        module: ts.ModuleKind.CommonJS,
        moduleResolution: ts.ModuleResolutionKind.Node10,
        esModuleInterop: true,
        skipLibCheck: true,
        strict: false,
    };
    const cfgPath = path.join(dir, 'tsconfig.json');
    let opts = base;
    if (fs.existsSync(cfgPath)) {
        const read = ts.readConfigFile(cfgPath, ts.sys.readFile);
        const parsed = ts.parseJsonConfigFileContent(read.config || {}, ts.sys, dir);
        opts = Object.assign({}, base, parsed.options);
    }
    return Object.assign(opts, { outDir: out, rootDir: path.join(dir, 'src'), noEmitOnError: false,
                                 declaration: false, sourceMap: false });
}

// TypeScript's own lib files, parsed once for every case (most of the time
// a program takes is parsing them).
const libs = new Map();
function host(opts) {
    const h = ts.createCompilerHost(opts);
    const get = h.getSourceFile;
    h.getSourceFile = (fileName, version, onError, create) => {
        if (!fileName.includes('/typescript/lib/'))
            return get.call(h, fileName, version, onError, create);
        const key = fileName + ':' + (typeof version === 'object'
            ? `${version.languageVersion}:${version.impliedNodeFormat}` : version);
        if (!libs.has(key))
            libs.set(key, get.call(h, fileName, version, onError, create));
        return libs.get(key);
    };
    return h;
}

function sources(d) {
    const found = [];
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
        const p = path.join(d, e.name);
        if (e.isDirectory()) found.push(...sources(p));
        else if (/\.(ts|tsx|mts|cts)$/.test(e.name) && !e.name.endsWith('.d.ts')) found.push(p);
    }
    return found;
}

async function one(dir) {
    const out = path.join(dir, 'out');
    const result = { diagnostics: [], keys: [], error: null };
    const opts = options(dir, out);
    const program = ts.createProgram(sources(path.join(dir, 'src')), opts, host(opts));
    for (const d of ts.getPreEmitDiagnostics(program)) {
        const file = d.file ? path.relative(dir, d.file.fileName) : '';
        result.diagnostics.push(`${file} TS${d.code}`);
    }
    result.diagnostics.sort();
    program.emit();
    // an ES module package stays one once compiled
    if (fs.existsSync(path.join(dir, 'package.json')))
        fs.copyFileSync(path.join(dir, 'package.json'), path.join(out, 'package.json'));
    globalThis.__keylintKeys = result.keys;
    try {
        const entry = ['service.js', 'service.mjs', 'service.cjs']
            .map((n) => path.join(out, n)).find((p) => fs.existsSync(p));
        const mod = await import(pathToFileURL(entry).href);
        const run = mod.run || (mod.default && mod.default.run);
        await run('ID');
    } catch (e) {
        result.error = String(e && e.message ? e.message : e).split('\n')[0];
    }
    process.stdout.write(JSON.stringify(result) + '\n');
}

(async () => {
    for (const dir of process.argv.slice(3))
        await one(path.resolve(dir));
})();
