// Explanations (spec/explain.md): what the rules say about a position, statement
// by statement, with the rule ids each statement applies. The statements, their
// sentences (the table of X4.2, below) and the JSON form follow the page, so
// that explain(state, action).json() is, byte for byte, the canonical JSON of
// `cantstop explain --json`.
//
// The moves are derived here pairing by pairing from the decision for one sum
// (R5, playSum in rules.js), as X2.4 describes; the legal moves of rules.js
// are not consulted, so the two can be compared.

import { MAX_MARKERS, RuleError, cols, wonColumns, playSum, pairings, apply, ORDERED_ROLLS } from './rules.js';
import { formatState, formatAction } from './notation.js';

const FORMAT = 'cantstop-explain/1';
const ROLLS = 1296;

// The sentence of each kind of statement and of each fragment, with its rule ids (X4.2).
const TEMPLATES = {
  'position.roll': ["Player {player} is about to roll; no marker is on the board.", ['R3.2']],
  'position.choose': ["Player {player} has rolled {dice} and must play it.", ['R3.3']],
  'position.decide': ["Player {player} has played the roll and may roll again or stop.", ['R3.4']],
  'position.over': ["The game is over: player {player} has won, and no action is possible any more.", ['R12.3']],
  'verdict.roll-first': ["{action} is legal: every turn starts with a roll.", ['R3.2']],
  'verdict.roll-again': ["{action} is legal: after a move the player may roll again.", ['R3.4']],
  'verdict.stop': ["{action} is legal: the roll has been played, so player {player} may stop.", ['R11.1']],
  'verdict.move': ["{action} is legal: it comes from {pairings}.", ['R6.6']],
  'illegal.game-over': ["{action} is not legal: the game is over.", ['R12.3']],
  'illegal.dice-waiting': ["{action} is not legal: the dice {dice} must be played first.", ['R3.3']],
  'illegal.move-before-roll': ["{action} is not legal: there are no dice to play, since a turn starts with a roll.", ['R3.2']],
  'illegal.stop-before-roll': ["{action} is not legal: a player must roll at least once before stopping.", ['R11.1']],
  'illegal.move-after-move': ["{action} is not legal: the roll has already been played, so the player rolls again or stops.", ['R3.4']],
  'illegal.stop-sharing': ["{action} is not legal under Variant B: {shares}.", ['R14.2']],
  'illegal.no-pairing-two': ["{action} is not legal: no pairing of {dice} makes {x} and {y}.", ['R4.3']],
  'illegal.no-pairing-one': ["{action} is not legal: no pairing of {dice} makes {x}.", ['R4.3']],
  'illegal.dropped': ["{action} is not legal: {x} cannot be played, because {reason}.", []],
  'illegal.second-step': ["{action} is not legal: after the first {x} the marker in column {x} is on the top space, so the second step is forfeit.", ['R7.3']],
  'illegal.one-free': ["{action} is not legal: {x} and {y} each need a new marker, and only one is free.", ['R6.3']],
  'illegal.one-step': ["{action} is not legal: pairing {n} makes {x} twice and both steps can be played, so one step alone is not allowed.", ['R7.1']],
  'illegal.one-sum': ["{action} is not legal: pairing {n} makes {x} with {y}, and both can be played together, so {x} alone is not allowed.", ['R6.1']],
  'alternatives': ["Player {player} may play {moves_or} instead.", ['R6.6']],
  'markers.none': ["No marker is on the board; all three are free.", ['R1.4']],
  'markers.one': ["One marker stands {cells}; {free}.", ['R1.4']],
  'markers.some': ["The markers stand {cells}; {free}.", ['R1.4']],
  'dice': ["The dice were thrown as {thrown}; sorted, they are {dice}, and their order does not matter.", ['R4.1']],
  'dice.sorted': ["The dice were thrown as {dice}, already sorted, and their order does not matter.", ['R4.1']],
  'pairing': ["Pairing {n}: {pair1} and {pair2} make {x} and {y}.", ['R4.2']],
  'pairing.double': ["Pairing {n}: {pair1} and {pair2} make {x} twice.", ['R4.2', 'R4.4']],
  'pairing.same': ["Pairing {n}: {pair1} and {pair2} again, the same sums as pairing {m}.", ['R4.2']],
  'sum.advance': ["{subject} advances the marker in column {x} from space {from} to space {to}{where}.", ['R5.1']],
  'sum.place': ["{subject} places a marker in column {x} on space {to}{where}.", ['R5.2']],
  'sum.dropped': ["{subject} is dropped: {reason}.", []],
  'where.above': [", above player {player}'s square on space {square}", []],
  'where.skip-one': [", skipping space {spaces}, which holds another player's square", ['R14.1']],
  'where.skip-many': [", skipping spaces {spaces}, which hold other players' squares", ['R14.1']],
  'where.top': [", the top space", ['R8.1']],
  'reason.won': ["column {x} has been won by player {owner}", ['R9.2']],
  'reason.top': ["the marker in column {x} is on the top space", ['R8.1']],
  'reason.no-marker': ["column {x} has no marker and all three are in use", ['R5.3']],
  'reason.no-column': ["the board has no column {x}", ['R15.3']],
  'offer.both': ["Both sums can be played together, so pairing {n} offers {x}+{y} and not one sum alone.", ['R6.1']],
  'offer.either': ["Each sum needs a new marker and only one is free, so pairing {n} offers {x} or {y} alone.", ['R6.3']],
  'offer.one': ["Only the {x} can be played, so pairing {n} offers {x} alone and the {y} is lost.", ['R6.2']],
  'offer.none': ["Neither sum can be played, so pairing {n} offers no move.", ['R6.5']],
  'offer.double': ["Both steps can be played, so pairing {n} offers {x}+{x} and not one step alone.", ['R7.1']],
  'offer.first-step': ["Only the first step can be played, so pairing {n} offers {x} alone.", ['R7.3']],
  'offer.no-step': ["Not even the first step can be played, so pairing {n} offers no move.", ['R6.5']],
  'moves.some': ["The legal moves are {moves}.", ['R6.6']],
  'moves.one': ["The only legal move is {move}.", ['R6.6']],
  'moves.bust': ["No pairing plays anything, so the roll is a bust.", ['R10.1']],
  'move': ["{move} comes from {pairings} and leaves the markers {cells}.", ['R6.6']],
  'move.one-marker': ["{move} comes from {pairings} and leaves the marker {cells}.", ['R6.6']],
  'result.choose': ["The state becomes {state}, and player {player} must choose a move.", ['R3.3']],
  'result.move': ["The state becomes {state}, and player {player} may roll again or stop.", ['R3.4']],
  'result.bust': ["The state becomes {state}, and it is player {next}'s turn.", ['R10.2']],
  'result.stop': ["The state becomes {state}, and it is player {next}'s turn.", ['R11.4']],
  'result.won': ["The state becomes {state}: player {player} has won the game.", ['R12.1']],
  'stop.not-yet': ["Player {player} may not stop before rolling.", ['R11.1']],
  'stop.refused': ["Player {player} may not stop now under Variant B, since {shares}; the next action must be a roll.", ['R14.2']],
  'stop.squares': ["If player {player} stops, the markers become squares {cells}.", ['R11.2']],
  'stop.square': ["If player {player} stops, the marker becomes a square {cells}.", ['R11.2']],
  'stop.column': ["Column {column} would be won, since its marker is on the top space.", ['R11.3']],
  'stop.removes': ["Player {other}'s square on space {space} of column {column} would leave the board.", ['R9.3']],
  'stop.wins': ["Player {player} would then hold {held}, reaching the target of {target}, and win the game.", ['R12.1']],
  'stop.passes': ["Player {player} would then hold {held}, short of the target of {target}, and the turn would pass to player {next}.", ['R11.4']],
  'chance.none': ["If player {player} rolls, none of the 1296 rolls busts.", ['R10.1']],
  'chance.some': ["If player {player} rolls, the chance of a bust is {chance} ({busts} of the 1296 rolls), about {percent}.", ['R10.1']],
  'bust.nothing': ["A bust would lose nothing, since no marker is on the board, and the turn would pass to player {next}.", ['R10.2']],
  'bust.loss': ["On a bust the markers come off, the squares stay, and the turn passes to player {next}.", ['R10.2']],
  'bust.back': ["In column {column} the marker on space {space} comes off, and player {player}'s square stays on space {square}.", ['R10.2']],
  'bust.gone': ["In column {column} the marker on space {space} comes off, and player {player} keeps nothing there.", ['R10.2']],
  'bust.top': ["Column {column} is not won, although its marker is on the top space.", ['R8.2']],
  'over.won': ["Player {player} won with {columns}, reaching the target of {target}.", ['R12.1']],
  'over.holds': ["Player {player} holds {columns}.", ['R9.1']],
};

