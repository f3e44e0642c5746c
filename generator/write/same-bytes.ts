// Files of one build with the same bytes, made one inode (hard links).
//
// 109,827 of the shipped site's 285,403 files (175 MB) hold the bytes of
// another file of the same build: a first page and its folder's index, a
// species and its tax_id list, the 22,301 empty text formats of empty lists,
// a release's unchanged formats under releases/2026. On ext4 without a
// journal a new file cost 55-160 µs of kernel time here, a hard link 13 µs.
// So the writer makes a file whose bytes a file of this build already holds
// a link to that file (files.ts writeIfChanged) instead of a new one.
//
// Identity is the bytes' SHA-256, all 256 bits: equal digests are taken for
// equal bytes (no collision of SHA-256 is known; finding one is about 2^128
// work), and the bytes are not read back to compare. Only files of at most
// LINKED_MAX bytes are hashed: measured on the full build, the files under
// 1 KiB are 54% duplicates (91,575 of 168,806), those of 1-16 KiB 18%
// (17,311 of 95,598), those of 16-256 KiB 4% (892 of 20,711, 609 MB to
// hash for them: about 0.5 s of CPU at the 1.3 GB/s SHA-256 runs at here,
// for about 0.1 s of kernel time saved).
//
// Which file of a group is first (the one the others link to) depends on
// the order the render workers hand files back, which varies; the groups
// do not: every file of these bytes written by this build is a name of the
// same inode, so the folder's bytes and its link structure are the same
// from build to build. Only where a link fails is a copy written, and it
// becomes the file the next ones link to (EMLINK: ext4 allows 65,000 names
// an inode; the site's largest group is 22,301 files): there, which paths
// share which inode can vary. The mirror archive stores repeated bytes as
// tar hard links by their hashes, whatever the inodes (mirror/archive.ts).
import { hash } from 'node:crypto';
import { linkSync } from 'node:fs';
import { DIGEST, DigestTable } from '../mirror/digest-table.ts';
import type { SiteRecords } from './records.ts';

/** Files larger than this are always written as files of their own (their bytes not hashed): see above. */
export const LINKED_MAX = 16 * 1024;

/** link(2) as the writer calls it: injectable, for the tests to make it fail as a file system may. */
export type LinkFunction = (existing: string, name: string) => void;

/** Errors after which this build tries no more links: the file system makes none (FAT, some network mounts). */
const NO_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS']);

/** The SHA-256 of a file of the site that the writer hashed as it wrote it in this build. */
export interface WrittenDigests {
  /** As hex, else undefined. */
  sha256(rel: string): string | undefined;
  /** By the file's slot in the build's records: where its digest's DIGEST bytes begin in digests, else -1. */
  at(slot: number): number;
  digests: Buffer;
}

/**
 * The first file of each bytes written (or found already holding them) in
 * this build, by the bytes' digest: its slot in the build's records (which
 * hold its inode). As columns, about 44 bytes a distinct file (its digest's
 * 32 in one array, a slot, a place in the table): the shipped site has
 * 155,521 distinct files of at most LINKED_MAX bytes, 6.8 MB here, where a
 * Map of digests as strings would be about three times that.
 */
export class SameBytes {
  /** Each distinct bytes' digest, with the slot of the file the others link to. */
  private readonly held = new DigestTable();
  /** The digest of the bytes last looked up (find), the index of its first file (-1: none), and whether linking to it failed. */
  private digest: Buffer | null = null;
  private found = -1;
  private linkFailed = false;
  /** False once the file system refused a link for good (NO_LINKS). */
  private linking = true;
  /** Each file's digest by its slot in the records (index + 1; 0: not hashed here), for the mirror step (written()). */
  private bySlot = new Int32Array(1024);

  constructor(private readonly records: SiteRecords, private readonly root: string, readonly link: LinkFunction = linkSync) {}

  /**
   * The file of this build holding these bytes (its absolute path and inode), or null: too large to
   * look for, none yet, or links not made here. Remembers the bytes' digest for keep().
   */
  find(bytes: Buffer): { file: string; ino: number } | null {
    this.digest = null;
    this.found = -1;
    this.linkFailed = false;
    if (!this.linking || bytes.length > LINKED_MAX) return null;
    const digest = hash('sha256', bytes, 'buffer') as unknown as Buffer;
    this.digest = digest;
    this.found = this.held.find(digest);
    if (this.found < 0) return null;
    const slot = this.held.value(this.found);
    return { file: `${this.root}/${this.records.pathAt(slot)}`, ino: this.records.inoAt(slot) };
  }

  /**
   * The file of the bytes last looked up (find) lies at this slot (its inode recorded there), as a file of
   * its own (written, or found holding them): the one later files of these bytes link to, when there was
   * none or linking to the other failed (EMLINK: that inode has all the names it can).
   */
  keep(slot: number): void {
    const digest = this.digest;
    this.digest = null;
    if (digest === null) {
      if (slot < this.bySlot.length) this.bySlot[slot] = 0;
      return;
    }
    if (slot >= this.bySlot.length) {
      const grown = new Int32Array(Math.max(slot + 1, this.bySlot.length * 2));
      grown.set(this.bySlot);
      this.bySlot = grown;
    }
    if (this.found >= 0) {
      this.bySlot[slot] = this.found + 1;
      if (this.linkFailed) this.held.setValue(this.found, slot);
      return;
    }
    this.bySlot[slot] = this.held.add(digest, slot) + 1;
  }

  /** A link failed: a copy is written instead (and kept); after NO_LINKS errors no link is tried again this build. */
  failed(error: unknown): void {
    this.linkFailed = true;
    if (NO_LINKS.has((error as NodeJS.ErrnoException).code ?? '')) this.linking = false;
  }

  /**
   * The SHA-256 of the files this build wrote (or found holding their bytes) that were hashed here, by
   * their slot in the records: the mirror step takes them instead of hashing the files again, and knows a
   * file whose bytes an earlier file of its archive has without opening it (mirror/archive.ts). Measured
   * on the full build's two archives (scripts/archive-cpu.ts, three alternating runs at load): 11.5-12.3 s
   * of CPU (1.9-2.1 s system) without them, 10.4-10.9 s (1.3-1.4 s system) with. Kept through the
   * mirror step: the digests the render held already (32 bytes a distinct file, 4 a file by its slot),
   * without the table that finds them by their bytes.
   */
  written(): WrittenDigests {
    const { bySlot, records } = this;
    const digests = this.held.column();
    const at = (slot: number): number => {
      const i = slot < 0 || slot >= bySlot.length ? 0 : bySlot[slot];
      return i === 0 ? -1 : (i - 1) * DIGEST;
    };
    return {
      sha256(rel: string): string | undefined {
        const from = at(records.slot(rel, false));
        return from < 0 ? undefined : digests.toString('hex', from, from + DIGEST);
      },
      at,
      digests,
    };
  }
}
