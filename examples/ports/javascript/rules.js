// The rules of Can't Stop, written from the chapters of spec/rules/ and
// spec/notation.md. Rule ids in comments and errors refer to those chapters.
// Boards and positions are plain objects from column number to space; integer
// keys iterate in increasing order, which is the order the notation wants.

const COLUMNS = [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
const STANDARD = { 2: 3, 3: 5, 4: 7, 5: 9, 6: 11, 7: 13, 8: 11, 9: 9, 10: 7, 11: 5, 12: 3 };
const MAX_MARKERS = 3; // R1.4
const MAX_HEIGHT = 999; // R15.3

class RuleError extends Error {
  // rule: the spec rule id; at: for notation, the index of the offending character;
  // cell: for an invariant, the cell that breaks it, so that notation can point at it
  // (N1.6): { player (-1 for a marker, 'h' for a height), column, part: 'column' | 'value' }.
  constructor(message, rule, at, cell) {
    super(message);
    this.rule = rule;
    this.at = at;
    this.cell = cell;
  }
}

const isInt = (v) => typeof v === 'number' && Number.isInteger(v);
const cols = (obj) => Object.keys(obj).map(Number);
const sameMap = (a, b) => {
  const ka = cols(a);
  return ka.length === cols(b).length && ka.every((c) => b[c] === a[c]);
};

// ---- configuration (R15, R14.3) ---------------------------------------------

function makeRules(players, columnsToWin, heights, variant) {
  if (!isInt(players) || players < 1 || players > 4) {
    throw new RuleError(`players must be an integer from 1 to 4, not ${JSON.stringify(players)}`, 'R15.1');
  }
  const columns = cols(heights);
  if (columns.length === 0) throw new RuleError('the board needs at least one column', 'R15.3');
  for (const c of columns) {
    if (!COLUMNS.includes(c)) throw new RuleError(`column ${c} is not a sum of two dice`, 'R15.3');
    const h = heights[c];
    if (!isInt(h) || h < 1 || h > MAX_HEIGHT) {
      throw new RuleError(`column ${c} must have 1 to ${MAX_HEIGHT} spaces, not ${h}`, 'R15.3', undefined,
        { player: 'h', column: c, part: 'value' });
    }
  }
  if (!isInt(columnsToWin) || columnsToWin < 1 || columnsToWin > columns.length) {
    throw new RuleError(`columns to win must be from 1 to ${columns.length}`, 'R15.2');
  }
  // R15.4: if every player could hold columnsToWin - 1 columns and the board
  // had no column left, nobody could ever win.
  if (columns.length <= players * (columnsToWin - 1)) {
    throw new RuleError('the game might never end on this board', 'R15.4');
  }
  if (variant !== null && variant !== 'A' && variant !== 'B') {
    throw new RuleError(`unknown variant ${JSON.stringify(variant)}`, 'R14.3');
  }
  return { players, columnsToWin, heights: { ...heights }, variant };
}

const standardRules = () => makeRules(2, 3, STANDARD, null);

// ---- states and their invariants (R16, R9, R12) --------------------------------

// A state: { rules, player, phase: 'roll'|'choose'|'decide'|'over', dice, markers, squares }.
// won and winner are derived from the squares (R9.1, R12.1).
function wonColumns(rules, squares) {
  const won = {};
  for (const c of cols(rules.heights)) {
    for (let p = 0; p < squares.length; p++) {
      if (squares[p][c] === rules.heights[c]) won[c] = p;
    }
  }
  return won;
}

function winnerOf(rules, won) {
  const held = new Array(rules.players).fill(0);
  for (const c of cols(won)) held[won[c]] += 1;
  const p = held.findIndex((n) => n >= rules.columnsToWin);
  return p < 0 ? null : p;
}

function checkPositions(rules, values, what, player) {
  for (const c of cols(values)) {
    const h = rules.heights[c];
    if (h === undefined) {
      throw new RuleError(`a ${what} is in column ${c}, which the board lacks`, 'R16.2', undefined,
        { player, column: c, part: 'column' });
    }
    const v = values[c];
    if (!isInt(v) || v < 1 || v > h) {
      throw new RuleError(`a ${what} in column ${c} is on space ${v}; the column has 1 to ${h}`, 'R16.2',
        undefined, { player, column: c, part: 'value' });
    }
  }
}

// Check every invariant of a state built from outside (notation or JSON).
function checkState(s) {
  const { rules } = s;
  const n = rules.players;
  if (!isInt(s.player) || s.player < 0 || s.player >= n) {
    throw new RuleError(`player must be from 0 to ${n - 1}`, 'R16.5');
  }
  s.squares.forEach((sq, p) => checkPositions(rules, sq, `player ${p}'s square`, p));
  checkPositions(rules, s.markers, 'marker', -1);
  const won = {};
  for (const c of cols(rules.heights)) {
    const owners = [];
    for (let p = 0; p < n; p++) if (s.squares[p][c] === rules.heights[c]) owners.push(p);
    if (owners.length > 1) {
      throw new RuleError(`column ${c} has two owners`, 'R9.1', undefined,
        { player: owners[1], column: c, part: 'column' });
    }
    if (owners.length === 1) {
      won[c] = owners[0];
      for (let p = 0; p < n; p++) {
        if (p !== owners[0] && s.squares[p][c] !== undefined) {
          throw new RuleError(`player ${p} has a square in column ${c}, won by player ${owners[0]}`, 'R9.3',
            undefined, { player: p, column: c, part: 'column' });
        }
      }
    }
  }
  const held = new Array(n).fill(0);
  for (const c of cols(won)) held[won[c]] += 1;
  const holders = held.map((k, p) => (k >= rules.columnsToWin ? p : -1)).filter((p) => p >= 0);
  if (holders.length > 1) throw new RuleError('two players hold enough columns to win', 'R12.1');
  const winner = holders.length ? holders[0] : null;
  const markerCols = cols(s.markers);
  if (markerCols.length > MAX_MARKERS) throw new RuleError('more than three markers', 'R16.1');
  for (const c of markerCols) {
    const cell = { player: -1, column: c, part: 'column' };
    if (won[c] !== undefined) throw new RuleError(`a marker is in won column ${c}`, 'R9.2', undefined, cell);
    const own = s.squares[s.player][c] || 0;
    if (s.markers[c] <= own) {
      throw new RuleError(`the marker in column ${c} is not above the square`, 'R16.3', undefined, cell);
    }
    if (rules.variant === 'A') {
      for (let p = 0; p < n; p++) {
        if (p !== s.player && s.squares[p][c] === s.markers[c]) {
          throw new RuleError(`under Variant A the marker in column ${c} shares a space`, 'R14.1', undefined, cell);
        }
      }
    }
  }
  if (s.phase === 'choose') {
    const d = s.dice;
    if (!Array.isArray(d) || d.length !== 4 || !d.every((x) => isInt(x) && x >= 1 && x <= 6)) {
      throw new RuleError('choosing a move needs four dice 1-6', 'R4.1');
    }
    s.dice = [...d].sort((a, b) => a - b);
  } else if (s.dice !== null) {
    throw new RuleError('only a state choosing a move has dice', 'R16.5');
  }
  if (s.phase === 'over') {
    if (winner === null) throw new RuleError('the game is over only when somebody has won', 'R12.1');
    if (s.player !== winner) throw new RuleError('a finished game\'s player is its winner', 'R16.5');
  } else if (winner !== null) {
    throw new RuleError(`player ${winner} has won, so the game is over`, 'R12.1');
  }
  if ((s.phase === 'roll' || s.phase === 'over') && markerCols.length) {
    throw new RuleError('no marker is on the board at this phase', 'R16.5');
  }
  if (s.phase === 'decide' && !markerCols.length) throw new RuleError('after a move a marker is on the board', 'R16.5');
  if (s.phase === 'choose' && legalMoves(s).length === 0) {
    throw new RuleError('these dice have no legal move: it was a bust', 'R10.1');
  }
  return s;
}

// ---- playing one sum (R5, R8, R9, R14.1) -----------------------------------------

// Where a marker moving to `space` lands: Variant A skips other players' squares.
function landing(s, column, space) {
  if (s.rules.variant !== 'A') return space;
  const taken = new Set();
  s.squares.forEach((sq, p) => { if (p !== s.player && sq[column] !== undefined) taken.add(sq[column]); });
  while (taken.has(space)) space += 1;
  return space;
}

// What a sum does with the given markers: { plays, at, rule } (rule says why not).
function playSum(s, markers, column) {
  const h = s.rules.heights[column];
  if (h === undefined) return { plays: false, rule: 'R15.3' };
  if (Object.values(s.squares).some((sq) => sq[column] === h)) return { plays: false, rule: 'R9.2' };
  const m = markers[column];
  if (m !== undefined) {
    if (m >= h) return { plays: false, rule: 'R8.1' };
    return { plays: true, at: landing(s, column, m + 1) };
  }
  if (cols(markers).length >= MAX_MARKERS) return { plays: false, rule: 'R5.3' };
  return { plays: true, at: landing(s, column, (s.squares[s.player][column] || 0) + 1) };
}

// ---- legal moves (R4.2, R6, R7) ------------------------------------------------

function pairings(d) {
  const pair = (x, y) => (x <= y ? [x, y] : [y, x]);
  return [pair(d[0] + d[1], d[2] + d[3]), pair(d[0] + d[2], d[1] + d[3]), pair(d[0] + d[3], d[1] + d[2])];
}

// The moves one pairing offers (R6.6).
function pairingMoves(s, a, b) {
  const first = playSum(s, s.markers, a);
  if (a === b) {
    if (!first.plays) return [];
    const second = playSum(s, { ...s.markers, [a]: first.at }, a);
    return second.plays ? [[a, a]] : [[a]]; // R7.1, R7.3
  }
  const second = playSum(s, s.markers, b);
  if (first.plays && second.plays) {
    const together = playSum(s, { ...s.markers, [a]: first.at }, b);
    return together.plays ? [[a, b]] : [[a], [b]]; // R6.1, R6.3
  }
  if (first.plays) return [[a]]; // R6.2
  if (second.plays) return [[b]];
  return [];
}

const moveText = (m) => m.join('+');
const compareMoves = (x, y) => x[0] - y[0] || (x.length - y.length) || ((x[1] || 0) - (y[1] || 0));

function movesFor(s, dice) {
  const seen = new Map();
  for (const [a, b] of pairings(dice)) {
    for (const m of pairingMoves(s, a, b)) seen.set(moveText(m), m);
  }
  return [...seen.values()].sort(compareMoves);
}

function legalMoves(s) {
  return s.phase === 'choose' ? movesFor(s, s.dice) : [];
}

// ---- transitions (R3, R10, R11, R12) -----------------------------------------------

const next = (s) => (s.player + 1) % s.rules.players; // R2.3
const copy = (s, changes) => ({ ...s, ...changes });

function rollDice(s, dice) {
  if (s.phase === 'choose') throw new RuleError('the dice on the table must be played first', 'R3.3');
  if (s.phase === 'over') throw new RuleError('the game is over', 'R12.3');
  const sorted = [...dice].sort((a, b) => a - b);
  if (movesFor(s, sorted).length === 0) {
    // R10.2: the markers come off and the turn passes.
    return { state: copy(s, { player: next(s), phase: 'roll', dice: null, markers: {} }), event: 'busted' };
  }
  return { state: copy(s, { phase: 'choose', dice: sorted }), event: 'rolled' };
}

// Why a move that is not among the legal moves is refused (R4.3, R5.3, R6, R7, R8.1, R9.2).
function whyIllegal(s, move) {
  const matching = pairings(s.dice).filter(([a, b]) => (move.length === 2
    ? a === move[0] && b === move[1]
    : a === move[0] || b === move[0]));
  if (matching.length === 0) return ['the sums are not those of one pairing of the dice', 'R4.3'];
  const [a, b] = matching[0];
  if (move.length === 2) {
    const first = playSum(s, s.markers, a);
    if (!first.plays) return [`${a} cannot be played`, first.rule];
    if (a === b) return [`${a} cannot be played twice`, 'R7.3'];
    if (playSum(s, s.markers, b).plays) return ['only one marker is free: play one sum', 'R6.3'];
    return [`${b} cannot be played`, playSum(s, { ...s.markers, [a]: first.at }, b).rule];
  }
  const single = move[0];
  const other = a === single ? b : a;
  const play = playSum(s, s.markers, single);
  if (!play.plays) return [`${single} cannot be played`, play.rule];
  if (other === single) return ['both steps of equal sums can be played', 'R7.1'];
  return [`${other} can be played together with ${single}`, 'R6.1'];
}

function playMove(s, move) {
  if (s.phase === 'roll') throw new RuleError('a turn starts with a roll', 'R3.2');
  if (s.phase === 'decide') throw new RuleError('roll again or stop', 'R3.4');
  if (s.phase === 'over') throw new RuleError('the game is over', 'R12.3');
  const text = moveText(move);
  if (!legalMoves(s).some((m) => moveText(m) === text)) {
    const [reason, rule] = whyIllegal(s, move);
    throw new RuleError(`${text} is not legal: ${reason}`, rule);
  }
  const markers = { ...s.markers };
  for (const c of move) markers[c] = playSum(s, markers, c).at;
  return { state: copy(s, { phase: 'decide', dice: null, markers }), event: 'moved' };
}

function stop(s) {
  if (s.phase === 'roll') throw new RuleError('a stop must follow a successful roll', 'R11.1');
  if (s.phase === 'choose') throw new RuleError('the dice on the table must be played first', 'R3.3');
  if (s.phase === 'over') throw new RuleError('the game is over', 'R12.3');
  const me = s.player;
  if (s.rules.variant === 'B') {
    for (const c of cols(s.markers)) {
      s.squares.forEach((sq, p) => {
        if (p !== me && sq[c] === s.markers[c]) {
          throw new RuleError(`under Variant B no stop while the marker in ${c} shares a space`, 'R14.2');
        }
      });
    }
  }
  const mine = { ...s.squares[me], ...s.markers }; // R11.2
  let squares = s.squares.map((sq, p) => (p === me ? mine : sq));
  let won = {};
  won = wonColumns(s.rules, squares); // R11.3
  squares = squares.map((sq, p) => {
    const kept = {};
    for (const c of cols(sq)) if (won[c] === undefined || won[c] === p) kept[c] = sq[c]; // R9.3
    return kept;
  });
  if (winnerOf(s.rules, won) === me) {
    return { state: copy(s, { phase: 'over', dice: null, markers: {}, squares }), event: 'won' }; // R12.1
  }
  return { state: copy(s, { player: next(s), phase: 'roll', dice: null, markers: {}, squares }), event: 'stopped' };
}

function apply(s, action) {
  if (action.type === 'roll') return rollDice(s, action.dice);
  if (action.type === 'move') return playMove(s, action.columns);
  return stop(s);
}

function newGame(rules, firstPlayer) {
  if (!isInt(firstPlayer) || firstPlayer < 0 || firstPlayer >= rules.players) {
    throw new RuleError(`the first player must be from 0 to ${rules.players - 1}`, 'R2.2');
  }
  return { rules, player: firstPlayer, phase: 'roll', dice: null, markers: {}, squares: Array.from({ length: rules.players }, () => ({})) };
}

// All 1296 ordered rolls, first die slowest.
const ORDERED_ROLLS = [];
for (let a = 1; a <= 6; a++) for (let b = 1; b <= 6; b++) for (let c = 1; c <= 6; c++) for (let d = 1; d <= 6; d++) ORDERED_ROLLS.push([a, b, c, d]);

function rollTable(s) {
  if (s.phase !== 'roll' && s.phase !== 'decide') throw new RuleError('only a state about to roll can roll', 'R3.3');
  return ORDERED_ROLLS.map((d) => movesFor(s, [...d].sort((x, y) => x - y)).map(moveText));
}

export {
  COLUMNS, STANDARD, MAX_MARKERS, RuleError, isInt, cols, sameMap, makeRules, standardRules, checkState,
  wonColumns, winnerOf, landing, playSum, pairings, legalMoves, movesFor, moveText, apply, newGame,
  ORDERED_ROLLS, rollTable,
};
