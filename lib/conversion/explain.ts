import { resolveEndpoint } from '../call/endpoint';
import type { AdmissionAttributes } from '../kube/attributes';
import type { ResourceCatalog } from '../kube/catalog';

/** What kube-apiserver's CRD handler converts around a request, and where the ConversionReviews go. */
export interface ConversionView {
  crd: string;
  strategy: 'None' | 'Webhook';
  /** The webhook's URL as kube-apiserver prints it (Webhook strategy only). */
  url?: string;
  /** The version objects are stored at, and the request's. */
  storage: string;
  version: string;
  /** One line per conversion the request (or a read at another version) makes. */
  lines: string[];
}

/**
 * The conversions a request to a custom resource makes (converter.go `ConvertToVersion`): a write at
 * another version than the stored one converts the object to the storage version and the stored object
 * back for the answer; every read at another version converts each object, one ConversionReview per
 * object for the Webhook strategy (a LIST of 3 sends 3). Undefined for built-in resources.
 */
export function explainConversion(catalog: ResourceCatalog, attributes: AdmissionAttributes): ConversionView | undefined {
  const entry = catalog.resourceForKind(attributes.kind);
  const conversion = entry?.conversion;
  if (!entry || !conversion) return undefined;
  const group = attributes.kind.group;
  const storage = entry.storageVersion ?? attributes.kind.version;
  const version = attributes.kind.version;
  const webhook = conversion.strategy === 'Webhook' && conversion.webhook;
  let url: string | undefined;
  if (webhook) {
    try {
      url = `${resolveEndpoint(webhook.clientConfig).url}?timeout=30s`;
    } catch {
      url = undefined;
    }
  }
  const how = webhook ? `a ConversionReview to ${url ?? 'the conversion webhook'}` : 'the apiVersion rewritten (strategy None)';
  const others = conversion.versions.filter((v) => v !== storage);
  const lines: string[] = [];
  const writes = attributes.operation === 'CREATE' || attributes.operation === 'UPDATE';
  if (writes && version !== storage)
    lines.push(
      `this ${attributes.operation} at ${version}: the object to ${group}/${storage} to be stored, and the stored object back to ${version} for the answer, each ${how}`,
    );
  if (writes && version === storage) lines.push(`this ${attributes.operation} at the storage version ${storage}: no conversion`);
  if (others.length > 0) lines.push(`a GET, LIST or WATCH at ${others.join(' or ')}: each object from ${storage}, ${how} per object (a LIST of 3 sends 3)`);
  return { crd: conversion.crd, strategy: conversion.strategy, ...(url ? { url } : {}), storage, version, lines };
}
