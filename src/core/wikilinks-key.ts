/** How titles are compared: case, surrounding and repeated whitespace do not matter. */
export function linkKey(title: string): string {
  return title.trim().replace(/\s+/g, ' ').toLocaleLowerCase();
}
