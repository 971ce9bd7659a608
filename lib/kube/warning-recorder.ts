/** Limits of kube-apiserver's warning recorder (apiserver pkg/endpoints/filters/warning.go). */
const TRUNCATE_AT_TOTAL_RUNES = 4 * 1024;
const TRUNCATE_ITEM_RUNES = 256;

const runes = (text: string): string[] => Array.from(text);

/**
 * `net.NewWarningHeader(299, "-", text)`, or undefined for text with control characters, which Go
 * refuses. (Invalid UTF-8 cannot reach here: Go's JSON decoder, like Node's, turns it into U+FFFD.)
 */
function warningHeader(text: string): string | undefined {
  if (/\p{Cc}/u.test(text)) return undefined;
  return `299 - "${text.replace(/["\\]/g, (c) => `\\${c}`)}"`;
}

/**
 * The warnings one API request accumulates, as the client receives them in `Warning` headers:
 * deduplicated, invalid ones dropped, and truncated once their total passes 4096 runes
 * (k8s.io/apiserver/pkg/endpoints/filters/warning.go).
 */
export class WarningRecorder {
  /** Every distinct warning, in order (a Set keeps insertion order). */
  private readonly seen = new Set<string>();
  private truncating = false;
  private totalRunes = 0;
  /** The `Warning` header values, in order. */
  headers: string[] = [];
  /** Warnings dropped for their content, with why (the apiserver only logs these). */
  readonly dropped: { text: string; why: string }[] = [];

  add(text: string): void {
    if (text.length === 0) return;
    if (this.truncating && this.totalRunes >= TRUNCATE_AT_TOTAL_RUNES) {
      this.dropped.push({ text, why: 'the request already carries 4096 runes of warnings' });
      return;
    }
    if (this.seen.has(text)) return;
    this.seen.add(text);
    let item = text;
    let length = runes(item).length;
    if (this.truncating && length > TRUNCATE_ITEM_RUNES) {
      item = runes(item).slice(0, TRUNCATE_ITEM_RUNES).join('');
      length = TRUNCATE_ITEM_RUNES;
    }
    const header = warningHeader(item);
    if (!header) {
      this.dropped.push({ text, why: 'warnings may not contain control characters (a newline, for one)' });
      return;
    }
    if (this.totalRunes + length <= TRUNCATE_AT_TOTAL_RUNES || this.truncating) {
      this.totalRunes += length;
      this.headers.push(header);
      return;
    }
    // Over the limit: from now on every warning is cut to 256 runes, and those already sent are re-sent cut.
    this.truncating = true;
    this.totalRunes = 0;
    this.headers = [];
    for (const recorded of this.seen) {
      const cut = runes(recorded).slice(0, TRUNCATE_ITEM_RUNES).join('');
      const again = warningHeader(cut);
      if (again) {
        this.totalRunes += runes(cut).length;
        this.headers.push(again);
      }
    }
  }

  /** The warning texts as a client decodes them from the headers. */
  texts(): string[] {
    return this.headers.map((h) => h.slice('299 - "'.length, -1).replace(/\\(["\\])/g, '$1'));
  }
}
