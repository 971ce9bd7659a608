import { isObject, type Json } from '../../kube/json';
import { list, record, text } from './fields';

/*
 * The helpers printers.go formats cells with: labels.FormatLabels, metav1.FormatLabelSelector (apimachinery
 * pkg/labels and pkg/apis/meta/v1 helpers.go), layoutContainerCells and printBoolPtr.
 */

/** labels.Set.String: `k=v` pairs sorted by key, comma-joined. */
function labelsString(labels: Readonly<Record<string, Json>>): string {
  return Object.keys(labels)
    .sort()
    .map((key) => `${key}=${typeof labels[key] === 'string' ? labels[key] : ''}`)
    .join(',');
}

/** labels.FormatLabels: the sorted pairs, `<none>` for none. */
export function formatLabels(labels: Json | undefined): string {
  return (isObject(labels) ? labelsString(labels) : '') || '<none>';
}

/** One requirement of a selector as labels.Requirement.String writes it. */
function requirementString(key: string, operator: string, values: readonly string[]): string {
  const sorted = [...values].sort().join(',');
  switch (operator) {
    case 'In':
      return `${key} in (${sorted})`;
    case 'NotIn':
      return `${key} notin (${sorted})`;
    case 'Exists':
      return key;
    case 'DoesNotExist':
      return `!${key}`;
    default:
      return `${key}=${sorted}`;
  }
}

/**
 * metav1.LabelSelectorAsSelector(selector).String(): matchLabels and matchExpressions as requirements sorted by
 * key; "" for a nil or empty selector.
 */
export function selectorString(selector: Json | undefined): string {
  if (!isObject(selector)) return '';
  const requirements: [string, string][] = [];
  for (const [key, value] of Object.entries(record(selector, 'matchLabels'))) requirements.push([key, `${key}=${typeof value === 'string' ? value : ''}`]);
  for (const expression of list(selector, 'matchExpressions')) {
    const key = text(expression, 'key');
    const values = list(expression, 'values').filter((value): value is string => typeof value === 'string');
    requirements.push([key, requirementString(key, text(expression, 'operator'), values)]);
  }
  return requirements
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, requirement]) => requirement)
    .join(',');
}

/** metav1.FormatLabelSelector: the selector's string, `<none>` when it selects by nothing. */
export function formatLabelSelector(selector: Json | undefined): string {
  return selectorString(selector) || '<none>';
}

/** layoutContainerCells: the containers' names and images, each comma-joined. */
export function containerCells(containers: readonly Json[]): [string, string] {
  return [containers.map((container) => text(container, 'name')).join(','), containers.map((container) => text(container, 'image')).join(',')];
}

/** printBoolPtr: `True`/`False`, `<unset>` for nil. */
export function boolPointer(value: Json | undefined): string {
  if (typeof value !== 'boolean') return '<unset>';
  return value ? 'True' : 'False';
}

/** helper.GetAccessModesAsString: the short names of the modes present, in kube's fixed order. */
export function accessModes(modes: readonly unknown[]): string {
  const short: [string, string][] = [
    ['ReadWriteOnce', 'RWO'],
    ['ReadOnlyMany', 'ROX'],
    ['ReadWriteMany', 'RWX'],
    ['ReadWriteOncePod', 'RWOP'],
  ];
  return short
    .filter(([mode]) => modes.includes(mode))
    .map(([, abbreviation]) => abbreviation)
    .join(',');
}
