// board.js - the page of "the table" (docs/BOARD.md): draws what the server
// says and sends what the user does. The server holds the only trusted copy of
// the game; nothing here decides legality, it only picks among state.legal.
'use strict';

(() => {
  const SVG_NS = 'http://www.w3.org/2000/svg';
  const ROW_H = Math.sqrt(3) / 2;
  const COLOURS = { w: 'White', r: 'Red', u: 'Blue', b: 'Black', y: 'Yellow', g: 'Green', x: 'Neutral' };
  // Seats in play by player count, in turn order (RULES.md section 2).
  const MAX_MESSAGES = 50;

  const stern = { hello: null, state: null, analysis: null, link: null };
  window.stern = stern;

  const $ = (sel) => document.querySelector(sel);
  const el = {
    board: $('#board'), status: $('#status'), statusDetail: $('#status-detail'),
    clocks: $('#clocks'), resign: $('#resign'), moves: $('#moves'), messages: $('#messages'),
    analysisToggle: $('#analysis-toggle'), multipv: $('#multipv'), analysisEngine: $('#analysis-engine'),
    analysisLines: $('#analysis-lines'), evalGraph: $('#eval-graph'),
    newForm: $('#new-form'), newVariant: $('#new-variant'), newSeats: $('#new-seats'), newTc: $('#new-tc'),
    fenForm: $('#fen-form'), fenInput: $('#fen-input'), fenVariant: $('#fen-variant'), fenCurrent: $('#fen-current'),
    pgnText: $('#pgn-text'), pgnDownload: $('#pgn-download'),
    editPosition: $('#edit-position'), editTools: $('#edit-tools'), editStm: $('#edit-stm'),
  };

  // What the page itself keeps between messages.
  const view = {
    holes: new Map(),    // name -> {name, bx, by, x, y, row, g, letter}; x, y on screen after turning
    angle: null,         // the board's turn, radians
    viewer: null,        // the seat the board is turned for (a state.seats entry)
    layers: null,        // svg groups: {holes, pv, preview}
    positionKey: '',     // identifies the shown position and its legal moves
    movable: new Set(),  // holes a legal move starts from
    sel: null,           // picked-up marble: {from, moves, prefix}; prefix is null until entered hop by hop
    edit: null,          // setting up a position: {board, variant, pieces, fields, sent}, else null
    cursor: null,        // hole of the keyboard cursor
    hover: null,         // lit hole under the mouse
    clockAt: 0,          // performance.now() when the state's clocks were read
    clockSpans: new Map(),
    sentMultipv: null,
    pgnUrl: null,
    formFilled: false,
  };

  // ---- small helpers ----

  const last = (a) => a[a.length - 1];

  function svg(tag, attrs = {}, parent = null) {
    const e = document.createElementNS(SVG_NS, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (parent) parent.appendChild(e);
    return e;
  }

  function html(tag, attrs = {}, text = null) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (text !== null) e.textContent = text;
    return e;
  }

  function seatOf(letter) {
    return stern.state ? stern.state.seats.find((s) => s.seat === letter) : undefined;
  }

  function colourOf(letter) {
    const s = seatOf(letter);
    return s ? s.colour : (COLOURS[letter] || letter);
  }

  function ordinal(n) {
    const tens = n % 100, ones = n % 10;
    const suffix = tens >= 11 && tens <= 13 ? 'th' : ones === 1 ? 'st' : ones === 2 ? 'nd' : ones === 3 ? 'rd' : 'th';
    return n + suffix;
  }

  function formatClock(ms) {
    const s = Math.max(0, Math.floor(ms / 1000));
    return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
  }

  function formatScore(score) {
    if (score.mate !== undefined) return `M${score.mate}`;
    return (score.cp / 100).toFixed(2);
  }

  // ---- connection ----

  // The table is stern-board's, over a WebSocket, or (the static site that
  // `make web` writes: docs/WEB.md) a worker of this page running the same
  // table as WebAssembly; index.html's meta stern-table says which. Both
  // carry the same JSON texts.
  function connect() {
    const meta = document.querySelector('meta[name="stern-table"]');
    if (meta && meta.content === 'worker') connectWorker();
    else connectSocket();
  }

  function onText(text) {
    let msg;
    try {
      msg = JSON.parse(text);
    } catch (e) {
      addMessage('error', `Unreadable message from the table: ${e.message}`);
      return;
    }
    receive(msg);
  }

  function connectSocket() {
    const ws = new WebSocket((location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/ws');
    stern.link = { open: () => ws.readyState === WebSocket.OPEN, send: (text) => ws.send(text) };
    ws.onmessage = (ev) => onText(ev.data);
    ws.onclose = () => {
      if (stern.link.ws !== ws) return;
      el.status.textContent = 'Disconnected';
      el.statusDetail.textContent = 'Reconnecting…';
      setTimeout(connect, 1000);
    };
    stern.link.ws = ws;
  }

  function connectWorker() {
    const w = new Worker('table-worker.js');
    let failed = false;
    stern.link = { open: () => !failed, send: (text) => w.postMessage(text) };
    w.onmessage = (ev) => onText(ev.data);
    w.onerror = (ev) => {
      failed = true;
      el.status.textContent = 'The table stopped';
      el.statusDetail.textContent = `Its worker failed: ${ev.message || 'an error'}. Reload the page to start again.`;
    };
    // The game lives in this page only: leaving it in the middle asks first.
    window.addEventListener('beforeunload', (ev) => {
      const s = stern.state;
      if (!failed && s && s.ply > 0 && !s.over) {
        ev.preventDefault();
        ev.returnValue = '';
      }
    });
  }

  function send(msg) {
    if (!stern.link || !stern.link.open()) {
      addMessage('error', 'Not connected to the table.');
      return;
    }
    stern.link.send(JSON.stringify(msg));
  }

  function receive(msg) {
    switch (msg.type) {
      case 'hello':
        stern.hello = msg;
        onHello();
        break;
      case 'state':
        stern.state = msg;
        onState();
        break;
      case 'analysis':
        stern.analysis = msg;
        renderAnalysis();
        break;
      case 'pgn':
        onPgn(msg.text);
        break;
      case 'error':
        addMessage('error', msg.message);
        if (view.edit) view.edit.sent = null; // a refused set-up goes on being edited
        syncControls(); // a refused request leaves the controls as the state says
        break;
      case 'notice':
        addMessage('notice', msg.message);
        break;
      default:
        addMessage('error', `Unknown message from the server: ${msg.type}`);
    }
    if (stern.hello && stern.state) document.body.dataset.ready = '1';
  }

  function addMessage(kind, text) {
    el.messages.appendChild(html('div', { class: kind }, text));
    while (el.messages.children.length > MAX_MESSAGES) el.messages.firstChild.remove();
    el.messages.scrollTop = el.messages.scrollHeight;
  }

  // ---- hello: the board's holes, the variants and engines ----

  function onHello() {
    const h = stern.hello;
    buildBoard(h.holes);
    fillSelect(el.newVariant, h.variants.map((v) => [v, v]));
    el.fenVariant.replaceChildren(el.fenVariant.options[0]);
    for (const v of h.variants) el.fenVariant.appendChild(html('option', { value: v }, v));
    fillSelect(el.analysisEngine, h.engines.map((e) => [String(e.id), e.name]));
    view.formFilled = false;
    buildSeatSelects();
    if (stern.state) onState();
  }

  function fillSelect(select, pairs) {
    const keep = select.value;
    select.replaceChildren(...pairs.map(([value, label]) => html('option', { value }, label)));
    if (pairs.some(([value]) => value === keep)) select.value = keep;
  }

  function buildBoard(holes) {
    const b = el.board;
    b.replaceChildren();
    const defs = svg('defs', {}, b);
    for (const id of ['arrow-pv', 'arrow-preview', 'arrow-swap']) {
      const m = svg('marker', {
        id, viewBox: '0 0 10 10', refX: '7', refY: '5', markerWidth: '3', markerHeight: '3',
        orient: 'auto-start-reverse',
      }, defs);
      svg('path', { d: 'M0 0 L10 5 L0 10 z', class: id }, m);
    }
    // The star is symmetric under the turns the board makes (multiples of 60 degrees).
    const star = (a0) => [0, 1, 2].map((i) => {
      const a = a0 + i * 2 * Math.PI / 3;
      return `${(7.75 * Math.cos(a)).toFixed(3)},${(7.75 * Math.sin(a)).toFixed(3)}`;
    }).join(' ');
    svg('polygon', { class: 'star', points: star(Math.PI / 2) }, b);
    svg('polygon', { class: 'star', points: star(-Math.PI / 2) }, b);

    view.layers = { holes: svg('g', {}, b), pv: svg('g', { class: 'pv-layer' }, b), preview: svg('g', { class: 'preview-layer' }, b) };
    view.holes.clear();
    for (const { name, q, r } of holes) {
      const g = svg('g', { class: 'hole', 'data-hole': name }, view.layers.holes);
      svg('title', {}, g).textContent = name;
      svg('circle', { class: 'well', r: '0.45' }, g);
      svg('circle', { class: 'marble', r: '0.37' }, g);
      const letter = svg('text', { class: 'letter' }, g);
      view.holes.set(name, { name, bx: q + r / 2, by: r * ROW_H, x: 0, y: 0, row: 0, g, letter });
    }
    view.angle = null;
    view.sel = null;
    view.hover = null;
    view.positionKey = '';
    turnBoard(0);
  }

  // Places every hole for the board turned by angle (radians, counter-clockwise).
  function turnBoard(angle) {
    if (view.angle !== null && Math.abs(angle - view.angle) < 1e-9) return;
    view.angle = angle;
    const c = Math.cos(angle), s = Math.sin(angle);
    for (const h of view.holes.values()) {
      h.x = h.bx * c - h.by * s;
      h.y = -(h.bx * s + h.by * c); // the svg's y grows downwards
      h.row = Math.round(h.y / ROW_H);
      h.g.setAttribute('transform', `translate(${h.x.toFixed(4)} ${h.y.toFixed(4)})`);
    }
  }

  // The seat the board is turned for: the first human seat in play, the seat
  // to move in analysis (else as in play, e.g. once the game is over).
  function viewerSeat(st) {
    if (st.mode === 'analysis') {
      const s = st.seats.find((x) => x.seat === st.stm);
      if (s) return s;
    }
    return st.seats.find((x) => x.player === 'human') || st.seats[0];
  }

  function angleFor(seat) {
    const home = seat ? seat.home.map((n) => view.holes.get(n)).filter(Boolean) : [];
    if (!home.length) return view.angle || 0;
    const cx = home.reduce((a, h) => a + h.bx, 0) / home.length;
    const cy = home.reduce((a, h) => a + h.by, 0) / home.length;
    // Bring the centroid to straight below the centre; homes sit at multiples
    // of 60 degrees, and rounding keeps the screen rows exactly horizontal.
    const step = Math.PI / 3;
    return Math.round((-Math.PI / 2 - Math.atan2(cy, cx)) / step) * step;
  }

  // ---- state ----

  function onState() {
    const st = stern.state;
    if (!stern.hello) return;
    view.clockAt = performance.now();
    const key = [st.mode, st.variant, st.fen, st.shown, st.ply, st.legal.map((m) => m.text).join(' ')].join('|');
    if (key !== view.positionKey) {
      view.positionKey = key;
      view.sel = null;
      view.hover = null;
      view.movable = new Set(st.legal.map((m) => m.path[0]));
    }
    if (view.edit && view.edit.sent && st.variant === view.edit.variant
        && sameBoardAndStm(st.fen, view.edit.sent)) endEdit(false);
    view.viewer = viewerSeat(st);
    turnBoard(angleFor(view.viewer));
    if (!view.formFilled) fillFormFromState();
    renderBoard();
    renderStatus();
    renderSeats();
    renderMoves();
    renderEvals();
    renderAnalysis();
    syncControls();
    el.fenCurrent.textContent = st.fen;
  }

  function syncControls() {
    const st = stern.state;
    if (!st) return;
    el.analysisToggle.checked = st.mode === 'analysis';
    el.resign.disabled = st.over || st.mode !== 'play' || !st.seats.some((s) => s.player === 'human');
  }

  function renderStatus() {
    const st = stern.state;
    if (st.over) {
      const placed = st.seats.filter((s) => s.place > 0).sort((a, b) => a.place - b.place);
      const places = placed.map((s) => `${ordinal(s.place)} ${s.colour}`).join(', ');
      el.status.textContent = `Game over: ${st.termination || 'ended'}` + (places ? ` (${places})` : '');
    } else {
      el.status.textContent = `${colourOf(st.stm)} to move`;
    }
    const detail = [];
    if (st.mode === 'analysis') detail.push('Analysis: any seat may move.');
    if (st.shown !== st.ply) detail.push(`Showing the position after ${st.shown} of ${st.ply} moves.`);
    if (st.thinking) {
      const s = seatOf(st.thinking);
      detail.push(`${s ? s.name : 'The engine'} (${colourOf(st.thinking)}) is thinking…`);
    }
    if (view.sel && view.sel.prefix) detail.push('Several moves end there: choose the path hop by hop.');
    if (view.edit) detail.push('Setting up a position: click a hole (or Enter) to change what is on it, then Done.');
    el.statusDetail.textContent = detail.join(' ');
  }

  // ---- the board ----

  function litHoles() {
    const sel = view.sel;
    const lit = new Set();
    if (!sel) return lit;
    if (!sel.prefix) {
      for (const m of sel.moves) lit.add(last(m.path));
      return lit;
    }
    // Hop by hop: the next hop of every candidate, or the hole reached when a
    // candidate ends there.
    const n = sel.prefix.length;
    for (const m of sel.moves) lit.add(m.path.length > n ? m.path[n] : m.path[n - 1]);
    return lit;
  }

  function renderBoard() {
    const st = stern.state;
    if (!st || !view.layers) return;
    const viewer = view.viewer;
    const target = new Set(viewer ? viewer.target : []);
    const foreign = new Set(viewer ? viewer.foreign : []);
    const edit = view.edit;
    const board = edit ? edit.board : st.board;
    const lastMove = edit ? null : st.moves.find((m) => m.ply === st.shown);
    const lastHoles = new Set();
    if (lastMove) {
      const p = lastMove.text.split('-');
      lastHoles.add(p[0].toLowerCase()).add(last(p).toLowerCase());
    }
    const lit = litHoles();
    for (const h of view.holes.values()) {
      const piece = board[h.name];
      if (piece) h.g.setAttribute('data-piece', piece);
      else h.g.removeAttribute('data-piece');
      h.letter.textContent = piece || '';
      const cl = h.g.classList;
      cl.toggle('target', target.has(h.name));
      cl.toggle('foreign', foreign.has(h.name));
      cl.toggle('lit', lit.has(h.name));
      cl.toggle('selected', !!view.sel && view.sel.from === h.name);
      cl.toggle('movable', !edit && view.movable.has(h.name));
      cl.toggle('cursor', view.cursor === h.name);
      cl.toggle('last-move', lastHoles.has(h.name));
    }
    renderPreview();
  }

  function pathD(holes) {
    const pts = holes.map((n) => view.holes.get(n)).filter(Boolean);
    return pts.map((h, i) => `${i ? 'L' : 'M'}${h.x.toFixed(3)} ${h.y.toFixed(3)}`).join(' ');
  }

  function drawMove(layer, path, swap, attrs) {
    svg('path', { d: pathD(path), 'marker-end': `url(#${attrs.marker})`, ...attrs.extra }, layer);
    if (swap) {
      svg('path', { d: pathD([last(path), swap]), class: 'swap', 'marker-end': 'url(#arrow-swap)' }, layer);
    }
  }

  // The moves the hole under the mouse or cursor would play or lead to.
  function previewMoves(hole) {
    const sel = view.sel;
    if (!sel || !hole || !litHoles().has(hole)) return [];
    if (!sel.prefix) return sel.moves.filter((m) => last(m.path) === hole);
    const n = sel.prefix.length;
    const done = sel.moves.filter((m) => m.path.length === n && m.path[n - 1] === hole);
    return done.length ? done : sel.moves.filter((m) => m.path[n] === hole);
  }

  function renderPreview() {
    const layer = view.layers.preview;
    layer.replaceChildren();
    const sel = view.sel;
    if (!sel) return;
    if (sel.prefix && sel.prefix.length > 1) {
      svg('path', { d: pathD(sel.prefix), class: 'move-entered' }, layer);
    }
    const hole = view.hover || view.cursor;
    for (const m of previewMoves(hole)) {
      drawMove(layer, m.path, m.swap, { marker: 'arrow-preview', extra: { class: 'move-preview' } });
      for (const c of m.captured || []) {
        const h = view.holes.get(c);
        if (h) svg('circle', { class: 'captured', cx: h.x, cy: h.y, r: '0.42' }, layer);
      }
    }
  }

  // A click on a hole, or Enter on the cursor's hole.
  function activate(hole) {
    view.cursor = hole;
    if (view.edit) editHole(hole);
    else if (view.sel && litHoles().has(hole)) choose(hole);
    else if (view.movable.has(hole) && !(view.sel && view.sel.from === hole)) pickUp(hole);
    else view.sel = null;
    renderBoard();
    renderStatus();
  }

  function pickUp(hole) {
    view.sel = { from: hole, moves: stern.state.legal.filter((m) => m.path[0] === hole), prefix: null };
  }

  // Picks a lit hole: the end of a move, or in hop-by-hop mode the next hop.
  function choose(hole) {
    const sel = view.sel;
    if (!sel.prefix) {
      const ends = sel.moves.filter((m) => last(m.path) === hole);
      if (ends.length === 1) return play(ends[0]);
      // Several moves (swap, captured pieces) end there: enter the path.
      sel.moves = ends;
      sel.prefix = [sel.from];
      return;
    }
    const n = sel.prefix.length;
    const done = sel.moves.find((m) => m.path.length === n && m.path[n - 1] === hole);
    if (done) return play(done);
    sel.prefix.push(hole);
    sel.moves = sel.moves.filter((m) => m.path[n] === hole);
    if (sel.moves.length === 1) play(sel.moves[0]);
  }

  function play(move) {
    view.sel = null;
    view.hover = null;
    if (move.eliminates) {
      const seat = stern.state.board[move.path[0]];
      const ok = window.confirm(`${move.text} eliminates ${colourOf(seat)}: it brings a marble back home after the exit deadline. Play it?`);
      if (!ok) return;
    }
    send({ type: 'move', text: move.text });
  }

  // The nearest hole from the cursor in a screen direction (after the turn).
  function neighbourOnScreen(from, key) {
    const c = view.holes.get(from);
    let best = null, bestD = Infinity;
    for (const h of view.holes.values()) {
      let d;
      if (key === 'ArrowLeft' || key === 'ArrowRight') {
        const dx = h.x - c.x;
        if (h.row !== c.row || (key === 'ArrowRight' ? dx < 0.1 : dx > -0.1)) continue;
        d = Math.abs(dx);
      } else {
        if (h.row !== c.row + (key === 'ArrowDown' ? 1 : -1)) continue;
        // Two holes are equally near: up leans left and down leans right, so
        // up then down comes back.
        const leanRight = key === 'ArrowDown';
        d = Math.abs(h.x - c.x) + ((h.x > c.x) === leanRight ? 0 : 1e-6);
      }
      if (d < bestD) { bestD = d; best = h.name; }
    }
    return best || from;
  }

  function onBoardKey(ev) {
    if (!view.cursor) return;
    switch (ev.key) {
      case 'ArrowLeft': case 'ArrowRight': case 'ArrowUp': case 'ArrowDown':
        view.cursor = neighbourOnScreen(view.cursor, ev.key);
        renderBoard();
        break;
      case 'Enter':
        activate(view.cursor);
        break;
      case 'Escape':
        view.sel = null;
        renderBoard();
        renderStatus();
        break;
      default:
        return;
    }
    ev.preventDefault();
  }

  function holeOfEvent(ev) {
    const g = ev.target.closest && ev.target.closest('g.hole');
    return g ? g.dataset.hole : null;
  }

  el.board.addEventListener('click', (ev) => {
    const hole = holeOfEvent(ev);
    if (hole) activate(hole);
  });
  el.board.addEventListener('mouseover', (ev) => {
    const hole = holeOfEvent(ev);
    const lit = hole && litHoles().has(hole) ? hole : null;
    if (lit !== view.hover) {
      view.hover = lit;
      if (view.layers) renderPreview();
    }
  });
  el.board.addEventListener('mouseleave', () => {
    view.hover = null;
    if (view.layers) renderPreview();
  });
  el.board.addEventListener('focus', () => {
    if (!view.cursor && view.holes.has('i9')) {
      view.cursor = 'i9';
      renderBoard();
    }
  });
  el.board.addEventListener('keydown', onBoardKey);

  // ---- setting up a position ----

  // Starts editing the shown position: its pieces, and the fields of its FEN
  // after the side to move (the seats' counters and the round), which stay.
  function startEdit() {
    const st = stern.state;
    if (!st || !stern.hello) return;
    const letters = st.seats.map((s) => s.seat);
    const pieces = ['', ...letters, ...(st.variant.startsWith('capture') ? ['x'] : [])];
    view.edit = { board: { ...st.board }, variant: st.variant, pieces, fields: st.fen.split(' ').slice(2), sent: null };
    view.sel = null;
    view.hover = null;
    fillSelect(el.editStm, letters.map((l) => [l, colourOf(l)]));
    el.editStm.value = letters.includes(st.stm) ? st.stm : letters[0];
    el.editTools.hidden = false;
    el.editPosition.setAttribute('aria-pressed', 'true');
    el.board.classList.add('editing');
    renderBoard();
    renderStatus();
  }

  // Leaves edit mode; the board shows the table's position again.
  function endEdit(render = true) {
    view.edit = null;
    el.editTools.hidden = true;
    el.editPosition.setAttribute('aria-pressed', 'false');
    el.board.classList.remove('editing');
    if (render && stern.state) {
      renderBoard();
      renderAnalysis();
      renderStatus();
    }
  }

  // The next content of a hole: empty, each seat in turn order, x in capture mode, empty.
  function editHole(hole) {
    const b = view.edit.board, pieces = view.edit.pieces;
    const next = pieces[(pieces.indexOf(b[hole] || '') + 1) % pieces.length];
    if (next) b[hole] = next;
    else delete b[hole];
  }

  // The FEN's board field: rows of equal r in the holes' FEN order, runs of
  // empty holes as their count, rows joined by '/'.
  function boardField(board) {
    const rows = [];
    let r = null, row = '', empty = 0;
    for (const h of stern.hello.holes) {
      if (h.r !== r) {
        if (r !== null) rows.push(row + (empty || ''));
        r = h.r;
        row = '';
        empty = 0;
      }
      const p = board[h.name];
      if (!p) {
        empty++;
        continue;
      }
      row += (empty || '') + p;
      empty = 0;
    }
    rows.push(row + (empty || ''));
    return rows.join('/');
  }

  function editFen() {
    const e = view.edit;
    return [boardField(e.board), el.editStm.value, ...e.fields].join(' ');
  }

  // The FENs have the same board and side to move (the server's state after a set-up).
  const sameBoardAndStm = (a, b) => a.split(' ').slice(0, 2).join(' ') === b.split(' ').slice(0, 2).join(' ');

  el.editPosition.addEventListener('click', () => (view.edit ? endEdit() : startEdit()));
  $('#edit-cancel').addEventListener('click', () => endEdit());
  $('#edit-clear').addEventListener('click', () => {
    if (!view.edit) return;
    view.edit.board = {};
    renderBoard();
  });
  // The server sets the position up (analysis mode), and the state that shows
  // it ends the editing; an error leaves the position being edited.
  $('#edit-done').addEventListener('click', () => {
    if (!view.edit) return;
    const fen = editFen();
    view.edit.sent = fen;
    send({ type: 'fen', fen, variant: view.edit.variant });
  });

  // ---- seats and clocks ----

  function renderSeats() {
    const st = stern.state;
    view.clockSpans.clear();
    el.clocks.replaceChildren(...st.seats.map((s) => {
      const row = html('div', { class: 'seat-row', 'data-seat': s.seat });
      if (s.seat === st.stm && !st.over) row.classList.add('to-move');
      row.appendChild(html('span', { class: 'swatch' }));
      row.appendChild(html('span', { class: 'seat-name' }, `${s.colour}: ${s.name}`));
      const state = s.status === 'playing' ? '' : s.status + (s.place ? `, ${ordinal(s.place)}` : '');
      row.appendChild(html('span', { class: 'seat-state' }, state || (s.place ? ordinal(s.place) : '')));
      // Every seat gets its clock's place; without a clock (none, or a time a
      // move) it reads a dash.
      const timed = typeof s.clock_ms === 'number';
      const span = html('span', { class: timed ? 'clock' : 'clock none', 'data-seat': s.seat },
        timed ? formatClock(s.clock_ms) : '–');
      if (timed) view.clockSpans.set(s.seat, span);
      row.appendChild(span);
      return row;
    }));
  }

  // The seat whose clock runs: the shown seat to move while the game's newest
  // position is shown, else the seat whose engine is searching.
  // The seat whose clock runs: the game's seat to move (not the shown position's).
  function runningSeat(st) {
    if (st.mode !== 'play' || st.over) return null;
    return st.to_move;
  }

  function tickClocks() {
    const st = stern.state;
    if (!st) return;
    const seat = runningSeat(st);
    const span = seat && view.clockSpans.get(seat);
    const s = seat && seatOf(seat);
    if (span && s) {
      span.textContent = formatClock(s.clock_ms - (performance.now() - view.clockAt));
      span.classList.add('running');
    }
  }
  setInterval(tickClocks, 200);

  // ---- moves ----

  function renderMoves() {
    const st = stern.state;
    el.moves.replaceChildren(...st.moves.map((m) => {
      const li = html('li', { 'data-ply': String(m.ply), 'data-seat': m.seat }, m.text);
      if (m.comment) li.title = m.comment;
      if (m.ply === st.shown) li.classList.add('current');
      return li;
    }));
    const cur = el.moves.querySelector('li.current');
    if (cur) cur.scrollIntoView({ block: 'nearest' });
  }

  el.moves.addEventListener('click', (ev) => {
    const li = ev.target.closest('li[data-ply]');
    if (li) send({ type: 'goto', ply: Number(li.dataset.ply) });
  });

  function gotoRelative(delta) {
    const st = stern.state;
    if (!st) return;
    const ply = Math.max(0, Math.min(st.ply, st.shown + delta));
    if (ply !== st.shown) send({ type: 'goto', ply });
  }
  $('#start').addEventListener('click', () => send({ type: 'goto', ply: 0 }));
  $('#back').addEventListener('click', () => gotoRelative(-1));
  $('#forward').addEventListener('click', () => gotoRelative(1));
  $('#end').addEventListener('click', () => stern.state && send({ type: 'goto', ply: stern.state.ply }));
  el.resign.addEventListener('click', () => send({ type: 'resign' }));

  // ---- analysis ----

  function currentMultipv() {
    const n = Math.round(Number(el.multipv.value));
    return n >= 1 && n <= 8 ? n : null;
  }

  function sendAnalysis() {
    const multipv = currentMultipv() || 1;
    view.sentMultipv = multipv;
    const msg = { type: 'analysis', on: el.analysisToggle.checked, multipv };
    if (el.analysisEngine.value !== '') msg.engine = Number(el.analysisEngine.value);
    send(msg);
  }

  el.analysisToggle.addEventListener('change', sendAnalysis);
  el.analysisEngine.addEventListener('change', () => el.analysisToggle.checked && sendAnalysis());
  for (const evName of ['input', 'change']) {
    el.multipv.addEventListener(evName, () => {
      const n = currentMultipv();
      if (n !== null && n !== view.sentMultipv && el.analysisToggle.checked) sendAnalysis();
    });
  }

  // The lines of the latest analysis, when they are about the shown position.
  function currentLines() {
    const st = stern.state, a = stern.analysis;
    if (!st || !a || st.mode !== 'analysis' || a.ply !== st.shown) return [];
    return [...a.lines].sort((x, y) => x.multipv - y.multipv);
  }

  function renderAnalysis() {
    if (!view.layers) return;
    const lines = currentLines();
    el.analysisLines.replaceChildren(...lines.map((l) => {
      const li = html('li', { class: 'line', 'data-multipv': String(l.multipv) });
      li.appendChild(html('span', { class: 'score' }, formatScore(l.score)));
      li.appendChild(document.createTextNode(' '));
      const seats = Object.entries(l.scores || {}).map(([s, v]) => `${s} ${(v / 100).toFixed(2)}`).join(' ');
      const info = [`d${l.depth}`, seats].filter(Boolean).join(' · ');
      li.appendChild(html('span', { class: 'info' }, info));
      li.appendChild(document.createTextNode(' '));
      li.appendChild(html('span', { class: 'pv' }, l.pv.join(' ')));
      return li;
    }));

    // Every line's first move as an arrow, fainter for weaker lines, and the
    // best line's next few moves thin.
    const layer = view.layers.pv;
    layer.replaceChildren();
    for (const l of [...lines].reverse()) {
      if (!l.paths || !l.paths.length) continue;
      const k = l.multipv;
      if (k === 1) {
        for (const p of l.paths.slice(1, 4)) {
          svg('path', { d: pathD(p), class: 'pv-next', 'data-multipv': '1', 'marker-end': 'url(#arrow-pv)' }, layer);
        }
      }
      svg('path', {
        d: pathD(l.paths[0]), class: 'pv-line', 'data-multipv': String(k), 'marker-end': 'url(#arrow-pv)',
        'stroke-width': (0.24 - 0.02 * (k - 1)).toFixed(2), opacity: Math.max(0.3, 0.9 - 0.15 * (k - 1)).toFixed(2),
      }, layer);
    }
  }

  // ---- evaluation graph ----

  function renderEvals() {
    const st = stern.state, g = el.evalGraph;
    const W = 300, H = 100;
    const evals = [...(st.evals || [])].sort((a, b) => a.ply - b.ply);
    const maxPly = Math.max(1, st.ply, ...evals.map((e) => e.ply));
    let maxAbs = 100;
    for (const e of evals) for (const v of Object.values(e.scores)) maxAbs = Math.max(maxAbs, Math.abs(v));
    const range = Math.min(maxAbs, 1000); // mate scores would flatten the rest
    const px = (ply) => (ply / maxPly * W).toFixed(2);
    const py = (v) => (H / 2 - Math.max(-range, Math.min(range, v)) / range * (H / 2 - 3)).toFixed(2);

    g.replaceChildren();
    svg('line', { class: 'axis', x1: 0, y1: H / 2, x2: W, y2: H / 2 }, g);
    svg('line', { class: 'eval-cursor', x1: px(st.shown), y1: 0, x2: px(st.shown), y2: H }, g);
    for (const s of st.seats) {
      const pts = evals.filter((e) => e.scores[s.seat] !== undefined)
        .map((e) => `${px(e.ply)},${py(e.scores[s.seat])}`).join(' ');
      svg('polyline', { 'data-seat': s.seat, points: pts }, g);
    }
    g.dataset.maxPly = String(maxPly);
  }

  el.evalGraph.addEventListener('click', (ev) => {
    const st = stern.state;
    if (!st) return;
    const box = el.evalGraph.getBoundingClientRect();
    const ply = Math.round((ev.clientX - box.left) / box.width * Number(el.evalGraph.dataset.maxPly));
    send({ type: 'goto', ply: Math.max(0, Math.min(st.ply, ply)) });
  });

  // ---- new game ----

  // The seats in play of a variant, in turn order, as the server's hello lists them.
  function seatsOf(variant) {
    return (stern.hello.variant_seats && stern.hello.variant_seats[variant]) || ['w', 'b'];
  }

  function buildSeatSelects(players = null) {
    const hello = stern.hello;
    if (!hello) return;
    const letters = seatsOf(el.newVariant.value);
    const n = letters.length;
    const old = [...el.newSeats.querySelectorAll('select')].map((s) => s.value);
    const options = [['human', 'Human'], ...hello.engines.map((e) => [`engine:${e.id}`, `Engine: ${e.name}`])];
    const rows = [];
    for (let i = 0; i < n; i++) {
      const select = html('select', { 'data-seat-index': String(i) });
      for (const [value, label] of options) select.appendChild(html('option', { value }, label));
      const fallback = i === 0 || options.length === 1 ? 'human' : options[1][0];
      const want = (players && players[i]) || old[i] || fallback;
      select.value = options.some(([v]) => v === want) ? want : fallback;
      const label = html('label', {}, `${letters[i] ? COLOURS[letters[i]] : `Seat ${i + 1}`} `);
      label.appendChild(select);
      rows.push(label);
    }
    el.newSeats.replaceChildren(...rows);
  }

  // Starts the form from the game on the table, once per connection.
  function fillFormFromState() {
    const st = stern.state;
    view.formFilled = true;
    if (![...el.newVariant.options].some((o) => o.value === st.variant)) return;
    el.newVariant.value = st.variant;
    buildSeatSelects(st.seats.map((s) => (s.player === 'engine' ? `engine:${s.engine}` : 'human')));
  }

  el.newVariant.addEventListener('change', () => buildSeatSelects());

  // "M+S" minutes and increment seconds, "Ns" seconds a move, "none"; null if unreadable.
  function parseTc(text) {
    const t = text.trim().toLowerCase();
    if (t === 'none' || t === '') return {};
    const num = '(\\d+(?:\\.\\d+)?)';
    let m = new RegExp(`^${num}\\s*\\+\\s*${num}$`).exec(t);
    if (m) return { base_ms: Math.round(Number(m[1]) * 60000), inc_ms: Math.round(Number(m[2]) * 1000) };
    m = new RegExp(`^${num}\\s*s$`).exec(t);
    if (m) return { movetime_ms: Math.round(Number(m[1]) * 1000) };
    return null;
  }

  el.newForm.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const tc = parseTc(el.newTc.value);
    if (!tc) {
      addMessage('error', `Time control "${el.newTc.value}": write M+S (minutes + increment seconds), Ns (seconds a move) or none.`);
      return;
    }
    const seats = [...el.newSeats.querySelectorAll('select')].map((s) => (s.value === 'human'
      ? { player: 'human' }
      : { player: 'engine', engine: Number(s.value.slice('engine:'.length)) }));
    send({ type: 'new', variant: el.newVariant.value, seats, tc });
  });

  // ---- FEN and PGN ----

  el.fenForm.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const fen = el.fenInput.value.trim();
    if (!fen) return;
    const msg = { type: 'fen', fen };
    if (el.fenVariant.value) msg.variant = el.fenVariant.value;
    send(msg);
  });

  $('#pgn-load').addEventListener('click', () => send({ type: 'load_pgn', text: el.pgnText.value }));
  $('#pgn-save').addEventListener('click', () => send({ type: 'save_pgn' }));

  function onPgn(text) {
    el.pgnText.value = text;
    if (view.pgnUrl) URL.revokeObjectURL(view.pgnUrl);
    view.pgnUrl = URL.createObjectURL(new Blob([text], { type: 'application/x-chess-pgn' }));
    el.pgnDownload.href = view.pgnUrl;
    el.pgnDownload.download = `stern-${stern.state ? stern.state.variant : 'game'}.pgn`;
    el.pgnDownload.hidden = false;
  }

  connect();
})();