// The depth of each kind (or family) of statement that is not at depth 0.
const DEPTHS = {
  sum: 1,
  offer: 1,
  move: 1,
  alternatives: 1,
  'stop.column': 1,
  'stop.wins': 1,
  'stop.passes': 1,
  'bust.back': 1,
  'bust.gone': 1,
  'over.won': 1,
  'over.holds': 1,
  'stop.removes': 2,
  'bust.top': 2,
};

const REASONS = { won: 'reason.won', top: 'reason.top', 'no marker': 'reason.no-marker', 'no column': 'reason.no-column' };
const DROP = { 'R15.3': 'no column', 'R9.2': 'won', 'R8.1': 'top', 'R5.3': 'no marker' };

// ---- sentences (X4.1) -----------------------------------------------------------

function listed(items, joiner = 'and') {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} ${joiner} ${items[items.length - 1]}`;
}

const cellsText = (positions) => listed(cols(positions).map((c) => `in column ${c} on space ${positions[c]}`));
const columnsText = (columns) => (columns.length === 1 ? 'column ' : 'columns ') + listed([...columns].sort((a, b) => a - b).map(String));
const pairingNames = (numbers) => (numbers.length === 1 ? 'pairing ' : 'pairings ') + listed(numbers.map(String));
const heldText = (count) => (count === 0 ? 'no won column' : `${count} won column${count === 1 ? '' : 's'}`);
const diceText = (dice) => dice.join('-');

function percent(busts) {
  const tenths = Math.floor((2000 * busts + ROLLS) / (2 * ROLLS));
  return `${Math.floor(tenths / 10)}.${tenths % 10}%`;
}

const gcd = (a, b) => (b === 0 ? a : gcd(b, a % b));
const fill = (template, values) => template.replace(/\{(\w+)\}/g, (whole, name) => String(values[name]));
const columnMap = (values) => Object.fromEntries(cols(values).map((c) => [String(c), values[c]]));

class Statement {
  constructor(kind, depth, text, rules, data) {
    this.kind = kind;
    this.depth = depth;
    this.text = text;
    this.rules = rules;
    this.data = data;
  }

  // The statement's line of the text form (X1.2).
  line() {
    return `${'  '.repeat(this.depth)}${this.text.slice(0, -1)} (${this.rules.join(', ')}).`;
  }

  toJson() {
    return { kind: this.kind, depth: this.depth, text: this.text, rules: [...this.rules], data: this.data };
  }
}

// Collects statements, filling the templates in. `fragments` are the where.*
// fragments to append (as {where}) and the reason.* fragment (as {reason});
// `extra` the rules the statement adds after its template's (X1.1).
class Writer {
  constructor() { this.statements = []; }

  say(kind, data, values = {}, fragments = [], extra = []) {
    const filled = { ...values };
    const rules = [...TEMPLATES[kind][1], ...extra];
    let where = '';
    for (const fragment of fragments) {
      const [text, cited] = TEMPLATES[fragment];
      if (fragment.startsWith('reason.')) filled.reason = fill(text, filled);
      else where += fill(text, filled);
      rules.push(...cited);
    }
    filled.where = where;
    const family = kind.split('.')[0];
    const depth = DEPTHS[kind] ?? DEPTHS[family] ?? 0;
    this.statements.push(new Statement(kind, depth, fill(TEMPLATES[kind][0], filled), [...new Set(rules)], data));
  }
}

// ---- what one sum does (the decision table of R5) --------------------------------

// { column, step, play, start, to, skipped, owner, top, plays } for a sum in `column`.
function examineSum(s, won, markers, column, step = 0) {
  const decided = playSum(s, markers, column);
  if (!decided.plays) {
    const play = DROP[decided.rule];
    const owner = play === 'won' ? won[column] : null;
    return { column, step, play, start: null, to: null, skipped: [], owner, top: false, plays: false };
  }
  const advance = markers[column] !== undefined;
  const start = advance ? markers[column] : (s.squares[s.player][column] || 0);
  let landing = start + 1;
  const skipped = [];
  if (s.rules.variant === 'A') {
    const taken = new Set();
    s.squares.forEach((sq, p) => { if (p !== s.player && sq[column] !== undefined) taken.add(sq[column]); });
    while (taken.has(landing)) {
      skipped.push(landing);
      landing += 1;
    }
  }
  const top = landing === s.rules.heights[column];
  return { column, step, play: advance ? 'advance' : 'place', start, to: landing, skipped, owner: null, top, plays: true };
}

const after = (markers, played) => ({ ...markers, [played.column]: played.to });
const moveText = (columns) => columns.join('+');
const sameMove = (a, b) => moveText(a) === moveText(b);
const compareMoves = (x, y) => x[0] - y[0] || (x.length - y.length) || ((x[1] || 0) - (y[1] || 0));

// ---- the pairings of a roll (R4.2, R6, R7) ------------------------------------

// The three splits of sorted dice into two pairs, as the pairing statements write
// them: the pair with the smaller sum first; on equal sums, the pair holding the first die.
function pairsOf(dice) {
  const [a, b, c, d] = dice;
  const splits = [[[a, b], [c, d]], [[a, c], [b, d]], [[a, d], [b, c]]];
  return splits.map(([first, second]) => (first[0] + first[1] <= second[0] + second[1] ? [first, second] : [second, first]));
}

// Examine the sums x <= y of one pairing: its sum statements and its offer (R6.6).
function examinePairing(s, won, markers, x, y) {
  if (x !== y) {
    const first = examineSum(s, won, markers, x);
    const second = examineSum(s, won, markers, y);
    const examined = [first, second];
    if (first.plays && second.plays) {
      if (examineSum(s, won, after(markers, first), y).plays) return { examined, offer: 'offer.both', offers: [[x, y]] };
      return { examined, offer: 'offer.either', offers: [[x], [y]] };
    }
    if (first.plays) return { examined, offer: 'offer.one', offers: [[x]] };
    if (second.plays) return { examined, offer: 'offer.one', offers: [[y]] };
    return { examined, offer: 'offer.none', offers: [] };
  }
  const first = examineSum(s, won, markers, x, 1);
  if (!first.plays) return { examined: [first], offer: 'offer.no-step', offers: [] };
  const second = examineSum(s, won, after(markers, first), x, 2);
  if (second.plays) return { examined: [first, second], offer: 'offer.double', offers: [[x, x]] };
  return { examined: [first, second], offer: 'offer.first-step', offers: [[x]] };
}

// Examine the three pairings of `dice` (sorted) in the position `s`.
function analyse(s, won, dice) {
  const found = [];
  const sums = pairings(dice);
  pairsOf(dice).forEach((pairs, index) => {
    const [x, y] = sums[index];
    const same = found.find((p) => p.sums[0] === x && p.sums[1] === y);
    if (same !== undefined) {
      found.push({ number: index + 1, pairs, sums: [x, y], sameAs: same.number, examined: [], offer: same.offer, offers: same.offers });
      return;
    }
    const { examined, offer, offers } = examinePairing(s, won, { ...s.markers }, x, y);
    found.push({ number: index + 1, pairs, sums: [x, y], sameAs: null, examined, offer, offers });
  });
  return found;
}

// The moves the pairings offer, each once, in the order of R6.6.
function legalMovesOf(found) {
  const seen = new Map();
  for (const p of found) for (const m of p.offers) seen.set(moveText(m), m);
  return [...seen.values()].sort(compareMoves);
}

// The markers after `move`, its sums played in increasing order (R5, R7).
function markersAfter(s, won, move) {
  let markers = { ...s.markers };
  for (const column of move) markers = after(markers, examineSum(s, won, markers, column));
  return markers;
}

const offering = (found, move) => found.filter((p) => p.offers.some((m) => sameMove(m, move))).map((p) => p.number);

// ---- statements about a roll ------------------------------------------------------

function saySum(out, s, pairing, examined, first) {
  const x = examined.column;
  const subject = [`The ${x}`, `The first ${x}`, `The second ${x}`][examined.step];
  const extra = [];
  if (examined.step === 2) {
    if (!examined.plays) extra.push('R7.3');
    else extra.push(first.play === 'place' ? 'R7.2' : 'R7.1');
  }
  const data = {
    pairing,
    sum: x,
    step: examined.step,
    play: examined.play,
    from: examined.start,
    to: examined.to,
    skipped: [...examined.skipped],
    owner: examined.owner,
  };
  const values = {
    subject,
    x,
    from: examined.start,
    to: examined.to,
    owner: examined.owner,
    player: s.player,
    square: examined.start,
    spaces: listed(examined.skipped.map(String)),
  };
  if (!examined.plays) {
    out.say('sum.dropped', data, values, [REASONS[examined.play]], extra);
    return;
  }
  const fragments = [];
  if (examined.top) fragments.push('where.top');
  if (examined.play === 'place' && examined.start) fragments.push('where.above');
  if (examined.skipped.length) fragments.push(examined.skipped.length === 1 ? 'where.skip-one' : 'where.skip-many');
  out.say(examined.play === 'advance' ? 'sum.advance' : 'sum.place', data, values, fragments, extra);
}

// Say what each pairing does and which moves are legal; return the legal moves.
function sayRoll(out, s, won, found) {
  for (const pairing of found) {
    const [pair1, pair2] = pairing.pairs;
    const [x, y] = pairing.sums;
    const data = { pairing: pairing.number, pairs: [[...pair1], [...pair2]], sums: [x, y], same_as: pairing.sameAs };
    const values = { n: pairing.number, m: pairing.sameAs, pair1: `${pair1[0]}+${pair1[1]}`, pair2: `${pair2[0]}+${pair2[1]}`, x, y };
    if (pairing.sameAs !== null) {
      out.say('pairing.same', data, values);
      continue;
    }
    out.say(x === y ? 'pairing.double' : 'pairing', data, values);
    let first = null;
    for (const examined of pairing.examined) {
      saySum(out, s, pairing.number, examined, first);
      first = examined;
    }
    const offerValues = { n: pairing.number, x, y };
    if (pairing.offer === 'offer.one') {
      const kept = pairing.offers[0][0];
      offerValues.x = kept;
      offerValues.y = kept === x ? y : x;
    }
    out.say(pairing.offer, { pairing: pairing.number, moves: pairing.offers.map(moveText) }, offerValues);
  }
  const moves = legalMovesOf(found);
  const names = moves.map(moveText);
  if (!moves.length) out.say('moves.bust', { moves: [] });
  else if (moves.length === 1) out.say('moves.one', { moves: names }, { move: names[0] });
  else out.say('moves.some', { moves: names }, { moves: listed(names) });
  moves.forEach((move, index) => {
    const numbers = offering(found, move);
    const markers = markersAfter(s, won, move);
    out.say(
      cols(markers).length === 1 ? 'move.one-marker' : 'move',
      { move: names[index], pairings: numbers, markers: columnMap(markers) },
      { move: names[index], pairings: pairingNames(numbers), cells: cellsText(markers) },
    );
  });
  return moves;
}

function sayMarkers(out, s) {
  const markers = s.markers;
  const count = cols(markers).length;
  const data = { markers: columnMap(markers), free: MAX_MARKERS - count };
  if (!count) {
    out.say('markers.none', data);
    return;
  }
  const free = ['none is free', 'one is free', 'two are free'][MAX_MARKERS - count];
  out.say(count === 1 ? 'markers.one' : 'markers.some', data, { cells: cellsText(markers), free });
}

// ---- stopping, busting, the end ---------------------------------------------------

// Markers sharing a space with another player's square: [column, space, player].
function sharesOf(s) {
  const found = [];
  for (const column of cols(s.markers)) {
    const space = s.markers[column];
    s.squares.forEach((sq, player) => {
      if (player !== s.player && sq[column] === space) found.push([column, space, player]);
    });
  }
  return found;
}

const sharesText = (shares) => listed(shares.map(([column, space, player]) => `the marker in column ${column} shares space ${space} with player ${player}'s square`));

