// The report's one escape, and the template that applies it to every interpolated value.
import { escapeHtml } from '../../lib/report';
import { html, trustedHtml } from '../../lib/report/html';

describe('escapeHtml', () => {
  it.each([
    ['<script>alert(1)</script>', '&lt;script&gt;alert(1)&lt;/script&gt;'],
    ['a & b', 'a &amp; b'],
    ['say "hi"', 'say &quot;hi&quot;'],
    ["it's", 'it&#39;s'],
    ['&lt;', '&amp;lt;'],
    ['plain text, ünïcode · ✓', 'plain text, ünïcode · ✓'],
  ])('escapes %j as %j', (text, escaped) => {
    expect(escapeHtml(text)).toBe(escaped);
  });
});

describe('the html template', () => {
  const label = { app: '<script>alert("label")</script>' };

  it('escapes a label value in text and in an attribute', () => {
    const out = html`<td title="${label.app}">${label.app}</td>`.text;
    expect(out).toBe('<td title="&lt;script&gt;alert(&quot;label&quot;)&lt;/script&gt;">&lt;script&gt;alert(&quot;label&quot;)&lt;/script&gt;</td>');
    expect(out).not.toContain('<script');
  });

  it('cannot be broken out of an attribute with a quote', () => {
    expect(html`<a class="${'x" onclick="alert(1)'}">`.text).toBe('<a class="x&quot; onclick=&quot;alert(1)">');
  });

  it('inserts its own markup as it is, joins arrays, and writes nothing for false, null and undefined', () => {
    const items = ['<a>', 'b'].map((item) => html`<li>${item}</li>`);
    expect(html`<ul>${items}</ul>${false}${null}${undefined}${0}`.text).toBe('<ul><li>&lt;a&gt;</li><li>b</li></ul>0');
    expect(html`${trustedHtml('<b>ours</b>')}`.text).toBe('<b>ours</b>');
  });
});
