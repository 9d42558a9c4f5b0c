// nqueens.v1 as a Node user meets it: a @grpc/grpc-js client made at run
// time from proto/nqueens/v1/nqueens.proto by @grpc/proto-loader (no stubs of
// ours), against the nqueens-server binary on 127.0.0.1 port 0. Calls every
// RPC of NQueensService and grpc.health.v1.Health/Check. Boards are checked
// with the server's Validate RPC and counts against this file's own brute
// force, never by trusting the solver. Runs on Node 18 and later.
//
// usage: NQUEENS_SERVER=PATH node --test tests/node/grpc_js_client_test.mjs
//        node tests/node/grpc_js_client_test.mjs --server PATH
// The npm packages come from scripts/npm-tools.sh (npm ci in tests/node).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const STARTUP_MS = 30_000;  // until the server prints its address
const CALL_MS = 30_000;     // the deadline of every call
const STOP_MS = 30_000;     // SIGTERM to exit (idle: no call to drain)
const TOTAL_MS = 240_000;   // the whole suite; CMake's TIMEOUT is above it

// Numbers as the loader hands them out: 64-bit ones as strings (JSON's
// convention too), enums by name, fields as the .proto spells them.
const LOADER_OPTIONS = { keepCase: true, longs: String, enums: String, defaults: true, oneofs: true };

// grpc/health/v1/health.proto's Check, the part the test calls: Debian ships
// no copy of that file, and the loader takes its protobufjs JSON form.
const HEALTH_PROTO = {
  nested: { grpc: { nested: { health: { nested: { v1: { nested: {
    HealthCheckRequest: { fields: { service: { type: 'string', id: 1 } } },
    HealthCheckResponse: {
      fields: { status: { type: 'ServingStatus', id: 1 } },
      nested: {
        ServingStatus: { values: { UNKNOWN: 0, SERVING: 1, NOT_SERVING: 2, SERVICE_UNKNOWN: 3 } },
      },
    },
    Health: {
      methods: { Check: { requestType: 'HealthCheckRequest', responseType: 'HealthCheckResponse' } },
    },
  } } } } } } },
};

function serverPath() {
  const flag = process.argv.indexOf('--server');
  const path = flag >= 0 ? process.argv[flag + 1] : process.env.NQUEENS_SERVER;
  if (!path) throw new Error('give the server binary: --server PATH or NQUEENS_SERVER=PATH');
  return path;
}

// --- what this file checks by itself ---

function attacks(r1, c1, r2, c2) {
  return c1 === c2 || Math.abs(c1 - c2) === Math.abs(r1 - r2);
}

// Every completion of a dense composition (0 = empty row), by plain
// backtracking: small n only.
function completions(columns) {
  const n = columns.length;
  const given = columns.flatMap((column, row) => (column ? [[row, column]] : []));
  const clash = ([r1, c1], i) => given.slice(i + 1).some(([r2, c2]) => attacks(r1, c1, r2, c2));
  if (given.some(clash)) return [];
  const found = [];
  const extend = (board) => {
    const row = board.length;
    if (row === n) return found.push([...board]);
    const candidates = columns[row] ? [columns[row]] : Array.from({ length: n }, (_, i) => i + 1);
    for (const column of candidates) {
      if (board.every((c, r) => !attacks(r, c, row, column))) extend([...board, column]);
    }
  };
  extend([]);
  return found;
}

// The eight images of a full board under the symmetries of the square.
function images(columns) {
  const n = columns.length;
  const flip = (x) => n + 1 - x;
  const maps = [
    (r, c) => [r, c], (r, c) => [r, flip(c)], (r, c) => [flip(r), c], (r, c) => [flip(r), flip(c)],
    (r, c) => [c, r], (r, c) => [c, flip(r)], (r, c) => [flip(c), r], (r, c) => [flip(c), flip(r)],
  ];
  return maps.map((map) => {
    const image = new Array(n);
    columns.forEach((c, i) => { const [r2, c2] = map(i + 1, c); image[r2 - 1] = c2; });
    return image.join(',');
  });
}

// Solutions up to symmetry: those that are the least of their images.
function fundamentals(solutions) {
  return solutions.filter((s) => images(s).every((image) => s.join(',') <= image)).length;
}

