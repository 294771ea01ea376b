// The Interactive Sudoku Solver (ISS, https://github.com/sigh/Interactive-Sudoku-Solver, MIT) run headless in
// node, warm, for benchmarks/versus_iss.py:
//
//     node benchmarks/iss_driver.mjs ISS_CHECKOUT < puzzles.jsonl
//
// Its first line written, once ISS's modules are loaded, is `{"ready": true}`. Then each line read is one puzzle
// as f-puzzles JSON (puzzles/fpuzzles.py `json_line`) and each line written one JSON answer, in the same order,
// written at once, so that a caller can hand one puzzle at a time:
//
//     {"solution": [v, ...] | null, "unique": true | false | null, "seconds": S, "setup_seconds": S,
//      "guesses": G, "error": "..."}
//
// `solution` is the first solution ISS finds, every cell's value in reading order (null: none); `unique` whether
// ISS proved it the only one (it looks for a second, as its own `SimpleSolver.uniqueSolution` and
// `tools/debug/solve.js --solutions 2` do); `seconds` ISS's wall time for the puzzle: reading its constraint
// string (SudokuParser.parseText), building its model (SudokuBuilder: its handlers and its optimizer's implied
// constraints) and the search for two solutions; `setup_seconds` the reading and building alone; `guesses` ISS's
// own counter. Turning the f-puzzles object into ISS's constraint string (below) is this driver's, not ISS's,
// and is not timed. A puzzle the driver cannot turn into ISS's constraints, or that ISS refuses, is an answer
// with `error` only (`cannot give ISS this puzzle: ...` for the first). ISS's code is loaded from the checkout at run time; none of it is in this project.
//
// The f-puzzles fields read (those puzzles/fpuzzles.py writes): `size`, `grid` (a cell's given `value`, its
// Jigsaw `region`), `killercage`, `diagonal+`, `diagonal-`, `extraregion`, `disjointgroups`, `antiknight`,
// `antiking`, `nonconsecutive`, `thermometer`, `difference` (of 1), `ratio` (of 2), `xv`, `negative` (of xv, or of
// difference and ratio together, as ISS's StrictXV and StrictKropki), `odd`, `even`, `palindrome`, `renban`,
// `whispers`, `modularline`, `entropicline` (9x9), `minimum`, `maximum`, `arrow` (a pill of 1 to 3 cells),
// `quadruple`, `littlekillersum`, `betweenline`, `lockout`, `zipperline`, `doublearrow`, `regionsumline`,
// `sandwichsum`, `xsum`, `skyscraper`, `rowindexer`, `columnindexer`, a cell's `givenPencilMarks`; `title`, `author`, `ruleset` and `solution` are passed over. Any
// other field is an error naming it: ISS solving without a rule would solve another puzzle.

import { createInterface } from 'node:readline';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const usage = 'usage: node iss_driver.mjs ISS_CHECKOUT (f-puzzles JSON lines on stdin)';
const checkout = process.argv[2];
if (!checkout || process.argv.length > 3) {
  console.error(usage);
  process.exit(2);
}
const root = resolve(checkout);
const PARSER = join(root, 'js', 'sudoku_parser.js');
const BUILDER = join(root, 'js', 'solver', 'sudoku_builder.js');
for (const file of [PARSER, BUILDER]) {
  if (!existsSync(file)) {
    console.error(`iss_driver: ${root} is not a checkout of the Interactive Sudoku Solver: no ${file}`);
    process.exit(2);
  }
}

// ISS's modules run in a browser or a web worker: they name `self` and import with `self.VERSION_PARAM`. Its
// own headless bootstrap (tests/helpers/test_env.js, which its tests and tools use) sets them; the two globals
// are set here when a checkout lacks it.
const bootstrap = join(root, 'tests', 'helpers', 'test_env.js');
if (existsSync(bootstrap)) {
  (await import(pathToFileURL(bootstrap).href)).ensureGlobalEnvironment();
} else {
  globalThis.self ??= globalThis;
  globalThis.VERSION_PARAM ??= '';
}
// Whatever ISS logs goes to stderr: stdout holds the answers alone.
console.log = console.info = console.debug = console.warn = console.error;
const { SudokuParser } = await import(pathToFileURL(PARSER).href);
const { SudokuBuilder } = await import(pathToFileURL(BUILDER).href);

// -- f-puzzles object -> ISS constraint string ---------------------------------------------------------------

