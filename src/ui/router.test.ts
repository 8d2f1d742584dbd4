import { describe, expect, it } from 'vitest';
import {
  HOME,
  formatRoute,
  isRouteHash,
  notesRoute,
  parseRoute,
  routeNoteId,
  sameRoute,
  type Route,
} from './router';
import { wikilinkHref } from './markdown/wikilink-plugin';

describe('parseRoute', () => {
  it('reads every view', () => {
    expect(parseRoute('#/notes')).toEqual(HOME);
    expect(parseRoute('#/notes/note_1')).toEqual(notesRoute({ noteId: 'note_1' }));
    expect(parseRoute('#/trash')).toEqual({ view: 'trash', noteId: null });
    expect(parseRoute('#/trash/note_2')).toEqual({ view: 'trash', noteId: 'note_2' });
    expect(parseRoute('#/search?q=kuber')).toEqual({ view: 'search', query: 'kuber' });
    expect(parseRoute('#/chat')).toEqual({ view: 'chat', conversationId: null });
    expect(parseRoute('#/chat/conv_9')).toEqual({ view: 'chat', conversationId: 'conv_9' });
    expect(parseRoute('#/agent')).toEqual({ view: 'agent', runId: null });
    expect(parseRoute('#/agent/run_1')).toEqual({ view: 'agent', runId: 'run_1' });
    expect(parseRoute('#/recordings')).toEqual({ view: 'recordings' });
    expect(parseRoute('#/benchmarks')).toEqual({ view: 'benchmarks' });
    expect(parseRoute('#/settings')).toEqual({ view: 'settings', page: null });
    expect(parseRoute('#/settings/providers')).toEqual({ view: 'settings', page: 'providers' });
    expect(parseRoute('#/wiki/%E4%B8%AD%E6%96%87%E7%AC%94%E8%AE%B0')).toEqual({
      view: 'wiki',
      title: '中文笔记',
    });
  });

  it('reads a wikilink address, whose title may hold a slash (encoded), and none without a title', () => {
    expect(parseRoute(wikilinkHref('Kubernetes/Ingress 入门'))).toEqual({
      view: 'wiki',
      title: 'Kubernetes/Ingress 入门',
    });
    expect(parseRoute('#/wiki/a%2Fb%20c')).toEqual({ view: 'wiki', title: 'a/b c' });
    expect(parseRoute('#/wiki')).toEqual(HOME);
    expect(parseRoute('#/wiki/%20')).toEqual(HOME);
  });

  it('reads the list filters beside a note', () => {
    expect(parseRoute('#/notes/n1?folder=%E8%AF%BE%E7%A8%8B%2F%E6%93%8D%E4%BD%9C&tag=os')).toEqual(
      notesRoute({ noteId: 'n1', folder: '课程/操作', tag: 'os' }),
    );
    expect(parseRoute('#/notes?tag=%20')).toEqual(HOME);
  });

  it('treats an empty or unknown hash as the notebook', () => {
    for (const hash of ['', '#', '#/', '/', '#/nowhere', '#/notes/a/b', '#/agent/x/y', '#/notes/%E0%A4%A']) {
      expect(parseRoute(hash)).toEqual(HOME);
    }
  });

  it('accepts a hash without the # or the leading slash', () => {
    expect(parseRoute('notes/abc')).toEqual(notesRoute({ noteId: 'abc' }));
    expect(parseRoute('/chat/c1')).toEqual({ view: 'chat', conversationId: 'c1' });
  });
});

describe('formatRoute', () => {
  it('writes canonical hashes', () => {
    expect(formatRoute(HOME)).toBe('#/notes');
    expect(formatRoute(notesRoute({ noteId: 'n1' }))).toBe('#/notes/n1');
    expect(formatRoute(notesRoute({ folder: 'a/b', tag: 'x y' }))).toBe('#/notes?folder=a%2Fb&tag=x+y');
    expect(formatRoute({ view: 'search', query: '' })).toBe('#/search');
    expect(formatRoute({ view: 'search', query: 'a&b' })).toBe('#/search?q=a%26b');
    expect(formatRoute({ view: 'chat', conversationId: null })).toBe('#/chat');
    expect(formatRoute({ view: 'agent', runId: null })).toBe('#/agent');
    expect(formatRoute({ view: 'agent', runId: 'run 1' })).toBe('#/agent/run%201');
  });

  it('round-trips every route, ids with odd characters included', () => {
    const routes: Route[] = [
      HOME,
      notesRoute({ noteId: 'note/with?odd#chars', folder: '课程/操作系统', tag: '#c++' }),
      { view: 'trash', noteId: 'n 1' },
      { view: 'search', query: '数据库 索引?' },
      { view: 'chat', conversationId: 'conv_1' },
      { view: 'agent', runId: null },
      { view: 'agent', runId: 'run_1' },
      { view: 'recordings' },
      { view: 'benchmarks' },
      { view: 'settings', page: 'storage' },
      { view: 'wiki', title: 'Kubernetes/Ingress 入门?' },
    ];
    for (const route of routes) expect(parseRoute(formatRoute(route))).toEqual(route);
  });
});

describe('sameRoute and routeNoteId', () => {
  it('compares places, not spellings', () => {
    expect(sameRoute(parseRoute('#'), parseRoute('#/notes'))).toBe(true);
    expect(sameRoute(parseRoute('#/notes/a'), parseRoute('#/notes/b'))).toBe(false);
  });

  it('names the shown note', () => {
    expect(routeNoteId(parseRoute('#/notes/a'))).toBe('a');
    expect(routeNoteId(parseRoute('#/trash/b'))).toBe('b');
    expect(routeNoteId(parseRoute('#/chat/c'))).toBeNull();
  });
});

describe('isRouteHash', () => {
  it('tells app addresses from in-page anchors', () => {
    expect(['', '#', '#/notes/a', '#/chat'].map(isRouteHash)).toEqual([true, true, true, true]);
    expect(['#section', '#citation-1', 'notes'].map(isRouteHash)).toEqual([false, false, false]);
  });
});
