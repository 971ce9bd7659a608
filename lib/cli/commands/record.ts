import { defineCommand } from '../command';
import { positive } from '../options';
import { recordCommand } from '../record';

/** `record`: what kube-apiserver sends webhooks, as fixtures (lib/cli/record.ts, lib/record/). */
export const recordCli = defineCommand({
  name: 'record',
  help: `record   record what kube-apiserver sends webhooks as fixtures, never interfering
           --out DIR [--upstream URL [--upstream-ca FILE]] [--cert FILE --key FILE | --host NAME...]
           [--max N] [--duration SECONDS] [--no-redact] [--redact POINTER]...
           answers every review allowed (or passes it to --upstream and returns its answer), prints the
           ValidatingWebhookConfiguration to apply; Secret data and credentials are redacted by default`,
  options: {
    out: { type: 'string' },
    upstream: { type: 'string' },
    'upstream-ca': { type: 'string' },
    cert: { type: 'string' },
    key: { type: 'string' },
    host: { type: 'string', multiple: true },
    max: { type: 'string' },
    duration: { type: 'string' },
    'no-redact': { type: 'boolean', default: false },
    redact: { type: 'string', multiple: true },
  },
  run(values, _positionals, out) {
    const max = positive('max', values.max, true);
    const duration = positive('duration', values.duration);
    return recordCommand(
      {
        out: values.out ?? '',
        ...(values.upstream ? { upstream: values.upstream } : {}),
        ...(values['upstream-ca'] ? { upstreamCa: values['upstream-ca'] } : {}),
        ...(values.cert ? { cert: values.cert } : {}),
        ...(values.key ? { key: values.key } : {}),
        hosts: values.host ?? [],
        ...(max !== undefined ? { max } : {}),
        ...(duration !== undefined ? { durationSeconds: duration } : {}),
        redact: values['no-redact'] !== true,
        redactPaths: values.redact ?? [],
      },
      out,
    );
  },
});
