// Tempo's page: the board, a game against the engine or an analysis, the move list, FEN and
// PGN. The rules, the notation and the clock's arithmetic are Tempo's own (WebGame, compiled
// to WebAssembly); this file only draws and forwards clicks.
import { EngineHost } from './engine.js';

// A tiny module using a SIMD instruction (wasm-feature-detect's probe): browsers without
// simd128 refuse to validate it, and get the scalar build.
const SIMD_PROBE = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11]);
const forced = new URLSearchParams(location.search).get('build');
const BUILD = forced === 'simd' || forced === 'scalar' ? forced : WebAssembly.validate(SIMD_PROBE) ? 'simd' : 'scalar';
const wasm = await import(`./${BUILD}/tempo_web.js`);
await wasm.default();
const { WebGame } = wasm;

const GLYPHS = { k: '\u265a', q: '\u265b', r: '\u265c', b: '\u265d', n: '\u265e', p: '\u265f' };
const FILES = 'abcdefgh';
const SVG = 'http://www.w3.org/2000/svg';
const $ = (id) => document.getElementById(id);

const state = {
  game: new WebGame(),
  mode: 'play',
  human: 'white',
  level: 5,
  flipped: false,
  view: null, // ply shown when navigating back; null: the current position
  selected: null,
  legal: [],
  lastTick: performance.now(),
  thinking: false,
  started: false,
  latestEval: null,
  lines: [],
};
const engine = new EngineHost(BUILD, (why) => showError(`The engine could not start: ${why}`));

for (let level = 1; level <= 10; level++) {
  const option = new Option(level === 10 ? '10 (full strength)' : String(level), String(level));
  $('level').add(option);
}
$('level').value = '5';
$('build').textContent = `WebAssembly ${BUILD}`;

function showError(text) {
  $('error').textContent = text;
  $('error').hidden = !text;
}

function status() {
  return JSON.parse(state.game.status());
}

// ---------- board ----------

function parseBoard(fen) {
  const board = {};
  fen.split(' ')[0].split('/').forEach((row, r) => {
    let file = 0;
    for (const c of row) {
      if (/\d/.test(c)) file += Number(c);
      else board[FILES[file++] + (8 - r)] = c;
    }
  });
  return board;
}

function squareXY(square) {
  const file = FILES.indexOf(square[0]);
  const rank = Number(square[1]) - 1;
  return state.flipped ? [(7 - file) * 50, rank * 50] : [file * 50, (7 - rank) * 50];
}

function el(name, attrs, text) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

function shownFen() {
  const fens = state.game.fens();
  return state.view === null ? fens[fens.length - 1] : fens[state.view];
}

function drawBoard() {
  const svg = el('svg', { viewBox: '0 0 400 400', id: 'board-svg' });
  const fen = shownFen();
  const pieces = parseBoard(fen);
  const st = status();
  const ply = state.view === null ? st.ply : state.view;
  const uci = state.game.uciMoves();
  const last = ply > 0 ? uci[ply - 1] : null;
  const check = state.view === null ? st.check : null;
  for (let rank = 1; rank <= 8; rank++) {
    for (const file of FILES) {
      const square = file + rank;
      const [x, y] = squareXY(square);
      const dark = (FILES.indexOf(file) + rank) % 2 === 1; // a1 is dark
      svg.append(el('rect', { x, y, width: 50, height: 50, class: dark ? 'dark' : 'light', 'data-square': square }));
      const marks = [];
      if (last && (last.slice(0, 2) === square || last.slice(2, 4) === square)) marks.push('last');
      if (state.selected === square) marks.push('selected');
      if (check === square) marks.push('check');
      for (const mark of marks) svg.append(el('rect', { x, y, width: 50, height: 50, class: mark, 'pointer-events': 'none' }));
      const piece = pieces[square];
      if (piece) {
        const white = piece === piece.toUpperCase();
        svg.append(el('text', { x: x + 25, y: y + 27, class: `piece ${white ? 'w' : 'b'}`, 'data-piece': piece }, GLYPHS[piece.toLowerCase()]));
      }
      if ((state.flipped ? rank === 8 : rank === 1)) svg.append(el('text', { x: x + 42, y: y + 47, class: 'coord' }, file));
      if (file === (state.flipped ? 'h' : 'a')) svg.append(el('text', { x: x + 2, y: y + 10, class: 'coord' }, String(rank)));
    }
  }
  if (state.selected) {
    for (const target of targetsOf(state.selected)) {
      const [x, y] = squareXY(target);
      svg.append(el('circle', { cx: x + 25, cy: y + 25, r: pieces[target] ? 22 : 8, class: 'target', 'data-target': target }));
    }
  }
  $('board').replaceChildren(svg);
}

