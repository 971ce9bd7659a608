// The bytes a stub keeps of what it received: every body back as sent, in order, across the buffer's growth.
import { ReceivedLog } from '../../lib/stub/received-log';
import { SeededRandom } from '../../lib/random';

it('gives back every body as sent, in order, while its buffer grows past its first size', () => {
  const random = new SeededRandom(11);
  const log = new ReceivedLog();
  const sent: string[] = [];
  for (let i = 0; i < 200; i++) {
    // Sizes from empty to beyond the first buffer at once, some with characters of several UTF-8 bytes.
    const size = i === 7 ? 40_000 : random.int(900);
    const text = `{"n":${i},"s":"${'é✓x'.repeat(size)}"}`.slice(0, i === 3 ? 0 : undefined);
    sent.push(text);
    log.append(Buffer.from(text, 'utf8'));
    expect(log.length).toBe(i + 1);
  }
  expect(sent.map((_, i) => log.text(i))).toEqual(sent);
});

it('refuses an index it has no body for, naming how many it has', () => {
  const log = new ReceivedLog();
  log.append(Buffer.from('{}'));
  expect(() => log.text(1)).toThrow(new RangeError('no body 1: 1 received'));
  expect(() => log.text(-1)).toThrow(RangeError);
});
