import type { LabelSelector } from 'kubernetes-types/meta/v1.js';
import { goQuote } from '../go/strconv';
import { qualifiedNameErrors } from './names';

/** A selector ready to evaluate, with the text form kubectl and kube-apiserver print for it. */
export interface CompiledSelector {
  matches(labels: Readonly<Record<string, string>> | undefined): boolean;
  /** `metav1.LabelSelectorAsSelector(s).String()`: e.g. `app=web,env in (prod,staging),!legacy`. */
  readonly text: string;
  /** True for `{}`, which matches every object, even one without labels or metadata. */
  readonly everything: boolean;
  /** True for a null selector, which matches nothing. */
  readonly nothing: boolean;
}

/** Why a selector cannot be used; kube-apiserver answers such selectors with a 500. */
export class SelectorError extends Error {}

type Operator = 'In' | 'NotIn' | 'Exists' | 'DoesNotExist';
interface Requirement {
  key: string;
  operator: Operator | '=';
  values: string[];
}

const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]{0,61})?[A-Za-z0-9])?$/;

function requirement(key: string, operator: Requirement['operator'], values: string[]): Requirement {
  const keyErrors = qualifiedNameErrors(key);
  if (keyErrors.length > 0) throw new SelectorError(`key: Invalid value: ${goQuote(key)}: ${keyErrors.join('; ')}`);
  if ((operator === 'In' || operator === 'NotIn') && values.length === 0) {
    throw new SelectorError(`values: Invalid value: []string{}: for 'in', 'notin' operators, values set can't be empty`);
  }
  if ((operator === 'Exists' || operator === 'DoesNotExist') && values.length > 0) {
    throw new SelectorError(`values: Invalid value: ${JSON.stringify(values)}: values set must be empty for exists and does not exist`);
  }
  for (const [index, value] of values.entries()) {
    if (!LABEL_VALUE.test(value))
      throw new SelectorError(
        `values[${index}]: Invalid value: ${JSON.stringify(value)}: a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character`,
      );
  }
  return { key, operator, values: [...new Set(values)].sort() };
}

function render(r: Requirement): string {
  switch (r.operator) {
    case '=':
      return `${r.key}=${r.values[0]}`;
    case 'In':
      return `${r.key} in (${r.values.join(',')})`;
    case 'NotIn':
      return `${r.key} notin (${r.values.join(',')})`;
    case 'Exists':
      return r.key;
    case 'DoesNotExist':
      return `!${r.key}`;
  }
}

function holds(r: Requirement, labels: Readonly<Record<string, string>>): boolean {
  const has = Object.hasOwn(labels, r.key);
  const value = labels[r.key];
  switch (r.operator) {
    case '=':
    case 'In':
      return has && r.values.includes(value as string);
    case 'NotIn':
      return !has || !r.values.includes(value as string);
    case 'Exists':
      return has;
    case 'DoesNotExist':
      return !has;
  }
}

/**
 * Compiles a metav1.LabelSelector as apimachinery's LabelSelectorAsSelector does: matchLabels and
 * matchExpressions are ANDed, requirements sorted by key; `{}` matches everything, null nothing.
 */
export function compileSelector(selector: LabelSelector | null | undefined): CompiledSelector {
  if (selector === null || selector === undefined) return NOTHING;
  // Webhook selectors are compiled on every request: keep each one's result (errors too).
  let compiled = compiledSelectors.get(selector);
  if (!compiled) {
    try {
      compiled = compileUncached(selector);
    } catch (error) {
      compiled = error as SelectorError;
    }
    compiledSelectors.set(selector, compiled);
  }
  if (compiled instanceof SelectorError) throw compiled;
  return compiled;
}

const compiledSelectors = new WeakMap<LabelSelector, CompiledSelector | SelectorError>();
const NOTHING: CompiledSelector = { matches: () => false, text: '<null>', everything: false, nothing: true };

function compileUncached(selector: LabelSelector): CompiledSelector {
  const requirements: Requirement[] = [
    ...Object.entries(selector.matchLabels ?? {}).map(([key, value]) => requirement(key, '=', [String(value)])),
    ...(selector.matchExpressions ?? []).map((expression) => {
      const operator = expression.operator as Operator;
      if (!['In', 'NotIn', 'Exists', 'DoesNotExist'].includes(operator)) {
        throw new SelectorError(`${JSON.stringify(expression.operator)} is not a valid label selector operator`);
      }
      return requirement(expression.key, operator, expression.values ?? []);
    }),
  ].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  if (requirements.length === 0) return { matches: () => true, text: '', everything: true, nothing: false };
  return {
    matches: (labels) => requirements.every((r) => holds(r, labels ?? {})),
    text: requirements.map(render).join(','),
    everything: false,
    nothing: false,
  };
}
