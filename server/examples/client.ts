// A small IDE-plugin-like client for the agent service:
//
//   AGENT_API_KEY=... npx tsx server/examples/client.ts [ws://127.0.0.1:8765/ws] [model]
//
// Lists the models, asks for an explanation with streaming, then runs the
// unit-test flow and answers the agent's IDE call-backs the way a plugin would
// (here from a tiny in-memory "workspace").
import { WebSocket } from 'ws';

const url = process.argv[2] ?? process.env.AGENT_URL ?? 'ws://127.0.0.1:8765/ws';
const key = process.env.AGENT_API_KEY;
if (!key) {
  console.error('Set AGENT_API_KEY to one of the server’s keys.');
  process.exit(2);
}
const print = (text: string) => process.stdout.write(text);

type Frame = Record<string, unknown>;
// This client answers call-backs, so it declares them (they are opt-in).
const socket = new WebSocket(url, { headers: { 'X-Api-Key': key, 'X-Agent-Capabilities': 'ide_callbacks' } });
const waiting = new Map<unknown, (frame: Frame) => void>();

const source =
  'def next_turn(player, width):\n    if player == width - 1:\n        return 0\n    return player + 1\n';
const range = { start: { line: 0, character: 0 }, end: { line: 3, character: 21 } };

/** The plugin's side of §3: answer from what the IDE knows, or say it cannot. */
function answerCallback(frame: Frame): Frame {
  switch (frame.cmd) {
    case 'get_document_symbols':
      return {
        result: [
          {
            name: 'next_turn',
            kind: 'Function',
            range,
            children: [
              {
                name: 'player',
                kind: 'Variable',
                range: { start: { line: 0, character: 14 }, end: { line: 0, character: 20 } },
              },
            ],
          },
        ],
      };
    case 'find_def_locations':
      return { result: [{ abspath: String(frame.abspath), range }] };
    default:
      return { error: `${String(frame.cmd)} is not supported by this client` };
  }
}

socket.on('message', (data) => {
  const frame = JSON.parse(String(data)) as Frame;
  if (typeof frame.callback_id === 'string' && typeof frame.cmd === 'string') {
    print(`  [IDE call-back ${frame.cmd}]\n`);
    socket.send(JSON.stringify({ callback_id: frame.callback_id, ...answerCallback(frame) }));
    return;
  }
  if (typeof frame.msg === 'string' && frame.stream_finish === false) print(frame.msg);
  const done = typeof frame.msg !== 'string' || frame.stream_finish !== false;
  if (done) waiting.get(frame.request_id)?.(frame);
});

let nextId = 1;
function request(frame: Frame): Promise<Frame> {
  const request_id = nextId++;
  return new Promise((resolve) => {
    waiting.set(request_id, resolve);
    socket.send(JSON.stringify({ ...frame, request_id }));
  });
}

socket.on('close', (code, reason) => {
  if (code !== 1000) console.error(`Closed: ${code} ${reason.toString()}`);
});
socket.on('error', (error) => {
  console.error(error.message);
  process.exit(1);
});

socket.on('open', async () => {
  const timer = setTimeout(() => {
    console.error('No answer within 120 s');
    process.exit(1);
  }, 120_000);
  const list = await request({ cmd: 'list_model' });
  const models = (list.models as string[] | undefined) ?? [];
  print(`models: ${models.join(', ') || '(none)'}\n`);
  const model = process.argv[3] ?? models[0];
  if (!model) {
    console.error(
      'The server offers no model. Start it with AGENT_SERVER_MOCK=1 for the mock model (mock-1), ' +
        'or configure a model (a remote provider, or a local Ollama for `local <name>`): see server/README.md.',
    );
    process.exit(1);
  }
  print(`\nexec_explain (${model}, streamed):\n`);
  const selection = { filepath: 'example/game.py', range, text: source };
  const explained = await request({
    cmd: 'exec_explain',
    model,
    stream: true,
    selected_text: selection,
    visible_text: selection,
  });
  print(explained.error ? `\nerror: ${String(explained.error)}\n` : '\n');

  print(`\nexec_unittest_code (${model}):\n`);
  const tests = await request({
    cmd: 'exec_unittest_code',
    model,
    test_cases_str: '1. wraps around to 0 after the last player\n2. advances by one otherwise',
    function_name: 'next_turn',
    file_path: 'example/game.py',
    relevant_content: source,
  });
  print(`${String(tests.msg ?? `error: ${String(tests.error)}`)}\n`);
  clearTimeout(timer);
  socket.close(1000);
});
