// Board pictures: a state or a roll as a standalone SVG document, the same
// document, byte for byte, as the reference's cantstop.svg draws (state_svg,
// dice_svg). The layout follows that module step by step, and numbers are
// written as Python writes them (see num), so that the documentation site and
// the board in the browser show one picture.

import { RuleError, cols, wonColumns } from './rules.js';
import { formatState } from './notation.js';

const PLAYER_COLOURS = ['#d1342c', '#2b6cc4', '#23934a', '#e0a100']; // red, blue, green, amber
const PLAYER_NAMES = ['red', 'blue', 'green', 'amber'];

const INK = '#2d2a26';
const PAPER = '#fbf8f1';
const SPACE_FILL = '#efe6d2';
const SPACE_EDGE = '#b9a988';
const TOP_EDGE = '#7d6b4a';
const MUTED = '#6b645a';
const FONT = "font-family:system-ui,-apple-system,'Segoe UI',Helvetica,Arial,sans-serif";
const MONO = "font-family:ui-monospace,'DejaVu Sans Mono',Menlo,Consolas,monospace";

const CELL_W = 28; // width of a space
const PITCH = 32; // horizontal distance between two columns
const MAX_CELL_H = 22; // height of a space on a board whose tallest column fits
const BOARD_H = 300; // the most height the spaces of one column may take
const MIN_WIDTH = 340; // the least width of the drawing area, so that the caption fits
const MARGIN = 12;
const DIE = 26;
const DIE_GAP = 6;

const CAPTION_SIZE = 17;
const NOTATION_SIZE = 14;
const LABEL_SIZE = 16;
const LEGEND_SIZE = 14;
const MONO_ADVANCE = 0.6; // the width of a monospace character, as a fraction of its size
const NOTATION_LINE = 18;
const LEGEND_ROW = 22;
const PLAYER_ENTRY = 92;
const MARKER_ENTRY = 76;

// Pip positions on a die, as fractions of its side.
const PIPS = {
  1: [[0.5, 0.5]],
  2: [[0.27, 0.27], [0.73, 0.73]],
  3: [[0.27, 0.27], [0.5, 0.5], [0.73, 0.73]],
  4: [[0.27, 0.27], [0.73, 0.27], [0.27, 0.73], [0.73, 0.73]],
  5: [[0.27, 0.27], [0.73, 0.27], [0.5, 0.5], [0.27, 0.73], [0.73, 0.73]],
  6: [[0.27, 0.25], [0.73, 0.25], [0.27, 0.5], [0.73, 0.5], [0.27, 0.75], [0.73, 0.75]],
};

// `value` with two decimals, as Python's format(value, '.2f') writes it:
// correctly rounded, an exact tie to the even digit. toFixed rounds exact ties
// away from zero; a tie at the second decimal is a multiple of 1/8 that is not
// one of 1/4 (an odd number of eighths), so only those need another rule.
function fixed2(value) {
  const eighths = value * 8;
  if (!Number.isInteger(eighths) || eighths % 2 === 0) return value.toFixed(2);
  const size = Math.abs(value) * 100; // exact: an odd number of halves
  const low = Math.floor(size);
  const hundredths = low % 2 === 0 ? low : low + 1;
  const text = `${Math.floor(hundredths / 100)}.${String(hundredths % 100).padStart(2, '0')}`;
  return value < 0 ? `-${text}` : text;
}

// A coordinate with at most two decimals and no trailing zeros.
function num(value) {
  const text = fixed2(value).replace(/0+$/, '').replace(/\.$/, '');
  return text === '-0' ? '0' : text;
}

// Python's round(): halves to even.
function roundHalfEven(value) {
  const low = Math.floor(value);
  const rest = value - low;
  if (rest > 0.5) return low + 1;
  if (rest < 0.5) return low;
  return low % 2 === 0 ? low : low + 1;
}

// Python's a // b for positive floats (floor of the fmod-based quotient).
function floorDiv(a, b) {
  const div = (a - (a % b)) / b;
  let floor = Math.floor(div);
  if (div - floor > 0.5) floor += 1;
  return floor;
}

