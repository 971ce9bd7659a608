import {
  compareCells,
  conversionCell,
  copyCell,
  IMAGE_REVIEW_ANSWERS,
  IMAGE_REVIEW_REQUESTS,
  imageReviewCell,
  type ConversionCell,
  type CoverageCell,
  type ImageReviewAnswer,
  type ImageReviewCell,
} from './cell';
import { webhookSummary, type CoverageKind, type WebhookSummary } from './summary';

/**
 * The coverage of a webhook that is no admission webhook of the manifests (an ImagePolicyWebhook
 * backend, a CRD's conversion webhook): its cells and which are covered, summarised as admission
 * webhooks are, so that the table, the reporter, the HTML page and a merge read it the same way.
 */
export interface KindCoverage {
  readonly type: CoverageKind;
  readonly configuration: string;
  readonly name: string;
  cells(): CoverageCell[];
  summary(): WebhookSummary;
}

/** Cells enumerated up front, more added as requests show them, covered by key. */
type KindCell = ImageReviewCell | ConversionCell;

abstract class CellCoverage implements KindCoverage {
  readonly #cells = new Map<string, KindCell>();
  readonly #covered = new Set<string>();

  constructor(
    readonly type: CoverageKind,
    readonly configuration: string,
    readonly name: string,
    cells: readonly KindCell[],
  ) {
    for (const cell of cells) this.#cells.set(cell.key, cell);
  }

  protected cover(cell: KindCell): void {
    if (!this.#cells.has(cell.key)) this.#cells.set(cell.key, { ...cell, seen: true });
    this.#covered.add(cell.key);
  }

  cells(): CoverageCell[] {
    return [...this.#cells.values()].sort(compareCells).map(copyCell);
  }

  summary(): WebhookSummary {
    return webhookSummary({ type: this.type, configuration: this.configuration, name: this.name }, this.cells(), this.#covered, { outside: [] });
  }
}

/** What an ImagePolicyWebhook review came to, as coverage reads it. */
export interface ImageReviewRecord {
  operation: string;
  subResource: string;
  answer: ImageReviewAnswer;
}

/**
 * An ImagePolicyWebhook backend: each request kind the plugin reviews × each answer, 9 cells. The
 * configuration is the backend's server as its kubeconfig writes it, which names the backend across runs.
 */
export class ImageReviewCoverage extends CellCoverage {
  constructor(server: string) {
    super(
      'ImagePolicyWebhook',
      server,
      'ImagePolicyWebhook',
      IMAGE_REVIEW_REQUESTS.flatMap((request) => IMAGE_REVIEW_ANSWERS.map((answer) => imageReviewCell(request, answer))),
    );
  }

  record({ operation, subResource, answer }: ImageReviewRecord): void {
    this.cover(imageReviewCell(`${operation} pods${subResource ? `/${subResource}` : ''}`, answer));
  }
}

/**
 * A CRD's conversion webhook: every ordered pair of the versions it can be asked to convert between. A
 * served version is read and written at; the storage version is what objects are read from and written to
 * even when not served, so it is one of them too. Versions neither served nor stored are no cell.
 */
export class ConversionCoverage extends CellCoverage {
  readonly #versions: readonly string[];

  /** `declared`: spec.versions in order; `reachable`: the served versions and the storage version. */
  constructor(crd: string, webhook: string, declared: readonly string[], reachable: readonly string[]) {
    const versions = declared.filter((version) => reachable.includes(version));
    super(
      'conversion',
      crd,
      webhook,
      versions.flatMap((from) => versions.filter((to) => to !== from).map((to) => conversionCell(from, to, declared))),
    );
    this.#versions = declared;
  }

  /** A ConversionReview sent for an object at `from`, desired at `to` (versions, without the group). */
  record(from: string, to: string): void {
    this.cover(conversionCell(from, to, this.#versions));
  }
}
