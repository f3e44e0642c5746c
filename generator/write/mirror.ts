// Writes the offline mirror that mirror/archive.ts produces: the archive's
// gzip members into a temporary file, the manifest's lines into another,
// the archive's own line appended, then both renamed into place. The
// temporary files sit at the site's root with names starting with "." (not
// part of the site, mirror/layout.ts) and are removed whatever happens. An
// unchanged site keeps the previous archive and manifest untouched.
import { createHash } from 'node:crypto';
import { closeSync, constants, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import { GZIP_LEVEL, WHOLE_SITE, archiveMembers, previousMirrorKept, scopeFiles, type ManifestSink, type MirrorOptions, type MirrorReport, type MirrorScope } from '../mirror/archive.ts';
import { ARCHIVE, ARCHIVE_SUM, MANIFEST, rel } from '../mirror/layout.ts';
import { manifestLine } from '../mirror/manifest.ts';
import { remove } from './files.ts';

export type { MirrorReport, MirrorOptions } from '../mirror/archive.ts';

/** A new file of the writer's (never an existing one, never through a link), written in large pieces. */
class TempFile implements ManifestSink {
  private readonly fd: number;
  private pending = '';
  private open = true;
  constructor(readonly file: string) {
    rmSync(file, { force: true });
    this.fd = openSync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o666);
  }
  write(text: string | Buffer): void {
    if (typeof text !== 'string') {
      this.flush();
      for (let offset = 0; offset < text.length; ) offset += writeSync(this.fd, text, offset);
      return;
    }
    this.pending += text;
    if (this.pending.length >= 1 << 16) this.flush();
  }
  private flush(): void {
    if (this.pending) writeSync(this.fd, this.pending);
    this.pending = '';
  }
  finish(): string {
    if (this.open) {
      this.flush();
      closeSync(this.fd);
      this.open = false;
    }
    return this.file;
  }
}

/** Writes (or keeps) the archive and the manifest of the site in outDir. */
export async function writeMirror(outDir: string, { level = GZIP_LEVEL, siteChanged = false, scope = WHOLE_SITE }: MirrorOptions = {}): Promise<MirrorReport> {
  const started = performance.now();
  const root = path.resolve(outDir);
  const files = scopeFiles(scope);
  const archiveFile = path.join(root, files.archive);
  const manifestFile = path.join(root, files.manifest);
  const temps: TempFile[] = [];
  const temp = (suffix: string) => {
    const t = new TempFile(path.join(root, `.mirror-${process.pid}.${suffix}`));
    temps.push(t);
    return t;
  };
  const done = (r: Omit<MirrorReport, 'seconds'>): MirrorReport => ({ ...r, seconds: (performance.now() - started) / 1000 });
  try {
    // An incremental build may leave the previous archive in place: keep it when nothing changed.
    if (!siteChanged) {
      const kept = await previousMirrorKept(root, temp('check.SHA256SUMS'), scope);
      if (kept) return done(kept);
    }
    mkdirSync(path.dirname(archiveFile), { recursive: true });
    const archive = temp('tar.gz');
    const manifest = temp('SHA256SUMS');
    const tarred = { files: 0, bytes: 0 };
    const compressed = createHash('sha256');
    let archiveBytes = 0;
    for await (const member of archiveMembers(root, manifest, tarred, level, scope)) {
      compressed.update(member);
      archiveBytes += member.length;
      archive.write(member);
    }
    archive.finish();
    const archiveSha256 = compressed.digest('hex');
    manifest.finish();
    // The archive's checksum, named as it lies beside it: sha256sum -c in the download folder.
    const sum = temp('tar.gz.sha256');
    sum.write(manifestLine(path.basename(archiveFile), archiveSha256));
    sum.finish();
    renameSync(archive.file, archiveFile);
    renameSync(manifest.file, manifestFile);
    renameSync(sum.file, path.join(root, files.sum));
    return done({ files: tarred.files, bytes: tarred.bytes, archiveBytes, archiveSha256, written: true });
  } finally {
    for (const t of temps) {
      t.finish();
      rmSync(t.file, { force: true });
    }
  }
}

/** A compact build has no mirror: a full build's archives and manifests left in the folder go (they are this step's files). */
export function removeMirror(outDir: string, scopes: readonly MirrorScope[] = [WHOLE_SITE]): void {
  for (const scope of scopes) for (const file of Object.values(scopeFiles(scope))) remove(outDir, file);
}