// Say what a stop would do now (R11, R9.3, R12.1), or why it is refused (R14.2).
function sayStop(out, s, won) {
  const me = s.player;
  const shares = s.rules.variant === 'B' ? sharesOf(s) : [];
  if (shares.length) {
    out.say(
      'stop.refused',
      { shares: shares.map(([column, space, player]) => ({ column, space, player })) },
      { player: me, shares: sharesText(shares) },
    );
    return;
  }
  const squares = { ...s.squares[me], ...s.markers };
  const kind = cols(s.markers).length === 1 ? 'stop.square' : 'stop.squares';
  out.say(kind, { squares: columnMap(squares) }, { player: me, cells: cellsText(s.markers) });
  const { heights } = s.rules;
  const wonNow = cols(s.markers).filter((c) => s.markers[c] === heights[c]);
  for (const column of wonNow) {
    out.say('stop.column', { column }, { column });
    s.squares.forEach((theirs, other) => {
      if (other !== me && theirs[column] !== undefined) {
        out.say(
          'stop.removes',
          { column, player: other, space: theirs[column] },
          { other, space: theirs[column], column },
        );
      }
    });
  }
  const held = cols(won).filter((c) => won[c] === me).length + wonNow.length;
  const target = s.rules.columnsToWin;
  const next = (me + 1) % s.rules.players;
  const values = { player: me, held: heldText(held), target, next };
  if (held >= target) out.say('stop.wins', { held, target, next: null }, values);
  else out.say('stop.passes', { held, target, next }, values);
}

