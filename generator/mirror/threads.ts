// Threads started from code as text (the build runs from a bundle and tests from tsx, so a thread
// cannot be started from a file of its own). The code is CommonJS; a thread inherits its process's
// Node options, and one started with --input-type=module (node -e of a test or a script) or
// --experimental-default-type=module would read it as a module, where require is not defined.
// mirror/ is the lowest folder that starts threads; pipeline/ and write/ use this too.
import { Worker, type WorkerOptions } from 'node:worker_threads';

const MODULE_DEFAULT = /^--(input-type|experimental-default-type)(=|$)/;

/** A worker thread running code (CommonJS), with its process's Node options but those that would make it a module. */
export function codeThread(code: string, options: Omit<WorkerOptions, 'eval' | 'execArgv'> = {}): Worker {
  const given = process.execArgv;
  // None of those: the thread inherits its process's options (an execArgv given is checked, and V8's and
  // the process's own, such as --perf-basic-prof or --trace-gc for a profile of a build, are refused there).
  if (!given.some((a) => MODULE_DEFAULT.test(a))) return new Worker(code, { ...options, eval: true });
  const execArgv: string[] = [];
  for (let i = 0; i < given.length; i++) {
    const m = MODULE_DEFAULT.exec(given[i]);
    if (m === null) execArgv.push(given[i]);
    else if (m[2] === '') i++; // the value given as the next argument
  }
  return new Worker(code, { ...options, eval: true, execArgv });
}
