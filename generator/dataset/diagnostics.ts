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

export class ProblemList {
  readonly items: Problem[] = [];
  add(file: string, line: number, message: string, fix: string): void {
    this.items.push({ file, line, message, fix });
  }
  get size(): number {
    return this.items.length;
  }
}
