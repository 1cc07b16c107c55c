// bench:retrieval's test set and counting (scripts/bench-retrieval.mjs): which headings become
// queries, which passages count as theirs, and recall@k and MRR@k. Run by `npm test` (node --test).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bodyOf, queriesOf, scores } from './bench-retrieval.mjs';

const passage = (id, heading) => ({ id, text: 'x', source: 's', heading });

test('a heading of 3+ words found once is a query; its section’s passages are the relevant ones', () => {
  const queries = queriesOf([
    passage('ajv:chunk-000000', undefined),
    passage('ajv:chunk-000001', 'Getting started with Ajv'),
    passage('ajv:chunk-000002', 'Getting started with Ajv'),
    passage('ajv:chunk-000003', 'Options'),
    passage('ajv:chunk-000004', 'Security   considerations here'),
    passage('tar:chunk-000000', 'security considerations HERE'),
    passage('tar:chunk-000001', 'Extracting an archive safely'),
  ]);
  assert.deepEqual(
    queries.map((query) => [query.text, [...query.relevant]]),
    [
      ['Getting started with Ajv', ['ajv:chunk-000001', 'ajv:chunk-000002']],
      ['Extracting an archive safely', ['tar:chunk-000001']],
    ],
  );
});

test('recall@k counts queries with a relevant passage listed; MRR adds 1/rank of the first', () => {
  const queries = [
    { text: 'a b c', relevant: new Set(['1', '2']) },
    { text: 'd e f', relevant: new Set(['3']) },
    { text: 'g h i', relevant: new Set(['4']) },
  ];
  const result = scores(queries, [['9', '2', '1'], ['3'], ['5', '6', '7', '8']]);
  assert.equal(result.found, 2);
  assert.equal(result.recall, 2 / 3);
  assert.equal(result.mrr, (1 / 2 + 1) / 3);
});

test('a section’s body is its text without the heading the reader puts first', () => {
  assert.equal(bodyOf({ text: 'Usage notes\n\nCall it.', section: 'Usage notes' }), 'Call it.');
  assert.equal(bodyOf({ text: 'Before any heading.' }), 'Before any heading.');
});
