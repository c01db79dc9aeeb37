// Building elements through text nodes only (page data is never parsed as HTML), and links
// kept relative: the pages work from file:// and never reach another origin.

/** What may be appended: nodes, text, nothing (skipped) and lists of those. */
export type Child = Node | string | number | null | undefined | false | readonly Child[];

/** Element attributes; `text` sets the text, `class` the class, `on…` adds a listener. */
export type Props = Record<string, unknown> | null;

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, props?: Props, ...children: Child[]): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (props) {
    for (const k of Object.keys(props)) {
      const v = props[k];
      if (v === undefined || v === null || v === false) continue;
      if (k === 'class') node.className = String(v);
      else if (k === 'text') node.textContent = String(v);
      else if (k === 'href') node.setAttribute('href', safeHref(v));
      else if (k.indexOf('on') === 0) node.addEventListener(k.slice(2), v as EventListener);
      else node.setAttribute(k, String(v));
    }
  }
  for (const c of children) appendOne(node, c);
  return node;
}

export function append<N extends Node>(node: N, ...children: Child[]): N {
  for (const c of children) appendOne(node, c);
  return node;
}

function appendOne(node: Node, c: Child): void {
  if (c === undefined || c === null || c === false) return;
  if (Array.isArray(c)) {
    for (const x of c as readonly Child[]) appendOne(node, x);
    return;
  }
  node.appendChild(typeof c === 'object' ? (c as Node) : document.createTextNode(String(c)));
}

/** A relative link, or '#' for anything with a scheme, a host or a backslash. */
export function safeHref(h: unknown): string {
  const s = String(h || '');
  if (/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(s) || s.indexOf('//') === 0 || s.indexOf('\\') >= 0) return '#';
  return s;
}

export function clear<N extends Node>(node: N): N {
  while (node.firstChild) node.removeChild(node.firstChild);
  return node;
}

/** Marks each occurrence of `q` (lower case) in the text under `node`. */
export function highlight(node: Node, q: string): void {
  if (!q) return;
  const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
  const texts: Text[] = [];
  for (let t = walker.nextNode(); t; t = walker.nextNode()) texts.push(t as Text);
  for (const tn of texts) {
    const s = tn.nodeValue ?? '';
    const low = s.toLowerCase();
    let i = low.indexOf(q);
    if (i < 0) continue;
    const frag = document.createDocumentFragment();
    let pos = 0;
    while (i >= 0) {
      frag.appendChild(document.createTextNode(s.slice(pos, i)));
      frag.appendChild(el('mark', { text: s.slice(i, i + q.length) }));
      pos = i + q.length;
      i = low.indexOf(q, pos);
    }
    frag.appendChild(document.createTextNode(s.slice(pos)));
    tn.parentNode?.replaceChild(frag, tn);
  }
}
