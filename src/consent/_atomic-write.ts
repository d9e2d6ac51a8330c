// Replace a file atomically: write a uniquely named temp file in the same directory (so rename
// stays on one filesystem), flush it, then rename over the target. Readers see the old file or
// the new one, never half of either; the temp file is removed on any failure.

import { randomBytes } from 'node:crypto';
import { chmod, open, rename, unlink } from 'node:fs/promises';
import path from 'node:path';

export async function writeFileAtomic(file: string, data: string, mode: number): Promise<void> {
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  let created = false;
  try {
    const fh = await open(tmp, 'wx', mode);
    created = true;
    try {
      await fh.writeFile(data, 'utf8');
      await fh.sync();
    } finally {
      await fh.close();
    }
    // open()'s mode is filtered by the umask; the target mode is a promise to the user.
    await chmod(tmp, mode);
    await rename(tmp, file);
    created = false;
  } finally {
    if (created) await unlink(tmp).catch(() => undefined);
  }
}
