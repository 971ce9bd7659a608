import { reviewsFromAudit } from '../../lib/audit';
import { actionRequest } from '../review/captures';
import { logEvents, memberPaths, without } from './events';

/*
 * The pod create of fixtures/audit.log is the action recorded in fixtures/apiserver-captures/pods-create.json
 * (`kubectl create` of pod cap/x1). Converted, it must have the members of the request kube-apiserver
 * v1.36.2 sent the first webhook, recursively and in the same order, values aside — except for what an
 * audit event cannot hold.
 */

/**
 * What the audit cannot know of a pod create: the entry the field manager records after requestObject is
 * logged, and what the built-in plugins ordered before the webhooks add (DefaultTolerationSeconds's
 * tolerations, Priority's priority and preemptionPolicy). ServiceAccount was disabled in the recording,
 * so it adds nothing here.
 */
const AUDIT_CANNOT_KNOW = ['.object.metadata.managedFields', '.object.spec.tolerations', '.object.spec.priority', '.object.spec.preemptionPolicy'];

const isUnknowable = (member: string) => AUDIT_CANNOT_KNOW.some((path) => member === path || member.startsWith(`${path}.`) || member.startsWith(`${path}[`));

const converted = () => {
  const review = reviewsFromAudit(logEvents()).reviews.find((r) => r.request.operation === 'CREATE' && r.request.resource.resource === 'pods');
  if (!review) throw new Error('the audit log has no pod create');
  return review.request;
};
const captured = () => actionRequest('pods-create.json');

describe('shape: the converted pod create against the captured one (pods-create.json)', () => {
  it('is the same action', () => {
    expect(captured()).toMatchObject({ operation: 'CREATE', name: 'x1', namespace: 'cap', resource: { resource: 'pods' } });
    expect(converted()).toMatchObject({ operation: 'CREATE', name: 'x1', namespace: 'cap', resource: { resource: 'pods' } });
  });

  it('has the same members, recursively, in the same order, but for what the audit cannot know', () => {
    expect(memberPaths(converted()).filter((m) => !isUnknowable(m))).toEqual(memberPaths(captured()).filter((m) => !isUnknowable(m)));
  });

  it('lacks exactly what the audit cannot know, each of which the captured request has', () => {
    const ours = new Set(memberPaths(converted()));
    const theirs = memberPaths(captured());
    expect(theirs.filter((m) => !ours.has(m)).filter((m) => !isUnknowable(m))).toEqual([]);
    for (const path of AUDIT_CANNOT_KNOW) {
      expect(theirs).toContain(path);
      expect(ours.has(path)).toBe(false);
    }
  });

  it('has the same values too, but for the uid (fresh per call) and what the audit cannot know', () => {
    const drop = ['uid', ...AUDIT_CANNOT_KNOW.map((p) => p.slice(1))];
    expect(without(converted(), drop)).toEqual(without(captured(), drop));
  });

  // Known divergence, the price of the audit's gaps: the first webhook got managedFields, tolerations, priority and preemptionPolicy.
  it.failing('is the object the first webhook got', () => {
    expect(converted().object).toEqual(captured().object);
  });
});
