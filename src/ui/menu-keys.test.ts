// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { menuItems, menuKeyTarget, menuPlacement } from './menu-keys';

function menu(): HTMLElement[] {
  document.body.innerHTML =
    '<div id="m" role="menu"><button role="menuitem">A</button><select></select><button role="menuitem">B</button><button role="menuitem">C</button></div>';
  return menuItems(document.getElementById('m'));
}

describe('menuKeyTarget', () => {
  it('steps with the arrows, wrapping at both ends, and skips what is not an item', () => {
    const [a, b, c] = menu();
    expect(menuKeyTarget('ArrowDown', [a!, b!, c!], a!)).toBe(b);
    expect(menuKeyTarget('ArrowDown', [a!, b!, c!], c!)).toBe(a);
    expect(menuKeyTarget('ArrowUp', [a!, b!, c!], a!)).toBe(c);
  });

  it('jumps to the ends, enters from outside at the first or last item, and ignores other keys', () => {
    const items = menu();
    expect(menuKeyTarget('Home', items, items[2]!)).toBe(items[0]);
    expect(menuKeyTarget('End', items, items[0]!)).toBe(items[2]);
    expect(menuKeyTarget('ArrowDown', items, document.body)).toBe(items[0]);
    expect(menuKeyTarget('ArrowUp', items, document.body)).toBe(items[2]);
    expect(menuKeyTarget('Enter', items, items[0]!)).toBeNull();
    expect(menuKeyTarget('ArrowDown', [], null)).toBeNull();
  });

  it('keeps the menu inside the window', () => {
    const menu = { width: 180, height: 150 };
    expect(menuPlacement(100, 100, menu, { width: 1280, height: 800 })).toEqual({ x: 100, y: 100 });
    expect(menuPlacement(300, 800, menu, { width: 390, height: 844 })).toEqual({ x: 202, y: 686 });
    expect(menuPlacement(-5, 2, menu, { width: 390, height: 844 })).toEqual({ x: 8, y: 8 });
  });
});
