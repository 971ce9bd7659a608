import path from 'node:path';
import { reviewCommand, type ReviewArgs } from '../../lib/cli/review';
import type { AdmissionReview } from '../../lib/kube/admission';

const base: ReviewArgs = { target: 'pods', operation: 'CREATE', dryRun: false, version: 'v1', seed: 4, groups: [] };

function print(args: Partial<ReviewArgs>): AdmissionReview {
  let text = '';
  expect(reviewCommand({ ...base, ...args }, (t) => (text += t))).toBe(0);
  return JSON.parse(text) as AdmissionReview;
}

describe('admission-harness review', () => {
  it('prints the same review for the same seed, but for the uid unless --uid is given', () => {
    const a = print({});
    const b = print({});
    expect(a.request!.uid).not.toBe(b.request!.uid);
    expect({ ...a.request, uid: '' }).toEqual({ ...b.request, uid: '' });
    expect(print({ uid: 'fixed' })).toEqual(print({ uid: 'fixed' }));
    expect(print({ uid: 'fixed', seed: 5 })).not.toEqual(print({ uid: 'fixed' }));
  });

  it('builds a CONNECT with the options object, no options and no oldObject', () => {
    const { request } = print({ target: 'pods/exec', operation: 'CONNECT', namespace: 'shop', name: 'web-1' });
    expect(request).toMatchObject({
      operation: 'CONNECT',
      subResource: 'exec',
      namespace: 'shop',
      name: 'web-1',
      kind: { kind: 'PodExecOptions' },
      object: { kind: 'PodExecOptions' },
      oldObject: null,
      options: null,
      dryRun: false,
    });
  });

  it('builds subresources with their kinds, DELETE with a null object, v1beta1, dryRun and users', () => {
    expect(print({ target: 'deployments.apps/scale', operation: 'UPDATE' }).request).toMatchObject({
      kind: { group: 'autoscaling', version: 'v1', kind: 'Scale' },
      resource: { group: 'apps', resource: 'deployments' },
      subResource: 'scale',
    });
    expect(print({ target: 'configmaps', operation: 'DELETE' }).request).toMatchObject({
      object: null,
      oldObject: { kind: 'ConfigMap' },
      options: { kind: 'DeleteOptions' },
    });
    expect(print({ version: 'v1beta1' }).apiVersion).toBe('admission.k8s.io/v1beta1');
    expect(print({ dryRun: true }).request).toMatchObject({ dryRun: true, options: { dryRun: ['All'] } });
    expect(print({ user: 'alice', groups: ['dev'] }).request!.userInfo).toEqual({ username: 'alice', groups: ['dev', 'system:authenticated'] });
  });

  it('takes the object from a file', () => {
    const file = path.join(__dirname, 'fixtures/configmap.yaml');
    expect(print({ target: 'configmaps', object: file }).request).toMatchObject({ name: 'settings', namespace: 'shop', object: { data: { mode: 'strict' } } });
    expect(print({ target: 'configmaps', operation: 'DELETE', object: file }).request).toMatchObject({
      name: 'settings',
      object: null,
      oldObject: { metadata: { name: 'settings', uid: expect.any(String) } },
    });
  });

  it.each<[Partial<ReviewArgs>, RegExp]>([
    [{ target: 'widgets' }, /unknown resource "widgets".*register a CRD with --crd FILE/s],
    [{ target: 'configmaps/exec', operation: 'CONNECT' }, /configmaps has no admitted subresource "exec"/],
    [{ target: 'pods/log', operation: 'CREATE' }, /pods has no admitted subresource "log"/],
    [{ target: 'pods', operation: 'CONNECT' }, /CONNECT needs a CONNECT subresource, e\.g\. pods\/exec/],
    [{ operation: 'PATCH' }, /unknown operation "PATCH".*CREATE, UPDATE, DELETE or CONNECT/s],
    [{ version: 'v2' }, /--version takes v1 or v1beta1/],
  ])('rejects %j with a reason and a suggestion', (args, message) => {
    expect(() => print(args)).toThrow(message);
  });
});
