#!/usr/bin/env python3
"""serve.py [--isolated] [--port N] DIR - a static file server for a web
build (docs/WEB.md): python3's http.server, with --isolated the two headers
that make a page cross-origin isolated (COOP same-origin, COEP require-corp),
so that the engine runs with threads. Prints the port it listens on."""
import argparse
import functools
import http.server
import sys


class Handler(http.server.SimpleHTTPRequestHandler):
    isolated = False

    def end_headers(self):
        if self.isolated:
            self.send_header("Cross-Origin-Opener-Policy", "same-origin")
            self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
        super().end_headers()

    def log_message(self, *args):
        pass


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dir")
    ap.add_argument("--isolated", action="store_true")
    ap.add_argument("--port", type=int, default=8000)
    a = ap.parse_args()
    Handler.isolated = a.isolated
    Handler.extensions_map[".wasm"] = "application/wasm"
    Handler.extensions_map[".js"] = "text/javascript"
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", a.port), functools.partial(Handler, directory=a.dir))
    print(srv.server_address[1], flush=True)
    try:
        srv.serve_forever()
    except KeyboardInterrupt:
        sys.exit(0)


if __name__ == "__main__":
    main()
