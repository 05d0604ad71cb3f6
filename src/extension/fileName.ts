/** The last segment of a path, POSIX or Windows: how runs are named in lists and messages. */
export function fileName(path: string): string {
  return path.split(/[\\/]/).at(-1) ?? path;
}
