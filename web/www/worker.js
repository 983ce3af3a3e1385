// The engine's Web Worker: loads the WebAssembly build the page chose (?build=simd|scalar)
// and answers one request at a time. A search runs synchronously here (WebAssembly in the
// browser has no threads); its events go out as they come through `tempoEngineEvent`, which
// the Rust side calls. The page stops a search by terminating this worker (see engine.js).
const build = new URL(self.location.href).searchParams.get('build') === 'simd' ? 'simd' : 'scalar';
let current = 0;
self.tempoEngineEvent = (json) => self.postMessage({ id: current, event: JSON.parse(json) });

try {
  const wasm = await import(`./${build}/tempo_web.js`);
  await wasm.default();
  const engine = new wasm.WebEngine();
  self.onmessage = (message) => {
    const request = message.data;
    current = request.id;
    try {
      switch (request.cmd) {
        case 'search':
          engine.configure(request.level, request.lines, request.chess960);
          engine.search(request.startFen, request.moves, JSON.stringify(request.limits));
          self.postMessage({ id: request.id, done: true });
          break;
        case 'evaluate':
          self.postMessage({ id: request.id, result: request.fens.map((fen) => engine.evaluate(fen)) });
          break;
        case 'bench':
          self.postMessage({ id: request.id, result: JSON.parse(engine.bench(request.depth)) });
          break;
        default:
          self.postMessage({ id: request.id, error: `unknown request ${request.cmd}` });
      }
    } catch (e) {
      self.postMessage({ id: request.id, error: String(e && e.message || e) });
    }
  };
  self.postMessage({ ready: true, build });
} catch (e) {
  self.postMessage({ fatal: String(e && e.message || e) });
}
