import path from 'node:path';
import { conformance } from 'admission-harness/scenarios';
import { app } from '../src/app';

// The same battery `admission-harness check` runs, as one Jest test per webhook and scenario.
conformance({ target: app, manifests: [path.join(__dirname, '../deploy/webhooks.yaml')], seed: 11 });
