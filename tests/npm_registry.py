#!/usr/bin/env python3
"""A read-only npm registry on loopback, serving the tarballs of a directory.

usage: npm_registry.py DIR [PORT_FILE]

Serves, for each .tgz file under DIR (its subdirectories too, such as
scripts/npm-pack's other-platforms/), the package it holds (its package/package.json)
the way the npm registry does: the packument at /NAME (a scope's slash
encoded or not) and the tarball at /-/FILE, with the sha512 integrity npm
checks. Anything else is 404, as an unpublished name is. Listens on
127.0.0.1, on a free port written to PORT_FILE (or printed), until killed.
Lets the tests install `keylint@VERSION` with npm exactly as a user does
after a release, without the network. Standard library only.
"""
import base64
import hashlib
import http.server
import json
import os
import sys
import tarfile
import urllib.parse


def tarballs(directory):
    """{file name: path} of the .tgz files under `directory`."""
    return {f: os.path.join(d, f) for d, _, files in os.walk(directory) for f in files
            if f.endswith(".tgz")}


def packages(files, base_url):
    """{name: packument} for the tarballs `files` ({file name: path})."""
    out = {}
    for file, path in sorted(files.items()):
        with tarfile.open(path, "r:gz") as tar:
            manifest = json.load(tar.extractfile("package/package.json"))
        data = open(path, "rb").read()
        manifest["_id"] = f"{manifest['name']}@{manifest['version']}"
        manifest["dist"] = {
            "tarball": f"{base_url}/-/{file}",
            "shasum": hashlib.sha1(data).hexdigest(),
            "integrity": "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode(),
        }
        doc = out.setdefault(manifest["name"], {"name": manifest["name"], "versions": {},
                                                "dist-tags": {}})
        doc["versions"][manifest["version"]] = manifest
        doc["dist-tags"]["latest"] = manifest["version"]
    return out


def main():
    directory = sys.argv[1]
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), None)
    base_url = f"http://127.0.0.1:{server.server_port}"
    files = tarballs(directory)
    docs = packages(files, base_url)

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            path = urllib.parse.unquote(urllib.parse.urlsplit(self.path).path)
            if path.startswith("/-/") and "/" not in path[3:] and path.endswith(".tgz"):
                file = files.get(path[3:])
                if file and os.path.isfile(file):
                    return self.send(200, open(file, "rb").read(), "application/octet-stream")
            doc = docs.get(path.lstrip("/"))
            if doc:
                return self.send(200, json.dumps(doc).encode(), "application/json")
            self.send(404, b'{"error":"Not found"}', "application/json")

        def send(self, code, body, kind):
            self.send_response(code)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server.RequestHandlerClass = Handler
    if len(sys.argv) > 2:
        with open(sys.argv[2] + ".tmp", "w") as f:
            f.write(str(server.server_port))
        os.replace(sys.argv[2] + ".tmp", sys.argv[2])
    else:
        print(server.server_port, flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
