/** The last segment of a path, POSIX or Windows: how runs are named in lists, messages and the panel (the path itself goes in a tooltip). */
export function fileName(path: string): string {
  return path.split(/[\\/]/).filter(Boolean).at(-1) ?? path;
}
