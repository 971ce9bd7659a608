import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { parseManifestFile } from '../config/parse';
import { auditEventsFrom, fixturesToYaml, reviewsFromAudit, writeFixtures, type ObjectsSource } from '../audit';
import { HarnessError } from '../errors';
import type { KubeObject, Operation, UserInfo } from '../kube/admission';
import { defaultCatalog, type CatalogEntry } from '../kube/catalog';
import { review } from '../review/builders';
import { encodeReview } from '../review/encode';
import { objects } from '../review/objects';
import { SeededRandom } from '../random';
import type { Review } from '../review/review';

export interface ReviewArgs {
  target: string;
  operation: string;
  namespace?: string;
  name?: string;
  dryRun: boolean;
  version: string;
  seed: number;
  user?: string;
  groups: string[];
  object?: string;
  oldObject?: string;
  crd?: string;
  uid?: string;
  /** Write the review as a RecordedReview fixture file in this directory instead of printing it. */
  outDir?: string;
}

const OPERATIONS: readonly Operation[] = ['CREATE', 'UPDATE', 'DELETE', 'CONNECT'];

function readObject(file: string): KubeObject {
  const [document] = parseManifestFile(file, 'USAGE');
  if (!document || typeof document.value !== 'object' || document.value === null) throw new HarnessError('USAGE', `${file}: expected one Kubernetes object`);
  return document.value as KubeObject;
}

/** `pods`, `deployments.apps`, `pods/exec`: the catalog entry and subresource named. */
function resolveTarget(target: string): { entry: CatalogEntry; subResource: string } {
  const [qualified = '', subResource = ''] = target.split('/', 2);
  const dot = qualified.indexOf('.');
  const resource = dot < 0 ? qualified : qualified.slice(0, dot);
  const group = dot < 0 ? undefined : qualified.slice(dot + 1);
  const candidates = defaultCatalog
    .resources()
    .filter((e) => (e.resource === resource || e.singular === resource) && (group === undefined ? true : e.group === group));
  // The core group wins a bare name (`events`), as kubectl resolves it.
  const entry = candidates.find((e) => e.group === '') ?? candidates[0];
  if (!entry)
    throw new HarnessError(
      'USAGE',
      `unknown resource ${JSON.stringify(qualified)}`,
      'name a plural resource, e.g. pods, deployments.apps, or register a CRD with --crd FILE',
    );
  if (subResource && !entry.subresources.some((s) => s.name === subResource && s.admitted)) {
    const known = entry.subresources.filter((s) => s.admitted).map((s) => s.name);
    throw new HarnessError(
      'USAGE',
      `${entry.resource} has no admitted subresource ${JSON.stringify(subResource)}`,
      known.length > 0 ? `choose one of ${known.join(', ')}` : `${entry.resource} has no subresources`,
    );
  }
  return { entry, subResource };
}

/** A generated object of the entry's kind, or one from the CRD's schema. */
function generated(entry: CatalogEntry, random: SeededRandom, stored: boolean, crd: object | undefined, overrides: Record<string, unknown>): KubeObject {
  const key = entry.kind.charAt(0).toLowerCase() + entry.kind.slice(1);
  const generate = (objects as unknown as Record<string, ((input: object, options: object) => KubeObject) | undefined>)[key];
  if (generate && typeof generate === 'function' && !['custom', 'fromYaml', 'stored'].includes(key)) return generate(overrides, { random, stored });
  if (crd) return objects.custom(crd, overrides as never, { random, stored });
  throw new HarnessError('USAGE', `the harness generates no ${entry.kind} objects`, 'give one with --object FILE');
}

function build(args: ReviewArgs, random: SeededRandom): Review {
  const operation = args.operation.toUpperCase() as Operation;
  if (!OPERATIONS.includes(operation))
    throw new HarnessError('USAGE', `unknown operation ${JSON.stringify(args.operation)}`, 'use CREATE, UPDATE, DELETE or CONNECT');
  const crd = args.crd ? readObject(args.crd) : undefined;
  if (crd) defaultCatalog.registerCustomResourceDefinition(crd);
  const { entry, subResource } = resolveTarget(args.target);
  const overrides = { ...(args.name ? { name: args.name } : {}), ...(args.namespace && entry.namespaced ? { namespace: args.namespace } : {}) };
  const user: UserInfo | undefined = args.user ? { username: args.user, groups: [...args.groups, 'system:authenticated'] } : undefined;
  const options = { ...(args.dryRun ? { dryRun: true } : {}), ...(user ? { userInfo: user } : {}), random };
  const given = args.object ? readObject(args.object) : undefined;
  const object = () => given ?? generated(entry, random, false, crd, overrides);
  const storedObject = () => (args.oldObject ? readObject(args.oldObject) : given ? objects.stored(given) : generated(entry, random, true, crd, overrides));
  const sub = entry.subresources.find((s) => s.name === subResource);
  if (operation === 'CONNECT') {
    if (!sub?.connect)
      throw new HarnessError(
        'USAGE',
        `CONNECT needs a CONNECT subresource, e.g. ${entry.resource}/exec`,
        `${entry.resource} has ${
          entry.subresources
            .filter((s) => s.connect)
            .map((s) => s.name)
            .join(', ') || 'none'
        }`,
      );
    return review.connect(storedObject(), subResource, {}, { ...(user ? { userInfo: user } : {}) });
  }
  if (sub && !sub.operations.includes(operation))
    throw new HarnessError('USAGE', `${entry.resource}/${subResource} is not admitted for ${operation}`, `it is admitted for ${sub.operations.join(', ')}`);
  switch (`${operation} ${subResource}`) {
    case 'CREATE ':
      return review.create(object(), options);
    case 'UPDATE ': {
      const old = storedObject();
      const next = given ?? { ...old, metadata: { ...old.metadata, labels: { ...(old.metadata?.labels ?? {}), updated: 'true' } } };
      return review.update(old, next, options);
    }
    case 'DELETE ':
      return review.delete(storedObject(), options);
    case 'UPDATE status':
      return review.status(storedObject(), {}, options);
    case 'UPDATE scale':
      return review.scale(storedObject(), 3, options);
    case 'CREATE eviction':
      return review.evict(storedObject(), options);
    case 'CREATE binding':
      return review.bind(storedObject(), 'node-1', options);
    case 'CREATE token':
      return review.token(storedObject(), options);
    case 'UPDATE ephemeralcontainers':
      return review.debug(storedObject(), options);
    case 'UPDATE finalize':
      return review.finalize(storedObject(), options);
    case 'UPDATE resize':
      return review.resize(storedObject(), {}, options);
    default:
      throw new HarnessError(
        'USAGE',
        `no builder for ${operation} ${entry.resource}/${subResource}`,
        'give the request as an AdmissionReview file to `explain` or a suite instead',
      );
  }
}

