import { readdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { writeTinyWhisper } from '../src/media/transformers/__fixtures__/tiny-whisper/write-tiny-whisper';
import { DIST_DIR, expect, openApp, test } from './fixtures';

/**
 * The transcription wiring of the built app in Chromium, below the UI: a core
 * worker (the built one) driven over Comlink's wire format, its nested ASR
 * worker running transformers.js on the generated tiny Whisper served by the
 * app under /models/, onnxruntime's WASM from the app's own assets (anything
 * foreign is blocked), and compressed audio decoded by the page's Web Audio
 * decoder through the decoder port.
 */

const models = join(DIST_DIR, 'models');

// The nested ASR worker's requests reach the test's request log (which the test reads to know
// what was loaded) only with the app's service worker installed, as it is for a user.
test.use({ serviceWorkers: 'allow' });

test.beforeAll(async () => {
  // Stands in for onnx-community/whisper-tiny, the default profile's model.
  await writeTinyWhisper(models, { modelId: 'onnx-community/whisper-tiny' });
});

test.afterAll(async () => {
  await rm(models, { recursive: true, force: true });
});

test('a built core worker transcribes WAV and page-decoded WebM with Whisper in its nested worker', async ({
  page,
  requestLog,
}) => {
  test.setTimeout(360_000);
  const coreWorker = readdirSync(join(DIST_DIR, 'assets')).find((name) => /^core\.worker-.*\.js$/.test(name));
  expect(coreWorker).toBeDefined();
  await openApp(page);
  // A click gives the page the user activation Web Audio wants before it starts.
  await page.getByTestId('note-list').click();

  const outcome = await page.evaluate(async (workerUrl) => {
    // --- a minimal Comlink wire client, and a page-side function exposed on a port ---
    const worker = new Worker(workerUrl, { type: 'module' });
    let sequence = 0;
    const waiting = new Map<string, (message: { type: string; value: unknown }) => void>();
    worker.addEventListener('message', (event: MessageEvent) => {
      const message = event.data as { id?: string; type: string; value: unknown };
      if (message.id) waiting.get(message.id)?.(message);
    });
    const call = (path: string[], args: unknown[] = [], wire?: unknown[], transfer: Transferable[] = []) =>
      new Promise<unknown>((resolve, reject) => {
        const id = `t${++sequence}`;
        waiting.set(id, (message) => {
          waiting.delete(id);
          if (message.type === 'HANDLER') reject(message.value);
          else resolve(message.value);
        });
        const argumentList = wire ?? args.map((value) => ({ type: 'RAW', value }));
        worker.postMessage({ id, type: 'APPLY', path, argumentList }, transfer);
      });
    const exposeFunction = (
      fn: (data: ArrayBuffer) => Promise<{ sampleRate: number; channels: Float32Array[] }>,
    ) => {
      const channel = new MessageChannel();
      channel.port1.onmessage = async (event: MessageEvent) => {
        const { id, type, argumentList } = event.data as {
          id: string;
          type: string;
          argumentList: Array<{ value: ArrayBuffer }>;
        };
        if (type !== 'APPLY') return;
        try {
          const value = await fn(argumentList[0]!.value);
          channel.port1.postMessage(
            { id, type: 'RAW', value },
            value.channels.map((c) => c.buffer),
          );
        } catch (error) {
          channel.port1.postMessage({
            id,
            type: 'HANDLER',
            name: 'throw',
            value: { envelope: { error: { code: 'INTERNAL_ERROR', message: String(error), details: {} } } },
          });
        }
      };
      return { wire: { type: 'HANDLER', name: 'proxy', value: channel.port2 }, port: channel.port2 };
    };

    // --- audio made here: a WAV tone, and a WebM/Opus tone recorded with MediaRecorder ---
    const wav = (seconds: number, rate = 16_000) => {
      const frames = seconds * rate;
      const view = new DataView(new ArrayBuffer(44 + frames * 2));
      const text = (at: number, value: string) =>
        [...value].forEach((c, i) => view.setUint8(at + i, c.charCodeAt(0)));
      text(0, 'RIFF');
      view.setUint32(4, 36 + frames * 2, true);
      text(8, 'WAVE');
      text(12, 'fmt ');
      view.setUint32(16, 16, true);
      view.setUint16(20, 1, true);
      view.setUint16(22, 1, true);
      view.setUint32(24, rate, true);
      view.setUint32(28, rate * 2, true);
      view.setUint16(32, 2, true);
      view.setUint16(34, 16, true);
      text(36, 'data');
      view.setUint32(40, frames * 2, true);
      for (let i = 0; i < frames; i++)
        view.setInt16(44 + i * 2, Math.round(3000 * Math.sin((2 * Math.PI * 220 * i) / rate)), true);
      return new Uint8Array(view.buffer);
    };
    const recordWebm = async (milliseconds: number) => {
      const context = new AudioContext();
      await context.resume();
      const oscillator = new OscillatorNode(context, { frequency: 330 });
      const gain = new GainNode(context, { gain: 0.2 });
      const destination = context.createMediaStreamDestination();
      oscillator.connect(gain).connect(destination);
      oscillator.start();
      const recorder = new MediaRecorder(destination.stream, { mimeType: 'audio/webm;codecs=opus' });
      const chunks: Blob[] = [];
      recorder.ondataavailable = (event) => chunks.push(event.data);
      const stopped = new Promise((resolve) => (recorder.onstop = resolve));
      recorder.start();
      await new Promise((resolve) => setTimeout(resolve, milliseconds));
      recorder.stop();
      await stopped;
      oscillator.stop();
      await context.close();
      return new Uint8Array(await new Blob(chunks).arrayBuffer());
    };
    // The page decoder as src/ui/api/page-audio-decoder.ts builds it.
    const decoded: number[] = [];
    const pageDecoder = async (data: ArrayBuffer) => {
      decoded.push(data.byteLength);
      const buffer = await new OfflineAudioContext(1, 1, 16_000).decodeAudioData(data);
      const channels = Array.from({ length: buffer.numberOfChannels }, (_, i) =>
        Float32Array.from(buffer.getChannelData(i)),
      );
      return { sampleRate: buffer.sampleRate, channels };
    };

    const finished = async (jobId: string) => {
      for (;;) {
        const job = (await call(['transcriptions', 'get'], [jobId])) as { status: string };
        if (['completed', 'failed', 'cancelled'].includes(job.status)) return job;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };

    await call(['ready']);
    const settings = await call(['transcriptions', 'updateSettings'], [{ model_host: '/models' }]);
    const { wire, port } = exposeFunction(pageDecoder);
    await call(['transcriptions', 'registerPageDecoder'], [], [wire], [port]);

    const wavAudio = (await call(['attachments', 'upload'], [{ name: 'tone.wav', data: wav(35) }])) as {
      attachment_id: string;
    };
    const wavJob = (await call(
      ['transcriptions', 'create'],
      [{ attachment_id: wavAudio.attachment_id, language: 'en', diarization: false }],
    )) as { job_id: string; status: string };
    let started = performance.now();
    const wavDone = await finished(wavJob.job_id);
    const wavMs = performance.now() - started;

    const webm = await recordWebm(2500);
    const webmAudio = (await call(['attachments', 'upload'], [{ name: 'memo.webm', data: webm }])) as {
      attachment_id: string;
      mime_type: string;
    };
    const webmJob = (await call(
      ['transcriptions', 'create'],
      [{ attachment_id: webmAudio.attachment_id, language: 'en' }],
    )) as { job_id: string };
    started = performance.now();
    const webmDone = await finished(webmJob.job_id);
    const webmMs = performance.now() - started;
    worker.terminate();
    return {
      settings,
      queued: wavJob.status,
      wavDone,
      webmAudio,
      webmDone,
      decoded,
      webmBytes: webm.byteLength,
      timings: { wavMs, webmMs },
    };
  }, `/assets/${coreWorker}`);

  // For the record (not asserted): the first job includes the model load.
  console.log(
    `tiny Whisper in Chromium: 35 s WAV job ${Math.round(outcome.timings.wavMs)} ms, ` +
      `2.5 s WebM job ${Math.round(outcome.timings.webmMs)} ms`,
  );
  expect(outcome.settings).toMatchObject({ model_host: '/models/' });
  expect(outcome.queued).toBe('queued');
  expect(outcome.wavDone).toMatchObject({ status: 'completed', error: null });
  const segments = (outcome.wavDone as unknown as { segments: Array<{ start_time: number; text: string }> })
    .segments;
  expect(segments.map((s) => [s.start_time, s.text])).toEqual([
    [0, 'hello tiny whisper.'],
    [2, 'world again,'],
    [25, 'hello tiny whisper.'],
    [27, 'world again,'],
  ]);

  expect(outcome.webmAudio.mime_type).toBe('audio/webm');
  expect(outcome.decoded).toEqual([outcome.webmBytes]);
  expect(outcome.webmDone).toMatchObject({
    status: 'completed',
    warnings: ['DIARIZATION_UNAVAILABLE'],
  });

  // The nested ASR worker, the app's own WASM and the model files were loaded; nothing foreign.
  const own = requestLog.urls.map((url) => new URL(url).pathname);
  expect(own.some((path) => /^\/assets\/asr\.worker-.*\.js$/.test(path))).toBe(true);
  expect(own.some((path) => /^\/assets\/ort-wasm-simd-threaded\.asyncify-.*\.wasm$/.test(path))).toBe(true);
  expect(own).toContain('/models/onnx-community/whisper-tiny/config.json');
  expect(requestLog.foreign()).toEqual([]);
});
