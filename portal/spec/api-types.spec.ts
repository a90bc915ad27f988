// The portal's typed API is the services' API: the committed schema files are what
// `npm run portal:api-types` makes from the OpenAPI documents the platform serves now. A changed API
// fails here until the files are made again, and then fails the portal's type check where it broke it.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { generateApiTypes, SCHEMA_DIR } from '../scripts/api-types.ts';

test('portal/src/api/schema is up to date with the OpenAPI documents (npm run portal:api-types)', async () => {
  const generated = await generateApiTypes();
  assert.equal(readdirSync(SCHEMA_DIR).sort(), Object.keys(generated).sort());
  const stale = Object.entries(generated)
    .filter(([name, text]) => readFileSync(path.join(SCHEMA_DIR, name), 'utf8') !== text)
    .map(([name]) => name);
  assert.equal(stale, [], 'run npm run portal:api-types and commit the result');
});

test.run();