// A composition keeping every stride-th queen of a solution.
function everyNth(solution, stride) {
  return solution.map((column, row) => (row % stride === 0 ? column : 0));
}

// --- calls, each with a deadline ---

const deadline = () => Date.now() + CALL_MS;

// The callback of a call with one response, as a promise's.
const settle = (resolve, reject) => (error, response) => (error ? reject(error) : resolve(response));

function unary(client, method, request) {
  return new Promise((resolve, reject) => {
    client[method](request, { deadline: deadline() }, settle(resolve, reject));
  });
}

// Every message of a response stream, once the server has ended it.
function collect(call) {
  return new Promise((resolve, reject) => {
    const messages = [];
    call.on('data', (message) => messages.push(message));
    call.on('error', reject);
    call.on('end', () => resolve(messages));
  });
}

function serverStream(client, method, request) {
  return collect(client[method](request, { deadline: deadline() }));
}

function bidiStream(client, method, requests) {
  const call = client[method]({ deadline: deadline() });
  const messages = collect(call);
  for (const request of requests) call.write(request);
  call.end();
  return messages;
}

function clientStream(client, method, requests) {
  return new Promise((resolve, reject) => {
    const call = client[method]({ deadline: deadline() }, settle(resolve, reject));
    for (const request of requests) call.write(request);
    call.end();
  });
}

// --- the server ---

// nqueens-server on 127.0.0.1 port 0; resolves with its address once it has
// printed "listening on HOST:PORT", rejects if it exits or stays silent.
function startServer() {
  const child = spawn(serverPath(), ['--listen=127.0.0.1:0', '--log-level=warn'],
    { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => { stderr = (stderr + chunk).slice(-16_384); });
  const address = new Promise((resolve, reject) => {
    let stdout = '';
    const timer = setTimeout(
      () => reject(new Error(`no address within ${STARTUP_MS} ms; stderr:\n${stderr}`)), STARTUP_MS);
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`the server exited with ${code ?? signal}; stderr:\n${stderr}`));
    });
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      const match = /^listening on (\S+)$/m.exec(stdout);
      if (match) { clearTimeout(timer); resolve(match[1]); }
    });
  });
  return { process: child, address, stderr: () => stderr };
}

// SIGTERM; resolves with the exit code, SIGKILL after STOP_MS.
function stopServer(server) {
  const { exitCode, signalCode } = server.process;
  if (exitCode !== null || signalCode !== null) return Promise.resolve(exitCode ?? signalCode);
  return new Promise((resolve) => {
    const timer = setTimeout(() => server.process.kill('SIGKILL'), STOP_MS);
    server.process.on('exit', (code, signal) => { clearTimeout(timer); resolve(code ?? signal); });
    server.process.kill('SIGTERM');
  });
}