// Say the chance that the next roll busts; return the number of busting rolls.
function sayChance(out, s) {
  // A roll busts when none of its six pair sums plays alone (R6.5, R10.1): a
  // pairing with a sum that plays offers at least that sum.
  const plays = [];
  for (let sum = 2; sum <= 12; sum++) plays[sum] = playSum(s, s.markers, sum).plays;
  let busts = 0;
  for (const [a, b, c, d] of ORDERED_ROLLS) {
    if (!(plays[a + b] || plays[c + d] || plays[a + c] || plays[b + d] || plays[a + d] || plays[b + c])) busts += 1;
  }
  const divisor = gcd(busts, ROLLS);
  const data = { busts, rolls: ROLLS, chance: `${busts / divisor}/${ROLLS / divisor}` };
  if (busts === 0) out.say('chance.none', data, { player: s.player });
  else out.say('chance.some', data, { player: s.player, chance: data.chance, busts, percent: percent(busts) });
  return busts;
}

// Say what a bust takes off and what it leaves (R10.2, R8.2).
function sayBust(out, s) {
  const me = s.player;
  const next = (me + 1) % s.rules.players;
  out.say('bust.loss', { next }, { next });
  const own = s.squares[me];
  for (const column of cols(s.markers)) {
    const space = s.markers[column];
    const square = own[column] === undefined ? null : own[column];
    out.say(square === null ? 'bust.gone' : 'bust.back', { column, space, square }, { column, space, player: me, square });
    if (space === s.rules.heights[column]) out.say('bust.top', { column }, { column });
  }
}

