import { i18n } from '../i18n';
import { translate, type Message, type MessageParams } from '../i18n/translate';

/**
 * The transcription page's and the audio components' messages, kept apart
 * until they are merged into `i18n/en.ts` and `i18n/zh-cn.ts`.
 */
export const recordingsEn = {
  'transcription.title': 'Transcription',
  'transcription.new': 'New transcription',
  'transcription.jobs': 'Transcriptions',
  'transcription.noJobs': 'No transcriptions yet. Drop an audio file or record one.',
  'transcription.language': 'Language',
  'transcription.language.auto': 'Detect automatically',
  'transcription.profile': 'Model',
  'transcription.diarization': 'Label speakers',
  'transcription.wordTimestamps': 'Word timestamps',
  'transcription.start': 'Transcribe',
  'transcription.cancel': 'Cancel',
  'transcription.uploading': 'Uploading {name}…',
  'transcription.status.queued': 'Queued',
  'transcription.status.running': 'Running',
  'transcription.status.completed': 'Completed',
  'transcription.status.failed': 'Failed',
  'transcription.status.cancelled': 'Cancelled',
  'transcription.modelLoading': 'Downloading the model: {percent}%',
  'transcription.modelLoadingUnknown': 'Loading the model…',
  'transcription.progress': '{percent}% transcribed',
  'transcription.segments': 'Segments',
  'transcription.noSegments': 'Segments appear here as they are transcribed.',
  'transcription.empty': 'Pick a transcription to see its segments.',
  'transcription.warning.DIARIZATION_UNAVAILABLE':
    'Speakers are not labelled: no speaker model is configured.',
  'transcription.toNote': 'Create note',
  'transcription.noteTitle': 'Title',
  'transcription.noteFolder': 'Folder',
  'transcription.includeTimestamps': 'Include timestamps',
  'transcription.includeSpeakers': 'Include speakers',
  'transcription.createNote': 'Create',
  'transcription.defaultTitle': 'Transcript: {name}',
  'citation.play': 'Play from {time}',
  'citation.audio': 'Source audio',
  'player.label': 'Audio player',
  'player.segmentAt': 'Play from {time}',
  'drop.prompt': 'Drop an audio file here, or',
  'drop.choose': 'choose a file',
  'drop.formats': 'WAV, MP3, M4A/AAC, OGG/Opus, WebM or FLAC',
  'drop.rejected.not_audio':
    '“{name}” is not an audio file in a supported format (WAV, MP3, M4A/AAC, OGG/Opus, WebM or FLAC).',
  'drop.rejected.empty': '“{name}” is empty.',
  'recorder.start': 'Record',
  'recorder.stop': 'Stop',
  'recorder.recording': 'Recording {elapsed}',
  'recorder.failure.permission_denied':
    'Microphone access was refused. Allow the microphone for this site in the browser’s settings, then try again.',
  'recorder.failure.no_microphone': 'No microphone was found.',
  'recorder.failure.microphone_busy': 'The microphone is in use by another program or could not be started.',
  'recorder.failure.unsupported': 'This browser cannot record audio.',
  'recorder.failure.failed': 'Recording failed.',
} as const satisfies Record<string, Message>;

export type RecordingsMessageKey = keyof typeof recordingsEn;

export const recordingsZhCN: Record<RecordingsMessageKey, Message> = {
  'transcription.title': '转写',
  'transcription.new': '新建转写',
  'transcription.jobs': '转写任务',
  'transcription.noJobs': '还没有转写任务。拖入音频文件或录一段音。',
  'transcription.language': '语言',
  'transcription.language.auto': '自动识别',
  'transcription.profile': '模型',
  'transcription.diarization': '区分说话人',
  'transcription.wordTimestamps': '逐词时间戳',
  'transcription.start': '开始转写',
  'transcription.cancel': '取消',
  'transcription.uploading': '正在上传 {name}…',
  'transcription.status.queued': '排队中',
  'transcription.status.running': '进行中',
  'transcription.status.completed': '已完成',
  'transcription.status.failed': '失败',
  'transcription.status.cancelled': '已取消',
  'transcription.modelLoading': '正在下载模型：{percent}%',
  'transcription.modelLoadingUnknown': '正在加载模型…',
  'transcription.progress': '已转写 {percent}%',
  'transcription.segments': '分段',
  'transcription.noSegments': '转写出的分段会显示在这里。',
  'transcription.empty': '选择一个转写任务查看分段。',
  'transcription.warning.DIARIZATION_UNAVAILABLE': '未区分说话人：没有配置说话人模型。',
  'transcription.toNote': '生成笔记',
  'transcription.noteTitle': '标题',
  'transcription.noteFolder': '文件夹',
  'transcription.includeTimestamps': '包含时间戳',
  'transcription.includeSpeakers': '包含说话人',
  'transcription.createNote': '创建',
  'transcription.defaultTitle': '转写：{name}',
  'citation.play': '从 {time} 播放',
  'citation.audio': '来源音频',
  'player.label': '音频播放器',
  'player.segmentAt': '从 {time} 播放',
  'drop.prompt': '将音频文件拖到这里，或',
  'drop.choose': '选择文件',
  'drop.formats': 'WAV、MP3、M4A/AAC、OGG/Opus、WebM 或 FLAC',
  'drop.rejected.not_audio':
    '“{name}”不是受支持格式的音频文件（WAV、MP3、M4A/AAC、OGG/Opus、WebM 或 FLAC）。',
  'drop.rejected.empty': '“{name}”是空文件。',
  'recorder.start': '录音',
  'recorder.stop': '停止',
  'recorder.recording': '正在录音 {elapsed}',
  'recorder.failure.permission_denied': '麦克风权限被拒绝。请在浏览器设置中允许本网站使用麦克风，然后重试。',
  'recorder.failure.no_microphone': '没有找到麦克风。',
  'recorder.failure.microphone_busy': '麦克风正被其他程序占用，或无法启动。',
  'recorder.failure.unsupported': '此浏览器无法录音。',
  'recorder.failure.failed': '录音失败。',
};

const dictionaries = { en: recordingsEn, 'zh-CN': recordingsZhCN } as const;

export function recordingsText(key: RecordingsMessageKey, params?: MessageParams): string {
  return translate<RecordingsMessageKey>(dictionaries[i18n.locale], recordingsEn, i18n.locale, key, params);
}
