import { createHarness, objects, review, stub, type Harness } from '../../lib';
import { mutating, validating } from './helpers';

let h: Harness;
afterEach(() => h.close());

const series = (text: string, name: string) => text.split('\n').filter((line) => line.startsWith(`${name}{`));

describe('admission metrics (k8s.io/apiserver/pkg/admission/metrics/metrics.go)', () => {
  it('counts calls, rejections and fail-opens with kube-apiserver’s names and labels', async () => {
    h = await createHarness({
      seed: 3,
      manifests: [
        mutating('m', { name: 'ok.example.com' }, { name: 'hijacked.example.com', failurePolicy: 'Ignore' }),
        validating('v', { name: 'deny.example.com' }, { name: 'closed.example.com' }),
      ],
      stubs: {
        'ok.example.com': stub.allow(),
        'hijacked.example.com': stub.closeConnection(),
        'deny.example.com': stub.deny({ code: 403, message: 'no' }),
        'closed.example.com': stub.closeConnection(),
      },
    });
    // An update the API accepts: the same pod with another label (a pod's spec is mostly immutable).
    await h.admit(review.update(objects.pod({ name: 'a' }, { seed: 1 }), objects.pod({ name: 'a', labels: { v: '2' } }, { seed: 1 })));
    const text = h.metrics();
    expect(series(text, 'apiserver_admission_webhook_request_total').sort()).toEqual(
      [
        'apiserver_admission_webhook_request_total{code="200",name="ok.example.com",operation="UPDATE",rejected="false",type="admit"} 1',
        'apiserver_admission_webhook_request_total{code="503",name="hijacked.example.com",operation="UPDATE",rejected="false",type="admit"} 1',
        'apiserver_admission_webhook_request_total{code="403",name="deny.example.com",operation="UPDATE",rejected="true",type="validating"} 1',
        'apiserver_admission_webhook_request_total{code="503",name="closed.example.com",operation="UPDATE",rejected="true",type="validating"} 1',
      ].sort(),
    );
    expect(series(text, 'apiserver_admission_webhook_rejection_count').sort()).toEqual(
      [
        'apiserver_admission_webhook_rejection_count{error_type="no_error",name="deny.example.com",operation="UPDATE",rejection_code="403",type="validating"} 1',
        'apiserver_admission_webhook_rejection_count{error_type="calling_webhook_error",name="closed.example.com",operation="UPDATE",rejection_code="503",type="validating"} 1',
      ].sort(),
    );
    expect(series(text, 'apiserver_admission_webhook_fail_open_count')).toEqual([
      'apiserver_admission_webhook_fail_open_count{name="hijacked.example.com",type="admit"} 1',
    ]);
    expect(text).toContain('# TYPE apiserver_admission_webhook_admission_duration_seconds histogram');
    expect(text).toMatch(
      /^apiserver_admission_webhook_admission_duration_seconds_bucket\{name="ok\.example\.com",operation="UPDATE",rejected="false",type="admit",le="25"\} 1$/m,
    );
    expect(text).toMatch(
      /^apiserver_admission_webhook_admission_duration_seconds_count\{name="ok\.example\.com",operation="UPDATE",rejected="false",type="admit"\} 1$/m,
    );
    expect(text).toMatch(/^apiserver_admission_step_admission_duration_seconds_count\{operation="UPDATE",rejected="false",type="admit"\} 1$/m);
    expect(text).toMatch(
      /^apiserver_admission_controller_admission_duration_seconds_count\{name="ValidatingAdmissionWebhook",operation="UPDATE",rejected="true",type="validate"\} 1$/m,
    );
  });

  it('records internal errors with code 0', async () => {
    h = await createHarness({
      seed: 3,
      manifests: [mutating('m', { name: 'badpatch.example.com' })],
      stubs: { 'badpatch.example.com': stub.patch([{ op: 'remove', path: '/nope' }]) },
    });
    await h.admit(review.create(objects.pod()));
    expect(series(h.metrics(), 'apiserver_admission_webhook_rejection_count')).toEqual([
      'apiserver_admission_webhook_rejection_count{error_type="apiserver_internal_error",name="badpatch.example.com",operation="CREATE",rejection_code="0",type="admit"} 1',
    ]);
  });
});
