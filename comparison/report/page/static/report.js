// The report's behaviour: sortable tables and the step-by-step player of --watch.
// The page's state can be set from its address: #method=K&step=N (the player), #sort=TABLE:COLUMN:asc|desc,
// #only=SECTION[,SECTION] (the others hidden).
// It writes what it shows into #player-state's data attributes, so that a headless browser can read it.
"use strict";

const DATA = JSON.parse(document.getElementById("report-data").textContent);
const SYMBOLS = "123456789ABCDEFGHIJKLMNOP";

// -- sortable tables --------------------------------------------------------------------------------------
function sortTable(table, column, descending) {
  const body = table.tBodies[0];
  const key = (row) => {
    const cell = row.children[column];
    const v = cell && cell.dataset.v;
    return v === undefined ? null : Number(v);
  };
  const text = (row) => (row.children[column] ? row.children[column].textContent : "");
  const rows = Array.from(body.rows);
  rows.sort((a, b) => {
    const x = key(a), y = key(b);
    let order;
    if (x !== null && y !== null) order = x - y;
    else if (x !== null || y !== null) order = x === null ? 1 : -1;  // no figure ("-") always last
    else order = text(a).localeCompare(text(b));
    return descending && (x !== null && y !== null || x === null && y === null) ? -order : order;
  });
  rows.forEach((row) => body.appendChild(row));
  Array.from(table.tHead.rows[0].children).forEach((th, i) => {
    th.classList.toggle("asc", i === column && !descending);
    th.classList.toggle("desc", i === column && descending);
  });
  table.dataset.sorted = column + ":" + (descending ? "desc" : "asc");
}

document.querySelectorAll("table.sortable").forEach((table) => {
  Array.from(table.tHead.rows[0].children).forEach((th, i) => {
    th.addEventListener("click", () => sortTable(table, i, th.classList.contains("asc")));
  });
});

// -- the player -------------------------------------------------------------------------------------------
class Player {
  constructor(root, watch) {
    this.root = root;
    this.watch = watch;
    this.side = watch.side;
    this.across = Math.ceil(Math.sqrt(this.side));  // a cell's candidates: so many a row
    this.peers = this.peerLists();
    // the rules with a room (a Killer's cages): each one's cells and fillings, the value sets it may hold (masks;
    // null: any set of different values), each cell's rules, each room met (room())
    this.cages = (watch.rooms || []).map(([cells, fillings]) => ({ cells, fillings }));
    this.cagesOf = Array.from({ length: this.side * this.side }, () => []);
    this.cages.forEach((cage, k) => cage.cells.forEach((cell) => this.cagesOf[cell].push(k)));
    this.rooms = new Map();
    // the constraints' links (puzzles/constraints/): per cell, [another cell, a table]; a table's entry for value v,
    // the mask of values v placed in the cell forbids in the other
    this.links = watch.links || [];
    this.tables = watch.tables || [];
    this.method = 0;
    this.step = 0;
    this.timer = null;
    this.build();
  }

  // Each cell's peers: the other cells of its row, its column, its region and its other houses (diagonals,
  // extra regions, disjoint groups), where a value placed leaves their candidates.
  peerLists() {
    const n = this.side, regions = this.watch.regions, peers = [];
    const houses = [...Array.from({ length: n }, () => []), ...this.watch.extras];
    regions.forEach((region, cell) => houses[region].push(cell));
    const housesOf = Array.from({ length: n * n }, () => []);
    houses.forEach((cells) => cells.forEach((cell) => housesOf[cell].push(cells)));
    for (let cell = 0; cell < n * n; cell++) {
      const r = Math.floor(cell / n), c = cell % n, set = new Set();
      for (let k = 0; k < n; k++) { set.add(r * n + k); set.add(k * n + c); }
      for (const cells of housesOf[cell]) for (const other of cells) set.add(other);
      set.delete(cell);
      peers.push(Array.from(set));
    }
    return peers;
  }

