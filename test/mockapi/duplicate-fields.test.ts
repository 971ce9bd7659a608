import { ResourceCatalog } from '../../lib/kube/catalog';
import { startMockApi, type MockApi } from '../../lib/mockapi';
import { call, objectOf, type Reply } from './client';

/*
 * Repeated keys in a write's body under `?fieldValidation`, with the bodies and the expected texts of
 * kube's field validation integration test (kubernetes test/integration/apiserver/field_validation_test.go:
 * testFieldValidationPost, Put, PatchTyped, SMP, ApplyCreate): sigs.k8s.io/json's `duplicate field "<path>"`
 * for JSON, go-yaml's `line N: key "x" already set in map` for YAML, in the order kube-apiserver lists them.
 */

let api: MockApi;
beforeAll(async () => {
  api = await startMockApi({ seed: 11, namespaces: [{ name: 'team-a' }] });
}, 60_000);
afterAll(() => api.close());

const DEPLOYMENTS = '/apis/apps/v1/namespaces/team-a/deployments';

/** The texts of a reply's `Warning` headers (`299 - "…"`, joined by commas), unescaped. */
function warningsOf(reply: Reply): string[] {
  const header = reply.headers.get('warning') ?? '';
  return [...header.matchAll(/299 - "((?:[^"\\]|\\.)*)"/g)].map((m) => (m[1] ?? '').replace(/\\(.)/g, '$1'));
}

const messageOf = (reply: Reply): string => (reply.body as { message: string }).message;

const invalidBodyJSON = (name: string) => `
	{
		"apiVersion": "apps/v1",
		"kind": "Deployment",
		"metadata": {
			"name": "dupename",
			"name": "${name}",
			"labels": {"app": "nginx"},
			"unknownMeta": "metaVal"
		},
		"spec": {
			"unknown1": "val1",
			"unknownDupe": "valDupe",
			"unknownDupe": "valDupe2",
			"paused": true,
			"paused": false,
			"selector": {
				"matchLabels": {
					"app": "nginx"
				}
			},
			"template": {
				"metadata": {
					"labels": {
						"app": "nginx"
					}
				},
				"spec": {
					"containers": [{
						"name":  "nginx",
						"image": "nginx:latest",
						"unknownNested": "val1",
						"imagePullPolicy": "Always",
						"imagePullPolicy": "Never"
					}]
				}
			}
		}
	}
		`;

const invalidBodyYAML = (name: string) => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: dupename
  name: ${name}
  unknownMeta: metaVal
  labels:
    app: nginx
