// What a Jest --shard run of admission-harness/reporter does with its part of the coverage.
import { shardFile, shardNote, shardOptions } from '../../lib/reporter/shard';

const shard = { shardIndex: 2, shardCount: 3 };

it('names a shard’s file after the json option, the shard beside its extension', () => {
  expect(shardFile('coverage/admission.json', shard)).toBe('coverage/admission.shard-2-of-3.json');
  expect(shardFile('out/coverage', shard)).toBe('out/coverage.shard-2-of-3.json');
  expect(shardFile('coverage/admission.json', { shardIndex: '*', shardCount: 3 })).toBe('coverage/admission.shard-*-of-3.json');
});

it('writes only the shard’s JSON (coverage/admission.json’s by default): the threshold and the HTML wait for the merge', () => {
  expect(shardOptions({ threshold: 80, html: 'coverage/admission.html' }, shard)).toEqual({ json: 'coverage/admission.shard-2-of-3.json' });
  expect(shardOptions({ json: 'reports/a.json', threshold: 80, of: 'total' }, shard)).toEqual({ json: 'reports/a.shard-2-of-3.json' });
});

it('says where the part went and the merge command that applies the options left out', () => {
  expect(shardNote({ threshold: 80, of: 'total', html: 'coverage/admission.html' }, shard, process.cwd())).toBe(
    'Admission coverage of shard 2/3 written to coverage/admission.shard-2-of-3.json; once every shard has run: admission-harness merge-coverage coverage/admission.shard-*-of-3.json --threshold 80 --of total --html coverage/admission.html',
  );
});