// Say who won with which columns, and who else holds columns (R12.1, R9.1).
function sayOver(out, s, won) {
  const me = s.player;
  const held = (p) => cols(won).filter((c) => won[c] === p);
  out.say(
    'over.won',
    { player: me, columns: held(me), target: s.rules.columnsToWin },
    { player: me, columns: columnsText(held(me)), target: s.rules.columnsToWin },
  );
  for (let player = 0; player < s.rules.players; player++) {
    const columns = held(player);
    if (player !== me && columns.length) out.say('over.holds', { player, columns }, { player, columns: columnsText(columns) });
  }
}

// ---- verdicts (X2.3) -------------------------------------------------------------

function dropped(examined, values) {
  values.x = examined.column;
  values.owner = examined.owner;
  const reason = REASONS[examined.play];
  return { kind: 'illegal.dropped', values, fragments: [reason], rule: TEMPLATES[reason][1][0] };
}

// The verdict on a move with dice on the table (X2.3 item 5).
function moveVerdict(s, won, move, found, values) {
  const from = offering(found, move);
  if (from.length) {
    values.pairings = pairingNames(from);
    return { kind: 'verdict.move', values, fragments: [], rule: null };
  }
  const x = move[0];
  values.x = x;
  const matching = move.length === 2
    ? found.filter((p) => p.sums[0] === move[0] && p.sums[1] === move[1])
    : found.filter((p) => p.sums.includes(x));
  if (!matching.length) {
    if (move.length === 2) {
      values.y = move[1];
      return { kind: 'illegal.no-pairing-two', values, fragments: [], rule: 'R4.3' };
    }
    return { kind: 'illegal.no-pairing-one', values, fragments: [], rule: 'R4.3' };
  }
  const markers = { ...s.markers };
  const first = examineSum(s, won, markers, x);
  if (!first.plays) return dropped(first, values);
  if (move.length === 2) {
    const y = move[1];
    values.y = y;
    if (x === y) return { kind: 'illegal.second-step', values, fragments: [], rule: 'R7.3' };
    if (examineSum(s, won, markers, y).plays) return { kind: 'illegal.one-free', values, fragments: [], rule: 'R6.3' };
    return dropped(examineSum(s, won, after(markers, first), y), values);
  }
  const pairing = matching[0];
  values.n = pairing.number;
  if (pairing.sums[0] === pairing.sums[1]) return { kind: 'illegal.one-step', values, fragments: [], rule: 'R7.1' };
  values.y = pairing.sums[0] === x ? pairing.sums[1] : pairing.sums[0];
  return { kind: 'illegal.one-sum', values, fragments: [], rule: 'R6.1' };
}