describe('nqueens.v1 over @grpc/grpc-js', { timeout: TOTAL_MS }, () => {
  let server;
  let nqueens;  // an nqueens.v1.NQueensService client
  let health;   // a grpc.health.v1.Health client

  before(async () => {
    server = startServer();
    const target = await server.address;
    const definition = protoLoader.loadSync('nqueens/v1/nqueens.proto',
      { ...LOADER_OPTIONS, includeDirs: [join(ROOT, 'proto')] });
    const v1 = grpc.loadPackageDefinition(definition).nqueens.v1;
    const healthDefinition = protoLoader.fromJSON(HEALTH_PROTO, LOADER_OPTIONS);
    const healthV1 = grpc.loadPackageDefinition(healthDefinition).grpc.health.v1;
    nqueens = new v1.NQueensService(target, grpc.credentials.createInsecure());
    health = new healthV1.Health(target, grpc.credentials.createInsecure());
  });

  after(async () => {
    nqueens?.close();
    health?.close();
    if (!server) return;
    const exit = await stopServer(server);
    assert.equal(exit, 0, `the server exited with ${exit} after SIGTERM; stderr:\n${server.stderr()}`);
  });

  // Validate's verdict that columns is a full solution of n extending composition.
  async function assertSolution(n, columns, composition = []) {
    assert.equal(columns.length, n, 'the board has n rows');
    composition.forEach(
      (column, row) => column && assert.equal(columns[row], column, `row ${row + 1} was moved`));
    const verdict = await unary(nqueens, 'Validate', { n, columns });
    assert.deepEqual([verdict.valid, verdict.complete, verdict.queen_count], [true, true, String(n)],
      `Validate refuses the board: ${JSON.stringify(verdict.conflicts)}`);
  }

  it('Health/Check: the server and the service are SERVING', async () => {
    for (const service of ['', 'nqueens.v1.NQueensService']) {
      const answer = await unary(health, 'Check', { service });
      assert.equal(answer.status, 'SERVING', `service "${service}"`);
    }
  });

  it('Solve: the default method and a seeded MIN_CONFLICTS give solutions', async () => {
    const constructive = await unary(nqueens, 'Solve', { n: 1000 });
    assert.equal(constructive.outcome, 'OUTCOME_SOLVED');
    assert.equal(constructive.n, '1000');
    assert.equal(constructive.stats.method_used, 'CONSTRUCTIVE');
    await assertSolution(1000, constructive.columns);

    const repaired = await unary(nqueens, 'Solve', { n: 30, method: 'METHOD_MIN_CONFLICTS', seed: 7 });
    assert.equal(repaired.outcome, 'OUTCOME_SOLVED');
    assert.equal(repaired.stats.method_used, 'MIN_CONFLICTS');
    assert.equal(repaired.stats.seed, '7', 'the seed sent is the seed used');
    await assertSolution(30, repaired.columns);
  });

  it('Solve: n above 2^31 - 1 is INVALID_ARGUMENT naming n and the range', async () => {
    await assert.rejects(unary(nqueens, 'Solve', { n: '3000000000' }), (error) => {
      assert.equal(error.code, grpc.status.INVALID_ARGUMENT, error.message);
      assert.match(error.details, /\bn\b/);
      assert.match(error.details, /2147483647/);
      return true;
    });
  });

  it('Complete: extends a composition, keeping its queens', async () => {
    const composition = everyNth(completions(new Array(10).fill(0))[0], 3);
    const answer = await unary(nqueens, 'Complete', { n: 10, columns: composition });
    assert.equal(answer.outcome, 'OUTCOME_SOLVED');
    await assertSolution(10, answer.columns, composition);
  });

  it('Complete: a composition with no completion is UNSOLVABLE, with a certificate', async () => {
    const composition = [1, 0, 0, 0];  // 4 queens, one in the corner
    assert.equal(completions(composition).length, 0, 'brute force finds no completion');
    const answer = await unary(nqueens, 'Complete',
      { n: 4, queens: [{ row: 1, column: 1 }], method: 'COMPLETE_METHOD_EXACT', want_certificate: true });
    assert.equal(answer.outcome, 'OUTCOME_UNSOLVABLE');
    assert.deepEqual(answer.columns, []);
    assert.ok(answer.certificate.length > 0, `no certificate: ${answer.certificate_missing}`);
    // No certificate_format asked: the text format, as API 1.0 sent it.
    assert.ok(Buffer.from(answer.certificate).toString('latin1').startsWith('nqueens-certificate 1\n'));
  });

  it('Validate: names the attacking pair and its line', async () => {
    const answer = await unary(nqueens, 'Validate', { n: 4, columns: [1, 2, 0, 0] });
    assert.deepEqual([answer.valid, answer.complete, answer.queen_count, answer.attacking_pairs],
      [false, false, '2', '1']);
    assert.deepEqual(answer.conflicts.map(({ first, second, line }) => [first, second, line]),
      [[{ row: 1, column: 1 }, { row: 2, column: 2 }, 'LINE_DIAGONAL']]);
  });

  it('SolveStream: a result header, then the board in chunks of chunk_size', async () => {
    const messages = await serverStream(nqueens, 'SolveStream', { n: 20, chunk_size: 7 });
    const [header, ...chunks] = messages;
    assert.equal(header.part, 'header');
    assert.equal(header.header.outcome, 'OUTCOME_SOLVED');
    assert.equal(header.header.n, '20');
    assert.deepEqual(chunks.map((m) => [m.part, m.chunk.offset, m.chunk.columns.length]),
      [['chunk', '0', 7], ['chunk', '7', 7], ['chunk', '14', 6]]);
    await assertSolution(20, chunks.flatMap((m) => m.chunk.columns));
  });

  it('CompleteStream: the composition in chunks in, the completion in chunks out', async () => {
    const n = 10;
    const composition = everyNth(completions(new Array(n).fill(0)).at(-1), 4);
    const messages = await bidiStream(nqueens, 'CompleteStream', [
      { header: { n, chunk_size: 4 } },
      { chunk: { offset: 0, columns: composition.slice(0, 5) } },
      { chunk: { offset: 5, columns: composition.slice(5) } },
    ]);
    const [header, ...chunks] = messages;
    assert.equal(header.part, 'header');
    assert.equal(header.header.outcome, 'OUTCOME_SOLVED');
    assert.deepEqual(chunks.map((m) => [m.chunk.offset, m.chunk.columns.length]),
      [['0', 4], ['4', 4], ['8', 2]]);
    await assertSolution(n, chunks.flatMap((m) => m.chunk.columns), composition);
  });

  it('ValidateStream: the board in chunks gets Validate\'s answer', async () => {
    const board = [2, 4, 1, 3, 0, 0];  // four queens that keep the peace, rows 5 and 6 empty
    const send = (columns) => clientStream(nqueens, 'ValidateStream', [
      { header: { n: 6 } },
      { chunk: { offset: 0, columns: columns.slice(0, 3) } },
      { chunk: { offset: 3, columns: columns.slice(3) } },
    ]);
    const streamed = await send(board);
    assert.deepEqual([streamed.valid, streamed.complete, streamed.queen_count, streamed.n],
      [true, false, '4', '6']);
    assert.deepEqual(streamed, await unary(nqueens, 'Validate', { n: 6, columns: board }));
    const clashing = await send([1, 0, 0, 0, 0, 6]);  // the main diagonal
    assert.deepEqual([clashing.valid, clashing.attacking_pairs], [false, '1']);
  });

  it('Count: progress, then the result, as brute force counts', async () => {
    for (const n of [6, 8]) {
      const solutions = completions(new Array(n).fill(0));
      const messages = await serverStream(nqueens, 'Count', { n });
      const last = messages.at(-1);
      assert.ok(messages.slice(0, -1).every((m) => m.part === 'progress'), 'only progress before the result');
      assert.equal(last.part, 'result');
      assert.deepEqual([last.result.n, last.result.solutions, last.result.fundamental],
        [String(n), String(solutions.length), String(fundamentals(solutions))]);
    }
    const composition = [0, 0, 3, 0, 0, 0, 0, 0];
    const completed = await serverStream(nqueens, 'Count', { n: 8, columns: composition });
    assert.equal(completed.at(-1).result.solutions, String(completions(composition).length));
  });

  it('Enumerate: every solution once, each valid; limit cuts the stream', async () => {
    const expected = completions(new Array(6).fill(0)).map((s) => s.join(','));
    const messages = await serverStream(nqueens, 'Enumerate', { n: 6 });
    const boards = messages.flatMap((m) => m.boards.map((b) => b.columns));
    for (const board of boards) await assertSolution(6, board);
    assert.deepEqual(boards.map((b) => b.join(',')).sort(), [...expected].sort());

    const limited = (await serverStream(nqueens, 'Enumerate', { n: 8, limit: 2 })).flatMap((m) => m.boards);
    assert.equal(limited.length, 2);
  });

  it('CompleteBatch: answers in item order, a bad item fails alone', async () => {
    const solvable = everyNth(completions(new Array(8).fill(0))[3], 2);
    const messages = await bidiStream(nqueens, 'CompleteBatch', [
      { items: [{ n: 8, columns: solvable }, { n: 4, columns: [1, 0, 0, 0] }, { n: 0 }] },
      { items: [{ n: 8 }] },
    ]);
    const answers = messages.flatMap((m) => m.answers);
    assert.deepEqual(answers.map((a) => [a.index, a.result]),
      [['0', 'response'], ['1', 'response'], ['2', 'error'], ['3', 'response']]);
    assert.equal(answers[0].response.outcome, 'OUTCOME_SOLVED');
    await assertSolution(8, answers[0].response.columns, solvable);
    assert.equal(answers[1].response.outcome, 'OUTCOME_UNSOLVABLE');
    assert.equal(answers[2].error.code, grpc.status.INVALID_ARGUMENT);
    assert.match(answers[2].error.message, /\bn\b/);
    await assertSolution(8, answers[3].response.columns);
  });
});