const PASSED_OVER = new Set(['size', 'grid', 'title', 'author', 'ruleset', 'solution']);
const FLAGS = {  // a whole-grid rule set by `true`
  'diagonal+': '.Diagonal~1',  // ISS's ╱, from bottom left to top right, f-puzzles' positive diagonal
  'diagonal-': '.Diagonal~-1',  // ╲
  'disjointgroups': '.DisjointSets',
  'antiknight': '.AntiKnight',
  'antiking': '.AntiKing',
  'nonconsecutive': '.AntiConsecutive',  // orthogonal neighbours differ by more than 1, in both
};

// a dot's ISS constraint by its value (a dot without one has its field's default)
const DOTS = { difference: { 1: 'WhiteDot' }, ratio: { 2: 'BlackDot' }, xv: { X: 'X', V: 'V', 10: 'X', 5: 'V' } };
const DOT_DEFAULT = { difference: 1, ratio: 2, xv: '' };

// ISS's cell ids write a row and a column in base 17 (column 10 is `a`): R1C1 ... RgCg on 16x16.
const cellId = (row, col) => `R${row.toString(17)}C${col.toString(17)}`;

const cellOf = (name, size) => {
  const found = /^R(\d+)C(\d+)$/i.exec(String(name));
  const row = found && +found[1];
  const col = found && +found[2];
  if (!found || row < 1 || row > size || col < 1 || col > size) {
    throw new Error(`${JSON.stringify(name)} is not a cell of a ${size}x${size} grid`);
  }
  return cellId(row, col);
};

const cellsOf = (names, size, what) => {
  if (!Array.isArray(names) || !names.length) throw new Error(`${what} has no cells`);
  return names.map(name => cellOf(name, size));
};

const rowCol = (name, size) => {
  const id = cellOf(name, size);  // checked
  const found = /^R(\d+)C(\d+)$/i.exec(String(name));
  return id && [+found[1], +found[2]];
};

// a clue's cell outside the grid (R0C3: above column 3; R3C10 on a 9x9: right of row 3) -> [row, column], one of
// them 0 or the side + 1
const outsideClue = (name, size, what) => {
  const found = /^R(\d+)C(\d+)$/i.exec(String(name));
  const [row, col] = found ? [+found[1], +found[2]] : [-1, -1];
  const outside = (row === 0 || row === size + 1) !== (col === 0 || col === size + 1);
  if (!found || !outside || row < 0 || col < 0 || row > size + 1 || col > size + 1) {
    throw new Error(`${what}: ${JSON.stringify(name)} is not a cell beside a ${size}x${size} grid`);
  }
  return [row, col];
};

// two ISS cell ids in reading order
const byPlace = (a, b) => {
  const [, ra, ca] = /^R(\w)C(\w)$/.exec(a), [, rb, cb] = /^R(\w)C(\w)$/.exec(b);
  return parseInt(ra, 17) - parseInt(rb, 17) || parseInt(ca, 17) - parseInt(cb, 17);
};

// a line's ISS constraint, by its f-puzzles field: (its cells as ISS's ids, its entry, the side) -> the string
const LINES = {
  palindrome: (cells) => `.Palindrome~${cells.join('~')}`,
  renban: (cells) => `.Renban~${cells.join('~')}`,
  whispers: (cells, entry, size) => `.Whisper~${entry.value ?? Math.floor((size + 1) / 2)}~${cells.join('~')}`,
  modularline: (cells) => `.Modular~3~${cells.join('~')}`,
  betweenline: (cells) => `.Between~${cells.join('~')}`,
  lockout: (cells, entry, size) => `.Lockout~${entry.value ?? Math.floor(size / 2)}~${cells.join('~')}`,
  zipperline: (cells) => `.Zipper~${cells.join('~')}`,
  doublearrow: (cells) => `.DoubleArrow~${cells.join('~')}`,
  regionsumline: (cells) => `.RegionSumLine~${cells.join('~')}`,  // ISS's boxes, or its Jigsaw regions
  entropicline: (cells, entry, size) => {
    if (size !== 9) throw new Error(`ISS's entropic lines are for 9x9 grids, not ${size}x${size}`);
    return `.Entropic~${cells.join('~')}`;
  },
};

// ISS names a little killer's diagonal by its first cell, walking as its own cell map does: down-right from the
// left side, up-left from the right, down-left from the top, up-right from the bottom; the first walk that covers
// the same cells names it.
const diagonalId = (cells, size, what) => {
  const wanted = [...cells].sort().join(',');
  const walk = (r, c, dr, dc) => {
    const found = [];
    for (; r >= 1 && c >= 1 && r <= size && c <= size; r += dr, c += dc) found.push(cellId(r, c));
    return found;
  };
  const starts = [];
  for (let r = 1; r < size; r++) starts.push(walk(r, 1, 1, 1));
  for (let r = 2; r < size; r++) starts.push(walk(r, size, -1, -1));
  for (let c = 2; c <= size; c++) starts.push(walk(1, c, 1, -1));
  for (let c = 2; c < size; c++) starts.push(walk(size, c, -1, 1));
  const seen = new Set();
  for (const found of starts) {
    const key = [...found].sort().join(',');
    if (found.length <= 1 || seen.has(key)) continue;
    seen.add(key);
    if (key === wanted) return found[0];
  }
  throw new Error(`${what}: ISS has no diagonal of these cells`);
};

