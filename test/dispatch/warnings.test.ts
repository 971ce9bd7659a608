import { WarningRecorder } from '../../lib/kube/warning-recorder';

describe('the warning recorder (apiserver filters/warning.go)', () => {
  it('keeps warnings whole up to 4096 runes in total', () => {
    const recorder = new WarningRecorder();
    for (let i = 0; i < 16; i++) recorder.add(`${i}`.padEnd(256, 'x'));
    expect(recorder.texts()).toHaveLength(16);
    expect(recorder.texts().every((t) => t.length === 256)).toBe(true);
  });

  it('past 4096 runes, re-sends all warnings cut to 256 runes and cuts the new ones', () => {
    const recorder = new WarningRecorder();
    recorder.add('a'.repeat(3000));
    recorder.add('b'.repeat(2000));
    expect(recorder.texts()).toEqual(['a'.repeat(256), 'b'.repeat(256)]);
    recorder.add('c'.repeat(1000));
    expect(recorder.texts()).toEqual(['a'.repeat(256), 'b'.repeat(256), 'c'.repeat(256)]);
  });

  it('once truncating, drops warnings after 4096 runes have been written', () => {
    const recorder = new WarningRecorder();
    recorder.add('x'.repeat(5000));
    for (let i = 0; i < 20; i++) recorder.add(`${i}`.padEnd(300, 'y'));
    const total = recorder.texts().reduce((n, t) => n + [...t].length, 0);
    expect(recorder.texts().length).toBe(16);
    expect(total).toBe(4096);
    expect(recorder.dropped.length).toBe(5);
  });

  it('counts runes, not UTF-16 units', () => {
    const recorder = new WarningRecorder();
    recorder.add('😀'.repeat(300));
    recorder.add('z'.repeat(4000));
    expect([...recorder.texts()[0]!].length).toBe(256);
  });
});
