// The text and value checks every reader of a release shares (the curated
// loader, curated.ts, and the readers of JASPAR's own files, official/):
// files read as strict UTF-8 with \n line ends under their size limit, values
// quoted safely inside a message, counts checked as written, the id pattern
// and the characters no value may hold. docs/parsing-behavior.md says why.
import path from 'node:path';
import type { ProblemList } from './diagnostics.ts';
import { ReleaseFolder, SIZE_LIMITS, type FileKind } from './files.ts';

/** Two capital letters, four digits, a dot, a version: also keeps every id a safe path segment. */
export const MATRIX_ID = /^([A-Z]{2}[0-9]{4})\.([1-9][0-9]{0,3})$/;
const COUNT = /^[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?$/;
/** Above 2^53 a double cannot hold every whole number: the outputs would
 *  print a count other than the file's, and four such counts could sum to
 *  Infinity (MEME probabilities, logos). No real count comes near it. */
export const MAX_COUNT = 2 ** 53;
export const IDENTIFIER = /^[A-Za-z0-9_-]+$/;
// Characters that would forge new lines or fields in the text formats, or
// make a line display other than it reads: C0 and C1 controls (tab, newline,
// NEL U+0085…), the Unicode line and paragraph separators U+2028/U+2029
// (line breaks to YAML 1.1, Python's splitlines and JavaScript), and the
// bidirectional embedding, override and isolate controls U+202A–U+202E,
// U+2066–U+2069 ("Trojan Source"). Letters of right-to-left scripts,
// combining marks and astral characters are ordinary text and pass.
export const FORBIDDEN_CHARACTER = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

/** A value from the dataset inside a message: quoted, control characters
 *  escaped, so that a value can never break a line of the report; cut
 *  after 60 characters, so that a wrong file given as input (a link to a
 *  private file, a binary) is never echoed into the log at length. */
export const q = (value: string) => (value.length > 60 ? `${JSON.stringify(value.slice(0, 60))}… (${value.length} characters)` : JSON.stringify(value));
/** An id or file name inside a message: as it is when it is plain, else quoted. */
export const plain = (value: string) => (/^[A-Za-z0-9._-]+$/.test(value) ? value : q(value));

interface ReadOptions {
  /** The release folder: links and special files are checked against it (files.ts). */
  folder?: ReleaseFolder;
  /** What the file is: its size limit, and for csv the line ends people's tools write. */
  kind?: FileKind;
}

/** Reads a text file as strict UTF-8 with \n line ends and no BOM (matrices.csv: see csvText). */
export function readText(file: string, shown: string, problems: ProblemList, options: ReadOptions = {}): string | null {
  const kind = options.kind ?? 'other';
  // A loader without the release folder at hand still refuses special files and caps the size.
  const folder = options.folder ?? new ReleaseFolder(path.dirname(file));
  const read = folder.read(file, SIZE_LIMITS[kind]);
  if (!('bytes' in read)) {
    // A folder named like a file, a dangling link, a FIFO, a file without read permission.
    problems.add(shown, 1, `the file ${read.why}`, read.fix);
    return null;
  }
  let bytes = read.bytes;
  let ok = true;
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    if (kind === 'csv') {
      // A spreadsheet's "CSV UTF-8": the BOM says nothing the file does not.
      bytes = bytes.subarray(3);
    } else {
      problems.add(shown, 1, 'the file starts with a byte order mark (BOM)', 'save it as UTF-8 without BOM');
      ok = false;
    }
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    const line = lineOfFirstInvalidUtf8(bytes);
    problems.add(shown, line, 'the file is not valid UTF-8 (Latin-1 or binary bytes?)', 'convert it to UTF-8');
    return null;
  }
  if (kind === 'csv') {
    const lf = csvText(text, shown, problems);
    return ok && lf !== null ? lf : null;
  }
  const cr = text.indexOf('\r');
  if (cr >= 0) {
    const line = text.slice(0, cr).split('\n').length;
    problems.add(shown, line, 'Windows (CRLF) or old Mac (CR) line endings', 'convert the line endings to \\n (e.g. dos2unix)');
    ok = false;
  }
  return ok ? text : null;
}

