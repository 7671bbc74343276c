// The JSON-lines protocol of spec/protocol.md, for the JavaScript port of any game.
//
// A port hands serve() its ops, one function per op that takes the request and
// returns the answer's fields, and a test for the errors of its rules (which
// carry `rule`, and `at` for an error in a text). serve() reads standard input
// as bytes, split at \n only, so that a \r inside a line, bytes that are not
// UTF-8 and over-long lines are answered, not mangled; it answers every line
// with exactly one line on standard output, in order, and ends once its input
// is closed and every answer is written, or after answering quit.
//
// Every line is read as untrusted input (spec/protocol.md, "Lines"): at most
// 1 MiB of UTF-8, not blank, one JSON value nested at most 64 deep, whose
// numbers are I-JSON's (integers within ±(2**53 - 1), nothing beyond the range
// of a double). JSON.parse alone would turn 1e999 into Infinity and a
// 300-digit integer into an approximation, so the text is scanned first; the
// scan also finds the raw text of the request's seq, so that 1.0 or 1e-999 is
// not taken for an integer. A number written with a fraction or an exponent is
// read as the text it was written as, so that every reader refuses it where an
// integer belongs (JSON.parse would read 2.0 as 2); a port with a JSON reader
// of its own passes it as `read`.
//
// The file uses Node.js only in serve(); a port finds it beside its port.js
// (a port copied alone, with this file) or in the layer's folder
// dicekit/ports/javascript/, three folders above the port in a checkout and in
// an installed package.

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
const JSON_NUMBER = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$/;
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
// number, the raw text of the top-level object's "seq" value and the places
// of the numbers written with a fraction or an exponent.
function scan(text) {
  const n = text.length;
  let depth = 0;
  let deepest = 0;
  let bad = null;
  let seqText = null;
  const reals = [];
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
      if (!INTEGER.test(token) && JSON_NUMBER.test(token)) reals.push([i, i + token.length]);
      i += Math.max(token.length, 1);
    } else if (c === 78 || c === 73) { // N I
      const word = text.startsWith('NaN', i) ? 'NaN' : text.startsWith('Infinity', i) ? 'Infinity' : null;
      if (word !== null && bad === null) bad = `${text[i - 1] === '-' ? '-' : ''}${word} is not JSON`;
      i += 1;
    } else {
      i += 1;
    }
  }
  return { deepest, bad, seqText, topObject, reals };
}

// The text with each number at `reals` written as a string of its digits.
function realsAsText(text, reals) {
  if (!reals.length) return text;
  let out = '';
  let last = 0;
  for (const [start, end] of reals) {
    out += `${text.slice(last, start)}"${text.slice(start, end)}"`;
    last = end;
  }
  return out + text.slice(last);
}

// The request's seq when its raw text is an integer within range, else null.
function seqOf(seqText) {
  if (seqText === null || !INTEGER.test(seqText) || seqText.replace('-', '').length > 16) return null;
  const value = BigInt(seqText);
  return value > MAX_SAFE || value < -MAX_SAFE ? null : Number(value);
}

// Return { value, seq, seqText } of one line (bytes without the line feed); throw LineError.
// `read`, when given, reads the line's text instead of JSON.parse.
function decode(bytes, read = null) {
  if (bytes.length > MAX_LINE_BYTES) throw new LineError(TOO_LONG);
  const at = utf8Error(bytes);
  if (at >= 0) {
    const hex = bytes[at].toString(16).padStart(2, '0');
    throw new LineError(`a line that is not UTF-8: byte 0x${hex} at position ${at}`);
  }
  const text = new TextDecoder('utf-8').decode(bytes);
  if (!/[^ \t\r]/.test(text)) throw new LineError('an empty line');
  const { deepest, bad, seqText, topObject, reals } = scan(text);
  // Too deep: refused without parsing it (JSON.parse takes tens of milliseconds on
  // 100,000 levels); the seq, if the line is a request, is read from the text.
  if (deepest > MAX_DEPTH) throw new LineError(`JSON nested more than ${MAX_DEPTH} levels deep`, topObject ? seqOf(seqText) : null);
  let value;
  try {
    value = JSON.parse(realsAsText(text, reals));
  } catch (e) {
    if (bad !== null && bad.endsWith('is not JSON')) throw new LineError(bad);
    throw new LineError(`a line that is not JSON: ${e.message}`);
  }
  const isObject = value !== null && typeof value === 'object' && !Array.isArray(value);
  const seq = isObject ? seqOf(seqText) : null;
  if (bad !== null) throw new LineError(bad, seq);
  // The line is JSON within the limits: a port's own reader only gives its values their form.
  if (read !== null) value = read(text);
  return { value, seq, seqText };
}

// A value as JSON for a message, cut short.
function brief(value) {
  let text;
  try { text = JSON.stringify(value); } catch (e) { text = `a ${typeof value}`; }
  if (text === undefined) text = `a ${typeof value}`;
  return text.length <= 60 ? text : `${text.slice(0, 57)}...`;
}

const refuse = (message, seq = null) => ({ seq, ok: false, error: { rule: null, message } });

