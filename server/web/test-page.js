// Plain script, no framework: builds protocol requests, shows replies, and
// answers the agent's IDE call-backs with sample data when asked to.
(() => {
  'use strict';
  const $ = (id) => document.getElementById(id);
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  $('url').value = `${scheme}//${location.host}/ws`;
  let socket = null;
  let currentRequestId = null;

  const sampleCode = {
    filepath: 'example/game.py',
    range: { start: { line: 10, character: 0 }, end: { line: 14, character: 20 } },
    text: 'def next_turn(player, width):\n    if player == width - 1:\n        return 0\n    return player + 1\n',
  };
  const sampleSymbols = [
    {
      name: 'next_turn',
      kind: 'Function',
      range: sampleCode.range,
      children: [
        {
          name: 'player',
          kind: 'Variable',
          range: { start: { line: 10, character: 14 }, end: { line: 10, character: 20 } },
        },
        {
          name: 'width',
          kind: 'Variable',
          range: { start: { line: 10, character: 22 }, end: { line: 10, character: 27 } },
        },
      ],
    },
  ];

  function template(cmd) {
    const common = {
      cmd,
      request_id: 0,
      language: $('language').value,
      model: $('model').value,
      stream: $('stream').checked,
    };
    switch (cmd) {
      case 'list_model':
        return { cmd, request_id: 0 };
      case 'exec_explain':
        return { ...common, selected_text: sampleCode, visible_text: sampleCode };
      case 'exec_docstring':
      case 'exec_optimize':
      case 'exec_fix':
        return { ...common, selected_text: sampleCode };
      case 'exec_unittest_recommend':
        return {
          ...common,
          user_prompt: '',
          file_content: sampleCode.text,
          filepath: sampleCode.filepath,
          func_name: 'next_turn',
          func_location: sampleCode.range,
          func_symbols: sampleSymbols,
        };
      case 'exec_unittest_code':
        return {
          ...common,
          test_cases_str: '1. wraps around to 0 after the last player\n2. advances by one otherwise',
          function_name: 'next_turn',
          file_path: sampleCode.filepath,
          relevant_content: sampleCode.text,
          reference_content: '',
          user_prompt: '',
        };
      case 'exec_chat':
        return { ...common, msg: 'What is a good name for a function that advances a turn counter?' };
      default:
        return { cmd, request_id: 0 };
    }
  }

  function regenerate() {
    $('request').value = JSON.stringify(template($('cmd').value), null, 2);
  }

  function log(direction, text) {
    const line = document.createElement('div');
    line.textContent = `${new Date().toLocaleTimeString()} ${direction} ${text}`;
    $('log').prepend(line);
  }

  function setConnected(connected, label) {
    $('status').textContent = label;
    $('connect').disabled = connected;
    $('disconnect').disabled = !connected;
    $('send').disabled = !connected;
  }

  function fillModels(models) {
    const select = $('model');
    const previous = select.value;
    select.replaceChildren(
      ...models.map((name) => {
        const option = document.createElement('option');
        option.textContent = name;
        option.value = name;
        return option;
      }),
    );
    if (models.includes(previous)) select.value = previous;
    regenerate();
  }

  function send(frame) {
    const text = JSON.stringify(frame);
    socket.send(text);
    log('→', text.length > 300 ? `${text.slice(0, 300)}…` : text);
  }

  function answerCallback(frame) {
    if (!$('answerCallbacks').checked)
      return log('·', `ignored call-back ${frame.cmd}: the agent will time out`);
    const result =
      frame.cmd === 'get_document_symbols'
        ? sampleSymbols
        : [{ abspath: frame.abspath, range: sampleCode.range }];
    send({ callback_id: frame.callback_id, result });
  }

  function onMessage(event) {
    const text = String(event.data);
    log('←', text.length > 300 ? `${text.slice(0, 300)}…` : text);
    let frame;
    try {
      frame = JSON.parse(text);
    } catch {
      return;
    }
    if (frame.callback_id && frame.cmd) return answerCallback(frame);
    if (Array.isArray(frame.models)) return fillModels(frame.models);
    if (frame.request_id !== currentRequestId) return;
    if (frame.error !== undefined) {
      $('answer').textContent += `\n[error] ${frame.error}`;
    } else if (typeof frame.msg === 'string') {
      $('answer').textContent += frame.msg;
      if (frame.stream_finish) $('answer').textContent += '\n[finished]';
    }
  }

  $('connect').addEventListener('click', () => {
    const key = $('key').value.trim();
    // Call-backs are opt-in per connection: declared only while this page answers them.
    const url = new URL($('url').value);
    if ($('answerCallbacks').checked) url.searchParams.set('ide_callbacks', '1');
    socket = new WebSocket(url, ['agent-service', `x-api-key.${key}`]);
    setConnected(true, 'connecting…');
    socket.addEventListener('open', () => {
      setConnected(true, 'connected');
      send({ cmd: 'list_model', request_id: Date.now() });
    });
    socket.addEventListener('message', onMessage);
    socket.addEventListener('close', (event) => {
      setConnected(false, `closed ${event.code}${event.reason ? `: ${event.reason}` : ''}`);
      socket = null;
    });
  });
  $('disconnect').addEventListener('click', () => socket && socket.close(1000, 'bye'));
  $('cmd').addEventListener('change', regenerate);
  $('language').addEventListener('change', regenerate);
  $('stream').addEventListener('change', regenerate);
  $('model').addEventListener('change', regenerate);
  $('regenerate').addEventListener('click', regenerate);
  $('send').addEventListener('click', () => {
    let frame;
    try {
      frame = JSON.parse($('request').value);
    } catch (error) {
      $('answer').textContent = `The request is not valid JSON: ${error.message}`;
      return;
    }
    frame.request_id = Math.floor(Math.random() * 1e9);
    currentRequestId = frame.request_id;
    $('answer').textContent = '';
    send(frame);
  });
  regenerate();
})();