// Mix `colour` (#rrggbb) with white; amount 0 is white, 1 the colour.
function tint(colour, amount) {
  const parts = [1, 3, 5].map((i) => parseInt(colour.slice(i, i + 2), 16));
  return `#${parts.map((c) => roundHalfEven(255 - (255 - c) * amount).toString(16).padStart(2, '0')).join('')}`;
}

const colour = (player) => PLAYER_COLOURS[player % PLAYER_COLOURS.length];

// XML escapes, as Python's xml.sax.saxutils writes them.
const escape = (text) => text.replace(/&/g, '&amp;').replace(/>/g, '&gt;').replace(/</g, '&lt;');

function quoteattr(text) {
  let data = escape(text).replace(/\n/g, '&#10;').replace(/\r/g, '&#13;').replace(/\t/g, '&#9;');
  if (data.includes('"')) {
    if (data.includes("'")) data = `"${data.replace(/"/g, '&quot;')}"`;
    else data = `'${data}'`;
  } else {
    data = `"${data}"`;
  }
  return data;
}

function checkDice(dice) {
  for (const die of dice) {
    if (!Number.isInteger(die) || die < 1 || die > 6) throw new RuleError(`a die shows 1 to 6, not ${die}`, 'R4.1');
  }
}

// The elements of one die whose top left corner is at (x, y).
function die(x, y, value, size = DIE) {
  const parts = [
    `<g class="die" data-value="${value}">`,
    `<rect x="${num(x)}" y="${num(y)}" width="${num(size)}" height="${num(size)}" `
      + `rx="${num(size * 0.2)}" fill="#ffffff" stroke="${INK}" stroke-width="1.5"/>`,
  ];
  for (const [px, py] of PIPS[value]) {
    parts.push(`<circle class="pip" cx="${num(x + px * size)}" cy="${num(y + py * size)}" `
      + `r="${num(size * 0.09)}" fill="${INK}"/>`);
  }
  parts.push('</g>');
  return parts;
}

function documentOf(kind, width, height, title, body) {
  const head = `<svg xmlns="http://www.w3.org/2000/svg" class="cantstop-${kind}" width="${num(width)}" `
    + `height="${num(height)}" viewBox="0 0 ${num(width)} ${num(height)}" `
    + `role="img" aria-label=${quoteattr(title)}>`;
  return `${[head, `<title>${escape(title)}</title>`, ...body, '</svg>'].join('\n')}\n`;
}

// A standalone SVG document showing `dice` in a row, in the given order.
function diceSvg(dice) {
  checkDice(dice);
  const pad = 4;
  const width = pad * 2 + dice.length * DIE + Math.max(dice.length - 1, 0) * DIE_GAP;
  const height = pad * 2 + DIE;
  const body = [];
  dice.forEach((value, index) => body.push(...die(pad + index * (DIE + DIE_GAP), pad, value)));
  return documentOf('dice', width, height, `dice ${dice.join('-')}`, body);
}

function caption(s) {
  const who = `Player ${s.player} (${PLAYER_NAMES[s.player % PLAYER_NAMES.length]})`;
  if (s.phase === 'roll') return `${who} to roll`;
  if (s.phase === 'choose') return `${who} to choose a move`;
  if (s.phase === 'decide') return `${who} to roll again or stop`;
  return `${who} has won`;
}

// Split `text` into lines of at most `limit` characters: at spaces, and inside a
// longer word after a comma or a slash.
function wrap(text, limit) {
  const lines = [];
  for (const word of text.split(' ')) {
    let pieces = [word];
    if (word.length > limit) {
      pieces = [];
      for (const ch of word) {
        if (!pieces.length || [',', '/'].includes(pieces[pieces.length - 1].slice(-1))) pieces.push('');
        pieces[pieces.length - 1] += ch;
      }
    }
    pieces.forEach((piece, index) => {
      const joiner = index === 0 ? ' ' : '';
      if (lines.length && lines[lines.length - 1].length + joiner.length + piece.length <= limit) {
        lines[lines.length - 1] += joiner + piece;
      } else {
        lines.push(piece);
      }
    });
  }
  return lines;
}

