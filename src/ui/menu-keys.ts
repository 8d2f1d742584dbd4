/**
 * Arrow-key movement inside a `role="menu"`, as the WAI-ARIA menu pattern has it:
 * Down and Up step through the items and wrap, Home and End jump to the ends.
 * Returns the item to focus, or null when the key is not one of these.
 */
export function menuKeyTarget(
  key: string,
  items: readonly HTMLElement[],
  active: Element | null,
): HTMLElement | null {
  if (items.length === 0) return null;
  const index = items.indexOf(active as HTMLElement);
  switch (key) {
    case 'ArrowDown':
      return items[(index + 1) % items.length] ?? null;
    case 'ArrowUp':
      // From outside the menu (index -1) Up enters at the last item.
      return items[index < 0 ? items.length - 1 : (index - 1 + items.length) % items.length] ?? null;
    case 'Home':
      return items[0] ?? null;
    case 'End':
      return items[items.length - 1] ?? null;
    default:
      return null;
  }
}

/** The menu's items, in document order. */
export function menuItems(root: HTMLElement | null | undefined): HTMLElement[] {
  return root ? [...root.querySelectorAll<HTMLElement>('[role="menuitem"]')] : [];
}

interface Size {
  width: number;
  height: number;
}

/**
 * Where the menu's corner goes: at the point asked, moved back so the whole menu
 * stays in the window (a phone's narrow screen, an item near the bottom).
 */
export function menuPlacement(
  x: number,
  y: number,
  menu: Size,
  viewport: Size,
  margin = 8,
): { x: number; y: number } {
  const fit = (at: number, size: number, room: number): number =>
    Math.max(margin, Math.min(at, room - size - margin));
  return { x: fit(x, menu.width, viewport.width), y: fit(y, menu.height, viewport.height) };
}