function targetsOf(from) {
  const targets = new Set();
  for (const m of state.legal) {
    if (m.from !== from) continue;
    targets.add(m.to);
    if (m.rook && state.game.isChess960()) targets.add(m.rook);
  }
  return targets;
}

function canMoveNow() {
  const st = status();
  if (st.result || state.view !== null) return false;
  if (state.mode === 'analysis') return true;
  return st.turn === state.human && !state.thinking;
}

function squareAt(event) {
  const svg = $('board-svg');
  if (!svg) return null;
  const box = svg.getBoundingClientRect();
  const col = Math.floor(((event.clientX - box.left) / box.width) * 8);
  const row = Math.floor(((event.clientY - box.top) / box.height) * 8);
  if (col < 0 || col > 7 || row < 0 || row > 7) return null;
  return state.flipped ? FILES[7 - col] + (row + 1) : FILES[col] + (8 - row);
}

let dragFrom = null;
$('board').addEventListener('pointerdown', (event) => {
  const square = squareAt(event);
  if (!square || !canMoveNow()) return;
  if (state.selected && targetsOf(state.selected).has(square)) {
    tryMove(state.selected, square);
    return;
  }
  if (state.legal.some((m) => m.from === square)) {
    state.selected = square;
    dragFrom = square;
  } else {
    state.selected = null;
  }
  drawBoard();
});
$('board').addEventListener('pointerup', (event) => {
  const square = squareAt(event);
  const from = dragFrom;
  dragFrom = null;
  if (from && square && square !== from && targetsOf(from).has(square)) tryMove(from, square);
});

function tryMove(from, to) {
  const candidates = state.legal.filter((m) => m.from === from && (m.to === to || (m.rook === to && state.game.isChess960())));
  state.selected = null;
  if (candidates.length === 0) return drawBoard();
  if (candidates.length > 1 && candidates[0].promotion) return choosePromotion(candidates);
  humanMove(candidates[0].uci);
}

function choosePromotion(candidates) {
  const box = $('promotion');
  box.replaceChildren();
  const white = status().turn === 'white';
  for (const role of ['q', 'r', 'b', 'n']) {
    const m = candidates.find((c) => c.promotion === role);
    if (!m) continue;
    const button = document.createElement('button');
    button.textContent = GLYPHS[role];
    button.dataset.promotion = role;
    button.style.color = white ? '#fff' : '#222';
    button.style.textShadow = '0 0 2px #000';
    button.onclick = () => {
      box.hidden = true;
      humanMove(m.uci);
    };
    box.append(button);
  }
  box.hidden = false;
  drawBoard();
}

// ---------- game flow ----------

function elapsedSinceTick() {
  const now = performance.now();
  const elapsed = now - state.lastTick;
  state.lastTick = now;
  return elapsed;
}

// The time a move took: the clocks start with the first move.
function moveElapsed() {
  if (state.started) return elapsedSinceTick();
  state.started = true;
  state.lastTick = performance.now();
  return 0;
}

function humanMove(uci) {
  try {
    if (state.mode === 'analysis') engine.cancel();
    state.game.play(uci, moveElapsed());
    showError('');
  } catch (e) {
    showError(e.message);
  }
  afterChange();
}

