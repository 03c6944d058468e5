#!/usr/bin/env node
// keylint's launcher: runs the native keylint binary of the platform
// package npm installed beside this one (an optional dependency per
// platform, as esbuild, Biome and oxlint ship theirs), with the same
// arguments, standard streams, exit code and signal.
'use strict';

const { spawn } = require('child_process');
const os = require('os');
const path = require('path');

const version = require('../package.json').version;
const platforms = {
  'linux x64': '@keylint/linux-x64',
  'linux arm64': '@keylint/linux-arm64',
};
const fromSource =
  'build keylint from source (scripts/setup in a clone of its repository; ' +
  'see "Install" in its README) and set KEYLINT_BINARY to the built build/keylint';

function fail(message) {
  process.stderr.write(`keylint: ${message}\n`);
  process.exit(2);
}

// glibc or musl: the binaries link glibc's libc
function isMusl() {
  try {
    const report = process.report && process.report.getReport();
    return Boolean(report && report.header && !report.header.glibcVersionRuntime);
  } catch (e) {
    return false;
  }
}

function binaryPath() {
  if (process.env.KEYLINT_BINARY) return process.env.KEYLINT_BINARY;
  const target = `${process.platform} ${process.arch}`;
  const pkg = platforms[target];
  if (!pkg) {
    fail(`no prebuilt binary for ${process.platform}-${process.arch} ` +
         `(there are: ${Object.keys(platforms).map((k) => k.replace(' ', '-')).join(', ')}); ` +
         fromSource);
  }
  if (process.platform === 'linux' && isMusl()) {
    fail(`the prebuilt ${pkg} binary needs glibc, and this Linux uses musl; ${fromSource}`);
  }
  let dir;
  try {
    dir = path.dirname(require.resolve(`${pkg}/package.json`));
  } catch (e) {
    fail(`${pkg}, the package holding keylint's binary for this platform, is not installed ` +
         `(npm skips optional dependencies with --omit=optional or --no-optional): ` +
         `run npm install ${pkg}@${version}, or ${fromSource}`);
  }
  return path.join(dir, 'bin', 'keylint');
}

const binary = binaryPath();
const child = spawn(binary, process.argv.slice(2), { stdio: 'inherit' });

// Signals sent to the launcher (a terminal's ^C reaches both; a `kill` of
// this process only this one) reach keylint too; keylint decides.
const forwarded = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT'];
const forward = (signal) => {
  try {
    child.kill(signal);
  } catch (e) {
    // the child is gone already: its exit follows
  }
};
for (const signal of forwarded) process.on(signal, forward);

child.on('error', (err) => {
  fail(`cannot run ${binary}: ${err.message}; ${fromSource}`);
});

child.on('exit', (code, signal) => {
  if (signal) {
    // die of the same signal, so that the caller sees what keylint did
    for (const s of forwarded) process.removeListener(s, forward);
    process.kill(process.pid, signal);
    // a signal Node.js handles itself: the shell's code for it
    process.exit(128 + (os.constants.signals[signal] || 0));
  }
  process.exit(code === null ? 2 : code);
});
