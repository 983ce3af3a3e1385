// The engine as the page sees it: a Web Worker (worker.js) behind promises. A busy worker
// cannot read messages, so `stop` terminates it and starts a fresh one: a game move then
// comes from the latest `info` line (the search's best move so far), as a GUI's `stop` would
// give it. The price is the hash table; a new worker loads the cached module in milliseconds.
export class EngineHost {
  constructor(build, onFatal) {
    this.build = build;
    this.onFatal = onFatal;
    this.nextId = 1;
    // Bumped by every request, stop and cancel: a request still waiting for a fresh worker
    // when a later one comes is dropped (it resolves with null), so one search runs at a time.
    this.token = 0;
    this.start();
  }

  start() {
    this.pending = null;
    this.worker = new Worker(`worker.js?build=${this.build}`, { type: 'module' });
    this.ready = new Promise((resolve) => {
      this.worker.onmessage = (message) => {
        const data = message.data;
        if (data.ready) {
          this.worker.onmessage = (m) => this.receive(m.data);
          resolve();
        } else if (data.fatal) {
          this.onFatal(data.fatal);
        }
      };
    });
  }

  receive(data) {
    const job = this.pending;
    if (!job || data.id !== job.id) return;
    if (data.event) {
      if (data.event.type === 'info') {
        if (data.event.multipv === 1) job.latest = data.event;
        job.onInfo(data.event);
      } else if (data.event.type === 'bestmove') {
        job.best = data.event.best;
      }
    } else if (data.error) {
      this.pending = null;
      job.reject(new Error(data.error));
    } else if (data.done || 'result' in data) {
      this.pending = null;
      job.resolve('result' in data ? data.result : { best: job.best, info: job.latest, stopped: false });
    }
  }

  async request(message, onInfo = () => {}) {
    this.cancel();
    const token = this.token;
    await this.ready;
    if (token !== this.token) return null;
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending = { id, resolve, reject, onInfo, latest: null, best: null };
      this.worker.postMessage({ ...message, id });
    });
  }

  // Searches; resolves with {best, info, stopped}.
  search(params, onInfo) {
    return this.request({ cmd: 'search', ...params }, onInfo);
  }

  evaluate(fens) {
    return this.request({ cmd: 'evaluate', fens });
  }

  bench(depth) {
    return this.request({ cmd: 'bench', depth });
  }

  get busy() {
    return this.pending !== null;
  }

  // Ends the running search now: resolves it with the best move of its latest info line.
  stop() {
    this.token++;
    const job = this.pending;
    if (!job) return;
    this.restart();
    const best = job.latest && job.latest.pv.length ? job.latest.pv[0] : null;
    job.resolve({ best, info: job.latest, stopped: true });
  }

  // Abandons the running request (its promise resolves with null).
  cancel() {
    this.token++;
    const job = this.pending;
    if (!job) return;
    this.restart();
    job.resolve(null);
  }

  restart() {
    this.worker.terminate();
    this.start();
  }
}
