// Flags → build(options); nothing else.
import { parseArgs } from 'node:util';
import path from 'node:path';
import { DEFAULT_BASE_URL, PROFILES, build, shippedReleases, type Profile } from './build.ts';
import { DatasetError } from './dataset/diagnostics.ts';
import { OutFolderError } from './write/guard.ts';
import { interrupted } from './write/state.ts';
import { LINK_STYLES, type LinkStyle } from './routes/urls.ts';

const HELP = `Usage: npm run build -- [--data DIR] [--out DIR] [--base-url URL] [--release FILE] [--profile full|compact] [--links query|path]

  --data DIR       JASPAR release folder (matrices.csv, matrices/, sites/, pfm_noninteger.json),
                   or a folder of JASPAR's download files (JASPAR<year>_…_pfms_{jaspar,transfac,meme}.txt,
                   ultimate_metadata_table_CORE.tsv, <matrix_id>.bed); give it once per release:
                   one site answers release=<year> for each
                   default: $JASPAR_DATA (folders joined by "${path.delimiter}"), else every
                   data/jaspar-<year> folder shipped here (JASPAR 2024 and 2026)
  --out DIR        where the site is written: a new or empty folder, or a previous build's output
                   (updated in place); anything else is refused   default: public
  --base-url URL   absolute URL the site is served from, used in every body
                   default: $BASE_URL, else Netlify's $URL during a Netlify build, else ${DEFAULT_BASE_URL}
  --release FILE   release description (YAML)   default: data/release-<year>.yaml for JASPAR's download
                   files of that year, else data/release-2024.yaml
  --profile P      full: every file (default); compact: only what the edge handler cannot render
                   from its indexes (Cloudflare's 20,000-file limit: serve it with the Worker,
                   npm run serve -- --server cloudflare; no mirror archive)
  --links L        how bodies link: query (default): the service's query URLs (next, previous, url, …);
                   path: the files that answer them (…/matrix/page/2/index.json), for hosts that
                   ignore query strings (http-server, GitHub Pages, S3); bodies then differ from the service's
`;

async function main(): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        data: { type: 'string', multiple: true },
        out: { type: 'string' },
        'base-url': { type: 'string' },
        release: { type: 'string' },
        profile: { type: 'string', default: 'full' },
        links: { type: 'string', default: 'query' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }));
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n\n${HELP}`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  if (!(PROFILES as readonly string[]).includes(values.profile!)) {
    process.stderr.write(`--profile must be one of ${PROFILES.join(', ')} (got "${values.profile}")\n\n${HELP}`);
    return 2;
  }
  if (!(LINK_STYLES as readonly string[]).includes(values.links!)) {
    process.stderr.write(`--links must be one of ${LINK_STYLES.join(', ')} (got "${values.links}")\n\n${HELP}`);
    return 2;
  }
  const env = process.env;
  // Several --data folders (or JASPAR_DATA with folders joined by "${path.delimiter}"): one site, one release each.
  const dataDir = (values.data ?? env.JASPAR_DATA?.split(path.delimiter).filter((d) => d !== '') ?? shippedReleases()).map((d) => path.resolve(d));
  if (dataDir.length === 0) {
    // JASPAR_DATA set to separators alone: the build would have no release to read (it failed deep inside).
    process.stderr.write(`JASPAR_DATA ${JSON.stringify(env.JASPAR_DATA)} names no release folder (fix: unset it, or give folders joined by "${path.delimiter}")\n\n${HELP}`);
    return 2;
  }
  const options = {
    dataDir,
    outDir: path.resolve(values.out ?? 'public'),
    baseUrl: values['base-url'] ?? env.BASE_URL ?? (env.NETLIFY === 'true' ? env.URL : undefined) ?? DEFAULT_BASE_URL,
    releaseFile: values.release === undefined ? undefined : path.resolve(values.release),
    profile: values.profile as Profile,
    links: values.links as LinkStyle,
  };
  try {
    const r = await build({ ...options, progress: true });
    const mb = (r.bytes / 1e6).toFixed(1);
    // One line, terminal or CI; a terminal also saw the progress line while it ran.
    const changed = r.upToDate ? 'up to date, nothing written' : `${r.written} written, ${r.removed} removed, the rest unchanged`;
    for (const note of r.notes ?? []) process.stdout.write(`note: ${note}\n`);
    // A site of several releases says how many matrices each holds and which one URLs without release= answer.
    const releases = r.releases.length > 1 ? ` (${r.releases.map((x) => `${x.year}${x.default ? ', the default' : ''}: ${x.matrices}`).join('; ')})` : '';
    process.stdout.write(`built ${r.matrices} matrices${releases}, ${r.listPages} list pages: ${r.files} files (${changed}), ${mb} MB, ${r.rules} redirect rules${options.profile === 'compact' ? ' (compact profile)' : ''}${options.links === 'path' ? ' (bodies link by path)' : ''} in ${r.seconds.toFixed(1)} s → ${path.relative(process.cwd(), options.outDir) || '.'} (base URL ${options.baseUrl})\n`);
    return 0;
  } catch (error) {
    if (error instanceof DatasetError || error instanceof OutFolderError) {
      process.stderr.write(`build stopped: ${error.message}\nNothing was written; ${path.relative(process.cwd(), options.outDir) || options.outDir} is unchanged.\n`);
      return 1;
    }
    process.stderr.write(`build failed: ${(error as Error).message}\n`);
    if (interrupted(options.outDir)) {
      process.stderr.write(`${path.relative(process.cwd(), options.outDir) || options.outDir} may be half updated: do not publish it; the next build checks and rewrites every file.\n`);
    }
    return 1;
  }
}

// exitCode, not process.exit(): exit() ends the process before a piped
// stderr has taken the whole report (it was cut at 64-128 KiB, issue 15.7).
main().then((code) => {
  process.exitCode = code;
}, (error) => {
  process.stderr.write(`build failed: ${(error as Error).stack ?? error}\n`);
  process.exitCode = 1;
});
