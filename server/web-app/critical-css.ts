/**
 * The part of the app's stylesheet a rendered page uses, to write into its HTML. The whole stylesheet is about
 * 9.5 KB compressed, half of a page's HTML, and takes that HTML past the 14.6 KB a first TCP window carries: a
 * slow connection then needs a second round trip before anything can paint. The page's HTML names every class
 * its first paint needs, so the rules of other classes can wait: web/src/main.tsx loads the whole stylesheet
 * switched off after the first paint, and web/src/app/whole-stylesheet.ts turns it on before the app first changes
 * the page; from then on the page runs with every rule, in Tailwind's order.
 *
 * The stylesheet is split once (Tailwind's minified output: rules, @media/@supports/@layer blocks around rules,
 * and @property/@keyframes blocks kept whole). A rule stays when one of its selectors needs only classes the page
 * has; classes inside :is(), :where(), :not(), :has() or [attribute] do not count against it, so a doubtful rule
 * stays. Everything that is not a class rule (the reset, the theme's variables, @property, @keyframes) stays.
 */

/** At-rules whose block holds rules (the others' blocks, such as @property and @keyframes, are kept whole). */
const GROUPING_AT_RULES = new Set(['media', 'supports', 'layer', 'container', 'scope', 'starting-style', 'document']);

type CssNode =
  /** Kept on every page: a statement (`@layer components;`), a whole @property or @keyframes, a licence comment. */
  | { kind: 'always'; text: string }
  /** A style rule; `needs` holds, for each selector of its list, what that selector requires. */
  | { kind: 'rule'; text: string; needs: SelectorNeeds[] }
  /** An at-rule around rules: kept with the rules of it that stay. A @layer block stays even when empty. */
  | { kind: 'group'; head: string; keepEmpty: boolean; children: CssNode[] };

export interface SplitStylesheet {
  nodes: CssNode[];
  /** The stylesheet as it was given. */
  css: string;
}

/** The index after a string starting at `i` (a quote). */
function skipString(css: string, i: number): number {
  const quote = css[i];
  let j = i + 1;
  while (j < css.length && css[j] !== quote) j += css[j] === '\\' ? 2 : 1;
  return j + 1;
}

/** The index after a comment starting at `i`. */
function skipComment(css: string, i: number): number {
  const end = css.indexOf('*/', i + 2);
  return end < 0 ? css.length : end + 2;
}

/** The index of the `}` closing the block whose `{` is just before `i`. */
function blockEnd(css: string, i: number): number {
  let depth = 1;
  let j = i;
  while (j < css.length) {
    const c = css[j];
    if (c === '"' || c === "'") j = skipString(css, j);
    else if (c === '/' && css[j + 1] === '*') j = skipComment(css, j);
    else if (c === '\\') j += 2;
    else {
      if (c === '{') depth++;
      else if (c === '}' && --depth === 0) return j;
      j++;
    }
  }
  throw new Error('Unclosed block in the stylesheet');
}

/** The index of the `{` or `;` ending the prelude that starts at `i`. */
function preludeEnd(css: string, i: number): number {
  let j = i;
  while (j < css.length) {
    const c = css[j];
    if (c === '"' || c === "'") j = skipString(css, j);
    else if (c === '\\') j += 2;
    else if (c === '{' || c === ';' || c === '}') return j;
    else j++;
  }
  return j;
}

/** A CSS identifier with its escapes resolved (`sm\:p-4` → `sm:p-4`, `\31 0` → `10`). */
function unescapeIdentifier(escaped: string): string {
  return escaped.replace(/\\(?:([0-9a-fA-F]{1,6})\s?|([\s\S]))/g, (_, hex: string | undefined, char: string) =>
    hex ? String.fromCodePoint(Number.parseInt(hex, 16)) : char,
  );
}

/** What one selector of a list needs on the page: classes and element names. */
interface SelectorNeeds {
  classes: string[];
  tags: string[];
}

/**
 * For each selector of a list, the classes and element names it requires outside parentheses and brackets
 * (`.sm\:p-4` needs the class `sm:p-4`; `ul li` needs both elements; `:where(.dark, [dir=rtl])` needs nothing).
 */
