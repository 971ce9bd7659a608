// The plugin's configuration as kube-apiserver reads it: the AdmissionConfiguration entry (inline or by
// path), normalizeWebhookConfig's defaults, sentinels and ranges (plugin/pkg/admission/imagepolicy
// config.go), and the backend kubeconfig (its current context, files relative to it).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { imagePolicySettings, pluginConfiguration } from '../../lib/imagepolicy/config';
import { backendConnection } from '../../lib/imagepolicy/kubeconfig';
import { goDuration } from '../../lib/go/duration';

const settings = (imagePolicy: Record<string, unknown>) => imagePolicySettings({ imagePolicy: { kubeConfigFile: 'k', ...imagePolicy } }, 'admission.yaml');

describe('normalizeWebhookConfig', () => {
  it('0 takes the defaults (allow 5m, deny 30s, backoff 500ms); -1 disables', () => {
    expect(settings({})).toEqual({ kubeConfigFile: 'k', allowTtlMs: 300_000, denyTtlMs: 30_000, retryBackoffMs: 500, defaultAllow: false });
    expect(settings({ allowTTL: -1, denyTTL: -1, retryBackoff: -1, defaultAllow: true })).toEqual({
      kubeConfigFile: 'k',
      allowTtlMs: 0,
      denyTtlMs: 0,
      retryBackoffMs: 0,
      defaultAllow: true,
    });
    expect(settings({ allowTTL: 50, denyTTL: 50, retryBackoff: 500 })).toMatchObject({ allowTtlMs: 50_000, denyTtlMs: 50_000, retryBackoffMs: 500 });
  });

  it.each([
    [{ allowTTL: 1 }, 'valid value is between 1s and 30m0s, got 1s'],
    [{ denyTTL: 1801 }, 'valid value is between 1s and 30m0s, got 30m1s'],
    [{ retryBackoff: 300001 }, 'valid value is between 1ns and 5m0s, got 5m0.001s'],
    [{ retryBackoff: -2 }, 'valid value is between 1ns and 5m0s, got -2ms'],
  ])('out of range %j: kube-apiserver refuses to start', (given, text) => {
    expect(() => settings(given)).toThrow(`admission.yaml: ${text}`);
  });

  it('a misspelt field, a wrong type, a missing kubeConfigFile', () => {
    expect(() => settings({ allowTtl: 5 })).toThrow(/imagePolicy.allowTtl is not a field[\s\S]*did you mean "allowTTL"/);
    expect(() => settings({ defaultAllow: 'yes' })).toThrow(
      'json: cannot unmarshal "yes" into Go struct field imagePolicyWebhookConfig.imagePolicy.defaultAllow of type bool',
    );
    expect(() => settings({ allowTTL: 1.5 })).toThrow(
      /cannot unmarshal 1.5 into Go struct field imagePolicyWebhookConfig.imagePolicy.allowTTL of type time.Duration/,
    );
    expect(() => imagePolicySettings({ imagePolicy: {} }, 'a.yaml')).toThrow(/a.yaml: imagePolicy.kubeConfigFile must name/);
  });

  it('Go durations as errors print them', () => {
    expect([0, 1, 1500, 500e6, 1e9, 90e9, 3600e9, 1.5e9].map(goDuration)).toEqual(['0s', '1ns', '1.5µs', '500ms', '1s', '1m30s', '1h0m0s', '1.5s']);
  });
});

describe('files', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'imagepolicy-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('an AdmissionConfiguration whose entry has a path (relative to its directory), and a kubeconfig whose files are relative to it', () => {
    writeFileSync(
      path.join(dir, 'admission.yaml'),
      'apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n- name: ImagePolicyWebhook\n  path: imagepolicy.yaml\n',
    );
    writeFileSync(
      path.join(dir, 'imagepolicy.yaml'),
      'apiVersion: imagepolicy.config.k8s.io/v1alpha1\nkind: ImagePolicyWebhookConfiguration\nimagePolicy:\n  kubeConfigFile: backend.kubeconfig\n  allowTTL: 50\n',
    );
    const { document, source } = pluginConfiguration(path.join(dir, 'admission.yaml'));
    expect(source).toBe(path.join(dir, 'imagepolicy.yaml'));
    expect(imagePolicySettings(document, source)).toMatchObject({ kubeConfigFile: 'backend.kubeconfig', allowTtlMs: 50_000 });

    writeFileSync(path.join(dir, 'ca.pem'), 'PEM');
    writeFileSync(path.join(dir, 'token'), 'sekret\n');
    writeFileSync(
      path.join(dir, 'backend.kubeconfig'),
      'apiVersion: v1\nkind: Config\nclusters:\n- name: b\n  cluster:\n    server: https://images.example.com/policy\n    certificate-authority: ca.pem\nusers:\n- name: u\n  user:\n    tokenFile: token\ncontexts:\n- name: c\n  context: {cluster: b, user: u}\ncurrent-context: c\n',
    );
    const connection = backendConnection(path.join(dir, 'backend.kubeconfig'));
    expect(connection.server).toBe('https://images.example.com/policy');
    expect(connection.ca()).toBe('PEM');
    expect(connection.credentials).toEqual({ bearerToken: 'sekret' });
  });

  it('an AdmissionConfiguration without the plugin, and one with a misspelt name', () => {
    expect(() => pluginConfiguration({ kind: 'AdmissionConfiguration', plugins: [{ name: 'ImagePolicyWebhok', configuration: {} }] })).toThrow(
      /plugins has no entry named ImagePolicyWebhook \(did you mean "ImagePolicyWebhook"\?\)/,
    );
    expect(() => pluginConfiguration(path.join(dir, 'missing.yaml'))).toThrow(/the AdmissionConfiguration .*missing.yaml: ENOENT/);
    expect(() => backendConnection({ clusters: [], contexts: [{ name: 'a' }, { name: 'b' }], 'current-context': 'x' })).toThrow(
      /current-context "x" names no context/,
    );
  });
});