function afterChange() {
  state.view = null;
  state.selected = null;
  state.legal = JSON.parse(state.game.legalMoves());
  render();
  const st = status();
  if (st.result) {
    engine.cancel();
    state.thinking = false;
    render();
    return;
  }
  if (state.mode === 'play' && st.turn !== state.human) engineMove();
  if (state.mode === 'analysis') analyse();
}

async function engineMove() {
  state.thinking = true;
  render();
  const game = state.game;
  const limits = JSON.parse(game.engineLimits(1000));
  const answer = await engine.search({ startFen: game.startFen(), moves: game.uciMoves(), limits, level: state.level, lines: 1, chess960: game.isChess960() }, showInfo).catch((e) => {
    showError(`The engine failed: ${e.message}`);
    return null;
  });
  if (game !== state.game || !state.thinking) return; // a new game, an undo or the end came first
  state.thinking = false;
  if (!answer) return render();
  const best = answer.best || (state.legal[0] && state.legal[0].uci);
  if (best) {
    try {
      game.play(best, moveElapsed());
    } catch (e) {
      showError(e.message);
    }
  }
  afterChange();
}

function showInfo(info) {
  state.latestEval = info;
  if (state.mode === 'analysis') {
    state.lines[info.multipv - 1] = info;
    renderLines();
  }
  if (info.multipv === 1) drawEval(info);
}

function drawEval(info) {
  const cp = Math.max(-100000, Math.min(100000, info.white_cp));
  const share = 1 / (1 + Math.exp(-cp / 250));
  $('eval-white').style.height = `${(share * 100).toFixed(1)}%`;
  $('eval-text').textContent = info.score;
}

// One row per line asked for, from the start: a row not yet reported holds a placeholder, and
// each row is one text line, so the panel keeps its height while the engine reports and the
// controls below it stay where the pointer is.
function renderLines() {
  const rows = [];
  for (let i = 0; i < Number($('lines').value); i++) {
    const line = state.lines[i];
    const li = document.createElement('li');
    if (line) {
      li.textContent = `${line.score}  d${line.depth}  ${line.pv_san.join(' ')}`;
      li.title = li.textContent;
    } else {
      li.textContent = '…';
      li.className = 'pending';
    }
    rows.push(li);
  }
  $('lines-out').replaceChildren(...rows);
}

async function analyse() {
  const game = state.game;
  state.lines = [];
  if (status().result) {
    $('lines-out').replaceChildren();
    return;
  }
  renderLines();
  const fens = game.fens();
  const view = state.view === null ? fens.length - 1 : state.view;
  await engine.search({ startFen: game.startFen(), moves: game.uciMoves().slice(0, view), limits: { depth: 60 }, level: 10, lines: Number($('lines').value), chess960: game.isChess960() }, showInfo).catch((e) => showError(e.message));
}

function newGame(game) {
  engine.cancel();
  state.game = game;
  state.started = false;
  state.thinking = false;
  state.lastTick = performance.now();
  state.latestEval = null;
  $('promotion').hidden = true;
  afterChange();
}

// ---------- clocks ----------

function formatClock(ms) {
  const total = Math.max(0, ms) / 1000;
  const m = Math.floor(total / 60);
  const s = total - m * 60;
  return total < 10 ? `${m}:${s.toFixed(1).padStart(4, '0')}` : `${m}:${String(Math.floor(s)).padStart(2, '0')}`;
}

setInterval(() => {
  const st = status();
  if (!st.clock || st.result || !state.started) return;
  if (state.game.tick(elapsedSinceTick())) {
    engine.cancel();
    state.thinking = false;
    afterChange();
  } else {
    drawClocks(status());
  }
}, 100);

