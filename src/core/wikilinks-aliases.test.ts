import { describe, expect, it } from 'vitest';
import { noteAliases } from './wikilinks-aliases';

describe('noteAliases', () => {
  it('reads a list, one name, and the older `alias` key', () => {
    expect(noteAliases('---\naliases: [Home, 首页]\n---\nbody')).toEqual(['Home', '首页']);
    expect(noteAliases('---\naliases:\n  - Start\n  - 2024\n---\n')).toEqual(['Start', '2024']);
    expect(noteAliases('---\naliases: Home\n---\n')).toEqual(['Home']);
    expect(noteAliases('---\nalias: Old name\n---\n')).toEqual(['Old name']);
  });

  it('names none without front matter, with broken YAML or with empty values', () => {
    expect(noteAliases('aliases: [Home]')).toEqual([]);
    expect(noteAliases('---\naliases: [Home\n---\n')).toEqual([]);
    expect(noteAliases('---\naliases: []\nalias: ""\n---\n')).toEqual([]);
    expect(noteAliases('---\naliases: [{a: 1}, " "]\n---\n')).toEqual([]);
  });
});
