// One line of the conformance protocol, read as untrusted input (spec/protocol.md, "Lines").
//
// A line is at most 1 MiB of UTF-8 holding one JSON value, nested at most 64
// deep, whose numbers are I-JSON's: integers within ±(2**53 - 1) and nothing
// beyond the range of a double. JSON.parse alone would turn 1e999 into
// Infinity and a 300-digit integer into an approximation, so the text is
// scanned first; the scan also finds the raw text of the request's seq, so
// that 1.0 or 1e-999 is not taken for an integer.

const MAX_LINE_BYTES = 1 << 20;
const MAX_DEPTH = 64;
const MAX_SAFE = 2n ** 53n - 1n;
const grouped = (n) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
const TOO_LONG = `a line longer than ${grouped(MAX_LINE_BYTES)} bytes`;

class LineError extends Error {
  // seq: the request's seq when it could be read, so that the answer repeats it.
  constructor(message, seq = null) {
    super(message);
    this.seq = seq;
  }
}

// The index of the first byte of the first ill-formed UTF-8 sequence, or -1.
function utf8Error(bytes) {
  let i = 0;
  const n = bytes.length;
  while (i < n) {
    const b = bytes[i];
    if (b < 0x80) { i += 1; continue; }
    let need;
    let lo = 0x80;
    let hi = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) need = 1;
    else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      if (b === 0xe0) lo = 0xa0;
      if (b === 0xed) hi = 0x9f; // no surrogates
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      if (b === 0xf0) lo = 0x90;
      if (b === 0xf4) hi = 0x8f;
    } else return i;
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined || c < (k === 1 ? lo : 0x80) || c > (k === 1 ? hi : 0xbf)) return i;
    }
    i += need + 1;
  }
  return -1;
}

const shown = (text) => (text.length <= 30 ? text : `${text.slice(0, 12)}...${text.slice(-6)} (${grouped(text.length)} characters)`);
const RANGE = 'I-JSON allows integers within ±(2**53 - 1) and finite numbers';
const INTEGER = /^-?(0|[1-9][0-9]*)$/;
const startsNumber = (ch) => ch === '-' || (ch >= '0' && ch <= '9');

// What is wrong with one number token, or null.
function badNumber(token) {
  if (INTEGER.test(token)) {
    const big = token.replace('-', '').length > 16 ? null : BigInt(token);
    if (big === null || big > MAX_SAFE || big < -MAX_SAFE) return `a number out of range: ${shown(token)} (${RANGE})`;
    return null;
  }
  const value = Number(token);
  if (value === Infinity || value === -Infinity) return `a number out of range: ${shown(token)} (${RANGE})`;
  return null; // a malformed token: JSON.parse says so
}

// The index of the quote that closes the string opening at `at`, or the text's length.
function closingQuote(text, at) {
  let j = at;
  for (;;) {
    j = text.indexOf('"', j + 1);
    if (j < 0) return text.length;
    let slashes = 0;
    while (text.charCodeAt(j - 1 - slashes) === 92) slashes += 1;
    if (slashes % 2 === 0) return j;
  }
}

const NUMBER = /[0-9.eE+-]*/y;
const SPACES = /[ \t\r\n]*/y;

// The index after the white space from `at`.
function skipSpaces(text, at) {
  SPACES.lastIndex = at;
  SPACES.test(text);
  return SPACES.lastIndex;
}

// The number token starting at `at`.
function numberAt(text, at) {
  NUMBER.lastIndex = at;
  NUMBER.test(text);
  return text.slice(at, NUMBER.lastIndex);
}

// Scan JSON text outside its strings for the deepest nesting, the first bad
// number, and the raw text of the top-level object's "seq" value.
function scan(text) {
  const n = text.length;
  let depth = 0;
  let deepest = 0;
  let bad = null;
  let seqText = null;
  const topObject = text[skipSpaces(text, 0)] === '{';
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 34) { // "
      const j = closingQuote(text, i);
      if (topObject && depth === 1) {
        // A key of the top-level object when a colon follows; its value may be the seq.
        let k = skipSpaces(text, j + 1);
        if (text[k] === ':') {
          let key = null;
          try { key = JSON.parse(text.slice(i, j + 1)); } catch (e) { key = null; }
          if (key === 'seq') {
            k = skipSpaces(text, k + 1);
            seqText = startsNumber(text[k] || '') ? numberAt(text, k) : '';
          }
        }
      }
      i = j + 1;
    } else if (c === 123 || c === 91) { // { [
      depth += 1;
      if (depth > deepest) deepest = depth;
      // Too deep: the rest matters only for finding the seq.
      if (deepest > MAX_DEPTH && (!topObject || seqText !== null)) break;
      i += 1;
    } else if (c === 125 || c === 93) { // } ]
      depth -= 1;
      i += 1;
    } else if (c === 45 || (c >= 48 && c <= 57)) { // - 0-9
      const token = numberAt(text, i);
      if (bad === null) bad = badNumber(token);
      i += token.length;
    } else if (c === 78 || c === 73) { // N I
      const word = text.startsWith('NaN', i) ? 'NaN' : text.startsWith('Infinity', i) ? 'Infinity' : null;
      if (word !== null && bad === null) bad = `${text[i - 1] === '-' ? '-' : ''}${word} is not JSON`;
      i += 1;
    } else {
      i += 1;
    }
  }
  return { deepest, bad, seqText, topObject };
}

// The request's seq when its raw text is an integer within range, else null.
function seqOf(seqText) {
  if (seqText === null || !INTEGER.test(seqText) || seqText.replace('-', '').length > 16) return null;
  const value = BigInt(seqText);
  return value > MAX_SAFE || value < -MAX_SAFE ? null : Number(value);
}

// Return the JSON value of one line (bytes without the line feed); throw LineError.
function decode(bytes) {
  if (bytes.length > MAX_LINE_BYTES) throw new LineError(TOO_LONG);
  const at = utf8Error(bytes);
  if (at >= 0) {
    const hex = bytes[at].toString(16).padStart(2, '0');
    throw new LineError(`a line that is not UTF-8: byte 0x${hex} at position ${at}`);
  }
  const text = new TextDecoder('utf-8').decode(bytes);
  if (!/[^ \t\r]/.test(text)) throw new LineError('an empty line');
  const { deepest, bad, seqText, topObject } = scan(text);
  // Too deep: refused without parsing it (JSON.parse takes tens of milliseconds on
  // 100,000 levels); the seq, if the line is a request, is read from the text.
  if (deepest > MAX_DEPTH) throw new LineError(`JSON nested more than ${MAX_DEPTH} levels deep`, topObject ? seqOf(seqText) : null);
  let value;
  try {
    value = JSON.parse(text);
  } catch (e) {
    if (bad !== null && bad.endsWith('is not JSON')) throw new LineError(bad);
    throw new LineError(`a line that is not JSON: ${e.message}`);
  }
  const isObject = value !== null && typeof value === 'object' && !Array.isArray(value);
  const seq = isObject ? seqOf(seqText) : null;
  if (bad !== null) throw new LineError(bad, seq);
  return { value, seq };
}

export { MAX_LINE_BYTES, MAX_DEPTH, TOO_LONG, LineError, utf8Error, decode };
