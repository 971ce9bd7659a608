// Every Kubernetes CEL library loads in a webhook's matchConditions and a policy's validations, as
// kube-apiserver accepts them (k8s.io/apiserver/pkg/cel/library; issue: "undeclared reference" for isURL, quantity, find, sets).
import { createHarness, objects, review, type Harness } from '../../lib';
import { validating } from '../dispatch/helpers';

// One condition per library, each true for the pod below.
const CONDITIONS: [library: string, expression: string][] = [
  ['lists', '[1, 2, 3].isSorted() && [3, 1].max() == 3'],
  ['regex', "object.spec.containers[0].image.find('[0-9.]+$') == '1.27'"],
  ['urls', "isURL('https://registry.example.com/v2') && url('https://registry.example.com:5000/v2').getPort() == '5000'"],
  ['quantity', "quantity('500m').isLessThan(quantity('1')) && isQuantity('1Gi')"],
  ['sets', "sets.contains(['a', 'b', 'c'], ['a']) && sets.intersects([1, 2], [2, 3])"],
  ['strings', "'%s-%d'.format(['web', 1]) == 'web-1' && strings.quote('x') == '\"x\"'"],
  ['ip', "isIP('10.0.0.1') && ip('10.0.0.1').family() == 4"],
  ['cidr', "cidr('10.0.0.0/8').containsIP(ip('10.1.2.3'))"],
  ['semver', "semver('1.27.0').isGreaterThan(semver('1.26.9'))"],
  ['format', "!format.dns1123Label().validate('web-1').hasValue()"],
  ['optional', "object.metadata.?labels.?app.orValue('none') == 'web' && object.metadata.?labels.optMap(l, l.size()).orValue(0) > 0"],
  ['lists-v3', '[3, 1, 2].sortBy(x, -x) == [3, 2, 1] && lists.range(2) == [0, 1] && [[1], [2]].flatten() == [1, 2]'],
  [
    'two-variable-comprehensions',
    "object.metadata.labels.all(k, v, k.size() > 0 && v != '') && object.spec.containers.transformList(i, c, c.name).size() == 1",
  ],
];

const harnesses: Harness[] = [];
afterAll(async () => {
  await Promise.all(harnesses.map((h) => h.close()));
});

describe("Kubernetes' CEL libraries in matchConditions and policies", () => {
  it.each(CONDITIONS)('%s: a webhook matchCondition using it loads and evaluates to true', async (library, expression) => {
    const h = await createHarness({
      seed: 2,
      manifests: [validating('v', { name: 'v.example.com', matchConditions: [{ name: library, expression }] } as never)],
      stubs: { 'v.example.com': { respond: { allowed: true } } },
    });
    harnesses.push(h);
    const pod = objects.pod({ name: 'web-1', images: ['nginx:1.27'], labels: { app: 'web' } }, { seed: 2 });
    const explanation = h.explain(review.create(pod));
    expect(explanation.map((e) => [e.decision, e.reason])).toEqual([['called', `all 1 matchConditions evaluated to true`]]);
  });

  it('a ValidatingAdmissionPolicy uses them too', async () => {
    const h = await createHarness({
      seed: 2,
      manifests: [
        {
          apiVersion: 'admissionregistration.k8s.io/v1',
          kind: 'ValidatingAdmissionPolicy',
          metadata: { name: 'limits' },
          spec: {
            matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['pods'] }] },
            validations: [
              {
                expression:
                  "object.spec.containers.all(c, !has(c.resources.limits) || !('cpu' in c.resources.limits) || quantity(c.resources.limits.cpu).compareTo(quantity('2')) <= 0)",
                message: 'at most 2 CPUs',
              },
            ],
          },
        },
        {
          apiVersion: 'admissionregistration.k8s.io/v1',
          kind: 'ValidatingAdmissionPolicyBinding',
          metadata: { name: 'limits' },
          spec: { policyName: 'limits', validationActions: ['Deny'] },
        },
      ] as never[],
    });
    harnesses.push(h);
    const pod = (cpu: string) => {
      const built = objects.pod({ name: 'web-1' }, { seed: 2 }) as { spec: { containers: { resources?: unknown }[] } };
      built.spec.containers[0]!.resources = { limits: { cpu } };
      return built;
    };
    expect(await h.admit(review.create(pod('1500m') as never))).toBeAllowed();
    expect((await h.admit(review.create(pod('4') as never))).status?.message).toContain('denied request: at most 2 CPUs');
  });
});
