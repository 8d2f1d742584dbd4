import { describe, expect, it } from 'vitest';
import { rewriteLinkTargets } from './wikilinks';
import { leftOnlyVaultReading, movedFolder, movedTargets } from './wikilinks-move';

describe('movedFolder', () => {
  it('moves the folder and those below it, and nothing else', () => {
    expect(movedFolder('课程/操作系统', '课程/操作系统', '归档')).toBe('归档');
    expect(movedFolder('课程/操作系统/实验', '课程/操作系统', '归档/OS')).toBe('归档/OS/实验');
    expect(movedFolder('课程/操作系统2', '课程/操作系统', '归档')).toBeNull();
    expect(movedFolder('', '课程', '归档')).toBeNull();
  });
});

describe('movedTargets', () => {
  it('gives a full path the new full path, keeping the title as written and its .md', () => {
    expect(movedTargets('Courses/OS/Scheduling', 'Courses/OS', 'Archive/2024')).toEqual([
      'Archive/2024/Scheduling',
    ]);
    expect(movedTargets('courses/os/Scheduling.MD', 'Courses/OS', 'Archive')).toEqual([
      'Archive/Scheduling.MD',
    ]);
    expect(movedTargets(' 操作系统 / 进程调度.md', '操作系统', '课程/计算机')).toEqual([
      '课程/计算机/进程调度.md',
    ]);
    expect(movedTargets('/Courses/Scheduling', 'Courses', 'Archive')).toEqual(['/Archive/Scheduling']);
  });

  it('gives a shortest path the new folder’s last parts, shortest first', () => {
    expect(movedTargets('OS/Scheduling', 'Courses/OS', 'Archive/2024/Systems')).toEqual([
      'Systems/Scheduling',
      '2024/Systems/Scheduling',
      'Archive/2024/Systems/Scheduling',
    ]);
    expect(movedTargets('操作系统/进程调度', '课程/操作系统', '归档')).toEqual(['归档/进程调度']);
  });

  it('keeps the vault’s name first where the link starts with it', () => {
    expect(movedTargets('Vault/Courses/OS/Scheduling', 'Courses/OS', 'Archive')).toEqual([
      'Vault/Archive/Scheduling',
    ]);
    expect(movedTargets('Vault/OS/Scheduling', 'Courses/OS', 'Old/Systems')).toEqual([
      'Vault/Systems/Scheduling',
      'Vault/Old/Systems/Scheduling',
    ]);
    expect(movedTargets('Vault/Scheduling', '', 'Archive')).toEqual(['Vault/Archive/Scheduling']);
  });

  it('names the title alone, .md kept, for a note moved to the top', () => {
    expect(movedTargets('Courses/Scheduling', 'Courses', '')).toEqual(['Scheduling']);
    expect(movedTargets('OS/Scheduling.md', 'Courses/OS', '')).toEqual(['Scheduling.md']);
  });

  it('has nothing for links that name no folder, or folders that were not the note’s', () => {
    expect(movedTargets('Scheduling', 'Courses', 'Archive')).toEqual([]);
    expect(movedTargets('Scheduling.md', 'Courses', 'Archive')).toEqual([]);
    expect(movedTargets('Networks/Scheduling', 'Courses/OS', 'Archive')).toEqual([]);
    // A title with a `/` in it (a folder named like its first part elsewhere) is not this note's path.
    expect(movedTargets('TCP/IP', 'Networks', 'Archive')).toEqual([]);
  });
});

describe('leftOnlyVaultReading', () => {
  it('is true for a path that named the folder the note left and now opens it only as the vault’s name', () => {
    // `Courses` renamed: `Courses/OS/Note` now reads as "vault Courses, shortest path OS/Note".
    expect(leftOnlyVaultReading('Courses/OS/Note', 'Courses/OS', 'Archive/OS')).toBe(true);
    // A shortest path of a nested folder, and a note moved from its folder to the top.
    expect(leftOnlyVaultReading('courses/os/Note.md', 'School/Courses/OS', 'School/Old/OS')).toBe(true);
    expect(leftOnlyVaultReading('Courses/Note', 'Courses', '')).toBe(true);
  });

  it('is false while the folders still name the note’s place, when they never did, or name none', () => {
    expect(leftOnlyVaultReading('OS/Note', 'Courses/OS', 'Archive/OS')).toBe(false);
    // Opened through the vault reading before the move too: its first folder may be the vault’s name.
    expect(leftOnlyVaultReading('Courses/OS/Note', 'Courses/Year 1/OS', 'Archive/Year 1/OS')).toBe(false);
    // No longer opened at all: the plain move rule follows it.
    expect(leftOnlyVaultReading('Courses/Note', 'Courses', 'Archive')).toBe(false);
    expect(leftOnlyVaultReading('Note', 'Courses', '')).toBe(false);
    expect(leftOnlyVaultReading('Note.md', 'Courses', '')).toBe(false);
  });
});

describe('rewriteLinkTargets', () => {
  const next = (target: string) => (target.startsWith('操作系统/') ? `归档/${target.slice(5)}` : null);

  it('rewrites targets keeping headings, block ids and labels', () => {
    expect(
      rewriteLinkTargets(
        '见 [[操作系统/进程调度|调度]]、[[操作系统/进程调度.md#时间片]] 和 [[操作系统/进程调度#^b1|块]]。',
        next,
      ),
    ).toEqual({
      body: '见 [[归档/进程调度|调度]]、[[归档/进程调度.md#时间片]] 和 [[归档/进程调度#^b1|块]]。',
      count: 3,
    });
  });

  it('leaves the body as it is when no link changes, and links in code alone', () => {
    const body = '[[网络/进程调度]] [[#时间片]] `[[操作系统/进程调度]]`\n```\n[[操作系统/进程调度]]\n```';
    expect(rewriteLinkTargets(body, next)).toEqual({ body, count: 0 });
    expect(rewriteLinkTargets('[[操作系统/x]]', () => '操作系统/x')).toEqual({
      body: '[[操作系统/x]]',
      count: 0,
    });
  });
});