  // A rule's room (a Killer cage's), as the engines keep it (puzzles/candidates.py's Rooms): the values its empty
  // cells may still take, a bit mask: those of its fillings that hold every value placed in it, less those values
  // (any value not placed, for a rule of any different values).
  room(k, values) {
    const cage = this.cages[k], n = this.side;
    let used = 0;
    for (const cell of cage.cells) if (values[cell]) used |= 1 << (values[cell] - 1);
    if (cage.fillings === null) return ((1 << n) - 1) & ~used;
    const key = k * (1 << n) + used;
    if (this.rooms.has(key)) return this.rooms.get(key);
    let room = 0;
    for (const set of cage.fillings) if ((set & used) === used) room |= set & ~used;
    this.rooms.set(key, room);
    return room;
  }

  get trace() { return this.watch.traces[this.method]; }

  build() {
    const el = (tag, cls, parent) => {
      const e = document.createElement(tag);
      if (cls) e.className = cls;
      if (parent) parent.appendChild(e);
      return e;
    };
    const root = this.root;
    this.tabs = el("div", "tabs", root);
    this.watch.traces.forEach((t, i) => {
      const b = el("button", "", this.tabs);
      b.textContent = t.method;
      b.addEventListener("click", () => { this.stop(); this.method = i; this.go(0); });
    });
    const controls = el("div", "controls", root);
    const stage = el("div", "stage", root);
    const left = el("div", "", stage);
    const button = (label, title, action) => {
      const b = el("button", "", controls);
      b.textContent = label;
      b.title = title;
      b.addEventListener("click", action);
      return b;
    };
    button("\u00AB first", "first step (Home)", () => this.go(0));
    button("\u2039 back", "one step back (left arrow)", () => this.go(this.step - 1));
    this.playButton = button("play", "play (space)", () => this.toggle());
    button("next \u203A", "one step on (right arrow)", () => this.go(this.step + 1));
    button("last \u00BB", "last step (End)", () => this.go(this.trace.events.length));
    this.slider = el("input", "", controls);
    this.slider.type = "range";
    this.slider.min = 0;
    this.slider.addEventListener("input", () => this.go(Number(this.slider.value)));
    this.position = el("span", "", controls);
    if (this.watch.legend) el("p", "houses", left).textContent = this.watch.legend;
    const outside = this.watch.outside || [];  // clues written outside the grid: the board gets margins
    this.board = el("div", "board", outside.length ? el("div", "clued", left) : left);
    const n = this.side, size = n <= 9 ? 46 : n <= 16 ? 32 : 26;
    if (outside.length) clueMargins(this.board, outside, n, size);
    this.board.style.gridTemplateColumns = `repeat(${n}, ${size}px)`;
    this.board.style.gridAutoRows = `${size}px`;
    if (n > 9) this.board.style.fontSize = "0.75rem";
    this.cells = [];
    this.drawn = [];  // each cell's classes that stay: its borders and its houses
    this.outlines = [];  // each cell's share of the Killer cages' dashed outlines (an SVG), or null
    this.figures = [];  // each cell's share of the constraints' lines and bulbs (an SVG under its text), or null
    const regions = this.watch.regions, marks = this.watch.marks || [], cages = this.watch.cages || [];
    const shapes = this.watch.shapes || [];
    for (let cell = 0; cell < n * n; cell++) {
      const r = Math.floor(cell / n), c = cell % n, d = el("div", "c", this.board);
      if (c < n - 1 && regions[cell] !== regions[cell + 1]) d.classList.add("R");  // another region: thick
      if (r < n - 1 && regions[cell] !== regions[cell + n]) d.classList.add("B");
      const [houses, colours] = marks[cell] || ["", ""];
      if (houses) d.classList.add(...houses.split(" "));
      for (const pair of colours ? colours.split(";") : []) {
        const at = pair.indexOf(":");
        d.style.setProperty(pair.slice(0, at), pair.slice(at + 1));
      }
      d.title = `r${r + 1}c${c + 1}`;
      const [outline, total, names] = cages[cell] || ["", "", ""];
      if (total) d.dataset.total = total;  // the style writes it in the corner: the cell's text stays its value
      if (names) d.title += `: ${names}`;
      if (outline) d.classList.add("k");  // in a cage: its candidates keep inside the outline
      this.outlines.push(outline ? cageOutline(outline) : null);
      const [lines, discs, named, signs] = shapes[cell] || ["", "", "", ""];
      if (named) d.title += (d.title.includes(":") ? ", " : ": ") + named;
      if (lines || discs || signs) d.classList.add("s");
      this.figures.push(lines || discs || signs ? shapeFigure(lines, discs, signs) : null);
      this.drawn.push(d.className);
      this.cells.push(d);
    }
    const side = el("div", "side", stage);
    this.now = el("p", "now", side);
    this.counters = el("p", "counters", side);
    this.log = el("ol", "log", side);
    this.log.start = 1;
    this.state = el("div", "", root);
    this.state.id = "player-state";
    document.addEventListener("keydown", (e) => {
      if (e.target.tagName === "INPUT" && e.key !== " ") return;
      const moves = { ArrowRight: this.step + 1, ArrowLeft: this.step - 1, Home: 0,
                      End: this.trace.events.length };
      if (e.key in moves) { this.stop(); this.go(moves[e.key]); e.preventDefault(); }
      else if (e.key === " ") { this.toggle(); e.preventDefault(); }
    });
  }