export const issConstraint = (puzzle) => {
  if (puzzle === null || typeof puzzle !== 'object' || Array.isArray(puzzle)) {
    throw new Error('not an f-puzzles object');
  }
  const size = puzzle.size;
  if (!Number.isInteger(size) || size < 1) throw new Error('no `size`');
  const rows = puzzle.grid;
  if (!Array.isArray(rows) || rows.length !== size || rows.some(r => !Array.isArray(r) || r.length !== size)) {
    throw new Error(`\`grid\` is not ${size} rows of ${size} cells`);
  }
  const parts = [`.Shape~${size}x${size}`];
  const regions = [];
  rows.forEach((row, r) => row.forEach((cell, c) => {
    if (cell?.given && cell.value) parts.push(`.~${cellId(r + 1, c + 1)}_${cell.value}`);
    const marks = cell?.givenPencilMarks;  // the only values the cell may hold
    if (Array.isArray(marks) && marks.length) parts.push(`.~${cellId(r + 1, c + 1)}_${marks.join('_')}`);
    regions.push(cell?.region);
  }));
  if (regions.some(region => region !== undefined && region !== null)) {
    if (regions.some(region => !Number.isInteger(region) || region < 0 || region >= 36)) {
      throw new Error('a cell\'s `region` is not a number from 0 to 35');
    }
    parts.push(`.Jigsaw~${regions.map(region => region.toString(36)).join('')}`, '.NoBoxes');
  }
  for (const [field, value] of Object.entries(puzzle)) {
    if (PASSED_OVER.has(field) || value === null || value === false) continue;
    if (field in FLAGS) {
      if (value !== true) throw new Error(`\`${field}\` is not true or false`);
      parts.push(FLAGS[field]);
    } else if (field === 'killercage') {
      value.forEach((cage, k) => {
        const total = cage.value === undefined || cage.value === null ? '' : String(cage.value);
        parts.push(`.Cage~${total}~${cellsOf(cage.cells, size, `cage ${k + 1}`).join('~')}`);
      });
    } else if (field === 'extraregion') {
      value.forEach((house, k) => {
        parts.push(`.AllDifferent~${cellsOf(house.cells, size, `extra region ${k + 1}`).join('~')}`);
      });
    } else if (field === 'thermometer') {
      value.forEach((entry, k) => {
        for (const line of entry.lines ?? []) {
          parts.push(`.Thermo~${cellsOf(line, size, `thermometer ${k + 1}`).join('~')}`);
        }
      });
    } else if (field in DOTS) {
      value.forEach((dot, k) => {
        const name = DOTS[field][String(dot.value ?? DOT_DEFAULT[field])];
        if (!name) throw new Error(`${field} ${k + 1}: ISS has no dot of value ${dot.value}`);
        parts.push(`.${name}~${cellsOf(dot.cells, size, `${field} ${k + 1}`).join('~')}`);
      });
    } else if (field === 'negative') {
      // ISS's strict rules negate a family whole: every Kropki value (1 and 2) at once, every XV total (5, 10)
      const rules = new Set(value);
      if (rules.has('xv')) parts.push('.StrictXV');
      if (rules.has('difference') !== rules.has('ratio')) {
        throw new Error('ISS negates white and black dots together (StrictKropki), not one alone');
      }
      if (rules.has('difference')) parts.push('.StrictKropki');
    } else if (field in LINES) {
      value.forEach((entry, k) => {
        for (const line of entry.lines ?? []) {
          parts.push(LINES[field](cellsOf(line, size, `${field} ${k + 1}`), entry, size));
        }
      });
    } else if (field === 'minimum' || field === 'maximum') {
      // each neighbour of the cell less (more) than it: ISS's GreaterThan, the greater cell first
      for (const entry of value) {
        const [r, c] = rowCol(entry.cell, size);
        for (const [dr, dc] of [[-1, 0], [1, 0], [0, -1], [0, 1]]) {
          if (r + dr < 1 || r + dr > size || c + dc < 1 || c + dc > size) continue;
          const pair = [cellId(r, c), cellId(r + dr, c + dc)];
          parts.push(`.GreaterThan~${(field === 'maximum' ? pair : pair.reverse()).join('~')}`);
        }
      }
    } else if (field === 'arrow') {
      value.forEach((entry, k) => {
        const pill = cellsOf(entry.cells, size, `arrow ${k + 1}`);
        for (const line of entry.lines ?? []) {
          const rest = cellsOf(line, size, `arrow ${k + 1}`).filter(cell => !pill.includes(cell));
          if (pill.length === 1) parts.push(`.Arrow~${[...pill, ...rest].join('~')}`);
          else if (pill.join() !== [...pill].sort(byPlace).join()) {
            throw new Error(`arrow ${k + 1}: ISS reads a pill's digits in reading order, and this pill's are not`);
          } else if (pill.length <= 3) parts.push(`.PillArrow~${pill.length}~${[...pill, ...rest].join('~')}`);
          else throw new Error(`arrow ${k + 1}: ISS's pills hold 2 or 3 digits, not ${pill.length}`);
        }
      });
    } else if (field === 'quadruple') {
      value.forEach((entry, k) => {
        const corners = entry.cells.map(name => rowCol(name, size));
        const top = Math.min(...corners.map(([r]) => r)), left = Math.min(...corners.map(([, c]) => c));
        if (!entry.values?.length) throw new Error(`quadruple ${k + 1} lists no value`);
        parts.push(`.Quad~${cellId(top, left)}~${entry.values.join('~')}`);
      });
    } else if (field === 'littlekillersum') {
      value.forEach((entry, k) => {
        const cells = cellsOf(entry.cells, size, `little killer ${k + 1}`);
        parts.push(`.LittleKiller~${entry.value}~${diagonalId(cells, size, `little killer ${k + 1}`)}`);
      });
    } else if (field === 'sandwichsum' || field === 'xsum' || field === 'skyscraper') {
      // a clue outside the grid: the row or column it reads, and for X-sums and skyscrapers the end it reads from
      value.forEach((entry, k) => {
        const [row, col] = outsideClue(entry.cell, size, `${field} ${k + 1}`);
        const line = row === 0 || row === size + 1 ? `C${col.toString(17)}` : `R${row.toString(17)}`;
        if (field === 'sandwichsum') {
          parts.push(`.Sandwich~${entry.value}~${line}`);
        } else {
          const forward = row === 0 || col === 0;  // from the top or the left
          const name = field === 'xsum' ? 'XSum' : 'Skyscraper';
          parts.push(`.${name}~${line}~${forward ? entry.value : ''}~${forward ? '' : entry.value}`);
        }
      });
    } else if (field === 'rowindexer' || field === 'columnindexer') {
      const cells = value.flatMap((entry, k) => cellsOf(entry.cells, size, `${field} ${k + 1}`));
      parts.push(`.Indexing~${field === 'rowindexer' ? 'R' : 'C'}~${cells.join('~')}`);
    } else if (field === 'odd' || field === 'even') {
      const values = [];
      for (let v = 1; v <= size; v++) if (v % 2 === (field === 'odd' ? 1 : 0)) values.push(v);
      for (const entry of value) parts.push(`.~${cellOf(entry.cell, size)}_${values.join('_')}`);
    } else {
      throw new Error(`the f-puzzles field \`${field}\` is not one this driver gives ISS`);
    }
  }
  return parts.join('');
};

// -- solving ---------------------------------------------------------------------------------------------------

const solve = (text) => {
  const started = performance.now();
  const solver = SudokuBuilder.build(SudokuBuilder.resolveConstraint(SudokuParser.parseText(text)));
  const built = performance.now();
  const first = solver.nthSolution(0);
  const second = first && solver.nthSolution(1);
  const ended = performance.now();
  const cells = solver.geometry().numGridCells;
  return {
    solution: first ? Array.from(first.slice(0, cells)) : null,
    unique: first ? !second : null,
    seconds: (ended - started) / 1000,
    setup_seconds: (built - started) / 1000,
    guesses: solver.state().counters.guesses ?? null,
  };
};

const answer = (line) => {
  let text;
  try {
    text = issConstraint(JSON.parse(line));
  } catch (exc) {
    return { error: `cannot give ISS this puzzle: ${exc.message}` };
  }
  try {
    return solve(text);
  } catch (exc) {
    return { error: `ISS: ${exc.message}` };
  }
};

process.stdout.write(JSON.stringify({ ready: true }) + '\n');
const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of lines) {
  if (!line.trim()) continue;
  process.stdout.write(JSON.stringify(answer(line)) + '\n');
}
