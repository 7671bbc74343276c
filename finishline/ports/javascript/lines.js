// One protocol line read as untrusted input: the limits of the conformance protocol
// (spec/protocol.md, "Lines"): at most 1 MiB of UTF-8, not blank, one JSON value
// nested at most 64 deep, numbers as I-JSON allows them.

const MAX_LINE_BYTES = 1048576;
const MAX_DEPTH = 64;
const LIMIT = 2 ** 53 - 1;

class LineError extends Error {
  constructor(message, seq = null) {
    super(message);
    this.seq = seq;
  }
}

// The position of the first byte that does not begin or continue a well-formed UTF-8 sequence.
function badByte(bytes) {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  try {
    decoder.decode(bytes);
    return -1;
  } catch (e) {
    // Find it: decode ever longer prefixes that end on a character boundary.
    let i = 0;
    while (i < bytes.length) {
      const b = bytes[i];
      const size = b < 0x80 ? 1 : b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
      if (size === 0) return i;
      try {
        decoder.decode(bytes.subarray(i, i + size));
      } catch (err) {
        return i;
      }
      i += size;
    }
    return bytes.length - 1;
  }
}

// Walk the text outside strings: the deepest nesting, the first number I-JSON refuses,
// and the raw token of the top-level "seq".
function survey(text) {
  let depth = 0;
  let deepest = 0;
  let badNumber = null;
  let seqToken = null;
  let i = 0;
  let lastKey = null;
  const floats = []; // [start, end] of numbers written with a fraction or exponent
  while (i < text.length) {
    const ch = text[i];
    if (ch === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      const raw = text.slice(i, j + 1);
      let k = j + 1;
      while (' \t\r\n'.includes(text[k] ?? 'x')) k += 1;
      lastKey = depth === 1 && text[k] === ':' ? raw : null;
      i = j + 1;
    } else if (ch === '{' || ch === '[') {
      depth += 1;
      deepest = Math.max(deepest, depth);
      if (deepest > MAX_DEPTH && seqToken !== null) break;
      i += 1;
    } else if (ch === '}' || ch === ']') {
      depth -= 1;
      i += 1;
    } else if (ch === '-' || (ch >= '0' && ch <= '9')) {
      const match = /^-?[0-9.eE+-]+/.exec(text.slice(i, i + 400));
      const token = match ? match[0] : ch;
      if (lastKey === '"seq"' && seqToken === null) seqToken = token;
      if (badNumber === null) {
        const value = Number(token);
        if (/^-?\d+$/.test(token) ? Math.abs(value) > LIMIT || token.length > 17 : !Number.isFinite(value)) {
          badNumber = `a number out of range: ${token.length > 30 ? `${token.slice(0, 20)}...` : token}`;
        }
      }
      if (/[.eE]/.test(token)) floats.push([i, i + token.length]);
      i += token.length;
    } else if (text.startsWith('NaN', i) || text.startsWith('Infinity', i)) {
      if (badNumber === null) badNumber = `${text.startsWith('NaN', i) ? 'NaN' : 'Infinity'} is not JSON`;
      i += 1;
    } else {
      i += 1;
    }
  }
  return { deepest, badNumber, seqToken, floats };
}

// JSON.parse reads 2.0 as the integer 2, but the protocol's forms take only integers
// written as integers (N3.1): such numbers are read as the text they were written as,
// which every reader refuses where an integer belongs.
function keepFloats(text, floats) {
  if (!floats.length) return text;
  let out = '';
  let last = 0;
  for (const [start, end] of floats) {
    out += `${text.slice(last, start)}"${text.slice(start, end)}"`;
    last = end;
  }
  return out + text.slice(last);
}

function seqOf(token) {
  if (token === null || !/^-?(0|[1-9][0-9]*)$/.test(token)) return null;
  const value = Number(token);
  return Math.abs(value) <= LIMIT ? value : null;
}

// Return { value, seq } for one line (bytes without its line feed); throw LineError.
function decode(bytes) {
  if (bytes.length > MAX_LINE_BYTES) throw new LineError(`a line longer than 1,048,576 bytes`);
  const bad = badByte(bytes);
  if (bad >= 0) throw new LineError(`a line that is not UTF-8: byte 0x${bytes[bad].toString(16).padStart(2, '0')} at position ${bad}`);
  const text = new TextDecoder('utf-8').decode(bytes);
  if (!/[^ \t\r]/.test(text)) throw new LineError('an empty line');
  const { deepest, badNumber, seqToken, floats } = survey(text);
  if (deepest > MAX_DEPTH) throw new LineError(`JSON nested more than ${MAX_DEPTH} levels deep`, seqOf(seqToken));
  let value;
  try {
    value = JSON.parse(keepFloats(text, floats));
  } catch (e) {
    if (badNumber !== null && badNumber.endsWith('is not JSON')) throw new LineError(badNumber);
    throw new LineError(`a line that is not JSON: ${e.message}`);
  }
  const isRequest = value !== null && typeof value === 'object' && !Array.isArray(value);
  const seq = isRequest ? seqOf(seqToken) : null;
  if (badNumber !== null) throw new LineError(badNumber, seq);
  return { value, seq };
}

export { MAX_LINE_BYTES, LineError, decode };