// The answer to one line (bytes, or null for a line over the limit), and whether it ends the session.
function handle(bytes, port) {
  if (bytes === null) return [refuse(`malformed request: ${TOO_LONG}`), false];
  let q;
  let seq;
  let seqText;
  try {
    ({ value: q, seq, seqText } = decode(bytes, port.read));
  } catch (e) {
    if (e instanceof LineError) return [refuse(`malformed request: ${e.message}`, e.seq), false];
    throw e;
  }
  if (q === null || typeof q !== 'object' || Array.isArray(q)) return [refuse(`the request is not a JSON object: ${brief(q)}`), false];
  if (!('seq' in q)) return [refuse('the request has no seq'), false];
  if (seq === null) return [refuse(`seq must be an integer within ±(2**53 - 1), not ${seqText || brief(q.seq)}`), false];
  const op = typeof q.op === 'string' && Object.prototype.hasOwnProperty.call(port.ops, q.op) ? port.ops[q.op] : null;
  if (!op) {
    const named = typeof q.op === 'string' ? JSON.stringify(q.op) : `of type ${q.op === null ? 'null' : typeof q.op}`;
    return [refuse(`unknown op ${named}`, seq), false];
  }
  try {
    return [{ seq, ok: true, ...op(q) }, q.op === 'quit'];
  } catch (e) {
    if (port.isRuleError(e)) {
      const error = { rule: e.rule, message: e.message };
      if (e.at !== undefined) error.at = e.at;
      return [{ seq, ok: false, error }, false];
    }
    if (DEFECTS.some((kind) => e instanceof kind)) {
      // An error of the language itself (a property of undefined, a name not defined, a
      // stack overflow) is a defect of the port, not a refusal: said so, and logged.
      process.stderr.write(`internal error: ${e.stack || e}\n`);
      return [refuse(`internal error: ${e}`, seq), false];
    }
    return [refuse(e && e.message !== undefined ? e.message : String(e), seq), false];
  }
}

// The errors the language throws by itself, which no port throws to refuse a request.
const DEFECTS = [TypeError, ReferenceError, RangeError, SyntaxError, EvalError, URIError];

// Answer one line on standard output; return whether the session ends.
function answer(bytes, port) {
  let text;
  let quit = false;
  try {
    let reply;
    [reply, quit] = handle(bytes, port);
    text = JSON.stringify(reply);
  } catch (e) {
    // A defect (or a stack overflow on hostile input): answer it rather than die.
    text = JSON.stringify(refuse(`internal error: ${e}`));
    quit = false;
    process.stderr.write(`internal error: ${e && e.stack ? e.stack : e}\n`);
  }
  process.stdout.write(`${text}\n`);
  return quit;
}

// The request's notation text under `key`; an Error (rule null) when it is not a string.
function textOf(request, key) {
  if (typeof request[key] !== 'string') throw new Error(`the request needs '${key}' (notation)`);
  return request[key];
}

// The ops `state` and `action`, which read either form and give both back, for a port
// whose notation module N has parseState, formatState, stateFromJson and stateToJson,
// and the same four for actions.
function readingOps(N) {
  return {
    state: (q) => {
      const s = 'json' in q ? N.stateFromJson(q.json) : N.parseState(textOf(q, 'text'));
      return { state: N.formatState(s), json: N.stateToJson(s) };
    },
    action: (q) => {
      const a = 'json' in q ? N.actionFromJson(q.json) : N.parseAction(textOf(q, 'text'));
      return { action: N.formatAction(a), json: N.actionToJson(a) };
    },
  };
}

// Serve the protocol on standard input and output with the port's `ops`; `isRuleError(e)`
// says whether an error names a rule, and `read(text)`, when given, reads a line's JSON.
function serve({ ops, isRuleError, read = null }) {
  const port = { ops, isRuleError, read };
  let pending = [];
  let size = 0;
  let tooLong = false;
  let ended = false;

  // Stop reading; the process ends once every answer written has reached standard
  // output (process.exit() could cut off answers still queued for a full pipe).
  const finish = () => {
    ended = true;
    process.stdin.destroy();
  };

  // Split the input into lines at \n; a line past the limit is dropped as it
  // streams in (null stands for it), and a last line without \n is still a line.
  process.stdin.on('data', (chunk) => {
    let start = 0;
    while (!ended) {
      const end = chunk.indexOf(10, start);
      const piece = chunk.subarray(start, end < 0 ? chunk.length : end);
      if (!tooLong) {
        size += piece.length;
        if (size > MAX_LINE_BYTES) {
          tooLong = true;
          pending = [];
        } else if (piece.length) {
          pending.push(piece);
        }
      }
      if (end < 0) return;
      const line = tooLong ? null : Buffer.concat(pending, size);
      pending = [];
      size = 0;
      tooLong = false;
      if (answer(line, port)) finish();
      start = end + 1;
    }
  });
  process.stdin.on('end', () => {
    if (!ended && (size > 0 || tooLong)) answer(tooLong ? null : Buffer.concat(pending, size), port);
    ended = true;
  });
}

export { MAX_LINE_BYTES, MAX_DEPTH, LineError, decode, readingOps, serve, textOf };