  toggle() {
    if (this.timer) { this.stop(); return; }
    if (this.step >= this.trace.events.length) this.go(0);
    this.playButton.textContent = "pause";
    this.timer = setInterval(() => {
      if (this.step >= this.trace.events.length) this.stop(); else this.go(this.step + 1);
    }, 250);
  }

  stop() {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.playButton.textContent = "play";
  }

  // The grid after the first `step` events: values, candidates (bit v-1 for value v), and how each was filled.
  replay(step) {
    const t = this.trace, n = this.side, givens = this.watch.puzzle;
    const start = () => ({
      values: Array.from(givens, (ch) => SYMBOLS.indexOf(ch) + 1),
      cands: Array.from({ length: n * n }, (_, i) => (t.candidates[i] || []).reduce((m, v) => m | (1 << (v - 1)), 0)),
      how: Array.from(givens, (ch) => (SYMBOLS.indexOf(ch) >= 0 ? "given" : "")),
    });
    const copy = (s) => ({ values: s.values.slice(), cands: s.cands.slice(), how: s.how.slice() });
    let s = start();
    let root = null;  // the state after the root's inference (before the first choose): where a restart goes
    const saved = {};
    const place = (cell, v, how) => {
      s.values[cell] = v;
      s.cands[cell] = 1 << (v - 1);
      s.how[cell] = how;
      for (const p of this.peers[cell]) s.cands[p] &= ~(1 << (v - 1));
      for (const [other, t] of this.links[cell] || []) s.cands[other] &= ~this.tables[t][v];
      for (const k of this.cagesOf[cell]) {  // a Killer: the cell's cages leave their empty cells their room
        const room = this.room(k, s.values);
        for (const mate of this.cages[k].cells) if (!s.values[mate]) s.cands[mate] &= room;
      }
    };
    let solved = false;
    // the rules kept by their filter (an arrow's): what each placement leaves their other empty cells, by event
    const narrowed = t.narrowed || {};
    for (let i = 0; i < step; i++) {
      const [k, depth, cell, value] = t.events[i], kind = t.kinds[k];
      solved = false;
      if (kind === "choose" && root === null) root = copy(s);
      if (kind === "try") { saved[depth] = copy(s); place(cell, value, "guessed"); }
      else if (kind === "place") place(cell, value, "forced");
      else if (kind === "remove") s.cands[cell] &= ~(1 << (value - 1));
      else if (kind === "backtrack") {
        if (saved[depth]) s = copy(saved[depth]);
        for (const d of Object.keys(saved)) if (Number(d) > depth) delete saved[d];
      } else if (kind === "restart") {
        s = root ? copy(root) : start();
        for (const d of Object.keys(saved)) delete saved[d];
      }
      else if (kind === "solution") solved = true;
      for (const [mate, allowed] of narrowed[i] || []) if (!s.values[mate]) s.cands[mate] &= allowed;
    }
    s.solved = solved;
    return s;
  }

