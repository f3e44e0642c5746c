// Problems found in a dataset. The loader collects all of them and the build
// fails once with the whole list, each with a location and a fix.
import { grouped } from './numbers.ts';

export interface Problem {
  file: string;
  line: number;
  message: string;
  fix: string;
}

export class DatasetError extends Error {
  constructor(readonly problems: Problem[]) {
    const { note, text } = summarise(problems, PER_KIND);
    super(`the dataset has ${count(problems.length)} problem${problems.length === 1 ? '' : 's'}${note}:\n${text}`);
    this.name = 'DatasetError';
  }
}

/** Problems of one kind listed before the rest are counted: a release with 200,000 bad rows gives a report a person reads (and a pipe takes) whole. */
export const PER_KIND = 50;

const count = grouped;
const line = (p: Problem) => `  ${p.file}${p.line > 0 ? `:${p.line}` : ''}: ${p.message} (fix: ${p.fix})`;

export function formatProblems(problems: Problem[]): string {
  return problems.map(line).join('\n');
}

/** The kind of a problem: its message without quoted values and numbers (ids, lines, counts). */
export function kindOf(p: Problem): string {
  return p.message.replace(/"(?:[^"\\]|\\.)*"/g, '"…"').replace(/[0-9]+/g, 'N');
}

/**
 * The report in the problems' order, at most perKind problems of each kind;
 * after the last one listed of a kind, how many more there are like it.
 */
export function summariseProblems(problems: Problem[], perKind = PER_KIND): string {
  return summarise(problems, perKind).text;
}

/** The report, and the note on the kinds when some kind is cut short; each problem's kind worked out once. */
function summarise(problems: Problem[], perKind: number): { note: string; text: string } {
  const kindsOf = problems.map(kindOf);
  const total = new Map<string, number>();
  for (const k of kindsOf) total.set(k, (total.get(k) ?? 0) + 1);
  const shown = new Map<string, number>();
  const out: string[] = [];
  problems.forEach((p, i) => {
    const k = kindsOf[i];
    const n = (shown.get(k) ?? 0) + 1;
    shown.set(k, n);
    if (n > perKind) return;
    out.push(line(p));
    const rest = total.get(k)! - perKind;
    if (n === perKind && rest > 0) out.push(`  … and ${count(rest)} more like this`);
  });
  const cut = [...total.values()].some((n) => n > perKind);
  const note = cut ? ` of ${count(total.size)} kind${total.size === 1 ? '' : 's'} (the first ${perKind} of each kind listed)` : '';
  return { note, text: out.join('\n') };
}

/** Escapes what could break a line of the report (a raw newline from a
 *  parser's message, a file name with a tab…), as JSON would. */
export function oneLine(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, (c) => {
    const named: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };
    return named[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
}

export class ProblemList {
  readonly items: Problem[] = [];
  add(file: string, line: number, message: string, fix: string): void {
    this.items.push({ file: oneLine(file), line: Number.isInteger(line) && line >= 1 ? line : 1, message: oneLine(message), fix: oneLine(fix) });
  }
  get size(): number {
    return this.items.length;
  }
}
