// Namespace labels → policy (api/helpers.go ParseLevel, ParseVersion, PolicyToEvaluate) and the plugin
// configuration's defaults (admission/api ToPolicy).
import {
  DEFAULT_POLICY,
  levelVersionString,
  parseLevel,
  parseVersion,
  policyToEvaluate,
  resolveConfiguration,
  type Policy,
} from '../../../lib/plugins/pod-security';

const modes = (policy: Policy): string[] => [policy.enforce, policy.audit, policy.warn].map(levelVersionString);

describe('levels and versions (api/helpers.go)', () => {
  it.each(['privileged', 'baseline', 'restricted'])('parses the level %s', (level) => {
    expect(parseLevel(level)).toEqual({ value: level });
  });

  it.each(['Restricted', 'bogus', '', ' baseline'])('reads the unknown level %j as restricted, with an error', (level) => {
    expect(parseLevel(level)).toEqual({ value: 'restricted', error: 'must be one of privileged, baseline, restricted' });
  });

  it.each([
    ['latest', 'latest'],
    ['v1.0', 'v1.0'],
    ['v1.25', 'v1.25'],
    ['v1.100', 'v1.100'],
  ])('parses the version %s', (text, printed) => {
    const parsed = parseVersion(text);
    expect(parsed.error).toBeUndefined();
    expect(levelVersionString({ level: 'baseline', version: parsed.value })).toBe(`baseline:${printed}`);
  });

  it.each(['1.25', 'v1.25.0', 'v2.0', 'v1.025', 'v1.', 'Latest', '', 'v1.99999999999999999999'])(
    'reads the invalid version %j as latest, with an error',
    (text) => {
      expect(parseVersion(text)).toEqual({ value: { latest: true }, error: 'must be "latest" or "v1.x"' });
    },
  );
});

describe('policyToEvaluate (api.PolicyToEvaluate)', () => {
  it('uses privileged:latest for every mode when no label is set', () => {
    expect(modes(policyToEvaluate({}).policy)).toEqual(['privileged:latest', 'privileged:latest', 'privileged:latest']);
    expect(modes(policyToEvaluate(undefined).policy)).toEqual(['privileged:latest', 'privileged:latest', 'privileged:latest']);
    expect(policyToEvaluate({ 'kubernetes.io/metadata.name': 'ns' }).errors).toEqual([]);
  });

  it('reads each mode and its version, unset versions being latest', () => {
    const { policy, errors } = policyToEvaluate({
      'pod-security.kubernetes.io/enforce': 'baseline',
      'pod-security.kubernetes.io/enforce-version': 'v1.30',
      'pod-security.kubernetes.io/audit': 'restricted',
      'pod-security.kubernetes.io/warn': 'restricted',
      'pod-security.kubernetes.io/warn-version': 'v1.29',
    });
    expect(errors).toEqual([]);
    expect(modes(policy)).toEqual(['baseline:v1.30', 'restricted:latest', 'restricted:v1.29']);
  });

  it('sets a version without a level on the default level', () => {
    expect(modes(policyToEvaluate({ 'pod-security.kubernetes.io/enforce-version': 'v1.20' }).policy)).toEqual([
      'privileged:v1.20',
      'privileged:latest',
      'privileged:latest',
    ]);
  });

  it('fails closed on an invalid enforce level and open on invalid audit and warn levels, reporting each label', () => {
    const { policy, errors } = policyToEvaluate({
      'pod-security.kubernetes.io/enforce': 'bogus',
      'pod-security.kubernetes.io/audit': 'bogus',
      'pod-security.kubernetes.io/warn': 'Restricted',
      'pod-security.kubernetes.io/warn-version': '1.30',
    });
    expect(modes(policy)).toEqual(['restricted:latest', 'privileged:latest', 'privileged:latest']);
    expect(errors.map((e) => `${e.field}: ${e.body}`)).toEqual([
      'metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "bogus": must be one of privileged, baseline, restricted',
      'metadata.labels[pod-security.kubernetes.io/audit]: Invalid value: "bogus": must be one of privileged, baseline, restricted',
      'metadata.labels[pod-security.kubernetes.io/warn]: Invalid value: "Restricted": must be one of privileged, baseline, restricted',
      'metadata.labels[pod-security.kubernetes.io/warn-version]: Invalid value: "1.30": must be "latest" or "v1.x"',
    ]);
    expect(errors.every((e) => e.type === 'FieldValueInvalid')).toBe(true);
  });

  it('reads an invalid version as latest', () => {
    const { policy, errors } = policyToEvaluate({ 'pod-security.kubernetes.io/enforce': 'baseline', 'pod-security.kubernetes.io/enforce-version': 'v1.30.1' });
    expect(modes(policy)[0]).toBe('baseline:latest');
    expect(errors).toHaveLength(1);
  });

  it('starts from the configured defaults, which labels override mode by mode', () => {
    const { defaultPolicy } = resolveConfiguration({ defaults: { enforce: 'baseline', 'enforce-version': 'v1.30', warn: 'restricted' } });
    expect(modes(defaultPolicy)).toEqual(['baseline:v1.30', 'privileged:latest', 'restricted:latest']);
    expect(modes(policyToEvaluate({}, defaultPolicy).policy)).toEqual(modes(defaultPolicy));
    expect(modes(policyToEvaluate({ 'pod-security.kubernetes.io/enforce': 'restricted' }, defaultPolicy).policy)).toEqual([
      'restricted:v1.30',
      'privileged:latest',
      'restricted:latest',
    ]);
  });
});

describe('the plugin configuration (PodSecurityConfiguration)', () => {
  it('defaults to privileged:latest and no exemptions', () => {
    expect(resolveConfiguration()).toEqual({ defaultPolicy: DEFAULT_POLICY, exemptions: { usernames: [], namespaces: [], runtimeClasses: [] } });
  });

  it('refuses invalid defaults, as the apiserver refuses to start with them', () => {
    expect(() => resolveConfiguration({ defaults: { audit: 'strict' } })).toThrow('defaults.audit: must be one of privileged, baseline, restricted');
    expect(() => resolveConfiguration({ defaults: { 'warn-version': '1.2' } })).toThrow('defaults.warn-version: must be "latest" or "v1.x"');
  });
});
