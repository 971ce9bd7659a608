// Webhook calls answered in memory: while on, `https.request` (what the harness's transport calls)
// answers every POST at once with an AdmissionReview that allows it, echoing the request's uid, and
// sends nothing. What an admission then costs is the harness's own work, with no socket, TLS or
// HTTP parsing in it. The stand-in is kept as cheap as it can be (no EventEmitter, the body read only
// up to its uid), since its cost counts as the harness's: it was a tenth of an admission before.
import https from 'node:https';

const realRequest = https.request;
const UID = '"uid":"';
const V1BETA1 = '"admission.k8s.io/v1beta1"';

/** The reply: the body's apiVersion and first uid, both within its first members. */
function answer(body) {
  const start = body.indexOf(UID) + UID.length;
  const uid = body.slice(start, body.indexOf('"', start));
  const apiVersion = body.lastIndexOf(V1BETA1, start) >= 0 ? 'admission.k8s.io/v1beta1' : 'admission.k8s.io/v1';
  return Buffer.from(`{"apiVersion":"${apiVersion}","kind":"AdmissionReview","response":{"uid":"${uid}","allowed":true}}`);
}

const HEADERS = { 'content-type': 'application/json' };

/** The events the transport listens to, kept in members: one handler per event is all it sets. */
class Events {
  handlers = {};
  on(event, handler) {
    this.handlers[event] = handler;
    return this;
  }
}

function inMemoryRequest(_options, onResponse) {
  const req = new Events();
  req.removeHeader = () => {};
  req.destroy = () => {};
  req.end = (body) => {
    const reply = answer(String(body));
    queueMicrotask(() => {
      const res = new Events();
      res.statusCode = 200;
      res.headers = HEADERS;
      onResponse(res);
      res.handlers.data(reply);
      res.handlers.end();
    });
  };
  return req;
}

/** Runs `task` with every HTTPS request answered in memory. */
export async function answeredInMemory(task) {
  https.request = inMemoryRequest;
  try {
    return await task();
  } finally {
    https.request = realRequest;
  }
}
