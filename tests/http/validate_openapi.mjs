// server/http/openapi.json checked by a validator no one here wrote, npm's
// @apidevtools/swagger-parser (installed into tests/node by
// scripts/npm-tools.sh): the document must follow the OpenAPI 3.0 schema and
// every $ref must resolve. A copy with a dangling $ref must fail, which shows
// that the validator reads the document at all.
//
// usage: node --test tests/http/validate_openapi.mjs
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(join(ROOT, 'tests', 'node', 'package.json'));
const SwaggerParser = require('@apidevtools/swagger-parser');

// A fresh copy each time: the parser resolves $refs in place.
const openapi = () =>
  JSON.parse(readFileSync(join(ROOT, 'server', 'http', 'openapi.json'), 'utf8'));

describe('server/http/openapi.json', () => {
  it('is a valid OpenAPI 3.0 document', async () => {
    const api = await SwaggerParser.validate(openapi());
    assert.match(api.openapi, /^3\.0\.\d+$/);
    assert.equal(api.info.version, '1.0.0');
  });

  it('has every route of the gateway', async () => {
    const api = await SwaggerParser.validate(openapi());
    for (const path of ['/v1/solve', '/v1/complete', '/v1/validate', '/v1/count',
      '/v1/enumerate']) {
      const request = api.paths[path].post.requestBody.content['application/json'].schema;
      assert.equal(request.type, 'object', `${path}: the request is not an object`);
      assert.ok(request.properties.n, `${path}: the request has no n`);
      assert.equal(request.properties.n.type, 'string', `${path}: n is 64 bits, a JSON string`);
    }
    for (const path of ['/healthz', '/openapi.json', '/']) assert.ok(api.paths[path].get, path);
  });

  it('fails when a $ref dangles', async () => {
    const broken = openapi();
    delete broken.components.schemas.Queen;
    await assert.rejects(SwaggerParser.validate(broken), /Queen/);
  });
});