/** `admission-harness review`: prints one AdmissionReview; the same seed gives the same bytes but for the uid. */
export function reviewCommand(args: ReviewArgs, out: (text: string) => void): number {
  if (args.version !== 'v1' && args.version !== 'v1beta1')
    throw new HarnessError('USAGE', `--version takes v1 or v1beta1, got ${JSON.stringify(args.version)}`);
  const random = new SeededRandom(args.seed);
  const built = build(args, random);
  // kube-apiserver gives every call a fresh uid; the rest of the review follows from the seed.
  const uid = args.uid ?? randomUUID();
  const encoded = encodeReview(built.attributes, args.version, uid);
  if (!args.outDir) {
    out(JSON.stringify(encoded, null, 2));
    return 0;
  }
  // The client's request, replayed as an admission (kind RecordedAdmission): through the built-in
  // plugins and every webhook it reaches, each one's answer recorded by `replay --update`. What a built
  // review cannot know is said in its limits, as the other fixtures' are.
  const source: ObjectsSource = {
    from: 'objects',
    request: `${args.target} ${args.operation.toUpperCase()}`,
    ...(args.object ? { object: args.object } : {}),
    ...(args.oldObject ? { oldObject: args.oldObject } : {}),
    seed: args.seed,
  };
  const limits = [
    ...(args.user ? [] : ["userInfo: the harness's default user, not who made a real request (give --user and --group)"]),
    ...(args.object ? [] : ['object: generated from the seed, not a real object (give --object FILE)']),
    ...(encoded.request?.namespace
      ? [`namespace ${encoded.request.namespace}: replay declares it without labels (a namespaceSelector reading other labels needs it declared with them)`]
      : []),
  ];
  const [file] = writeFixtures(args.outDir, [{ source, request: encoded.request!, limits, admission: true }]);
  out(`wrote ${file}`);
  return 0;
}

export interface AuditReviewArgs {
  /** The audit log (JSON lines of audit.k8s.io/v1 Events, or an EventList). */
  audit: string;
  /** Where to write one fixture file per review; stdout (a YAML stream) without it. */
  outDir?: string;
  crd?: string;
}

/**
 * `review --from-audit FILE [--out DIR]`: the AdmissionReviews kube-apiserver would have sent for the
 * requests of an audit log (lib/audit), as RecordedReview fixtures. What the conversion skipped, and
 * why, heads the output.
 */
export function reviewFromAuditCommand(args: AuditReviewArgs, out: (text: string) => void): number {
  let text: string;
  try {
    text = readFileSync(args.audit, 'utf8');
  } catch (error) {
    throw new HarnessError(
      'USAGE',
      `--from-audit ${args.audit}: ${(error as Error).message}`,
      'pass the audit log kube-apiserver wrote (--audit-log-path), at level Request or RequestResponse',
    );
  }
  const catalog = defaultCatalog.copy();
  if (args.crd) catalog.registerCustomResourceDefinition(readObject(args.crd));
  const conversion = reviewsFromAudit(auditEventsFrom(text, args.audit), catalog);
  const skipped = Object.entries(conversion.skippedByReason)
    .map(([reason, count]) => `${reason} ${count}`)
    .join(', ');
  const summary = `${conversion.requests} requests in ${args.audit}, ${conversion.reviews.length} reviews${skipped ? `; skipped: ${skipped}` : ''}`;
  if (args.outDir) {
    const written = writeFixtures(args.outDir, conversion.reviews);
    out([summary, ...written].join('\n'));
  } else {
    out(`# ${summary}\n${fixturesToYaml(conversion.reviews)}`);
  }
  return 0;
}
