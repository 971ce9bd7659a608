import { createHash } from 'node:crypto';

/**
 * The report's only script, and optional: it shows three buttons (expand all, collapse all, failures
 * only) that the markup leaves `hidden`, so with scripts off the page simply lacks them and every
 * <details> still opens by hand.
 */
export const REPORT_SCRIPT = `(function () {
  var controls = document.getElementById('controls');
  if (!controls) return;
  controls.hidden = false;
  controls.addEventListener('click', function (event) {
    var button = event.target;
    var action = button && button.getAttribute ? button.getAttribute('data-action') : null;
    if (action === 'expand' || action === 'collapse') {
      document.querySelectorAll('details.item').forEach(function (d) { d.open = action === 'expand'; });
    } else if (action === 'failures') {
      button.setAttribute('aria-pressed', String(document.body.classList.toggle('failures-only')));
    }
  });
})();`;

let hash: string | undefined;

/**
 * The script's CSP source (`'sha256-…'`): the document allows this one script and no other, so even
 * markup that escaped the escaping could not run a script of its own.
 */
export function scriptHashSource(): string {
  hash ??= `'sha256-${createHash('sha256').update(REPORT_SCRIPT, 'utf8').digest('base64')}'`;
  return hash;
}
