// Site files opened without updating their access time, by the mirror's reads (archive.ts), its threads' (gzip.ts,
// prefetch.ts: OPEN_NO_ATIME_CODE) and a rebuild's compare (write/files.ts).
import { constants, openSync } from 'node:fs';

/**
 * Site files are opened without updating their access time (O_NOATIME, Linux; 0 elsewhere). The file
 * system is mounted relatime here, as by default on Linux: the first read of a file since it was written
 * sets its atime, which dirties its inode, and a full build reads back about 200,000 files it has just
 * written. Measured on 30,000 new files of 4 kB read once each, blocks of 1,000 alternated (four runs):
 * 4.9-5.4 us of CPU a file (open, read, close), 4.2-4.5 us with O_NOATIME, almost all of it kernel time.
 * A rebuild's compare asks it too: the mirror's reads no longer set the atime, so the compare would be the
 * first read of every file it compares. Only the file's owner (or a process allowed CAP_FOWNER) may ask it:
 * refused once (EPERM: a folder of another user's files), files are opened as before for the rest of the process.
 */
let noAtime: number = constants.O_NOATIME ?? 0;

/** openSync(file, flags) with O_NOATIME while the process may ask it; any other failure is thrown. */
export function openNoAtime(file: string, flags: number): number {
  if (noAtime !== 0) {
    try {
      return openSync(file, flags | noAtime);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EPERM') throw error;
      noAtime = 0;
    }
  }
  return openSync(file, flags);
}

/** openNoAtime for a thread's code (CommonJS text, threads.ts: a thread cannot load this module), defining `openNoAtime(file, flags)` there. */
export const OPEN_NO_ATIME_CODE = `const openNoAtime = (() => {
  const { constants, openSync } = require('node:fs');
  let noAtime = constants.O_NOATIME || 0;
  return (file, flags) => {
    if (noAtime !== 0) {
      try {
        return openSync(file, flags | noAtime);
      } catch (error) {
        if (error.code !== 'EPERM') throw error;
        noAtime = 0;
      }
    }
    return openSync(file, flags);
  };
})();`;