spec:
  unknown1: val1
  unknownDupe: valDupe
  unknownDupe: valDupe2
  paused: true
  paused: false
  selector:
    matchLabels:
      app: nginx
  template:
    metadata:
      labels:
        app: nginx
    spec:
      containers:
      - name: nginx
        image: nginx:latest
        unknownNested: val1
        imagePullPolicy: Always
        imagePullPolicy: Never`;

const JSON_WARNINGS = [
  'duplicate field "metadata.name"',
  'unknown field "metadata.unknownMeta"',
  'unknown field "spec.unknown1"',
  'unknown field "spec.unknownDupe"',
  'duplicate field "spec.paused"',
  'unknown field "spec.template.spec.containers[0].unknownNested"',
  'duplicate field "spec.template.spec.containers[0].imagePullPolicy"',
];

const YAML_WARNINGS = [
  'line 5: key "name" already set in map',
  'line 12: key "unknownDupe" already set in map',
  'line 14: key "paused" already set in map',
  'line 28: key "imagePullPolicy" already set in map',
  'unknown field "metadata.unknownMeta"',
  'unknown field "spec.template.spec.containers[0].unknownNested"',
  'unknown field "spec.unknown1"',
  'unknown field "spec.unknownDupe"',
];

describe('a create or update whose JSON body repeats keys', () => {
  it('Strict refuses it, repeats and unknown fields interleaved in the order the body has them', async () => {
    const reply = await call(api, 'POST', `${DEPLOYMENTS}?fieldValidation=Strict`, invalidBodyJSON('post-strict'));
    expect(reply.status).toBe(400);
    expect(messageOf(reply)).toBe(`Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: ${JSON_WARNINGS.join(', ')}`);
    expect((await call(api, 'GET', `${DEPLOYMENTS}/post-strict`)).status).toBe(404);
  });

  it('Warn (the default) warns about each and keeps the last value of a repeated key', async () => {
    const reply = await call(api, 'POST', DEPLOYMENTS, invalidBodyJSON('post-warn'));
    expect(reply.status).toBe(201);
    expect(warningsOf(reply)).toEqual(JSON_WARNINGS);
    const stored = objectOf(reply) as {
      metadata: { name: string };
      spec: { paused: boolean; template: { spec: { containers: { imagePullPolicy: string }[] } } };
    };
    expect([stored.metadata.name, stored.spec.paused, stored.spec.template.spec.containers[0]?.imagePullPolicy]).toEqual(['post-warn', false, 'Never']);
  });

  it('Ignore says nothing', async () => {
    const reply = await call(api, 'POST', `${DEPLOYMENTS}?fieldValidation=Ignore`, invalidBodyJSON('post-ignore'));
    expect([reply.status, reply.headers.get('warning')]).toEqual([201, null]);
  });

  it('an update is read the same way', async () => {
    const put = await call(api, 'PUT', `${DEPLOYMENTS}/post-warn?fieldValidation=Strict`, invalidBodyJSON('post-warn'));
    expect(put.status).toBe(400);
    expect(messageOf(put)).toMatch(/strict decoding error: duplicate field "metadata\.name", unknown field "metadata\.unknownMeta"/);
    const warned = await call(api, 'PUT', `${DEPLOYMENTS}/post-warn`, invalidBodyJSON('post-warn'));
    expect([warned.status, warningsOf(warned)]).toEqual([200, JSON_WARNINGS]);
  });

  it('a built-in kind decodes a repeated object into the earlier one, as into its Go struct', async () => {
    const body = '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"merged","namespace":"team-a"},"metadata":{"labels":{"a":"1"}},"data":{"k":"v"}}';
    const reply = await call(api, 'POST', '/api/v1/namespaces/team-a/configmaps', body);
    expect([reply.status, objectOf(reply).metadata?.name, objectOf(reply).metadata?.labels]).toEqual([201, 'merged', { a: '1' }]);
    expect(warningsOf(reply)).toEqual(['duplicate field "metadata"']);
  });

  it('a repeated key of a map (labels) is named by its path too', async () => {
    const body = `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"labelled","labels":{"a":"1","a":"2"}},"data":{"k":"v","k":"w"}}`;
    const reply = await call(api, 'POST', '/api/v1/namespaces/team-a/configmaps', body);
    expect(warningsOf(reply)).toEqual(['duplicate field "metadata.labels.a"', 'duplicate field "data.k"']);
    expect(objectOf(reply).data).toEqual({ k: 'w' });
  });
});

describe('a YAML body', () => {
  it('Strict refuses it with go-yaml’s list of repeated keys, then the unknown fields sorted by key', async () => {
    const reply = await call(api, 'POST', `${DEPLOYMENTS}?fieldValidation=Strict`, invalidBodyYAML('yaml-strict'), 'application/yaml');
    expect(reply.status).toBe(400);
    const [lines, unknown] = [YAML_WARNINGS.slice(0, 4), YAML_WARNINGS.slice(4)];
    expect(messageOf(reply)).toBe(
      `Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: yaml: unmarshal errors:\n  ${lines.join('\n  ')}, ${unknown.join(', ')}`,
    );
  });

  it('Warn warns about each repeated key on its own, and the object is created from the YAML', async () => {
    const reply = await call(api, 'POST', DEPLOYMENTS, invalidBodyYAML('yaml-warn'), 'application/yaml');
    expect([reply.status, warningsOf(reply)]).toEqual([201, YAML_WARNINGS]);
    expect(objectOf(reply).metadata?.name).toBe('yaml-warn');
  });

  it('Ignore says nothing', async () => {
    const reply = await call(api, 'POST', `${DEPLOYMENTS}?fieldValidation=Ignore`, invalidBodyYAML('yaml-ignore'), 'application/yaml');
    expect([reply.status, reply.headers.get('warning')]).toEqual([201, null]);
  });

  it('only the first document of a stream is read, as go-yaml’s Unmarshal reads it', async () => {
    const stream = '---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: first\n---\nnot: [read\n';
    const reply = await call(api, 'POST', '/api/v1/namespaces/team-a/configmaps', stream, 'application/yaml');
    expect([reply.status, objectOf(reply).metadata?.name]).toEqual([201, 'first']);
  });
});

const validDeployment = (name: string) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name, namespace: 'team-a', labels: { app: 'nginx' } },
  spec: {
    selector: { matchLabels: { app: 'nginx' } },
    template: {
      metadata: { labels: { app: 'nginx' } },
      spec: { containers: [{ name: 'nginx', image: 'nginx:latest', imagePullPolicy: 'Always' }] },
    },
    replicas: 2,
  },
});

const mergePatchBody = `
{
	"spec": {
		"unknown1": "val1",
		"unknownDupe": "valDupe",
		"unknownDupe": "valDupe2",
		"paused": true,
		"paused": false,
		"template": {
			"spec": {
				"containers": [{
					"name": "nginx",
					"image": "nginx:latest",
					"unknownNested": "val1",
					"imagePullPolicy": "Always",
					"imagePullPolicy": "Never"
				}]
			}
		}
	}
}
	`;

const jsonPatchBody = `
			[
				{"op": "add", "path": "/spec/unknown1", "value": "val1", "foo":"bar"},
				{"op": "add", "path": "/spec/unknown2", "path": "/spec/unknown3", "value": "val1"},
				{"op": "add", "path": "/spec/unknownDupe", "value": "valDupe"},
				{"op": "add", "path": "/spec/unknownDupe", "value": "valDupe2"},
				{"op": "add", "path": "/spec/paused", "value": true},
				{"op": "add", "path": "/spec/paused", "value": false},
				{"op": "add", "path": "/spec/template/spec/containers/0/unknownNested", "value": "val1"},
				{"op": "add", "path": "/spec/template/spec/containers/0/imagePullPolicy", "value": "Always"},
				{"op": "add", "path": "/spec/template/spec/containers/0/imagePullPolicy", "value": "Never"}
			]
			`;

const PATCH_WARNINGS = [
  'duplicate field "spec.unknownDupe"',
  'duplicate field "spec.paused"',
  'duplicate field "spec.template.spec.containers[0].imagePullPolicy"',
  'unknown field "spec.template.spec.containers[0].unknownNested"',
  'unknown field "spec.unknown1"',
  'unknown field "spec.unknownDupe"',
];

describe('a patch that repeats keys', () => {
  beforeAll(async () => {
    expect((await call(api, 'POST', DEPLOYMENTS, validDeployment('patched'))).status).toBe(201);
  });

  it.each([
    ['merge', 'application/merge-patch+json'],
    ['strategic merge', 'application/strategic-merge-patch+json'],
  ])('a %s patch: its own repeats first, then the patched object’s unknown fields sorted by key', async (_name, type) => {
    const reply = await call(api, 'PATCH', `${DEPLOYMENTS}/patched`, mergePatchBody, type);
    expect([reply.status, warningsOf(reply)]).toEqual([200, PATCH_WARNINGS]);
  });

  it('the patched object’s unknown fields come in key order, not the order the object holds them', async () => {
    const reply = await call(api, 'PATCH', `${DEPLOYMENTS}/patched`, '{"spec": {"zzz": 1}, "aaa": 1}', 'application/merge-patch+json');
    expect(warningsOf(reply)).toEqual(['unknown field "aaa"', 'unknown field "spec.zzz"']);
  });

  it('Strict refuses a patch whose only fault is a repeat, as patch.go’s 422', async () => {
    const body = '{"spec": {"paused": true, "paused": false}}';
    const reply = await call(api, 'PATCH', `${DEPLOYMENTS}/patched?fieldValidation=Strict`, body, 'application/merge-patch+json');
    expect(reply.status).toBe(422);
    expect(messageOf(reply)).toMatch(/^ "" is invalid: patch: Invalid value: ".*": strict decoding error: duplicate field "spec\.paused"$/s);
  });

  it('a JSON patch: its operations’ unknown and repeated members, prefixed, then the patched object’s', async () => {
    const reply = await call(api, 'PATCH', `${DEPLOYMENTS}/patched`, jsonPatchBody, 'application/json-patch+json');
    expect([reply.status, warningsOf(reply)]).toEqual([
      200,
      [
        'json patch unknown field "[0].foo"',
        'json patch duplicate field "[1].path"',
        'unknown field "spec.template.spec.containers[0].unknownNested"',
        'unknown field "spec.unknown1"',
        'unknown field "spec.unknown3"',
        'unknown field "spec.unknownDupe"',
      ],
    ]);
  });

  it('Ignore says nothing', async () => {
    const reply = await call(api, 'PATCH', `${DEPLOYMENTS}/patched?fieldValidation=Ignore`, mergePatchBody, 'application/merge-patch+json');
    expect([reply.status, reply.headers.get('warning')]).toEqual([200, null]);
  });
});

const applyInvalidBody = (name: string) => `{
		"apiVersion": "apps/v1",
		"kind": "Deployment",
		"metadata": {
			"name": "${name}",
			"labels": {"app": "nginx"}
		},
		"spec": {
			"paused": false,
			"paused": true,
			"selector": {
				"matchLabels": {
					"app": "nginx"
				}
			},
			"template": {
				"metadata": {
					"labels": {
						"app": "nginx"
					}
				},
				"spec": {
					"containers": [{
						"name":  "nginx",
						"image": "nginx:latest",
						"imagePullPolicy": "Never",
						"imagePullPolicy": "Always"
					}]
				}
			}
		}
	}`;

describe('a server-side apply that repeats keys', () => {
  const APPLY = 'application/apply-patch+yaml';

  it('Strict refuses it with sigs.k8s.io/yaml’s strict decoding error (400), creating nothing', async () => {
    const path = `${DEPLOYMENTS}/apply-strict?fieldManager=mgr&fieldValidation=Strict`;
    const reply = await call(api, 'PATCH', path, applyInvalidBody('apply-strict'), APPLY);
    expect(reply.status).toBe(400);
    expect(messageOf(reply)).toBe(
      'error strict decoding YAML: error converting YAML to JSON: yaml: unmarshal errors:\n  line 10: key "paused" already set in map\n  line 27: key "imagePullPolicy" already set in map',
    );
    expect((await call(api, 'GET', `${DEPLOYMENTS}/apply-strict`)).status).toBe(404);
  });

  it('Warn applies it (the last value of a key) and warns about each repeat', async () => {
    const reply = await call(api, 'PATCH', `${DEPLOYMENTS}/apply-warn?fieldManager=mgr`, applyInvalidBody('apply-warn'), APPLY);
    expect([reply.status, warningsOf(reply)]).toEqual([201, ['line 10: key "paused" already set in map', 'line 27: key "imagePullPolicy" already set in map']]);
    expect((objectOf(reply) as { spec: { paused: boolean } }).spec.paused).toBe(true);
    const again = await call(api, 'PATCH', `${DEPLOYMENTS}/apply-warn?fieldManager=mgr&fieldValidation=Strict`, applyInvalidBody('apply-warn'), APPLY);
    expect(again.status).toBe(400);
  });

  it('Ignore says nothing', async () => {
    const path = `${DEPLOYMENTS}/apply-ignore?fieldManager=mgr&fieldValidation=Ignore`;
    const reply = await call(api, 'PATCH', path, applyInvalidBody('apply-ignore'), APPLY);
    expect([reply.status, reply.headers.get('warning')]).toEqual([201, null]);
  });
});

describe('a custom resource, decoded into a map', () => {
  let widgets: MockApi;
  const WIDGETS = '/apis/example.com/v1/namespaces/team-a/widgets';
  beforeAll(async () => {
    const catalog = new ResourceCatalog();
    const schema = { type: 'object', properties: { spec: { type: 'object', properties: { knownField1: { type: 'string' } } } } };
    catalog.register({ group: 'example.com', version: 'v1', kind: 'Widget', resource: 'widgets', namespaced: true, schema });
    widgets = await startMockApi({ seed: 12, catalog, namespaces: [{ name: 'team-a' }] });
  }, 60_000);
  afterAll(() => widgets.close());

  it('lists every repeated key first, one under an unknown field too, then the fields its schema prunes', async () => {
    const body = `{"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "dupename", "name": "w1"},
      "spec": {"unknown1": "val1", "unknownDupe": "valDupe", "unknownDupe": "valDupe2", "knownField1": "val1", "knownField1": "val2"}}`;
    const strict = await call(widgets, 'POST', `${WIDGETS}?fieldValidation=Strict`, body);
    expect(messageOf(strict)).toBe(
      'Widget in version "v1" cannot be handled as a Widget: strict decoding error: duplicate field "metadata.name", duplicate field "spec.unknownDupe", ' +
        'duplicate field "spec.knownField1", unknown field "spec.unknown1", unknown field "spec.unknownDupe"',
    );
    const warned = await call(widgets, 'POST', WIDGETS, body);
    expect(warned.status).toBe(201);
    expect(warningsOf(warned)).toEqual([
      'duplicate field "metadata.name"',
      'duplicate field "spec.unknownDupe"',
      'duplicate field "spec.knownField1"',
      'unknown field "spec.unknown1"',
      'unknown field "spec.unknownDupe"',
    ]);
    expect(objectOf(warned).spec).toEqual({ knownField1: 'val2' });
  });
});