function drawClocks(st) {
  const [topColor, bottomColor] = state.flipped ? ['white', 'black'] : ['black', 'white'];
  for (const [id, color] of [['top-player', topColor], ['bottom-player', bottomColor]]) {
    const clock = $(id).querySelector('.clock');
    const name = $(id).querySelector('.name');
    name.textContent = playerName(color);
    if (!st.clock) {
      clock.textContent = '';
      continue;
    }
    const ms = st.clock[color === 'white' ? 0 : 1];
    clock.textContent = formatClock(ms);
    clock.classList.toggle('running', state.started && !st.result && st.turn === color);
    clock.classList.toggle('low', ms < 10000);
  }
}

function playerName(color) {
  if (state.mode === 'analysis') {
    const names = state.game.players();
    return names[color === 'white' ? 0 : 1];
  }
  return color === state.human ? 'You' : state.level === 10 ? 'Tempo' : `Tempo level ${state.level}`;
}

// ---------- rendering ----------

function render() {
  const st = status();
  drawBoard();
  drawClocks(st);
  const moves = state.game.sanMoves();
  const startFen = state.game.startFen();
  const startNumber = Number(startFen.split(' ')[5] || 1);
  const blackFirst = startFen.split(' ')[1] === 'b';
  const items = [];
  let li = null;
  moves.forEach((san, i) => {
    const blackMove = (i + (blackFirst ? 1 : 0)) % 2 === 1;
    if (!blackMove || li === null) {
      li = document.createElement('li');
      li.value = startNumber + Math.floor((i + (blackFirst ? 1 : 0)) / 2);
      if (blackMove) li.append('… ');
      items.push(li);
    }
    const span = document.createElement('span');
    span.textContent = san;
    span.dataset.ply = String(i + 1);
    if ((state.view === null ? moves.length : state.view) === i + 1) span.classList.add('current');
    span.onclick = () => navigate(i + 1);
    li.append(span, ' ');
  });
  $('moves').replaceChildren(...items);
  if (document.activeElement !== $('fen')) $('fen').value = shownFen();
  let text;
  if (st.result) text = `Game over: ${st.outcome}`;
  else if (state.mode === 'analysis') text = `Analysis: ${st.turn} to move${st.check ? ', in check' : ''}`;
  else if (state.thinking) text = 'Tempo is thinking…';
  else text = `${st.turn === state.human ? 'Your move' : 'Engine to move'} (${st.turn})${st.check ? ': check' : ''}`;
  if (!st.result && st.draw_offer) text += ` — ${st.draw_offer} offers a draw`;
  if (!st.result && st.claimable.length) text += ` — you may claim a draw (${st.claimable.join(', ')})`;
  $('status').textContent = text;
  $('claim').disabled = !st.claimable.length || !!st.result;
  $('analysis').hidden = state.mode !== 'analysis';
  document.body.dataset.ply = String(st.ply);
  document.body.dataset.thinking = String(state.thinking);
}

function navigate(ply) {
  const last = state.game.fens().length - 1;
  state.view = ply >= last ? null : Math.max(0, ply);
  state.selected = null;
  render();
  if (state.mode === 'analysis') {
    engine.cancel();
    analyse();
  }
}

// ---------- controls ----------