// The legend's entries (players, then null for the marker) in rows.
function legendRows(players, inner) {
  const rows = [[]];
  let used = 0;
  const entries = [...Array(players).keys(), null];
  for (const entry of entries) {
    const size = entry === null ? MARKER_ENTRY : PLAYER_ENTRY;
    if (rows[rows.length - 1].length && used + size > inner) {
      rows.push([]);
      used = 0;
    }
    rows[rows.length - 1].push(entry);
    used += size;
  }
  return rows;
}

// The squares and the marker in `column`, side by side on a shared space.
function pieces(s, column, x, spaceY, cellH) {
  const bySpace = new Map();
  const add = (space, piece) => {
    if (!bySpace.has(space)) bySpace.set(space, []);
    bySpace.get(space).push(piece);
  };
  s.squares.forEach((squares, player) => {
    if (squares[column] !== undefined) add(squares[column], ['square', player]);
  });
  if (s.markers[column] !== undefined) add(s.markers[column], ['marker', -1]);
  const parts = [];
  for (const space of [...bySpace.keys()].sort((a, b) => a - b)) {
    const here = bySpace.get(space);
    const slot = CELL_W / here.length;
    const size = Math.max(Math.min(slot - 3, cellH - 6, 15), 2.0);
    const cy = spaceY(space) + cellH / 2;
    here.forEach(([kind, player], index) => {
      const cx = x + slot * (index + 0.5);
      const where = `data-column="${column}" data-space="${space}"`;
      if (kind === 'square') {
        parts.push(`<rect class="square" data-player="${player}" ${where} `
          + `x="${num(cx - size / 2)}" y="${num(cy - size / 2)}" width="${num(size)}" `
          + `height="${num(size)}" rx="${num(size * 0.15)}" fill="${colour(player)}" `
          + 'stroke="#ffffff" stroke-width="1"/>');
      } else {
        parts.push(`<circle class="marker" ${where} cx="${num(cx)}" cy="${num(cy)}" `
          + `r="${num(size / 2)}" fill="#ffffff" stroke="${INK}" `
          + `stroke-width="${num(Math.min(2.5, size / 5))}"/>`);
      }
    });
  }
  return parts;
}

