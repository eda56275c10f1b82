// The site on a loopback port: `cspkit serve --port 0 --site web/dist`, or, with a CLI that
// has no `serve` yet, Python's static server (with a note saying so).

import { spawn } from 'node:child_process';
import { CLI, cliServes } from './cli.mjs';

// Python's server with the content types a module worker and WebAssembly need.
const PYTHON_SERVER = `
import http.server, sys
class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
        '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm',
        '.data': 'application/octet-stream'}
    def log_message(self, *args):
        pass
server = http.server.ThreadingHTTPServer(('127.0.0.1', 0), lambda *a: Handler(*a, directory=sys.argv[1]))
print(f'http://127.0.0.1:{server.server_address[1]}/', flush=True)
server.serve_forever()
`;

/** Starts a server of `site`; resolves to {url, how, stop()} once its address is printed. */
export function startServer(site) {
  let child;
  let how;
  if (cliServes()) {
    child = spawn(CLI, ['serve', '--port', '0', '--site', site], { stdio: ['ignore', 'pipe', 'pipe'] });
    how = `${CLI} serve --port 0 --site ${site}`;
  } else {
    child = spawn('python3', ['-c', PYTHON_SERVER, site], { stdio: ['ignore', 'pipe', 'pipe'] });
    how = `python3 http.server on 127.0.0.1 (NOTE: ${CLI} has no 'serve' subcommand yet)`;
  }
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => fail(new Error(`no address from the server within 10 s: ${err}`)), 10000);
    const fail = (e) => { clearTimeout(timer); child.kill(); reject(e); };
    child.stderr.on('data', (d) => { err += d; });
    child.on('exit', (code) => fail(new Error(`the server exited (${code}): ${err}`)));
    child.stdout.on('data', (d) => {
      out += d;
      const newline = out.indexOf('\n');
      if (newline < 0) return;
      const url = out.slice(0, newline).trim();
      clearTimeout(timer);
      child.removeAllListeners('exit');
      if (!/^http:\/\/127\.0\.0\.1:\d+\/$/.test(url)) {
        child.kill();
        reject(new Error(`the server's first line is not a loopback address: ${url}`));
        return;
      }
      resolve({ url, how, stop: () => child.kill('SIGTERM') });
    });
  });
}