export function selectorNeeds(selectorList: string): SelectorNeeds[] {
  const selectors: SelectorNeeds[] = [{ classes: [], tags: [] }];
  const current = () => selectors[selectors.length - 1] as SelectorNeeds;
  let depth = 0;
  let i = 0;
  /** The character before `i` at depth 0 ('' at the start of a selector). */
  let previous = '';
  while (i < selectorList.length) {
    const c = selectorList[i] as string;
    if (c === '\\') {
      i += 2;
      previous = 'x';
    } else if (c === '"' || c === "'") {
      i = skipString(selectorList, i);
    } else if (c === '(' || c === '[') {
      depth++;
      i++;
    } else if (c === ')' || c === ']') {
      depth--;
      i++;
      if (depth === 0) previous = c;
    } else if (depth > 0) {
      i++;
    } else if (c === ',') {
      selectors.push({ classes: [], tags: [] });
      previous = '';
      i++;
    } else if (c === '.') {
      const match = /^(?:\\[0-9a-fA-F]{1,6}\s?|\\[\s\S]|[\w-]|\P{ASCII})+/u.exec(selectorList.slice(i + 1));
      const name = match?.[0] ?? '';
      if (name) current().classes.push(unescapeIdentifier(name));
      i += 1 + name.length;
      previous = 'x';
    } else if (/[a-zA-Z]/.test(c) && (previous === '' || /[\s>+~]/.test(previous))) {
      const name = /^[\w-]+/.exec(selectorList.slice(i))?.[0] ?? c;
      current().tags.push(name.toLowerCase());
      i += name.length;
      previous = 'x';
    } else {
      previous = c;
      i++;
    }
  }
  return selectors;
}

function parseNodes(css: string, start: number, end: number): CssNode[] {
  const nodes: CssNode[] = [];
  let i = start;
  while (i < end) {
    const c = css[i] as string;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === '/' && css[i + 1] === '*') {
      const after = skipComment(css, i);
      // Licence comments (/*! … */) go with the rules; other comments are dropped.
      if (css[i + 2] === '!') nodes.push({ kind: 'always', text: `${css.slice(i, after)}\n` });
      i = after;
      continue;
    }
    const stop = preludeEnd(css, i);
    const prelude = css.slice(i, stop).trim();
    if (stop >= end || css[stop] !== '{') {
      // A statement (`@layer components;`, `@charset …;`) or a stray token: kept as it is.
      const text = css.slice(i, Math.min(stop + 1, end)).trim();
      if (text && text !== '}') nodes.push({ kind: 'always', text });
      i = stop + 1;
      continue;
    }
    const close = blockEnd(css, stop + 1);
    const atRule = /^@([\w-]+)/.exec(prelude)?.[1]?.toLowerCase();
    if (atRule && GROUPING_AT_RULES.has(atRule)) {
      nodes.push({
        kind: 'group',
        head: prelude,
        keepEmpty: atRule === 'layer',
        children: parseNodes(css, stop + 1, close),
      });
    } else if (atRule) {
      nodes.push({ kind: 'always', text: css.slice(i, close + 1) });
    } else {
      nodes.push({ kind: 'rule', text: css.slice(i, close + 1), needs: selectorNeeds(prelude) });
    }
    i = close + 1;
  }
  return nodes;
}

/** A stylesheet split into its rules (once per build: the server keeps it). */
export function splitStylesheet(css: string): SplitStylesheet {
  return { nodes: parseNodes(css, 0, css.length), css };
}

/** What a page has: the classes and element names of its HTML. */
export interface PageNames {
  classes: ReadonlySet<string>;
  tags: ReadonlySet<string>;
}

function write(nodes: CssNode[], page: PageNames): string {
  let out = '';
  for (const node of nodes) {
    if (node.kind === 'always') out += node.text;
    else if (node.kind === 'rule') {
      const usable = node.needs.some(
        (needs) =>
          needs.classes.every((name) => page.classes.has(name)) && needs.tags.every((tag) => page.tags.has(tag)),
      );
      if (usable) out += node.text;
    } else {
      const inner = write(node.children, page);
      if (inner || node.keepEmpty) out += `${node.head}{${inner}}`;
    }
  }
  return out;
}

/** The rules of `sheet` that a page with these classes and elements can use, in the stylesheet's order. */
export function criticalCss(sheet: SplitStylesheet, page: PageNames): string {
  return write(sheet.nodes, page);
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", '#39': "'", '#x27': "'" };

/** Every class named in the class attributes of some HTML, and every element (as React and the template write them). */
export function htmlNames(html: string): PageNames {
  const tags = new Set(['html', 'head', 'body']);
  for (const match of html.matchAll(/<([a-zA-Z][\w-]*)/g)) tags.add((match[1] as string).toLowerCase());
  const classes = new Set<string>();
  for (const match of html.matchAll(/\sclass="([^"]*)"/g)) {
    const value = (match[1] as string).replace(
      /&(amp|lt|gt|quot|apos|#39|#x27);/g,
      (_, name: string) => ENTITIES[name] ?? '',
    );
    for (const name of value.split(/\s+/)) if (name) classes.add(name);
  }
  return { classes, tags };
}
