import { expect, openApp, test } from './fixtures';
import { tonesWav } from './harness/wav';

// Audio the app cannot read asks for one of two things: a damaged file must be exported or
// recorded again (converting it will not help), a format this browser cannot decode must be
// converted (the file itself is fine). The page says which, from the core's details.reason.

test.beforeEach(async ({ page }) => {
  await openApp(page);
  await page.getByTestId('nav-transcription').click();
  await expect(page.getByTestId('transcription-view')).toBeVisible();
});

test('a WAV cut short is said to be damaged, to export or record again, not to convert', async ({ page }) => {
  const whole = tonesWav([[440, 2]]);
  await page.getByTestId('audio-file-input').setInputFiles({
    name: 'interview.wav',
    mimeType: 'audio/wav',
    // The download stopped half way: the header promises twice the audio there is.
    buffer: whole.subarray(0, whole.length / 2),
  });
  const detail = page.getByTestId('transcription-detail');
  await expect(detail).toHaveAttribute('data-status', 'failed', { timeout: 60_000 });
  const error = detail.getByTestId('transcription-error');
  await expect(error).toHaveAttribute('data-code', 'UNSUPPORTED_AUDIO_FORMAT');
  await expect(error).toContainText('the file may be damaged or cut short');
  await expect(error).toContainText('export or record it again');
  await expect(error).not.toContainText('format is not supported');
  await expect(error).not.toContainText('convert');
});

test('bytes that are no audio are refused as not audio, which is not the damaged file’s message', async ({
  page,
}) => {
  await page.getByTestId('audio-file-input').setInputFiles({
    name: 'lecture.wav',
    mimeType: 'audio/wav',
    buffer: Buffer.from('%PDF-1.7 this was never a recording'),
  });
  const refused = page.getByTestId('audio-upload-refused');
  await expect(refused).toContainText('“lecture.wav” could not be read as audio');
  await expect(refused).toContainText('convert this one to WAV or MP3');
  await expect(refused).not.toContainText('export or record it again');
  await expect(page.getByTestId('transcription-job')).toHaveCount(0);
});

test('a phone recording in 3GP/AMR named .m4a is named, and the advice is to convert it', async ({
  page,
}) => {
  // ftyp brand 3gp4, then an AMR sample entry: what many Android recorders write.
  const header = Buffer.from([0, 0, 0, 0x14, ...Buffer.from('ftyp3gp4'), 0, 0, 0, 0, ...Buffer.from('3gp4')]);
  await page.getByTestId('audio-file-input').setInputFiles({
    name: 'call.m4a',
    mimeType: 'audio/mp4',
    buffer: Buffer.concat([header, Buffer.from('\0\0\0\x10moov\0\0\0\x08samr')]),
  });
  const refused = page.getByTestId('audio-upload-refused');
  await expect(refused).toContainText('“call.m4a” is 3GP (AMR) audio, which this browser cannot decode.');
  await expect(refused).toContainText('The file itself may be fine: convert it to MP3, WAV or M4A');
  await expect(refused).not.toContainText('damaged');
});

test('an .amr or .wma picked is named as a format to convert, not called “not audio”', async ({ page }) => {
  const input = page.getByTestId('audio-file-input');
  const rejected = page.getByTestId('audio-file-rejected');
  await input.setInputFiles({
    name: '通话录音.amr',
    mimeType: 'audio/amr',
    buffer: Buffer.from('#!AMR\n<\x91'),
  });
  await expect(rejected).toHaveText(
    '“通话录音.amr” is AMR audio, which this browser cannot decode. Convert it to MP3, WAV or M4A first, then upload that.',
  );
  await input.setInputFiles({
    name: 'lecture.wma',
    mimeType: 'audio/x-ms-wma',
    buffer: Buffer.from('0&\xb2u'),
  });
  await expect(rejected).toContainText('“lecture.wma” is WMA audio');
});

test.describe('in Chinese', () => {
  test.use({ locale: 'zh-CN' });

  test('a damaged WAV and an AMR recording say different things', async ({ page }) => {
    const whole = tonesWav([[440, 2]]);
    await page.getByTestId('audio-file-input').setInputFiles({
      name: '采访.wav',
      mimeType: 'audio/wav',
      buffer: whole.subarray(0, whole.length / 2),
    });
    const error = page.getByTestId('transcription-detail').getByTestId('transcription-error');
    await expect(error).toContainText('文件可能已损坏或不完整', { timeout: 60_000 });
    await expect(error).toContainText('请重新导出或重新录制');

    await page.getByTestId('audio-file-input').setInputFiles({
      name: '通话录音.amr',
      mimeType: 'audio/amr',
      buffer: Buffer.from('#!AMR\n<\x91'),
    });
    await expect(page.getByTestId('audio-file-rejected')).toHaveText(
      '“通话录音.amr”是 AMR 音频，此浏览器无法解码。请先转换为 MP3、WAV 或 M4A，再上传。',
    );
  });
});
