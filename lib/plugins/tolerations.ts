import { jsonEqual } from '../kube/json';
import type { JsonRecord } from '../kube/record';

// Hand-written after pkg/util/tolerations/tolerations.go (isSuperset, MergeTolerations,
// VerifyAgainstWhitelist), with which RuntimeClass and PodTolerationRestriction merge and judge tolerations.

/** Semantic.DeepEqual of two tolerations as the internal struct holds them: an absent field is its zero value. */
function sameToleration(a: JsonRecord, b: JsonRecord): boolean {
  const plain = (t: JsonRecord) =>
    ['key', 'operator', 'value', 'effect']
      .map((field) => (typeof t[field] === 'string' ? t[field] : ''))
      .concat([typeof t.tolerationSeconds === 'number' ? String(t.tolerationSeconds) : 'nil']);
  return jsonEqual(plain(a), plain(b));
}

/** Whether toleration `wide` tolerates everything `narrow` does (isSuperset). */
export function isSuperset(wide: JsonRecord, narrow: JsonRecord): boolean {
  if (sameToleration(wide, narrow)) return true;
  const key = (t: JsonRecord) => (typeof t.key === 'string' ? t.key : '');
  const text = (t: JsonRecord, field: string) => (typeof t[field] === 'string' ? (t[field] as string) : '');
  // An empty key with operator Exists tolerates every key.
  if (key(narrow) !== key(wide) && (key(wide) !== '' || text(wide, 'operator') !== 'Exists')) return false;
  // An empty effect tolerates every effect.
  if (text(narrow, 'effect') !== text(wide, 'effect') && text(wide, 'effect') !== '') return false;
  if (text(wide, 'effect') === 'NoExecute' && typeof wide.tolerationSeconds === 'number') {
    if (typeof narrow.tolerationSeconds !== 'number' || narrow.tolerationSeconds > wide.tolerationSeconds) return false;
  }
  switch (text(wide, 'operator')) {
    case 'Equal':
    case '':
      return text(narrow, 'operator') === 'Equal' && text(narrow, 'value') === text(wide, 'value');
    case 'Exists':
      return true;
    default:
      return false;
  }
}

/** MergeTolerations: `first` then `second`, less every toleration another one already covers (the first of equals kept). */
export function mergeTolerations(first: readonly JsonRecord[], second: readonly JsonRecord[]): JsonRecord[] {
  const all = [...first, ...second];
  const merged: JsonRecord[] = [];
  all.forEach((toleration, i) => {
    if (merged.some((kept) => isSuperset(kept, toleration))) return;
    if (all.slice(i + 1).some((later) => !sameToleration(toleration, later) && isSuperset(later, toleration))) return;
    merged.push(toleration);
  });
  return merged;
}

/** VerifyAgainstWhitelist: every toleration is covered by one of the whitelist's (an empty whitelist allows all). */
export function verifyAgainstWhitelist(tolerations: readonly JsonRecord[], whitelist: readonly JsonRecord[]): boolean {
  if (whitelist.length === 0 || tolerations.length === 0) return true;
  return tolerations.every((toleration) => whitelist.some((allowed) => isSuperset(allowed, toleration)));
}