  describe(event) {
    const t = this.trace, [k, depth, cell, value, rule, detail] = event, kind = t.kinds[k];
    const where = cell >= 0 ? `r${Math.floor(cell / this.side) + 1}c${(cell % this.side) + 1}` : "";
    const sym = value ? SYMBOLS[value - 1] : "";
    const words = {
      choose: `choose ${where}`, try: `try ${sym} at ${where}`, place: `place ${sym} at ${where}`,
      remove: `remove ${sym} from ${where}`, dead_end: `dead end at ${where || "this node"}`,
      backtrack: `back to depth ${depth}`, solution: "solution", restart: "restart from the puzzle",
    }[kind] || kind;
    const why = [rule, detail].filter((x) => x).join(": ");
    return `depth ${depth}: ${words}` + (why ? ` (${why})` : "");
  }

  go(step) {
    const t = this.trace, total = t.events.length;
    this.step = Math.max(0, Math.min(step, total));
    Array.from(this.tabs.children).forEach((b, i) => b.classList.toggle("on", i === this.method));
    const s = this.replay(this.step), n = this.side;
    const event = this.step > 0 ? t.events[this.step - 1] : null;
    const kind = event ? t.kinds[event[0]] : "start", current = event ? event[2] : -1;
    for (let cell = 0; cell < n * n; cell++) {
      const d = this.cells[cell];
      d.className = this.drawn[cell];
      if (s.how[cell]) d.classList.add(s.how[cell]);
      if (s.solved) d.classList.add("solved");
      if (cell === current) d.classList.add("current", "ev-" + kind);
      d.textContent = "";
      if (s.values[cell]) d.textContent = SYMBOLS[s.values[cell] - 1];
      else {
        const grid = document.createElement("div");
        grid.className = "cands";
        grid.style.gridTemplateColumns = `repeat(${this.across}, 1fr)`;
        for (let v = 1; v <= n; v++) {
          const span = document.createElement("span");
          const removed = kind === "remove" && cell === current && v === event[3];
          if (s.cands[cell] & (1 << (v - 1)) || removed) span.textContent = SYMBOLS[v - 1];
          if (removed) span.className = "gone";
          grid.appendChild(span);
        }
        d.appendChild(grid);
      }
      if (this.figures[cell]) d.appendChild(this.figures[cell]);
      if (this.outlines[cell]) d.appendChild(this.outlines[cell]);
    }
    this.slider.max = total;
    this.slider.value = this.step;
    this.position.textContent = `step ${this.step} / ${total}` + (t.truncated ? " (trace cut here)" : "");
    this.now.textContent = event ? this.describe(event) : `${t.method}: the puzzle, with each cell's candidates`;
    const counts = event ? event.slice(6) : [];
    this.counters.textContent = t.counter_names.map((name, i) => `${name} ${counts[i] ?? 0}`).join(" \u00B7 ");
    this.showLog();
    const r = current >= 0 ? Math.floor(current / n) : -1, c = current >= 0 ? current % n : -1;
    Object.assign(this.state.dataset, {
      method: t.method, step: String(this.step), total: String(total), kind,
      cell: current >= 0 ? `${r},${c}` : "", value: event && event[3] ? String(event[3]) : "",
      shown: current >= 0 ? this.cells[current].textContent : "",
      filled: String(s.values.filter((v) => v).length),
    });
  }

  showLog() {
    const t = this.trace, from = Math.max(0, this.step - 12), to = Math.min(t.events.length, from + 25);
    this.log.textContent = "";
    this.log.start = from + 1;
    for (let i = from; i < to; i++) {
      const li = document.createElement("li");
      li.textContent = this.describe(t.events[i]);
      if (i === this.step - 1) li.className = "here";
      this.log.appendChild(li);
    }
  }
}