/**
 * matrices.csv as if it had \n line ends. Python's csv module (RFC 4180)
 * and spreadsheets write CRLF: a file whose every line ends in CRLF reads
 * exactly as the same file with LF. Refused, because no reading is the
 * obvious one: a file that mixes CRLF and LF (edited by two tools; the
 * report names the first line that differs from line 1), and a CR not
 * followed by LF (old Mac line ends, or a CR inside a cell).
 */
function csvText(text: string, shown: string, problems: ProblemList): string | null {
  const firstLf = text.indexOf('\n');
  const crlf = firstLf > 0 && text[firstLf - 1] === '\r';
  const lineAt = (offset: number) => text.slice(0, offset).split('\n').length;
  for (let i = text.indexOf('\r'); i >= 0; i = text.indexOf('\r', i + 1)) {
    if (text[i + 1] !== '\n') {
      problems.add(shown, lineAt(i), 'a carriage return (CR) that does not end a line (old Mac line ends, or a CR inside a cell)', 'end every line with \\n or every line with \\r\\n, and remove CRs from cells');
      return null;
    }
    if (!crlf) {
      problems.add(shown, lineAt(i), 'this line ends with CRLF where line 1 ends with LF (mixed line ends)', 'use one kind of line end in the whole file (e.g. dos2unix)');
      return null;
    }
  }
  if (!crlf) return text;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) {
    if (text[i - 1] !== '\r') {
      problems.add(shown, lineAt(i), 'this line ends with LF where line 1 ends with CRLF (mixed line ends)', 'use one kind of line end in the whole file (e.g. dos2unix)');
      return null;
    }
  }
  return text.replace(/\r\n/g, '\n');
}

function lineOfFirstInvalidUtf8(bytes: Buffer): number {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let line = 1;
  let start = 0;
  for (let i = 0; i <= bytes.length; i++) {
    if (i === bytes.length || bytes[i] === 0x0a) {
      try {
        decoder.decode(bytes.subarray(start, i));
      } catch {
        return line;
      }
      line++;
      start = i + 1;
    }
  }
  return 1;
}

/** What is wrong with a count as written, or null. Exported for other input kinds (official/). */
export function countProblem(token: string): string | null {
  if (token.startsWith('-')) return 'is negative';
  if (/^(nan|inf|infinity)$/i.test(token.replace(/^\+/, ''))) return 'is not a finite number';
  if (!COUNT.test(token)) return 'is not a number';
  const value = Number(token);
  // Compared as written: 9007199254740993 is a double equal to 2^53.
  // (A double below 2^53 was written below it: rounding never crosses a representable number.)
  if (!Number.isFinite(value) || (value >= MAX_COUNT && aboveMaxCount(token))) return `is too large (counts above 2^53 = ${MAX_COUNT} are not exact)`;
  // "1e-400" is not zero, but a double would make it one.
  if (value === 0 && /[1-9]/.test(token.replace(/[eE].*$/, ''))) return 'is too small to be told from 0';
  return null;
}

/** Whether a decimal token (COUNT) is above 2^53, exactly, whatever its digits and exponent. */
export function aboveMaxCount(token: string): boolean {
  const m = /^([0-9]+)(?:\.([0-9]+))?(?:[eE]([+-]?[0-9]+))?$/.exec(token);
  if (!m) return false;
  const fraction = m[2] ?? '';
  const digits = (m[1] + fraction).replace(/^0+/, '');
  if (digits === '') return false;
  const exponent = Number(m[3] ?? '0') - fraction.length;
  // Number of digits before the point: 2^53 has 16.
  const magnitude = digits.length + exponent;
  if (magnitude > 16) return true;
  if (magnitude < 16) return false;
  const max = 2n ** 53n;
  return exponent >= 0 ? BigInt(digits) * 10n ** BigInt(exponent) > max : BigInt(digits) > max * 10n ** BigInt(-exponent);
}
