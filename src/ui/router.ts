/**
 * The app's places as URL hashes. A static PWA has one HTML file, so the place
 * lives after the `#`: it never reaches a server (or the service worker), a
 * bookmark opens it directly, and Back/Forward walk it.
 *
 *   #/notes                      all notes     #/notes/<id>         a note
 *   #/notes?folder=a/b&tag=x     filtered list #/notes/<id>?folder= a note, list still filtered
 *   #/trash, #/trash/<id>        the trash     #/search?q=<text>    search results
 *   #/chat, #/chat/<id>          chat          #/agent, #/agent/<run id>  the agent, a run
 *   #/recordings, #/benchmarks
 *   #/settings, #/settings/<page>
 *   #/wiki/<title>               a `[[wikilink]]`'s note by title (opened in a new tab, a
 *                                bookmark): replaced by the note's address once resolved;
 *                                `#/wiki/<title>#<heading>` keeps the `#` part in `title`,
 *                                read as `[[title#heading]]` is (the links service does)
 */
export type Route =
  | { view: 'notes'; noteId: string | null; folder: string | null; tag: string | null }
  | { view: 'trash'; noteId: string | null }
  | { view: 'search'; query: string }
  | { view: 'chat'; conversationId: string | null }
  | { view: 'agent'; runId: string | null }
  | { view: 'recordings' }
  | { view: 'benchmarks' }
  | { view: 'settings'; page: string | null }
  | { view: 'wiki'; title: string };

export type RouteView = Route['view'];

export const HOME: Route = { view: 'notes', noteId: null, folder: null, tag: null };

export function notesRoute(
  fields: { noteId?: string | null; folder?: string | null; tag?: string | null } = {},
): Route {
  return {
    view: 'notes',
    noteId: fields.noteId ?? null,
    folder: fields.folder ?? null,
    tag: fields.tag ?? null,
  };
}

function decode(part: string): string | null {
  try {
    return decodeURIComponent(part);
  } catch {
    return null;
  }
}

/**
 * Whether a hash is an app address. Others (`#section`, a heading link in a
 * note's preview) only scroll and must not move the app.
 */
export function isRouteHash(hash: string): boolean {
  return hash === '' || hash === '#' || hash.startsWith('#/');
}

/** Any hash (with or without the leading `#`) to a route; anything unknown is the notebook's home. */
export function parseRoute(hash: string): Route {
  const raw = hash.replace(/^#/, '').replace(/^\/+/, '');
  const queryAt = raw.indexOf('?');
  const path = queryAt === -1 ? raw : raw.slice(0, queryAt);
  const params = new URLSearchParams(queryAt === -1 ? '' : raw.slice(queryAt + 1));
  const segments = path
    .split('/')
    .filter((segment) => segment !== '')
    .map(decode);
  if (segments.some((segment) => segment === null)) return HOME;
  const [head, id, ...rest] = segments as string[];
  const param = (name: string): string | null => {
    const value = params.get(name)?.trim();
    return value ? value : null;
  };
  // An id is one segment: `#/notes/a/b` is not a note.
  if (rest.length > 0) return HOME;
  switch (head) {
    case undefined:
    case 'notes':
      return notesRoute({ noteId: id ?? null, folder: param('folder'), tag: param('tag') });
    case 'trash':
      return { view: 'trash', noteId: id ?? null };
    case 'search':
      return id === undefined ? { view: 'search', query: params.get('q') ?? '' } : HOME;
    case 'chat':
      return { view: 'chat', conversationId: id ?? null };
    case 'settings':
      return { view: 'settings', page: id ?? null };
    case 'wiki':
      return id === undefined || id.trim() === '' ? HOME : { view: 'wiki', title: id };
    case 'agent':
      return { view: 'agent', runId: id ?? null };
    case 'recordings':
    case 'benchmarks':
      return id === undefined ? { view: head } : HOME;
    default:
      return HOME;
  }
}

function withQuery(path: string, params: Array<[string, string | null]>): string {
  const query = new URLSearchParams();
  for (const [name, value] of params) if (value !== null && value !== '') query.set(name, value);
  const text = query.toString();
  return text === '' ? path : `${path}?${text}`;
}

function withId(base: string, id: string | null): string {
  return id === null || id === '' ? base : `${base}/${encodeURIComponent(id)}`;
}

/** The hash for a route, `#` included; `parseRoute(formatRoute(r))` gives `r` back. */
export function formatRoute(route: Route): string {
  switch (route.view) {
    case 'notes':
      return `#${withQuery(withId('/notes', route.noteId), [
        ['folder', route.folder],
        ['tag', route.tag],
      ])}`;
    case 'trash':
      return `#${withId('/trash', route.noteId)}`;
    case 'search':
      return `#${withQuery('/search', [['q', route.query]])}`;
    case 'chat':
      return `#${withId('/chat', route.conversationId)}`;
    case 'agent':
      return `#${withId('/agent', route.runId)}`;
    case 'settings':
      return `#${withId('/settings', route.page)}`;
    case 'wiki':
      return `#${withId('/wiki', route.title)}`;
    default:
      return `#/${route.view}`;
  }
}

/** Same place: compares the canonical hashes, so `#/notes` and `#` are one. */
export function sameRoute(a: Route, b: Route): boolean {
  return formatRoute(a) === formatRoute(b);
}

/** The note a route shows, if any. */
export function routeNoteId(route: Route): string | null {
  return route.view === 'notes' || route.view === 'trash' ? route.noteId : null;
}
