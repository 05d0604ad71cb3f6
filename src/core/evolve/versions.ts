/** A version of the prompt under evolution: its body text, content hash and place in the lineage. */
import { sha256Hex } from '../random';

export interface Version {
  id: string;
  /** The prompt body (front matter excluded), with `\n` line endings. */
  text: string;
  /** Content hash of `text`: the cache key and the dedup key (A5). */
  hash: string;
  parentId: string | undefined;
}

export function contentHash(text: string): string {
  return sha256Hex(text).slice(0, 16);
}

export function makeVersion(id: string, text: string, parentId: string | undefined): Version {
  return { id, text, hash: contentHash(text), parentId };
}