$('start').onclick = () => {
  state.mode = $('mode').value;
  state.human = $('side').value;
  state.level = Number($('level').value);
  state.flipped = state.mode === 'play' && state.human === 'black';
  try {
    let game = $('chess960').checked ? WebGame.chess960(Math.floor(Math.random() * 960)) : new WebGame();
    if (state.mode === 'play') game = game.withTimeControl($('tc').value);
    showError('');
    newGame(game);
  } catch (e) {
    showError(e.message);
  }
};
$('mode').onchange = () => {
  state.mode = $('mode').value;
  engine.cancel();
  state.thinking = false;
  afterChange();
};
$('lines').onchange = () => {
  engine.cancel();
  analyse();
};
$('flip').onclick = () => {
  state.flipped = !state.flipped;
  render();
};
$('undo').onclick = () => {
  engine.cancel();
  state.thinking = false;
  try {
    state.game.undo();
    // Against the engine, take back the engine's reply and your move.
    if (state.mode === 'play' && status().turn !== state.human) state.game.undo();
    showError('');
  } catch (e) {
    showError(e.message);
  }
  if (state.mode === 'analysis') return afterChange();
  // No engine move after an undo: the player to move is you.
  state.view = null;
  state.selected = null;
  state.legal = JSON.parse(state.game.legalMoves());
  render();
};
$('resign').onclick = () => {
  try {
    state.game.resign(state.mode === 'play' ? state.human : status().turn);
  } catch (e) {
    showError(e.message);
  }
  afterChange();
};
$('draw').onclick = () => {
  try {
    if (state.mode !== 'play') throw new Error('draw offers are for games against the engine');
    state.game.offerDraw(state.human);
    // The engine accepts when its latest evaluation says it stands no better than level.
    const info = state.latestEval;
    const engineView = info ? (state.human === 'white' ? -info.white_cp : info.white_cp) : 0;
    if (info && engineView <= 0) {
      state.game.acceptDraw(state.human === 'white' ? 'black' : 'white');
    } else {
      showError(`Tempo declines the draw: it thinks it stands better (${info ? info.score : 'no evaluation yet'}).`);
    }
  } catch (e) {
    showError(e.message);
  }
  afterChange();
};
$('claim').onclick = () => {
  try {
    state.game.claimDraw();
  } catch (e) {
    showError(e.message);
  }
  afterChange();
};
$('stop').onclick = () => engine.stop();
$('nav-first').onclick = () => navigate(0);
$('nav-prev').onclick = () => navigate((state.view === null ? state.game.fens().length - 1 : state.view) - 1);
$('nav-next').onclick = () => navigate((state.view === null ? state.game.fens().length - 1 : state.view) + 1);
$('nav-last').onclick = () => navigate(state.game.fens().length - 1);

// Bad input leaves the game on the board as it was: the new game replaces it only once read.
$('fen-load').onclick = () => {
  try {
    const game = WebGame.fromFen($('fen').value);
    showError('');
    newGame(state.mode === 'play' ? game.withTimeControl($('tc').value) : game);
  } catch (e) {
    showError(e.message);
  }
};
function loadPgn(text) {
  try {
    const game = WebGame.fromPgn(text);
    showError('');
    state.mode = 'analysis';
    $('mode').value = 'analysis';
    newGame(game);
  } catch (e) {
    showError(e.message);
  }
}
$('pgn-load').onclick = () => loadPgn($('pgn').value);
$('pgn-file').onchange = async () => {
  const file = $('pgn-file').files[0];
  if (file) loadPgn(await file.text());
};
function exportPgn() {
  const white = playerName('white') === 'You' ? 'Player' : playerName('white');
  const black = playerName('black') === 'You' ? 'Player' : playerName('black');
  return state.game.pgn(white, black);
}
$('pgn-export').onclick = () => {
  $('pgn').value = exportPgn();
};
$('pgn-save').onclick = () => {
  const url = URL.createObjectURL(new Blob([exportPgn()], { type: 'application/x-chess-pgn' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = 'tempo-game.pgn';
  a.click();
  URL.revokeObjectURL(url);
};

// For the end-to-end test and the measurements (docs/measurements.md): the same WebAssembly
// the page runs, timed in this browser.
window.tempoPage = {
  build: BUILD,
  readyAt: 0, // ms from navigation start until the board is drawn (the page's load time)
  snapshot: () => ({ ...status(), san: state.game.sanMoves(), fen: state.game.fen(), thinking: state.thinking }),
  evaluate: (fens) => engine.evaluate(fens),
  bench: (depth) => engine.bench(depth),
  perft: (fen, depth) => {
    const game = WebGame.fromFen(fen);
    const start = performance.now();
    const nodes = game.perft(depth);
    return { nodes, ms: performance.now() - start };
  },
};

afterChange();
window.tempoPage.readyAt = performance.now();
document.body.dataset.ready = 'true';
