// Reads a .tar.gz as a stream, member by member, without unpacking it to
// disk: the checks of the full site's archive (hundreds of MB unpacked)
// stay fast. Understands what generator/mirror/tar.ts writes: ustar headers,
// the prefix field, pax "path" and "linkpath" records, hard links (type "1").
import { createReadStream } from 'node:fs';
import { createGunzip } from 'node:zlib';

export interface Member {
  path: string;
  type: string;
  mode: number;
  uid: number;
  gid: number;
  mtime: number;
  content: Buffer;
  /** A hard link's target (type "1"; its content is empty). */
  linkname: string;
}

const field = (h: Buffer, start: number, length: number) => h.subarray(start, start + length).toString('utf8').replace(/\0.*$/s, '');
const octal = (h: Buffer, start: number, length: number) => parseInt(field(h, start, length).trim() || '0', 8);

export async function readArchive(file: string, each: (member: Member) => void): Promise<void> {
  let pending: Buffer = Buffer.alloc(0);
  let paxPath: string | null = null;
  let paxLink: string | null = null;
  let ended = false;
  for await (const chunk of createReadStream(file).pipe(createGunzip())) {
    pending = pending.length ? Buffer.concat([pending, chunk as Buffer]) : (chunk as Buffer);
    while (!ended && pending.length >= 512) {
      const h = pending.subarray(0, 512);
      if (h.every((b) => b === 0)) {
        ended = true;
        break;
      }
      const size = octal(h, 124, 12);
      const total = 512 + Math.ceil(size / 512) * 512;
      if (pending.length < total) break;
      const content = Buffer.from(pending.subarray(512, 512 + size));
      const type = String.fromCharCode(h[156]);
      pending = pending.subarray(total);
      if (type === 'x') {
        const match = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(content.toString('utf8'));
        paxPath = match ? match[1] : null;
        const link = /(?:^|\n)\d+ linkpath=([^\n]*)\n/.exec(content.toString('utf8'));
        paxLink = link ? link[1] : null;
        continue;
      }
      const prefix = field(h, 345, 155);
      const name = field(h, 0, 100);
      each({ path: paxPath ?? (prefix ? `${prefix}/${name}` : name), type, mode: octal(h, 100, 8), uid: octal(h, 108, 8), gid: octal(h, 116, 8), mtime: octal(h, 136, 12), content, linkname: paxLink ?? field(h, 157, 100) });
      paxPath = null;
      paxLink = null;
    }
  }
  if (!ended) throw new Error(`${file}: no end-of-archive blocks`);
}
