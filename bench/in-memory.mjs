// Webhook calls answered in memory: while on, `https.request` (what the harness's transport calls)
// answers every POST at once with an AdmissionReview that allows it, echoing the request's uid, and
// sends nothing. What an admission then costs is the harness's own work, with no socket, TLS or
// HTTP parsing in it. The answer is made from the body's first uid, without parsing the body: the
// webhook's own work is no part of what is measured.
import { EventEmitter } from 'node:events';
import https from 'node:https';

const realRequest = https.request;
const UID = '"uid":"';

function answer(body) {
  const text = String(body);
  const start = text.indexOf(UID) + UID.length;
  const uid = text.slice(start, text.indexOf('"', start));
  const apiVersion = text.includes('"admission.k8s.io/v1beta1"') ? 'admission.k8s.io/v1beta1' : 'admission.k8s.io/v1';
  return Buffer.from(`{"apiVersion":"${apiVersion}","kind":"AdmissionReview","response":{"uid":"${uid}","allowed":true}}`);
}

function inMemoryRequest(_options, onResponse) {
  const req = new EventEmitter();
  req.removeHeader = () => {};
  req.setHeader = () => {};
  req.destroy = () => {};
  req.end = (body) => {
    const reply = answer(body);
    queueMicrotask(() => {
      const res = new EventEmitter();
      res.statusCode = 200;
      res.headers = { 'content-type': 'application/json', 'content-length': String(reply.length) };
      onResponse(res);
      res.emit('data', reply);
      res.emit('end');
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