// A standalone SVG document picturing the state `s`; `withDice` draws the dice
// of a state choosing a move.
function stateSvg(s, withDice = true) {
  const { heights } = s.rules;
  const columns = cols(heights);
  const tallest = Math.max(...columns.map((c) => heights[c]));
  const cellH = Math.min(MAX_CELL_H, BOARD_H / tallest);
  const mountainH = cellH * tallest;
  const shownDice = withDice && s.dice ? s.dice : null;
  const won = wonColumns(s.rules, s.squares);

  const boardW = columns.length * PITCH - (PITCH - CELL_W);
  const inner = Math.max(boardW, MIN_WIDTH);
  const width = inner + 2 * MARGIN;
  const left = (width - boardW) / 2;
  const notation = formatState(s);
  const lines = wrap(notation, floorDiv(inner, NOTATION_SIZE * MONO_ADVANCE));
  const top = MARGIN + 30 + NOTATION_LINE * lines.length;
  const base = top + mountainH;
  const legend = legendRows(s.rules.players, inner);
  const legendY = base + 38;
  const diceY = legendY + LEGEND_ROW * legend.length + 4;
  const height = diceY + DIE + MARGIN;

  const title = caption(s);
  const body = [
    `<rect class="background" x="0" y="0" width="${num(width)}" height="${num(height)}" `
      + `rx="10" fill="${PAPER}" stroke="#ddd3bf"/>`,
    `<text class="caption" x="${MARGIN}" y="${MARGIN + CAPTION_SIZE}" `
      + `font-size="${CAPTION_SIZE}" font-weight="600" fill="${INK}" `
      + `style="${FONT}">${escape(title)}</text>`,
  ];
  lines.forEach((line, index) => {
    body.push(`<text class="notation" x="${MARGIN}" `
      + `y="${MARGIN + CAPTION_SIZE + 22 + index * NOTATION_LINE}" `
      + `font-size="${NOTATION_SIZE}" fill="${MUTED}" style="${MONO}">${escape(line)}</text>`);
  });

  const spaceY = (space) => base - space * cellH; // the top edge of `space`

  columns.forEach((column, index) => {
    const x = left + index * PITCH;
    const heightC = heights[column];
    const owner = won[column];
    const isWon = owner !== undefined;
    const fill = isWon ? tint(colour(owner), 0.35) : SPACE_FILL;
    const edge = isWon ? colour(owner) : SPACE_EDGE;
    const wonAttr = isWon ? ` data-owner="${owner}"` : '';
    body.push(`<g class="column${isWon ? ' won' : ''}" data-column="${column}"`
      + ` data-height="${heightC}"${wonAttr}>`);
    const inset = Math.min(1.5, cellH * 0.1);
    for (let space = 1; space <= heightC; space++) {
      const topSpace = space === heightC;
      body.push(`<rect class="space" data-column="${column}" data-space="${space}" `
        + `x="${num(x)}" y="${num(spaceY(space) + inset)}" width="${CELL_W}" `
        + `height="${num(cellH - 2 * inset)}" rx="${num(Math.min(4, cellH / 4))}" `
        + `fill="${fill}" stroke="${topSpace && !isWon ? TOP_EDGE : edge}" `
        + `stroke-width="${topSpace ? '1.4' : '0.8'}"/>`);
    }
    body.push(...pieces(s, column, x, spaceY, cellH));
    const labelY = base + 17;
    const circleFill = isWon ? colour(owner) : '#ffffff';
    const textFill = isWon ? '#ffffff' : INK;
    body.push(`<circle cx="${num(x + CELL_W / 2)}" cy="${num(labelY)}" r="13.5" `
      + `fill="${circleFill}" stroke="${isWon ? edge : INK}" `
      + 'stroke-width="1.2"/>');
    body.push(`<text class="label" x="${num(x + CELL_W / 2)}" y="${num(labelY + 5.5)}" `
      + `font-size="${LABEL_SIZE}" font-weight="700" text-anchor="middle" `
      + `fill="${textFill}" style="${FONT}">${column}</text>`);
    body.push('</g>');
  });

  // The legend: one swatch per player, then the marker, in rows; the dice below, on the right.
  legend.forEach((entries, row) => {
    const y = legendY + row * LEGEND_ROW;
    let x = MARGIN;
    for (const player of entries) {
      if (player === null) {
        body.push(`<circle cx="${num(x + 6.5)}" cy="${num(y + 6.5)}" r="6.5" fill="#ffffff" `
          + `stroke="${INK}" stroke-width="2"/>`);
        body.push(`<text class="legend" x="${num(x + 19)}" y="${num(y + 11.5)}" `
          + `font-size="${LEGEND_SIZE}" fill="${INK}" style="${FONT}">marker</text>`);
        x += MARKER_ENTRY;
        continue;
      }
      const bold = player === s.player ? ' font-weight="700"' : '';
      body.push(`<rect class="swatch" x="${num(x)}" y="${num(y)}" width="13" height="13" `
        + `rx="2" fill="${colour(player)}"/>`);
      body.push(`<text class="legend" x="${num(x + 19)}" y="${num(y + 11.5)}" `
        + `font-size="${LEGEND_SIZE}"${bold} fill="${INK}" style="${FONT}">`
        + `player ${player}</text>`);
      x += PLAYER_ENTRY;
    }
  });
  if (shownDice !== null) {
    const dx = width - MARGIN - (4 * DIE + 3 * DIE_GAP);
    shownDice.forEach((value, index) => body.push(...die(dx + index * (DIE + DIE_GAP), diceY, value)));
  }
  return documentOf('board', width, height, `${title}: ${notation}`, body);
}

export { PLAYER_COLOURS, PLAYER_NAMES, num, stateSvg, diceSvg };