// Clues outside the grid (houses.py's outside marks: [row, column, text, names], the row or the column -1 or n),
// each written beside its row, column or diagonal in a margin a cell wide around the board: the board's holder a
// grid whose tracks are the margins, the board's frame and its cells, so that a clue lines up with its cells.
function clueMargins(board, outside, n, size) {
  const holder = board.parentNode;
  const top = Number(outside.some(([r]) => r < 0)), bottom = outside.some(([r]) => r === n);
  const left = Number(outside.some(([, c]) => c < 0)), right = outside.some(([, c]) => c === n);
  const tracks = (before, after) => [before ? `${size}px` : "", "2px", `repeat(${n}, ${size}px)`, "2px",
                                     after ? `${size}px` : ""].filter((t) => t).join(" ");
  holder.style.gridTemplateColumns = tracks(left, right);
  holder.style.gridTemplateRows = tracks(top, bottom);
  board.style.gridArea = `${1 + top} / ${1 + left} / span ${n + 2} / span ${n + 2}`;
  const track = (k, before) => (k < 0 ? 1 : k === n ? before + n + 3 : before + k + 2);  // 1-based
  for (const [r, c, text, names] of outside) {
    const d = document.createElement("div");
    d.className = "o";
    d.textContent = text;
    d.title = names;
    d.style.gridArea = `${track(r, top)} / ${track(c, left)}`;
    holder.appendChild(d);
  }
}

// A cell's share of the Killer cages' dashed outlines, as the drawn grids have it (houses.py): path data in the
// cell's own units, stretched over the cell.
function cageOutline(d) {
  const NS = "http://www.w3.org/2000/svg", svg = document.createElementNS(NS, "svg");
  const path = document.createElementNS(NS, "path");
  svg.setAttribute("class", "cage");
  svg.setAttribute("viewBox", "0 0 1 1");
  svg.setAttribute("preserveAspectRatio", "none");
  svg.setAttribute("aria-hidden", "true");
  path.setAttribute("d", d);
  svg.appendChild(path);
  return svg;
}

// A cell's share of the constraints' drawing, as the drawn grids have it (houses.py): its lines' pieces and its
// discs, path data in the cell's own units, and its marks (dots, letters, circles, squares: SVG elements the page
// made), under the cell's text.
function shapeFigure(lines, discs, marks) {
  const NS = "http://www.w3.org/2000/svg", svg = document.createElementNS(NS, "svg");
  svg.setAttribute("class", "shape");
  svg.setAttribute("viewBox", "0 0 1 1");
  svg.setAttribute("preserveAspectRatio", "none");
  svg.setAttribute("aria-hidden", "true");
  for (const [cls, d] of [["line", lines], ["disc", discs]]) {
    if (!d) continue;
    const path = document.createElementNS(NS, "path");
    path.setAttribute("class", cls);
    path.setAttribute("d", d);
    svg.appendChild(path);
  }
  if (marks) svg.insertAdjacentHTML("beforeend", marks);
  return svg;
}

// -- the address: #method=K&step=N, #sort=TABLE:COLUMN:asc|desc, #only=SECTION,... ----------------------------------------------
function fromAddress(player) {
  const params = new URLSearchParams(location.hash.slice(1));
  if (player) {
    const method = Number(params.get("method") || 0), step = Number(params.get("step") || 0);
    if (method >= 0 && method < player.watch.traces.length) player.method = method;
    player.go(step);
  }
  const only = params.get("only");  // one section alone, e.g. for a screenshot of the player
  document.querySelectorAll("main > section").forEach((section) => {
    section.hidden = Boolean(only) && !only.split(",").includes(section.id);
  });
  const sort = params.get("sort");
  if (sort) {
    const [id, column, order] = sort.split(":");
    const table = document.getElementById(id);
    if (table) sortTable(table, Number(column), order === "desc");
  }
}

const playerRoot = document.getElementById("player");
const player = playerRoot && DATA.watch && DATA.watch.traces.length ? new Player(playerRoot, DATA.watch) : null;
fromAddress(player);
window.addEventListener("hashchange", () => fromAddress(player));