function verdict(s, won, action, found) {
  const values = { action: formatAction(action), player: s.player };
  const { phase } = s;
  const is = (kind, rule) => ({ kind, values, fragments: [], rule });
  if (phase === 'over') return is('illegal.game-over', 'R12.3');
  if (phase === 'choose') {
    values.dice = diceText(s.dice);
    if (action.type !== 'move') return is('illegal.dice-waiting', 'R3.3');
    return moveVerdict(s, won, action.columns, found, values);
  }
  if (action.type === 'move') {
    return phase === 'roll' ? is('illegal.move-before-roll', 'R3.2') : is('illegal.move-after-move', 'R3.4');
  }
  if (action.type === 'stop') {
    if (phase === 'roll') return is('illegal.stop-before-roll', 'R11.1');
    const shares = s.rules.variant === 'B' ? sharesOf(s) : [];
    if (shares.length) {
      values.shares = sharesText(shares);
      return is('illegal.stop-sharing', 'R14.2');
    }
    return is('verdict.stop', null);
  }
  return is(phase === 'roll' ? 'verdict.roll-first' : 'verdict.roll-again', null);
}

// ---- the explanation ------------------------------------------------------------------

class Explanation {
  constructor(state, action, legal, moves, statements) {
    this.state = state;
    this.action = action;
    this.legal = legal;
    this.moves = moves;
    this.statements = statements;
  }

