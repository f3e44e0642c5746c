// The archive pass's reads made ahead (mirror/prefetch.ts): which places it asks for, that its thread opens
// and reads the files it is sent (a FIFO shows it: opened for writing without blocking only while a reader has it),
// and the bytes it hands over (take).
import { execFileSync } from 'node:child_process';
import { closeSync, constants, linkSync, mkdtempSync, openSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Prefetch } from '../../generator/mirror/prefetch.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('Prefetch', () => {
  it('asks for the places after the one reached, a window ahead, each once', () => {
    const asked: number[] = [];
    const ahead = new Prefetch(5000, (k) => (asked.push(k), null));
    try {
      ahead.reach(0);
      const sent = asked.length;
      expect(asked).toEqual(asked.map((_, i) => i + 1));
      expect(sent).toBeGreaterThanOrEqual(1024);
      expect(sent).toBeLessThan(4096);
      // Ten places on: at most a batch more.
      ahead.reach(10);
      expect(asked.length - sent).toBeLessThanOrEqual(256);
      const before = asked.length;
      ahead.reach(4990);
      // Places the pass went past unsent are not asked; none is asked twice, none past the end.
      expect(asked[before]).toBe(4991);
      expect(new Set(asked).size).toBe(asked.length);
      expect(Math.max(...asked)).toBe(4999);
    } finally {
      ahead.close();
    }
  });

  it('opens and reads a file it is sent on its own thread, and leaves one the pass has reached', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'prefetch-'));
    dirs.push(dir);
    const fifo = path.join(dir, 'fifo');
    const passed = path.join(dir, 'passed');
    execFileSync('mkfifo', [fifo]);
    execFileSync('mkfifo', [passed]);
    const files = [passed, passed, fifo];
    const ahead = new Prefetch(files.length, (k) => files[k]);
    // A writer opens a FIFO without blocking only once a reader has it open (else ENXIO).
    const writer = async (file: string, ms: number): Promise<number | null> => {
      for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 20))) {
        try {
          return openSync(file, constants.O_WRONLY | constants.O_NONBLOCK);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ENXIO') throw error;
        }
      }
      return null;
    };
    try {
      // The pass is at place 1: place 1 (passed) is its own; place 2 (the FIFO) is read ahead.
      ahead.reach(1);
      const fd = await writer(fifo, 20_000);
      expect(fd).not.toBeNull();
      writeSync(fd!, 'bytes');
      closeSync(fd!);
      expect(await writer(passed, 300)).toBeNull();
    } finally {
      ahead.close();
    }
  });

  it('hands over the bytes and fstat of each file it read, in order, through more bytes than its ring holds', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'prefetch-'));
    dirs.push(dir);
    // 400 files of 1-120 kB (about 24 MB: the ring, 16 MB, is read over), a hard link, one of 128 KiB (the pass's
    // own), an empty one, one missing and a place sent as none (null).
    const files: (string | null)[] = [];
    const contents = new Map<number, Buffer>();
    for (let i = 0; i < 400; i++) {
      const file = path.join(dir, `f${i}`);
      const bytes = Buffer.alloc(1000 + ((i * 7919) % 120) * 1000, `file ${i} `);
      writeFileSync(file, bytes);
      contents.set(files.push(file) - 1, bytes);
    }
    linkSync(files[3]!, path.join(dir, 'link'));
    contents.set(files.push(path.join(dir, 'link')) - 1, contents.get(3)!);
    writeFileSync(path.join(dir, 'large'), Buffer.alloc(128 * 1024, 'x'));
    const large = files.push(path.join(dir, 'large')) - 1;
    writeFileSync(path.join(dir, 'empty'), '');
    contents.set(files.push(path.join(dir, 'empty')) - 1, Buffer.alloc(0));
    const missing = files.push(path.join(dir, 'missing')) - 1;
    const none = files.push(null) - 1;
    const ahead = new Prefetch(files.length, (k) => files[k]);
    try {
      let handed = 0;
      for (let place = 0; place < files.length; place++) {
        ahead.reach(place);
        // Give the thread time to be ahead now and then (else the pass takes files itself, which is right too).
        if (place % 50 === 0) await new Promise((r) => setTimeout(r, 200));
        const taken = ahead.take(place);
        if (place === large || place === missing || place === none) {
          expect(taken).toBeNull();
          continue;
        }
        if (taken === null) continue;
        handed++;
        expect(Buffer.compare(taken.content, contents.get(place)!)).toBe(0);
        const st = statSync(files[place]!);
        expect([taken.dev, taken.ino, taken.nlink]).toEqual([st.dev, st.ino, st.nlink]);
        // Taken once: the second time the pass reads it itself.
        expect(ahead.take(place)).toBeNull();
        ahead.release(place + 1);
      }
      expect(handed).toBeGreaterThan(300);
    } finally {
      ahead.close();
    }
  });
});
