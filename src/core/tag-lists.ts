/** Whether two tag lists are the same tags in the same order (the order is the note's). */
export function sameTags(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((tag, index) => tag === b[index]);
}
