import { describe, expect, it } from 'vitest';
import { folderRank, linkPath, retitleTarget } from './wikilinks-paths';

describe('linkPath', () => {
  it('reads folders and a title from Obsidian path links, .md left out', () => {
    expect(linkPath('操作系统/进程调度')).toEqual({ folders: ['操作系统'], title: '进程调度' });
    expect(linkPath(' Courses / OS /Scheduling.MD')).toEqual({
      folders: ['courses', 'os'],
      title: 'Scheduling',
    });
    expect(linkPath('/Top//Note.md')).toEqual({ folders: ['top'], title: 'Note' });
    expect(linkPath('进程调度.md')).toEqual({ folders: [], title: '进程调度' });
  });

  it('reads a plain title, or a path without a title, as no path', () => {
    expect(linkPath('进程调度')).toBeNull();
    expect(linkPath('Notes on md')).toBeNull();
    expect(linkPath('folder/')).toBeNull();
    expect(linkPath('.md')).toBeNull();
  });
});

describe('folderRank', () => {
  it('ranks the same folder, then its last parts, then a path that starts with the vault', () => {
    expect(folderRank(['操作系统'], '操作系统')).toBe(0);
    expect(folderRank(['os'], 'Courses/OS')).toBe(1);
    expect(folderRank(['courses', 'os'], 'Courses/OS')).toBe(0);
    expect(folderRank(['vault', '操作系统'], '操作系统')).toBe(2);
    expect(folderRank(['vault'], '')).toBe(2);
    expect(folderRank([], 'anywhere')).toBe(0);
  });

  it('does not match another folder, a part of a folder name, or a deeper path than the note has', () => {
    expect(folderRank(['网络'], '操作系统')).toBeNull();
    expect(folderRank(['os'], 'Courses/OS2')).toBeNull();
    expect(folderRank(['a', 'b', 'os'], 'OS')).toBeNull();
    expect(folderRank(['os', 'x'], '')).toBeNull();
  });
});

describe('retitleTarget', () => {
  it('keeps the folders and the .md as written', () => {
    expect(retitleTarget('操作系统/进程调度', 'CPU 调度')).toBe('操作系统/CPU 调度');
    expect(retitleTarget('Vault / OS/Old.MD', ' New ')).toBe('Vault / OS/New.MD');
    expect(retitleTarget('Old.md', 'New')).toBe('New.md');
  });
});
