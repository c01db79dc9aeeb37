// The page's data (embedded as inert JSON), drawing it with the renderer of its kind, and live
// refresh under `serve` (SSE → fetch this page again → draw again). From file:// there is no
// live part: the page is drawn once.
import type { PageData } from '../model/pages.js';
import { append, clear, el } from './dom.js';

/** Draws one kind of page into the app element. */
export type Renderer<P extends PageData> = (app: HTMLElement, data: P) => void;
export type Renderers = { [K in PageData['page']]: Renderer<Extract<PageData, { page: K }>> };

// The page data is also window.PAGE: tests and users read it from the console.
type PageWindow = Window & { PAGE?: PageData | null };

let current: PageData | null = null;

/** The data drawn now. */
export const currentPage = (): PageData | null => current;

function setPage(data: PageData | null): void {
  current = data;
  (window as PageWindow).PAGE = data;
}

function readPageData(doc: Document): PageData | null {
  const node = doc.getElementById('page-data');
  return JSON.parse(node ? (node.textContent ?? 'null') : 'null') as PageData | null;
}

function render(renderers: Renderers): void {
  const app = document.getElementById('app')!;
  const scrollY = window.scrollY;
  clear(app);
  const draw = current ? (renderers[current.page] as Renderer<PageData> | undefined) : undefined;
  if (current && draw) draw(app, current);
  else append(app, el('p', { text: 'Unknown page type.' }));
  window.scrollTo(0, scrollY);
  document.body.setAttribute('data-version', String((Number(document.body.getAttribute('data-version')) || 0) + 1));
}

function markLive(on: boolean): void {
  const n = document.getElementById('live');
  if (!n) return;
  n.className = 'live' + (on ? ' on' : '');
  n.textContent = on ? 'live' : 'offline';
}

function refresh(renderers: Renderers): Promise<void> {
  return fetch(location.pathname, { cache: 'no-store' })
    .then((r) => r.text())
    .then((html) => {
      setPage(readPageData(new DOMParser().parseFromString(html, 'text/html')));
      render(renderers);
      markLive(true);
    })
    .catch(() => markLive(false));
}

function startLive(renderers: Renderers): void {
  if (!/^https?:$/.test(location.protocol) || typeof EventSource === 'undefined') return;
  const es = new EventSource('/__live');
  es.addEventListener('open', () => markLive(true));
  es.addEventListener('error', () => markLive(false));
  es.addEventListener('rebuilt', (ev) => {
    let msg: { pages?: string[] };
    try {
      msg = JSON.parse((ev as MessageEvent<string>).data) as { pages?: string[] };
    } catch {
      return;
    }
    const here = decodeURIComponent(location.pathname.replace(/\/$/, '/index.html'));
    if ((msg.pages || []).indexOf(here) >= 0) void refresh(renderers);
  });
}

/** Reads this document's data, draws it, and follows `serve`'s rebuilds. */
export function startPage(renderers: Renderers): void {
  setPage(readPageData(document));
  render(renderers);
  startLive(renderers);
}
