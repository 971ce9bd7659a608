// What "self-contained" means for a report file, checked on its text: nothing the browser would fetch.

/** Every value of an attribute that makes a browser fetch or navigate (src, href, action, …), as written. */
export function referenceAttributes(document: string): string[] {
  const found: string[] = [];
  for (const match of document.matchAll(/<[a-z][^>]*>/gi)) {
    for (const attribute of match[0].matchAll(/\s(src|srcset|href|action|formaction|poster|data|background|xlink:href)\s*=\s*("[^"]*"|'[^']*'|[^\s>]+)/gi)) {
      found.push(`${attribute[1]}=${attribute[2]}`);
    }
  }
  return found;
}

/** References that leave the page: anything but an in-page anchor (`#id`). */
export function externalReferences(document: string): string[] {
  return referenceAttributes(document).filter((reference) => !/^href="#[^"]*"$/i.test(reference));
}

/** The text of every <style> element: where a `url()` or `@import` would fetch something. */
export function stylesheets(document: string): string[] {
  return [...document.matchAll(/<style[^>]*>([\s\S]*?)<\/style>/gi)].map((m) => m[1] ?? '');
}

/** The number of `<tag …>` elements with `class` containing `name`. */
export function countWithClass(document: string, name: string): number {
  return [...document.matchAll(/\sclass="([^"]*)"/g)].filter((m) => (m[1] ?? '').split(/\s+/).includes(name)).length;
}
