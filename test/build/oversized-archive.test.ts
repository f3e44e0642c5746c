// A build whose archive is over GitHub's limit a file says so in its notes (the CLI prints them), naming the file and its size.
import { describe, expect, it } from 'vitest';
import { GITHUB_FILE_LIMIT, oversizedArchive } from '../../generator/build.ts';

describe('archive over GitHub\'s limit a file', () => {
  it('is named with its size and what to do, and an archive at the limit is not', () => {
    expect(oversizedArchive('download/JASPAR2024_mirror.tar.gz', GITHUB_FILE_LIMIT)).toBeNull();
    const note = oversizedArchive('download/JASPAR2024_mirror.tar.gz', 912_345_678);
    expect(note).toContain('download/JASPAR2024_mirror.tar.gz is 912.3 MB, over the 100 MB a file GitHub accepts');
    expect(note).toContain('release asset');
  });
});