  // The text form (X1.2): one line per statement, each ending with a line feed.
  text() {
    return this.statements.map((st) => `${st.line()}\n`).join('');
  }

  // The JSON form (X1.3) as plain values.
  toJson() {
    return {
      format: FORMAT,
      state: formatState(this.state),
      action: this.action === null ? null : formatAction(this.action),
      legal: this.legal,
      moves: this.moves === null ? null : this.moves.map(moveText),
      statements: this.statements.map((st) => st.toJson()),
    };
  }

  // The canonical serialization of the JSON form: compact, fields in order.
  json() {
    return JSON.stringify(this.toJson());
  }
}

// Explain a roll before it is applied; return the legal moves it gives.
function explainRoll(out, s, won, roll) {
  if (s.phase === 'decide') sayMarkers(out, s);
  const dice = [...roll.dice].sort((a, b) => a - b);
  const inOrder = roll.dice.every((d, i) => d === dice[i]);
  out.say(inOrder ? 'dice.sorted' : 'dice', { thrown: [...roll.dice], dice }, { thrown: diceText(roll.dice), dice: diceText(dice) });
  const moves = sayRoll(out, s, won, analyse(s, won, dice));
  const { state: next, event } = apply(s, roll);
  const data = { state: formatState(next), event };
  if (!moves.length) {
    sayBust(out, s);
    out.say('result.bust', data, { state: data.state, next: next.player });
  } else {
    out.say('result.choose', data, { state: data.state, player: next.player });
  }
  return moves;
}

