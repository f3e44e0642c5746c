// Problems found in a dataset. The loader collects all of them and the build
// fails once with the whole list, each with a location and a fix.

export interface Problem {
  file: string;
  line: number;
  message: string;
  fix: string;
}

export class DatasetError extends Error {
  constructor(readonly problems: Problem[]) {
    super(`the dataset has ${problems.length} problem${problems.length === 1 ? '' : 's'}:\n${formatProblems(problems)}`);
    this.name = 'DatasetError';
  }
}

export function formatProblems(problems: Problem[]): string {
  return problems.map((p) => `  ${p.file}:${p.line}: ${p.message} (fix: ${p.fix})`).join('\n');
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
