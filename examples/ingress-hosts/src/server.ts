// The webhook as its own process, as `admission-harness check --command` starts it: HTTPS on $PORT with the
// certificate in $TLS_CERT_FILE and $TLS_KEY_FILE, the API through $KUBECONFIG. It listens only once its
// informer has synced, so its first answer already knows every Ingress.
import { readFileSync } from 'node:fs';
import https from 'node:https';
import { createApp } from './app';

async function main(): Promise<void> {
  const { app, synced, stop } = createApp();
  await synced;
  const server = https.createServer({ cert: readFileSync(process.env.TLS_CERT_FILE ?? ''), key: readFileSync(process.env.TLS_KEY_FILE ?? '') }, app);
  server.listen(Number(process.env.PORT), '127.0.0.1');
  process.on('SIGTERM', () => {
    server.close();
    void stop().finally(() => process.exit(0));
  });
}

main().catch((error: unknown) => {
  console.error(`ingress-hosts: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