// The explanation of the state `s` (a checked state of rules.js), and of
// `action` in it if given (an action as notation.js reads it, or null).
function explain(s, action = null) {
  if (action !== null && !['roll', 'move', 'stop'].includes(action && action.type)) {
    throw new RuleError('an action is a roll, a move or a stop', 'R3.1');
  }
  const out = new Writer();
  const me = s.player;
  const { phase, dice } = s;
  const won = wonColumns(s.rules, s.squares);
  const position = { player: me, phase, dice: dice ? [...dice] : null };
  if (phase === 'choose') out.say('position.choose', position, { player: me, dice: diceText(dice) });
  else out.say({ roll: 'position.roll', decide: 'position.decide' }[phase] || 'position.over', position, { player: me });

  const found = dice ? analyse(s, won, dice) : null;
  let moves = found === null ? null : legalMovesOf(found);
  let legal = null;
  if (action !== null) {
    const { kind, values, fragments, rule } = verdict(s, won, action, found);
    legal = rule === null;
    out.say(kind, { action: formatAction(action), legal, rule }, values, fragments);
    if (!legal && moves && moves.length) {
      const names = moves.map(moveText);
      out.say('alternatives', { moves: names }, { player: me, moves_or: listed(names, 'or') });
    }
  }

  if (legal && action.type === 'roll') {
    moves = explainRoll(out, s, won, action);
  } else if (legal && action.type === 'stop') {
    sayMarkers(out, s);
    sayStop(out, s, won);
    const { state: next } = apply(s, action);
    const text = formatState(next);
    if (next.phase === 'over') out.say('result.won', { state: text, event: 'won' }, { state: text, player: me });
    else out.say('result.stop', { state: text, event: 'stopped' }, { state: text, next: next.player });
  } else if (phase === 'choose') {
    sayMarkers(out, s);
    sayRoll(out, s, won, found);
    if (legal && action.type === 'move') {
      const text = formatState(apply(s, action).state);
      out.say('result.move', { state: text, event: 'moved' }, { state: text, player: me });
    }
  } else if (phase === 'roll') {
    out.say('stop.not-yet', {}, { player: me });
    if (sayChance(out, s)) {
      const next = (me + 1) % s.rules.players;
      out.say('bust.nothing', { next }, { next });
    }
  } else if (phase === 'decide') {
    sayMarkers(out, s);
    sayStop(out, s, won);
    if (sayChance(out, s)) sayBust(out, s);
  } else {
    sayOver(out, s, won);
  }
  return new Explanation(s, action, legal, moves, out.statements);
}

// The exact chance that the next roll from `s` busts: { busts, rolls, chance: "n/d" }.
function bustChance(s) {
  const out = new Writer();
  const busts = sayChance(out, s);
  return { ...out.statements[0].data, percent: percent(busts), busts };
}

export { FORMAT, TEMPLATES, Statement, Explanation, explain, bustChance };
